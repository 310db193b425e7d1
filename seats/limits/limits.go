package limits

import (
	"fmt"
	"strconv"
	"time"
)

// Limit timings (spec: GRACE, ANSWER_WAIT, BACKOFF).
const (
	// limitGrace: the prompt (Claude) or the first release check (Codex)
	// comes this long after the reset time.
	limitGrace = 30 * time.Second
	// limitAnswerWait: a typed prompt unanswered this long means something
	// else holds the seat (a login, a dialog): one notice, no retyping.
	limitAnswerWait = 120 * time.Second
	// limitFirstAsk: a Codex seat whose reset is unknown or past is asked
	// this long after its stop.
	limitFirstAsk = time.Minute
	// limitResetMax: a reset further away than this is not believed.
	limitResetMax = 31 * 24 * time.Hour
)

// limitBackoff is the wait before the next ask (Codex) or the next prompt
// (Claude, when the prompt was refused again without a later reset) after
// the n-th "still limited"; then limitBackoff's last, again and again.
var limitBackoff = []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute}

func backoff(n int) time.Duration { return limitBackoff[min(n, len(limitBackoff)-1)] }

// The prompts typed into a seat whose limit lifted (spec #389, #357, in our
// words).
const (
	codexContinuePrompt = "The usage limit has lifted (Pullcept checked). Resume the work that was interrupted; if none was, keep waiting."
	claudeResumePrompt  = "The usage limit was due to lift by now. Resume the work that was interrupted; if none was, keep waiting."
	noReplyNeeded       = " (no reply needed)"
)

// Info is a seat's usage-limit state as the panel shows it.
type Info struct {
	// Limited: the seat stopped on its plan's limit and has not recovered.
	Limited bool
	// ResetsAt is when the limit is said to lift (zero: unknown).
	ResetsAt time.Time
	// LookAtTerminal: a resume prompt went unanswered (the room was told).
	LookAtTerminal bool
	// NextCheck is when a Codex seat's release is asked next (zero: not
	// scheduled, or a check runs now).
	NextCheck time.Time
}

// EventKind is what a transcript or rollout line says.
type EventKind int

const (
	// Stop: the seat's turn was refused on the plan's limit (Claude:
	// a parent refusal entry; Codex: a usage_limit_exceeded turn).
	Stop EventKind = iota + 1
	// Normal: a normal answer (Claude: a parent answer with a real
	// request id and model; Codex: a turn that ended without error).
	Normal
	// TurnStarted: a Codex turn began (an answer to the prompt).
	TurnStarted
	// SubStop / SubNormal: a Claude subagent's refusal / normal
	// answer (Agent names it).
	SubStop
	SubNormal
)

// Event is one line's meaning.
type Event struct {
	Kind     EventKind
	ResetsAt time.Time // zero: unknown
	Agent    string
}

// ActionKind is what the watcher must do.
type ActionKind int

const (
	// ActNotice: a room notice (Pullcept, role app) not typed into the seat.
	ActNotice ActionKind = iota + 1
	// ActPrompt: type text into the seat, tagged as the notice just before
	// it in the same batch (its message id).
	ActPrompt
	// ActMarkerSet / ActMarkerClear: the (topic, account) marker (Codex).
	ActMarkerSet
	ActMarkerClear
	// ActAsk: run the release check now (Codex); its answer comes back
	// through Limiter.Answer.
	ActAsk
	// ActLog: one line in pullcept.log.
	ActLog
	// ActLookSet / ActLookClear: the seat's "look at its terminal" mark
	// (both kinds): set with that notice, cleared when the seat is back, so
	// a later launch says it is back too (RestoreLooked).
	ActLookSet
	ActLookClear
)

type Action struct {
	Kind ActionKind
	Text string
}

// subEpisode is a Claude subagent's stop.
type subEpisode struct {
	resetsAt time.Time
	noticed  bool // the "due to lift" notice went out
}

// Limiter is one seat's episode state (one per launch; Codex's marker
// carries the stop across launches).
type Limiter struct {
	codex bool
	Grace time.Duration  // limitGrace (tests shorten it)
	name  string         // the seat's name in the texts
	loc   *time.Location // for reset times in the texts

	limited  bool
	resetsAt time.Time
	attempts int // "still limited" answers (Codex) or refused prompts (Claude) this episode

	promptAt   time.Time // Claude: when to type the prompt (zero: none)
	promptedAt time.Time // a prompt was typed; its answer awaited (zero: none)
	looked     bool      // "look at its terminal" is out

	nextAsk time.Time // Codex: the next release check (zero: none)
	asking  bool      // Codex: a check runs
	// stopAsk: Codex: the stop's notice waits for the check asked at the
	// stop, which names the reset time; stopReset is the rollout's, said
	// when the server names none (spec #294 «解除予定は、止まった時点で一度だけ
	// Codex の app-server に account/rateLimits/read を聞き…»).
	stopAsk   bool
	stopReset time.Time

	subs map[string]*subEpisode // Claude subagents, by agent id

	notices, prompts []time.Time // the recent ones that went out (capped)
}

// A seat can write its own transcript or rollout: alternating refusals and
// answers would make notices and resume prompts in a loop (room notices
// are typed into every other seat, brake or not). Per seat, at most
// noticesMax notices and promptsMax prompts in capWindow go out; the rest
// are logged.
const (
	noticesMax = 8
	promptsMax = 4
	capWindow  = 10 * time.Minute
)

// within keeps the times of *times inside capWindow before now and reports
// whether another fits under max (then it is counted).
func within(times *[]time.Time, max int, now time.Time) bool {
	kept := (*times)[:0]
	for _, t := range *times {
		if now.Sub(t) < capWindow {
			kept = append(kept, t)
		}
	}
	*times = kept
	if len(kept) >= max {
		return false
	}
	*times = append(*times, now)
	return true
}

// Capped passes acts through the per-seat caps: a notice or a prompt over
// its cap becomes a log line (a prompt whose notice was held back still
// goes while prompts are under their cap: it is the seat's own).
func (l *Limiter) Capped(acts []Action, now time.Time) []Action {
	for i, a := range acts {
		switch {
		case a.Kind == ActNotice && !within(&l.notices, noticesMax, now):
			acts[i] = Action{ActLog, "limit: notice held back (" + strconv.Itoa(noticesMax) + " in " + capWindow.String() + "): " + a.Text}
		case a.Kind == ActPrompt && !within(&l.prompts, promptsMax, now):
			acts[i] = Action{ActLog, "limit: resume prompt held back (" + strconv.Itoa(promptsMax) + " in " + capWindow.String() + ")"}
		}
	}
	return acts
}

// Rules are whose usage-limit rules a Limiter follows.
type Rules int

// The CLIs' rules.
const (
	// Claude: a stop is read from the transcript, the recovery is the next
	// normal parent answer, the resume prompt is typed at the reset time.
	Claude Rules = iota + 1
	// Codex: a stop is read from the rollout and marked for the next
	// launches; the release is asked of the server (Answer).
	Codex
)

// New is a seat's Limiter under rules r; name is the seat's name in the
// texts, loc the time zone of reset times in them (nil: time.Local).
func New(r Rules, name string, loc *time.Location) *Limiter {
	if loc == nil {
		loc = time.Local
	}
	return &Limiter{codex: r == Codex, name: name, loc: loc, Grace: limitGrace, subs: map[string]*subEpisode{}}
}

// Marked reports whether the seat's stop is marked across launches
// (Codex): a new launch restores it (RestoreCodex), and the actions set
// and clear the mark.
func (l *Limiter) Marked() bool { return l.codex }

// Info is what the panel shows.
func (l *Limiter) Info() Info {
	in := Info{Limited: l.limited, ResetsAt: l.resetsAt, LookAtTerminal: l.looked}
	if l.limited && !l.asking {
		in.NextCheck = l.nextAsk
	}
	return in
}

// when formats a reset time for a notice ("Oct 5 22:45", local time).
func (l *Limiter) when(t time.Time) string { return t.In(l.loc).Format("Jan 2 15:04") }

// believable keeps a reset time only when it is neither zero nor absurdly
// far (a refusal naming one years away is read as unknown).
func believable(t, now time.Time) (time.Time, bool) {
	if t.IsZero() || t.After(now.Add(limitResetMax)) {
		return time.Time{}, false
	}
	return t, true
}

// RestoreCodex starts a launch of a seat whose marker says it stopped: it
// is limited from the start and asked at the first tick (the marker keeps
// no reset time; it may have passed). No notice: it was given at the stop.
func (l *Limiter) RestoreCodex(now time.Time) []Action {
	l.limited, l.nextAsk, l.attempts = true, now, 0
	return []Action{{ActLog, "limit: started limited (marker); asking now"}}
}

// RestoreLooked starts a launch of a seat whose "look at its terminal"
// notice is still out (its mark, ActLookSet): its next normal answer says
// it is back (spec #357 «その席の親が後で正常に応答したら（同じ起動でも、起動し
// 直した後でも）…一度だけ知らせ»; #294 «起動をまたいで覚える»). No notice now.
func (l *Limiter) RestoreLooked() []Action {
	l.looked = true
	return []Action{{ActLog, "limit: started with \"look at its terminal\" out (mark)"}}
}

// RestoreClaude starts a launch on a transcript whose last parent event is
// an unanswered refusal: limited, with the prompt scheduled for its reset
// (at once when it passed; none when unknown).
func (l *Limiter) RestoreClaude(resetsAt, now time.Time) []Action {
	l.limited = true
	r, ok := believable(resetsAt, now)
	l.resetsAt = r
	if !ok {
		return []Action{{ActLog, "limit: started limited (last parent event is a refusal); reset unknown, no prompt"}}
	}
	l.promptAt = maxTime(r.Add(l.Grace), now)
	return []Action{{ActLog, "limit: started limited (last parent event is a refusal); prompt at " + l.promptAt.Format(time.RFC3339)}}
}

// Event applies one line's meaning at now.
func (l *Limiter) Event(e Event, now time.Time) []Action {
	switch e.Kind {
	case Stop:
		if l.codex {
			return l.codexStop(e.ResetsAt, now)
		}
		return l.claudeStop(e.ResetsAt, now)
	case Normal:
		return l.normal(now)
	case TurnStarted:
		if !l.promptedAt.IsZero() {
			l.promptedAt = time.Time{}
			return []Action{{ActLog, "limit: the prompt was answered (a turn began)"}}
		}
	case SubStop:
		return l.subStop(e.Agent, e.ResetsAt, now)
	case SubNormal:
		// One notice per agent and launch: its episode stays known.
	}
	return nil
}

// claudeStop: a parent refusal. A first one starts the episode (notice,
// prompt scheduled when the reset is known); one after the typed prompt
// means the limit had not lifted yet (the prompt is typed again later); one
// while limited (the human retried) only moves the schedule.
func (l *Limiter) claudeStop(resetsAt time.Time, now time.Time) []Action {
	r, known := believable(resetsAt, now)
	var out []Action
	if !resetsAt.IsZero() && !known {
		out = append(out, Action{ActLog, "limit: reset time " + resetsAt.UTC().Format(time.RFC3339) + " not believed (too far)"})
	}
	prompted := !l.promptedAt.IsZero()
	first := !l.limited
	l.limited, l.resetsAt, l.promptedAt = true, r, time.Time{}
	if prompted {
		l.attempts++
	}
	switch {
	case !known:
		l.promptAt = time.Time{}
	case prompted:
		l.promptAt = r.Add(l.Grace)
		if !l.promptAt.After(now.Add(time.Minute)) {
			l.promptAt = now.Add(backoff(l.attempts - 1))
		}
	default:
		l.promptAt = maxTime(r.Add(l.Grace), now)
	}
	switch {
	case first && known:
		out = append(out, Action{ActNotice, fmt.Sprintf("%s stopped on its usage limit. It resets %s; Pullcept will type a resume prompt into it then.%s", l.name, l.when(r), noReplyNeeded)})
	case first:
		out = append(out, Action{ActNotice, fmt.Sprintf("%s stopped on its usage limit. The reset time is not known: resume it in its terminal once the limit lifts.%s", l.name, noReplyNeeded)})
	case prompted && known:
		out = append(out, Action{ActNotice, fmt.Sprintf("%s was still on its usage limit; Pullcept will type the prompt again at %s.%s", l.name, l.when(l.promptAt), noReplyNeeded)})
	case prompted:
		out = append(out, Action{ActNotice, fmt.Sprintf("%s was still on its usage limit and the reset time is not known: resume it in its terminal.%s", l.name, noReplyNeeded)})
	}
	return append(out, Action{ActLog, "limit: stop seen; reset " + timeOrUnknown(r) + "; prompt at " + timeOrUnknown(l.promptAt)})
}

// codexStop: a usage_limit_exceeded turn. A first one, or one after the
// release prompt (the limit had not lifted after all), starts an episode:
// the marker, then the server is asked at once for the reset time — the
// notice waits for its answer (stopNotice) and says the server's reset, or
// the rollout's when the server names none, or that it is not known. One
// while limited (a post's turn) changes nothing but a later reset time.
func (l *Limiter) codexStop(resetsAt time.Time, now time.Time) []Action {
	r, known := believable(resetsAt, now)
	if l.limited && l.promptedAt.IsZero() {
		if known && r.After(l.resetsAt) {
			l.resetsAt = r
		}
		if known && l.stopAsk && r.After(l.stopReset) {
			l.stopReset = r
		}
		return nil
	}
	l.limited, l.resetsAt, l.promptedAt, l.attempts = true, r, time.Time{}, 0
	l.stopAsk, l.stopReset, l.asking, l.nextAsk = true, r, true, time.Time{}
	return []Action{
		{ActMarkerSet, ""},
		{ActAsk, ""},
		{ActLog, "limit: stop seen; the rollout's reset " + timeOrUnknown(r) + "; asking the server for the reset time"},
	}
}

// stopNotice is the stop's notice once the check asked at the stop
// answered: the reset time of a "not allowed" answer (the window used
// most), else the rollout's, else unknown; the first ask is scheduled from
// it as the stop would have.
func (l *Limiter) stopNotice(allowed *bool, resetsAt time.Time, err error, now time.Time) []Action {
	l.stopAsk = false
	r, from := l.stopReset, "the rollout"
	if err == nil && allowed != nil && !*allowed {
		if t, ok := believable(resetsAt, now); ok {
			r, from = t, "the server"
		}
	}
	if r.IsZero() {
		from = "neither the server nor the rollout"
	}
	l.resetsAt = r
	l.nextAsk = now.Add(limitFirstAsk)
	if !r.IsZero() && r.Add(l.Grace).After(now) {
		l.nextAsk = r.Add(l.Grace)
	}
	text := fmt.Sprintf("%s stopped on its usage limit. It resets %s.%s", l.name, l.when(r), noReplyNeeded)
	if r.IsZero() {
		text = fmt.Sprintf("%s stopped on its usage limit. The reset time is not known.%s", l.name, noReplyNeeded)
	}
	return []Action{
		{ActNotice, text},
		{ActLog, "limit: reset " + timeOrUnknown(r) + " (from " + from + "); first ask at " + l.nextAsk.Format(time.RFC3339)},
	}
}

// normal: a normal answer. Claude: the recovery. Codex: a turn that went
// through while limited moves the next ask to now (never a release by
// itself); one after the prompt is its answer.
func (l *Limiter) normal(now time.Time) []Action {
	var out []Action
	if !l.promptedAt.IsZero() {
		l.promptedAt = time.Time{}
		out = append(out, Action{ActLog, "limit: the prompt was answered"})
	}
	if l.looked {
		l.looked = false
		out = append(out, Action{ActNotice, fmt.Sprintf("%s answered again; the earlier \"look at its terminal\" is resolved.%s", l.name, noReplyNeeded)},
			Action{ActLookClear, ""})
	}
	if !l.limited {
		return out
	}
	if l.codex {
		if !l.asking {
			l.nextAsk = now
		}
		return append(out, Action{ActLog, "limit: a turn ended normally while limited; asking now"})
	}
	l.limited, l.resetsAt, l.promptAt, l.attempts = false, time.Time{}, time.Time{}, 0
	return append(out, Action{ActLog, "limit: recovered (a normal parent answer)"})
}

// subStop: a Claude subagent's refusal, its own episode, noticed once.
func (l *Limiter) subStop(agent string, resetsAt, now time.Time) []Action {
	if _, ok := l.subs[agent]; ok || len(l.subs) >= maxSubEpisodes {
		return nil
	}
	r, known := believable(resetsAt, now)
	l.subs[agent] = &subEpisode{resetsAt: r}
	text := fmt.Sprintf("A subagent of %s stopped on its usage limit; it resets %s.%s", l.name, l.when(r), noReplyNeeded)
	if !known {
		text = fmt.Sprintf("A subagent of %s stopped on its usage limit; the reset time is not known.%s", l.name, noReplyNeeded)
	}
	return []Action{{ActNotice, text}, {ActLog, "limit: subagent " + agent + " stop seen; reset " + timeOrUnknown(r)}}
}

// maxSubEpisodes bounds the subagent episodes kept per launch.
const maxSubEpisodes = 64

// Tick does what is due at now.
func (l *Limiter) Tick(now time.Time) []Action {
	var out []Action
	if !l.promptedAt.IsZero() && !now.Before(l.promptedAt.Add(limitAnswerWait)) {
		l.promptedAt, l.looked = time.Time{}, true
		out = append(out,
			Action{ActNotice, fmt.Sprintf("%s did not answer the resume prompt in %s: look at %s's terminal (a login, a dialog, …).%s", l.name, limitAnswerWait, l.name, noReplyNeeded)},
			Action{ActLookSet, ""},
			Action{ActLog, "limit: no answer to the prompt; other cause"})
	}
	switch {
	case l.codex && l.limited && !l.asking && !l.nextAsk.IsZero() && !now.Before(l.nextAsk):
		l.asking = true
		out = append(out, Action{ActAsk, ""}, Action{ActLog, "limit: asking whether the limit lifted"})
	case !l.codex && l.limited && !l.promptAt.IsZero() && !now.Before(l.promptAt):
		l.promptAt, l.promptedAt = time.Time{}, now
		out = append(out,
			Action{ActNotice, fmt.Sprintf("%s's usage limit was due to lift; Pullcept types a resume prompt into it.%s", l.name, noReplyNeeded)},
			Action{ActPrompt, claudeResumePrompt},
			Action{ActLog, "limit: prompt typed"})
	}
	for agent, s := range l.subs {
		if !s.noticed && !s.resetsAt.IsZero() && !now.Before(s.resetsAt) {
			s.noticed = true
			out = append(out, Action{ActNotice, fmt.Sprintf("The usage limit of a subagent of %s was due to lift; its recovery is not confirmed (it can be retried in the terminal).%s", l.name, noReplyNeeded)},
				Action{ActLog, "limit: subagent " + agent + " reset time passed"})
		}
	}
	return out
}

// Answer takes the release check's answer (Codex): allowed true releases
// (marker cleared first, then the notice and the prompt); anything else —
// false, unknown, an error — is "still limited", asked again after the
// back-off or 30 s after a later reset the answer names. The answer to the
// check asked at a stop first gives the stop its notice (stopNotice).
func (l *Limiter) Answer(allowed *bool, resetsAt time.Time, err error, now time.Time) []Action {
	l.asking = false
	if !l.limited {
		return nil
	}
	var out []Action
	if l.stopAsk {
		// The check asked at the stop: its answer names the reset time
		// (and an "allowed" one releases at once, after the stop's notice).
		out = l.stopNotice(allowed, resetsAt, err, now)
		if allowed == nil || !*allowed || err != nil {
			return out
		}
	}
	if allowed != nil && *allowed && err == nil {
		l.limited, l.nextAsk, l.attempts, l.resetsAt = false, time.Time{}, 0, time.Time{}
		l.promptedAt = now
		return append(out, []Action{
			{ActMarkerClear, ""},
			{ActNotice, fmt.Sprintf("%s's usage limit has lifted; Pullcept types a resume prompt into it.%s", l.name, noReplyNeeded)},
			{ActPrompt, codexContinuePrompt},
			{ActLog, "limit: released (ordinary usage allowed); prompt typed"},
		}...)
	}
	l.nextAsk = now.Add(backoff(l.attempts))
	l.attempts++
	if r, ok := believable(resetsAt, now); ok {
		l.resetsAt = r
		if r.Add(l.Grace).After(l.nextAsk) {
			l.nextAsk = r.Add(l.Grace)
		}
	}
	why := "not allowed yet"
	switch {
	case err != nil:
		why = "no answer: " + err.Error()
	case allowed == nil:
		why = "no verdict in the answer"
	}
	return []Action{{ActLog, "limit: still limited (" + why + "); next ask at " + l.nextAsk.Format(time.RFC3339)}}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func timeOrUnknown(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format(time.RFC3339)
}
