package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// codexOpenTimeout bounds opening the conversation (connect, initialize,
// config/read, thread/start or thread/resume, inject): each call has its
// own bound too (codexCallTimeout).
const codexOpenTimeout = 2 * time.Minute

// Adapter is Codex CLI's Adapter. One serves every Codex seat of a
// Manager: claimed holds the session ids its seats recorded this run, so
// two fresh seats sharing a working directory and CODEX_HOME never take
// the same rollout.
type Adapter struct {
	// poll is how often a fresh seat's rollout is looked for and the tail
	// read while lines come (ManagerOptions.TailPoll).
	poll time.Duration
	// check replaces the release check (ManagerOptions.CheckRelease; nil:
	// CheckRelease).
	check func(ctx context.Context, acct config.Account, env []string) (limits.Release, error)
	// after is the rollout search's timer (nil: time.After); tests
	// replace it, with the seat's clock, to count the waits.
	after func(time.Duration) <-chan time.Time

	mu      sync.Mutex
	claimed map[string]bool
}

func New(poll time.Duration, check func(context.Context, config.Account, []string) (limits.Release, error)) *Adapter {
	return &Adapter{poll: poll, check: check, claimed: map[string]bool{}}
}

// claim marks id as a seat's; false when another seat has it.
func (c *Adapter) claim(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.claimed[id] {
		return false
	}
	c.claimed[id] = true
	return true
}

func (c *Adapter) unclaim(id string) {
	c.mu.Lock()
	delete(c.claimed, id)
	c.mu.Unlock()
}

// Joins: Codex always starts the room's sidecar (the server does, in
// app-server mode).
func (*Adapter) Joins() bool { return true }

// Observed: Codex reports its turns in its rollout or app-server notes.
func (*Adapter) Observed() bool { return false }

// UsesAttachments: Codex asks for any folder outside its sandbox itself.
func (*Adapter) UsesAttachments() bool { return false }

// Conversation: Codex's rollout of id under its home.
func (*Adapter) Conversation(a config.Account, id string, getenv func(string) string) (cli.Conversation, error) {
	home, err := Home(getenv, a.WorkDir)
	if err != nil {
		return cli.ConversationGone, err
	}
	path, err := FindRollout(home, id)
	if err != nil {
		return cli.ConversationGone, err
	}
	if path != "" {
		return cli.ConversationResumes, nil
	}
	return cli.ConversationGone, nil
}

// Release runs the release check (release.go) for a's Codex.
func (c *Adapter) Release(ctx context.Context, a config.Account, env []string) (limits.Release, error) {
	if c.check != nil {
		return c.check(ctx, a, env)
	}
	return CheckRelease(ctx, a, env)
}

// Prepare readies a Codex launch. Hook mode: the token goes into the
// TUI's environment (it starts the sidecar), and a resumed seat's rollout
// length is noted last before the spawn (a resumed Codex may append at
// startup, docs/clis.md §3.6). App-server mode: the server starts here,
// with the token (the sidecar is its child), the conversation is opened,
// and the TUI line and environment are made to attach to it.
func (c *Adapter) Prepare(ctx context.Context, p *cli.Launching) (cli.Run, error) {
	r := &run{a: c, acct: p.Account, cwd: p.Launch.WorkingDir(), resumed: p.Launch.Resumed, getenv: p.Getenv, logger: p.Logger}
	cleanProjectConfig(p)
	if p.Launch.Server == nil {
		p.Env = cli.WithToken(p.Env, p.Token)
		if p.Launch.Resumed {
			if home, err := Home(p.Getenv, p.Account.WorkDir); err == nil {
				r.rollout, r.rolloutAt = codexRolloutSize(home, p.Launch.SessionID)
			}
		}
		return r, nil
	}
	if err := r.startServer(ctx, p); err != nil {
		if r.server != nil {
			r.Abandon()
		}
		return nil, err
	}
	return r, nil
}

// cleanProjectConfig removes the room entries an earlier build left in the
// .codex/config.toml of the directory the seat's Codex works in — its
// -C/--cd directory, else where it starts — (RemoveStaleRoomEntries); a
// file it cannot clean is a launch warning, never a refused start (the
// entries are disabled and start nothing).
func cleanProjectConfig(p *cli.Launching) {
	dir := p.Launch.WorkingDir()
	if dir == "" {
		dir = p.Account.WorkDir
	}
	if dir == "" {
		return
	}
	removed, err := RemoveStaleRoomEntries(dir)
	switch {
	case err != nil:
		p.Launch.Warnings = append(p.Launch.Warnings, fmt.Sprintf("stale room entries of an earlier Pullcept not removed: %v", err))
	case len(removed) > 0 && p.Logger != nil:
		p.Logger.Info("codex: stale room entries removed from .codex/config.toml", "dir", dir, "entries", removed)
	}
}

// run is one Codex launch. act is an app-server seat's activity as
// its server's notes tell it; it is read and written only inside
// cli.Seat.Report, under the seat's lock.
type run struct {
	a    *Adapter
	acct config.Account
	// cwd is the directory the seat's Codex works in (launch.Launch's
	// WorkingDir: a -C/--cd directory, else the process's; "" = the
	// account's working directory); its rollout names it.
	cwd     string
	resumed bool
	getenv  func(string) string
	logger  *slog.Logger
	// rollout and rolloutAt are a resumed hook-mode seat's rollout and its
	// length before the spawn: where the tail starts.
	rollout   string
	rolloutAt int64

	server *codexServer // app-server mode (nil in hook mode)
	gate   *tuiGate     // the TUI's way to the server (gate.go); nil on Windows
	record func(string) error
	drop   func(string)
	act    *codexActivity
}

// Holds: an app-server seat's typing waits for its TUI to attach
// (HoldAttach, released by watchServer).
func (r *run) Holds() []string {
	if r.server != nil {
		return []string{HoldAttach}
	}
	return nil
}

// LimitRules: Codex's (limits.Codex).
func (*run) LimitRules() limits.Rules { return limits.Codex }

// Tasks: the rollout watcher, and an app-server seat's server watcher.
func (r *run) Tasks(s cli.Seat) []cli.Task {
	tasks := []cli.Task{{Name: "rollout", Run: func() { r.watchRollout(s) }}}
	if r.server != nil {
		tasks = append(tasks, cli.Task{Name: "codex-server", Run: func() { r.watchServer(s) }})
	}
	return tasks
}

// Report: Codex sends no hooks.
func (*run) Report(cli.Seat, room.Report) bool { return false }

// Ended stops the server with its seat (its tree with it), and the gate.
func (r *run) Ended() {
	if r.server != nil {
		r.server.stop()
	}
	if r.gate != nil {
		r.gate.close()
	}
}

// Spawned names the TUI's process to the gate: only it and its
// descendants attach (cli.Spawned).
func (r *run) Spawned(pid int) {
	if r.gate != nil {
		r.gate.setRoot(pid)
	}
}

// startServer starts the seat's server, opens the conversation, records a
// new conversation's id in the topic at once, and makes p's launch the TUI
// line attached to it, with the bearer token in the TUI's environment
// only. Abandon undoes it when the seat does not go live.
func (r *run) startServer(ctx context.Context, p *cli.Launching) error {
	l := p.Launch
	plan, ok := l.Server.(*ServerPlan)
	if !ok {
		return fmt.Errorf("codex app-server: no server plan (%T)", l.Server)
	}
	cs, err := startCodexProcess(ctx, p.Spawn, p.PullceptPath, plan.Argv, l.Dir, cli.WithToken(p.Env, p.Token), p.Logger)
	if err != nil {
		return err
	}
	r.server, r.record, r.drop = cs, p.Record, p.Drop
	o := codexOpen{cwd: l.Dir, plan: plan, key: l.MCPKey, acct: p.Account}
	if l.Resumed {
		o.resume = l.SessionID
	}
	if c := plan.Character; c.Name != "" && !c.Inline {
		o.readBody = func() (string, error) { return codexCharacterBody(p.Account.WorkDir, c.Name) }
	}
	ctx, cancel := context.WithTimeout(ctx, codexOpenTimeout)
	defer cancel()
	if err := cs.open(ctx, o); err != nil {
		return fmt.Errorf("%w%s", err, cs.tail())
	}
	if !l.Resumed {
		r.a.claim(cs.thread)
		if err := p.Record(cs.thread); err != nil {
			return fmt.Errorf("record the conversation %s: %w", cs.thread, err)
		}
		l.SessionID = cs.thread
	}
	gatePath := ""
	if usesGate(runtime.GOOS) {
		g, err := openGate(p.SocketDir, cs.port, cs.token, p.Logger)
		if err != nil {
			return err
		}
		r.gate, gatePath = g, g.path
	} else {
		p.Env = append(p.Env, EnvRemoteToken+"="+cs.token)
	}
	argv := make([]string, len(l.Argv))
	for i, w := range l.Argv {
		w = strings.ReplaceAll(w, PortWord, cs.port)
		w = strings.ReplaceAll(w, GateWord, gatePath)
		argv[i] = strings.ReplaceAll(w, ThreadWord, cs.thread)
	}
	l.Argv = argv
	cs.mark = cs.conn.seq() // notes after this one come after the TUI started
	p.Logger.Info("codex app-server ready", "topic", p.Topic, "account", p.Account.ID, "pid", cs.proc.Pid(),
		"port", cs.port, "thread", cs.thread, "resumed", l.Resumed)
	return nil
}

// Abandon undoes startServer for a seat that does not go live: the
// conversation it created is deleted and its record dropped, then the
// server's tree is ended (spec #299 «起動の途中で失敗したら、作った会話を
// thread/delete で消してから server を止める»).
func (r *run) Abandon() {
	if r.gate != nil {
		r.gate.close()
	}
	cs := r.server
	if cs == nil {
		return
	}
	if cs.created {
		if err := cs.deleteThread(); err != nil {
			r.logger.Warn("codex app-server: delete the conversation of a failed start", "thread", cs.thread, "err", err)
		}
		if r.drop != nil {
			r.drop(cs.thread)
		}
		r.a.unclaim(cs.thread)
	}
	cs.stop()
}

// codexCharacterBody is the account's character as the conversation gets
// it: the style file's text without its frontmatter. A named character
// whose file is missing refuses the start (never a seat without the
// character it was given).
func codexCharacterBody(workDir, name string) (string, error) {
	f, err := character.Open(config.KindCodexCLI, workDir, name)
	if err != nil {
		return "", err
	}
	if !f.Exists {
		return "", fmt.Errorf("%w: character %q: %s does not exist", character.ErrName, name, f.Rel)
	}
	return character.StripFrontmatter(f.Text), nil
}

// Live makes the live seat the reader of its server's notes: the ones kept
// since the conversation opened first, then each as it comes. Room typing
// already waits for the TUI to attach (Holds).
func (r *run) Live(s cli.Seat) {
	cs := r.server
	if cs == nil {
		return
	}
	s.Report(func(x *cli.Reported) bool {
		r.act = newCodexActivity(cs.thread)
		x.Usage = cli.Usage{Model: cs.answer.Model, Effort: cs.answer.Effort, At: s.Now()}
		return true
	})
	cs.conn.setHandler(func(n codexNote) { r.note(s, n) })
}

// note applies one note of the seat's server to its activity and typing
// holds.
func (r *run) note(s cli.Seat, n codexNote) {
	cs := r.server
	now := s.Now()
	s.Report(func(x *cli.Reported) bool {
		changed := r.act.apply(n, now)
		x.Activity = r.act.act
		if w := r.act.perm(x.Perm); !w.Equal(x.Perm) {
			x.Perm = w
			changed = true
		}
		return changed
	})
	if n.Seq > cs.mark && noteThread(n) == cs.thread {
		cs.attachOnce.Do(func() { close(cs.attached) })
	}
	if text, ok := userMessageNote(n, cs.thread); ok {
		s.Submitted(text)
	}
}

// noteThread is the thread a note names ("" none).
func noteThread(n codexNote) string {
	var b struct {
		ThreadID string `json:"threadId"`
	}
	if json.Unmarshal(n.Params, &b) != nil {
		return ""
	}
	return b.ThreadID
}

// watchServer runs while the seat lives (a seat Task): it lets room typing
// go once the TUI attached (attachWait), shows a lost connection as an
// unknown activity, and ends the TUI when the server dies under it (the
// seat then shows exited with a notice; the server is never restarted).
func (r *run) watchServer(s cli.Seat) {
	cs := r.server
	output, attached, conn := s.Output(), cs.attached, cs.conn.Done()
	aw := attachWait{s: s, started: time.Now()}
	for {
		select {
		case <-s.Done():
			return
		case <-output:
			output = nil
			t := time.NewTimer(codexAttachFallback)
			defer t.Stop()
			aw.fallback = t.C
		case <-attached:
			attached, aw.fallback = nil, nil
			aw.due()
		case <-aw.fallback:
			aw.fallback = nil
			s.Logger().Info("codex seat: no note of the TUI attaching; room typing goes on once it reads keys", "topic", s.Topic(), "account", s.Account())
			aw.due()
		case <-aw.look:
			aw.look = nil
			aw.due()
		case <-conn:
			conn = nil
			s.Report(func(x *cli.Reported) bool {
				x.Activity = cli.Activity{}
				r.act = newCodexActivity(cs.thread)
				x.Perm = cli.PermWait{}
				return true
			})
			if !cs.stopping.Load() {
				s.Logger().Warn("codex app-server connection lost; the seat's activity is unknown", "topic", s.Topic(), "account", s.Account())
			}
		case <-cs.exited:
			if cs.stopping.Load() {
				return
			}
			s.Notice(true, "the Codex app-server of this seat %s; its terminal is closed%s", cs.ended(), cs.tail())
			_ = s.Kill()
			return
		}
	}
}

// attachWait releases HoldAttach once it is due — the TUI's attach note,
// or codexAttachFallback after its first output — and the TUI reads its
// keys raw (it asked for bracketed paste); a note is no proof of that (the
// server sends notes of the thread of its own), and a post typed into the
// cooked terminal is lost (codexAttachFallback). A TUI that never asks for
// bracketed paste gets its posts codexAttachLimit after its start.
// pasteReported: the terminal shows the TUI's request for bracketed
// paste. Windows' built-in ConPTY may not pass ?2004h on
// (docs/dependencies.md §8: open), and waiting for it there would hold
// every app-server seat's posts for codexAttachLimit; there the note or
// the fallback alone releases, as before.
const pasteReported = runtime.GOOS != "windows"

type attachWait struct {
	s        cli.Seat
	started  time.Time
	fallback <-chan time.Time // the fallback after the first output
	look     <-chan time.Time // the next look for raw mode
	released bool
}

func (a *attachWait) due() {
	if a.released {
		return
	}
	if pasteReported && !a.s.Pasting() && time.Since(a.started) < codexAttachLimit {
		a.look = time.After(codexAttachLook)
		return
	}
	a.released, a.fallback, a.look = true, nil, nil
	a.s.Release(HoldAttach)
}

// watchRollout follows the seat's rollout (docs/design.md §9, §11): a
// fresh seat's first, to record its session id once its first turn
// creates it; then, fresh or resumed, its tail, for the seat's usage and
// activity. A resumed seat's tail starts where the file ended when the
// seat started (rolloutAt), so the previous run's figures never show as
// this run's.
func (r *run) watchRollout(s cli.Seat) {
	path := r.rollout
	var seed codexReport
	if cs := r.server; cs != nil {
		// The server named the conversation's rollout and its settings.
		path = cs.path
		seed.usage = cli.Usage{Model: cs.answer.Model, Effort: cs.answer.Effort}
		if path == "" {
			return
		}
	}
	switch {
	case path == "" && r.resumed:
		s.Logger().Debug("codex rollout of the resumed session not found", "topic", s.Topic(), "account", s.Account())
		return
	case path == "":
		cs, ok := r.findRollout(s)
		if !ok {
			return
		}
		path = cs.Path
	}
	r.tailRollout(s, cli.NewTail(path, r.rolloutAt), seed)
}

// wait is the rollout search's timer.
func (c *Adapter) wait(d time.Duration) <-chan time.Time {
	if c.after != nil {
		return c.after(d)
	}
	return time.After(d)
}

// findRollout waits for a fresh seat's rollout and records its session id
// (docs/design.md §9), skipping ids other seats claimed. The rollout names
// the directory Codex works in (r.cwd: a -C/--cd directory, else the
// account's working directory). Codex writes it physical, so one reached
// through a symlink (macOS: /var → /private/var) is matched in its
// resolved form too. It looks every poll (1 s), every 10 s once a minute
// went by without the file (spec «Codex の席は自分の様子を rollout で知らせる»:
// a seat that never takes a turn does not scan sessions/ each second for
// ever; cli.TailEvery). ok is false when CODEX_HOME cannot be found or the
// seat ended first.
func (r *run) findRollout(s cli.Seat) (Session, bool) {
	home, err := Home(r.getenv, r.acct.WorkDir)
	if err != nil {
		s.Notice(true, "cannot find CODEX_HOME for %s: %v", r.acct.DisplayName(), err)
		return Session{}, false
	}
	cwd := r.cwd
	if cwd == "" {
		cwd = r.acct.WorkDir
	}
	cwds := []string{cwd}
	if resolved, err := filepath.EvalSymlinks(cwd); err == nil && resolved != cwd {
		cwds = append(cwds, resolved)
	}
	since := s.Started().Add(-2 * time.Second) // file times have coarse resolution on some systems
	began := s.Now()
	for {
		select {
		case <-s.Done():
			return Session{}, false
		case <-r.a.wait(cli.TailEvery(s.Now().Sub(began), r.a.poll)):
		}
		var found []Session
		for _, cwd := range cwds {
			list, err := RolloutsSince(home, cwd, since)
			if err != nil {
				s.Logger().Debug("codex rollouts", "err", err)
				continue
			}
			found = append(found, list...)
		}
		for _, cs := range found {
			if r.a.claim(cs.ID) {
				s.SessionFound(cs.ID)
				return cs, true
			}
		}
	}
}

// tailRollout reads what the seat's Codex appends to its rollout and keeps
// the seat's usage and activity (docs/design.md §11): every poll (1 s)
// while lines come, every 10 s after a minute without one
// (cli.TailEvery). It ends at Done, after a last read that takes the
// lines written before the exit.
func (r *run) tailRollout(s cli.Seat, t *cli.Tail, rep codexReport) {
	// rep is the seat's: nothing is known of this run yet but what the
	// start learnt (an app-server seat's model and effort).
	lastLine := s.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-s.Done():
			r.readRollout(s, t, &rep)
			return
		case <-timer.C:
		}
		if r.readRollout(s, t, &rep) > 0 {
			lastLine = s.Now()
		}
		timer.Reset(cli.TailEvery(s.Now().Sub(lastLine), r.a.poll))
	}
}

// maxSubmitsRead bounds the user messages one rollout read keeps.
const maxSubmitsRead = 64

// readRollout applies the lines appended since the last read to rep,
// stores the result in the seat and has it announce a change of something
// shown. It returns how many lines ended.
func (r *run) readRollout(s cli.Seat, t *cli.Tail, rep *codexReport) int {
	changed := false
	now := s.Now()
	var events []limits.Event
	var texts []string
	defer func() { // the posts the CLI took (docs/design.md §5)
		for _, text := range texts {
			s.Submitted(text)
		}
	}()
	apply := func(line []byte) {
		if text, ok := rolloutUserText(line); ok && len(texts) < maxSubmitsRead {
			texts = append(texts, text)
		}
		var c bool
		*rep, c = applyCodexLine(*rep, line, now)
		changed = changed || c
		if rep.event.Kind != 0 {
			events = append(events, rep.event)
		}
	}
	// A line too long to keep (a turn's end carrying a long answer, a
	// long user message) is read from its head (longLine).
	t.Long = func(head []byte) {
		if line, ok := longLine(head); ok {
			apply(line)
		}
	}
	n, err := t.Poll(apply)
	defer func() { // after the seat's figures are stored: the limiter reads none of them
		for _, e := range events {
			s.Limit(func(l *limits.Limiter, now time.Time) []limits.Action { return l.Event(e, now) })
		}
	}()
	if err != nil {
		s.Logger().Debug("codex rollout tail", "topic", s.Topic(), "account", s.Account(), "err", err)
	}
	if n == 0 {
		return 0
	}
	s.Report(func(x *cli.Reported) bool {
		x.Usage = rep.usage
		if r.server == nil { // an app-server seat's activity comes from its server
			x.Activity = rep.activity
		}
		return changed
	})
	return n
}

// minVersion is the oldest Codex CLI the launch lines work with (issue 34
// item 12): the spec's baseline («対応基準は Codex CLI 0.160.0 以上であり、
// 古い CLI では起動前に診断を返す», #272), the version the original app
// measured its rollout lines (#283, #294: usage_limit_exceeded), its
// release check over `codex app-server` (#294), --no-alt-screen (#293) and
// its app-server schema (#324, rust-v0.160.1) with. What the app-server
// line needs arrived in openai/codex in spring 2026: the server's
// WebSocket auth and the TUI's --remote / --remote-auth-token-env (PRs
// #14847 and #14853, merged 2026-03-25/26), --ws-token-sha256 (#17871,
// 2026-04-15) and unix:// listeners (#18255, 2026-04-17). docs/clis.md §3
// has what 0.169.0, the pinned CLI, was measured to do.
var minVersion = cli.Version{Major: 0, Minor: 160, Patch: 0}

// Needs: minVersion, for what the account's mode uses (cli.Versioned).
func (*Adapter) Needs(a config.Account) cli.Need {
	uses := "-c mcp_servers with env_vars and default_tools_approval_mode"
	if AppServer(a) {
		uses = "app-server --ws-token-sha256, resume --remote, thread/inject_items"
	}
	return cli.Need{CLI: "Codex CLI", Min: minVersion, Uses: uses}
}
