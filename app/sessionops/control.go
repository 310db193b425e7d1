package sessionops

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/time/rate"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

// Control answers control_account_session: a retry of a recorded
// operation (same id, requester and request) returns its record and runs
// nothing; a new one is checked, recorded as accepted on disk and queued.
// Errors are refusals: nothing was recorded or run.
func (o *Ops) Control(r room.Requester, op room.SessionOperation) (room.SessionRecord, error) {
	// Every request costs a read first: refusals and retries too (a flood
	// of refused requests scanned the topic index 21 000 times a second).
	if err := o.allowRead(r); err != nil {
		return room.SessionRecord{}, err
	}
	op = cleanOp(op)
	if err := checkShape(op); err != nil {
		return room.SessionRecord{}, err
	}
	o.mu.Lock()
	prev := o.led.byID[op.OperationID]
	var cp room.SessionRecord
	if prev != nil {
		cp = *prev
	}
	o.mu.Unlock()
	if prev != nil {
		if err := sameRequest(cp, r, op); err != nil {
			return room.SessionRecord{}, err
		}
		return o.live(cp), nil
	}
	rule, err := o.checkRequester(r)
	if err != nil {
		return room.SessionRecord{}, err
	}
	target, err := o.checkTarget(r, op, rule)
	if err != nil {
		return room.SessionRecord{}, err
	}
	rec, err := o.accept(r, op, target)
	if err != nil {
		return room.SessionRecord{}, err
	}
	return o.live(rec), nil
}

// cleanOp trims the request's fields.
func cleanOp(op room.SessionOperation) room.SessionOperation {
	for _, f := range []*string{&op.OperationID, &op.Action, &op.AccountID, &op.TopicID, &op.Mode, &op.ExpectedPtyID} {
		*f = strings.TrimSpace(*f)
	}
	return op
}

// checkShape refuses a request that is not one of the three shapes
// (docs/design.md §15): start with mode fresh or resume, stop, restart
// with expected_pty_id and no mode.
func checkShape(op room.SessionOperation) error {
	switch {
	case !operationIDPattern.MatchString(op.OperationID):
		return fmt.Errorf("operation_id must be 1-%d letters, digits or . _ : - (your own unique name for this operation, e.g. restart-lay-01); got %q", maxIDLen, clip(op.OperationID, 40))
	case op.AccountID == "" || op.TopicID == "":
		return errors.New("account_id and topic_id are required: take them from list_account_sessions")
	case len(op.AccountID) > maxIDLen || len(op.TopicID) > maxIDLen:
		return fmt.Errorf("account_id and topic_id are at most %d characters", maxIDLen)
	case op.ExpectedPtyID != "" && !ptyIDPattern.MatchString(op.ExpectedPtyID):
		return fmt.Errorf("expected_pty_id must be a pty_id from list_account_sessions (pty- and 12 hex digits); got %q", clip(op.ExpectedPtyID, 40))
	}
	switch op.Action {
	case room.ActionStart:
		if op.Mode != room.ModeFresh && op.Mode != room.ModeResume {
			return errors.New(`start needs mode "fresh" (a new conversation) or "resume" (the recorded one)`)
		}
	case room.ActionStop:
		if op.Mode != "" {
			return errors.New("stop takes no mode")
		}
	case room.ActionRestart:
		if op.Mode != "" {
			return errors.New("restart takes no mode: it always resumes the seat's conversation")
		}
		if op.ExpectedPtyID == "" {
			return errors.New("restart needs expected_pty_id: the seat's current pty_id from list_account_sessions")
		}
	default:
		return fmt.Errorf(`action must be "start", "stop" or "restart"; got %q`, clip(op.Action, 40))
	}
	return nil
}

// sameRequest is nil when a recorded operation is the same request from
// the same requester account (a retry, possibly from that account's next
// launch: a seat that restarted itself asks again).
func sameRequest(rec room.SessionRecord, r room.Requester, op room.SessionOperation) error {
	if rec.Requester != r.Account {
		return fmt.Errorf("operation_id %q is already used by another seat's operation; choose a new id", op.OperationID)
	}
	if rec.SessionOperation != op {
		return fmt.Errorf("operation_id %q was already used for another request (%s %s in %s); use a new id for a new request",
			op.OperationID, rec.Action, rec.AccountID, rec.TopicID)
	}
	return nil
}

// checkTarget refuses a target that does not exist, does not run as a
// seat, is another account asked to start fresh, lies beyond the rule, or
// is not in the state the action needs
// (start: not running; stop, restart: running the expected launch), and
// applies the requester's rate. It returns the target's running launch.
func (o *Ops) checkTarget(r room.Requester, op room.SessionOperation, rule string) (string, error) {
	a, ok := o.host.Account(op.AccountID)
	switch {
	case !ok:
		return "", fmt.Errorf("no account has the id %q: take account ids from list_account_sessions", clip(op.AccountID, 40))
	case !a.Launches:
		return "", fmt.Errorf("%s does not run as a seat (the human and local MCP servers cannot be started or stopped)", a.Name)
	case op.Action == room.ActionStart && op.Mode == room.ModeFresh && op.AccountID != r.Account:
		// A fresh start replaces the conversation the topic recorded for
		// that account: only the human decides that (issue 32,
		// docs/design.md §15 "Who may operate what").
		return "", fmt.Errorf(`a fresh start of another account's seat (%s) replaces its recorded conversation, so only the human may do it: `+
			`ask the human in the room to start it fresh, or use mode "resume" to bring its conversation back`, a.Name)
	}
	if err := o.allowedTopic(r, op.TopicID, rule); err != nil {
		return "", err
	}
	running := o.runningLaunch(op.TopicID, op.AccountID)
	switch {
	case op.Action == room.ActionStart && running != "":
		return "", fmt.Errorf("%s is already running there (pty_id %s)", a.Name, running)
	case op.Action != room.ActionStart && running == "":
		return "", fmt.Errorf("%s is not running there", a.Name)
	case op.ExpectedPtyID != "" && op.ExpectedPtyID != running:
		return "", fmt.Errorf("%s runs pty_id %s, not %s: read list_account_sessions again", a.Name, running, op.ExpectedPtyID)
	}
	o.mu.Lock()
	allowed := limiter(o.controls, r.Account, rate.Every(controlEvery), controlBurst).Allow()
	o.mu.Unlock()
	if !allowed {
		return "", fmt.Errorf("too many session operations: at most %d at once, then one every %s; nothing was recorded, try again later",
			controlBurst, controlEvery)
	}
	return running, nil
}

// allowedTopic is nil when topic is open and the rule lets r operate there.
func (o *Ops) allowedTopic(r room.Requester, topic, rule string) error {
	open := false
	for _, t := range o.host.Topics() {
		open = open || t.TopicID == topic
	}
	switch {
	case !open:
		return fmt.Errorf("no open topic has the id %q: take topic ids from list_account_sessions", clip(topic, 40))
	case rule != config.SessionOpsAll && topic != r.Topic:
		return errors.New(`this seat may operate only the seats of its own topic ("session_operations": "topic" in config.json)`)
	}
	return nil
}

// runningLaunch is the pty id (topic, account) runs now, "" for none.
func (o *Ops) runningLaunch(topic, account string) string {
	for _, s := range o.host.Seats() {
		if s.Topic == topic && s.Account == account && s.State != "exited" {
			return s.PtyID
		}
	}
	return ""
}

// stillAllowed re-checks, under the target's lifecycle lock and just
// before the operation runs, what its acceptance checked: the human may
// have turned the operations off, stopped the asking seat or closed the
// topic since; then it is cancelled, never run (breaker review: a queued
// start brought back a seat the human had just stopped).
func (o *Ops) stillAllowed(rec room.SessionRecord) error {
	rule, err := o.host.Rule()
	switch {
	case err != nil:
		return fmt.Errorf("cancelled: config.json: %w", err)
	case rule == config.SessionOpsOff:
		return errors.New("cancelled: the human turned session operations off")
	}
	if o.runningLaunch(rec.RequesterTopic, rec.Requester) != rec.RequesterPtyID {
		return errors.New("cancelled: the asking seat stopped before it ran")
	}
	who := room.Requester{Account: rec.Requester, Topic: rec.RequesterTopic, Launch: rec.RequesterPtyID}
	if err := o.allowedTopic(who, rec.TopicID, rule); err != nil {
		return fmt.Errorf("cancelled: %w", err)
	}
	return nil
}

// accept records op as accepted — on disk before anything runs — and
// queues it for the worker.
func (o *Ops) accept(r room.Requester, op room.SessionOperation, target string) (room.SessionRecord, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return room.SessionRecord{}, errors.New("not recorded: Pullcept is quitting")
	}
	if prev := o.led.byID[op.OperationID]; prev != nil { // the same id raced in
		if err := sameRequest(*prev, r, op); err != nil {
			return room.SessionRecord{}, err
		}
		return *prev, nil
	}
	now := stamp(o.opts.Now())
	rec := &room.SessionRecord{Requester: r.Account, RequesterTopic: r.Topic,
		RequesterPtyID: r.Launch, SessionOperation: op, TargetPtyID: target, State: StateAccepted, AcceptedAt: now, UpdatedAt: now}
	if !o.led.add(rec) {
		return room.SessionRecord{}, fmt.Errorf("%d operations are still unfinished: try again later", maxRecords)
	}
	if err := o.led.save(); err != nil {
		o.led.remove(rec.OperationID)
		return room.SessionRecord{}, fmt.Errorf("the operation could not be recorded, so nothing was run: %w", err)
	}
	o.pending = append(o.pending, rec.OperationID)
	select {
	case o.kick <- struct{}{}:
	default:
	}
	return *rec, nil
}

// run executes one accepted operation: running, then its final state, each
// saved; then the notice.
func (o *Ops) run(id string) {
	rec, ok := o.transition(id, StateRunning, "", nil)
	if !ok {
		return
	}
	if o.opts.BeforeRun != nil {
		o.opts.BeforeRun(rec)
	}
	if o.ctx.Err() != nil {
		return // Close marked it interrupted: it never runs
	}
	state, pty, err := o.execute(rec)
	o.finish(id, state, pty, err)
}

// finish records the final state and posts the notice.
func (o *Ops) finish(id, state, pty string, err error) {
	rec, ok := o.transition(id, state, pty, err)
	if !ok {
		return
	}
	// In the asking seat's room; when that room is gone (its topic
	// deleted), in the target's, so the result is never lost unseen.
	text := o.noticeText(rec)
	if nerr := o.host.Notice(rec.RequesterTopic, text); nerr != nil {
		if rec.TopicID == rec.RequesterTopic || o.host.Notice(rec.TopicID, text) != nil {
			o.log.Warn("session operation notice", "operation", id, "topic", rec.RequesterTopic, "err", nerr)
		}
	}
	if err != nil {
		o.log.Warn("session operation failed", "operation", id, "action", rec.Action, "account", rec.AccountID, "err", err)
		if o.opts.OnFailed != nil {
			o.opts.OnFailed(rec)
		}
	} else {
		o.log.Info("session operation done", "operation", id, "action", rec.Action, "account", rec.AccountID, "state", state, "pty", pty)
	}
}

// transition moves record id to state and saves the ledger; false (and
// nothing changed) once Close marked it interrupted.
func (o *Ops) transition(id, state, pty string, err error) (room.SessionRecord, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rec := o.led.byID[id]
	if rec == nil || o.closed || finished(rec.State) {
		return room.SessionRecord{}, false
	}
	rec.State, rec.UpdatedAt = state, stamp(o.opts.Now())
	if pty != "" {
		rec.PtyID = pty
	}
	if err != nil {
		rec.Error = clip(err.Error(), maxErrLen)
	}
	if serr := o.led.save(); serr != nil {
		o.log.Error("session operations: saving the ledger", "operation", id, "state", state, "err", serr)
	}
	return *rec, true
}

// execute runs the operation under the target's lifecycle lock: the final
// state, the new launch's pty id, and why it failed.
func (o *Ops) execute(rec room.SessionRecord) (state, pty string, err error) {
	unlock, err := o.host.Lifecycle(o.ctx, rec.TopicID, rec.AccountID)
	if err != nil {
		return StateFailed, "", fmt.Errorf("not run: Pullcept is quitting (%w)", err)
	}
	defer unlock()
	if err := o.stillAllowed(rec); err != nil {
		return StateFailed, "", err
	}
	switch rec.Action {
	case room.ActionStart:
		for _, s := range o.host.Seats() {
			if s.Topic == rec.TopicID && s.Account == rec.AccountID && s.State != "exited" {
				return StateFailed, "", fmt.Errorf("it is already running (pty_id %s)", s.PtyID)
			}
		}
		pty, err := o.host.Start(rec.TopicID, rec.AccountID, rec.Mode == room.ModeResume)
		if err != nil {
			return StateFailed, "", err
		}
		return StateProcessStarted, pty, nil
	case room.ActionStop:
		// The launch that ran when it was asked: one the human started
		// since is not this operation's.
		if err := o.host.Stop(rec.TopicID, rec.AccountID, rec.TargetPtyID); err != nil {
			return StateFailed, "", err
		}
		return StateStopped, "", nil
	}
	// restart: every check before anything stops (docs/design.md §15)
	if err := o.host.CheckRestart(rec.TopicID, rec.AccountID, rec.ExpectedPtyID); err != nil {
		return StateFailed, "", fmt.Errorf("%w; it was left running", err)
	}
	o.restartPhase(rec, false, nil)
	if err := o.host.Stop(rec.TopicID, rec.AccountID, rec.ExpectedPtyID); err != nil {
		o.restartPhase(rec, true, err)
		return StateFailed, "", err
	}
	pty, err = o.host.Start(rec.TopicID, rec.AccountID, true)
	if err != nil {
		err = fmt.Errorf("it stopped but did not start again: %w", err)
		o.restartPhase(rec, true, err)
		return StateFailed, "", err
	}
	o.restartPhase(rec, true, nil)
	return StateProcessStarted, pty, nil
}

// restartPhase tells Options.OnRestart where rec's restart is.
func (o *Ops) restartPhase(rec room.SessionRecord, done bool, err error) {
	if o.opts.OnRestart != nil {
		o.opts.OnRestart(rec.TopicID, rec.AccountID, done, err)
	}
}

// oneLine is s with every control character (newlines included) as a
// space: a reason stays one line of Pullcept's notice, whatever an error
// quoted.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
}

// The notice's words per language (docs/design.md §15 "The result
// notice"; spec #421, #424): the past tense and the verb of each action,
// what a start did with the conversation, the names that stand for no
// account, and the tail that tells the seats the notice needs no reply
// (they answered it).
type noticeWords struct {
	past, verb      map[string]string
	fresh, resume   string
	someone, nobody string // an unknown requester, an unknown target
	itself          string
	// named sets an account's name off in the sentence: Japanese puts
	// spaces around a name ("Lin が Lay を…") but not around 自分.
	named           func(string) string
	done, failed    string // formats: requester, past or verb, target, how
	reason, noReply string
}

var noticeLangs = map[string]noticeWords{
	"en": {
		past:    map[string]string{room.ActionStart: "started", room.ActionStop: "stopped", room.ActionRestart: "restarted"},
		verb:    map[string]string{room.ActionStart: "start", room.ActionStop: "stop", room.ActionRestart: "restart"},
		fresh:   " with a new conversation",
		resume:  " resuming its conversation",
		someone: "An unknown account", nobody: "an unknown account", itself: "itself",
		named:   func(s string) string { return s },
		done:    "%s %s %s%s (succeeded).",
		failed:  "%s could not %s %s%s (failed).",
		reason:  "Reason: ",
		noReply: " (no reply needed)",
	},
	"ja": {
		past:    map[string]string{room.ActionStart: "起動しました", room.ActionStop: "停止しました", room.ActionRestart: "再起動しました"},
		verb:    map[string]string{room.ActionStart: "起動できませんでした", room.ActionStop: "停止できませんでした", room.ActionRestart: "再起動できませんでした"},
		fresh:   "新しい会話で",
		resume:  "前の会話の続きで",
		someone: "不明なアカウント", nobody: "不明なアカウント", itself: "自分",
		named:   func(s string) string { return " " + s + " " },
		done:    "%[1]sが%[3]sを%[4]s%[2]s（成功）",
		failed:  "%[1]sは%[3]sを%[4]s%[2]s（失敗）",
		reason:  "理由: ",
		noReply: "（返信不要）",
	},
}

// noticeText is the one notice of a finished operation (docs/design.md
// §15), in the human's language (Options.Lang): who did what to whom and
// the result, by name ("itself" when the requester is the target's
// account), and that no reply is needed; a failure adds the reason; the
// last line is the operation id.
func (o *Ops) noticeText(rec room.SessionRecord) string {
	w, ok := noticeLangs[o.lang()]
	if !ok {
		w = noticeLangs["en"]
	}
	who := w.someone
	if a, ok := o.host.Account(rec.Requester); ok {
		who = strings.TrimLeft(w.named(a.Name), " ")
	}
	whom := w.nobody
	if a, ok := o.host.Account(rec.AccountID); ok {
		whom = w.named(a.Name)
	}
	if rec.AccountID == rec.Requester {
		whom = w.itself
	}
	how := ""
	switch {
	case rec.Action == room.ActionStart && rec.Mode == room.ModeFresh:
		how = w.fresh
	case rec.Action == room.ActionStart:
		how = w.resume
	}
	var b strings.Builder
	if rec.State == StateFailed {
		fmt.Fprintf(&b, w.failed, who, w.verb[rec.Action], whom, how)
		b.WriteString(w.noReply + "\n" + w.reason + oneLine(rec.Error) + "\n")
	} else {
		fmt.Fprintf(&b, w.done, who, w.past[rec.Action], whom, how)
		b.WriteString(w.noReply + "\n")
	}
	b.WriteString("operation_id: " + rec.OperationID)
	return b.String()
}

// lang is the language the notices are worded in: Options.Lang's, else
// English.
func (o *Ops) lang() string {
	if o.opts.Lang == nil {
		return "en"
	}
	return o.opts.Lang()
}
