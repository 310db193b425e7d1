package limits

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

var limitT0 = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

func kinds(acts []Action) []ActionKind {
	var out []ActionKind
	for _, a := range acts {
		if a.Kind != ActLog {
			out = append(out, a.Kind)
		}
	}
	return out
}

func noticeText(acts []Action) string {
	for _, a := range acts {
		if a.Kind == ActNotice {
			return a.Text
		}
	}
	return ""
}

// limitClock steps a limiter through time and collects what it did.
type limitClock struct {
	t   *testing.T
	l   *Limiter
	now time.Time
}

// advance ticks every second up to d later and returns the actions.
func (c *limitClock) advance(d time.Duration) []Action {
	var out []Action
	end := c.now.Add(d)
	for c.now.Before(end) {
		c.now = c.now.Add(time.Second)
		out = append(out, c.l.Tick(c.now)...)
	}
	return out
}

// untilAsk ticks until the limiter asks, returning how long it took.
func (c *limitClock) untilAsk(max time.Duration) time.Duration {
	c.t.Helper()
	start := c.now
	for c.now.Sub(start) <= max {
		c.now = c.now.Add(time.Second)
		if slices.Contains(kinds(c.l.Tick(c.now)), ActAsk) {
			return c.now.Sub(start)
		}
	}
	c.t.Fatalf("no ask within %s", max)
	return 0
}

// codexStopped stops l at its clock's now with the rollout's reset and
// answers the check the stop asks with the server's verdict: the stop's
// notice comes with that answer.
func codexStopped(t *testing.T, c *limitClock, reset time.Time, allowed *bool, serverReset time.Time, err error) []Action {
	t.Helper()
	acts := c.l.Event(Event{Kind: Stop, ResetsAt: reset}, c.now)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActMarkerSet, ActAsk}) {
		t.Fatalf("stop actions %v, want the marker and an ask at once", got)
	}
	return c.l.Answer(allowed, serverReset, err, c.now)
}

// TestCodexLimitSchedule: the first ask 30 s after the reset, then the
// back-off ladder 1/2/5/10/15 min and every 15 min after, a later reset
// named by an answer moving the next ask, and the release (marker cleared
// before the prompt, which answers the notice).
func TestCodexLimitSchedule(t *testing.T) {
	l := New(Codex, "Lay", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	reset := limitT0.Add(10 * time.Minute)
	no := false
	acts := codexStopped(t, c, reset, &no, time.Time{}, nil) // the server names no reset: the rollout's
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice}) {
		t.Fatalf("stop notice actions %v", got)
	}
	if txt := noticeText(acts); !strings.Contains(txt, "Lay stopped on its usage limit. It resets Oct 5 12:10.") || !strings.HasSuffix(txt, "(no reply needed)") {
		t.Errorf("stop notice %q", txt)
	}
	if in := l.Info(); !in.Limited || !in.ResetsAt.Equal(reset) {
		t.Errorf("info %+v", in)
	}
	// A post's turn ending on the limit again changes nothing.
	if acts := l.Event(Event{Kind: Stop, ResetsAt: reset}, c.now); len(acts) != 0 {
		t.Errorf("a second stop while limited: %v", acts)
	}
	if d := c.untilAsk(time.Hour); d != 10*time.Minute+limitGrace {
		t.Fatalf("first ask after %s, want 10m30s", d)
	}
	ladder := []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 15 * time.Minute, 15 * time.Minute}
	for i, want := range ladder {
		l.Answer(&no, time.Time{}, nil, c.now)
		if d := c.untilAsk(time.Hour); d != want {
			t.Fatalf("ask %d after %s, want %s", i+2, d, want)
		}
	}
	// An error or a missing verdict is "still limited" too.
	l.Answer(nil, time.Time{}, errors.New("timeout"), c.now)
	c.untilAsk(time.Hour)
	// An answer naming a later reset (the weekly window) moves the next ask.
	weekly := c.now.Add(3 * time.Hour)
	l.Answer(&no, weekly, nil, c.now)
	if d := c.untilAsk(4 * time.Hour); d != 3*time.Hour+limitGrace {
		t.Fatalf("ask after a moved reset %s, want 3h0m30s", d)
	}
	yes := true
	acts = l.Answer(&yes, time.Time{}, nil, c.now)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActMarkerClear, ActNotice, ActPrompt}) {
		t.Fatalf("release actions %v, want marker cleared, notice, prompt", got)
	}
	if l.Info().Limited {
		t.Error("still limited after the release")
	}
	// The prompt's answer: a turn starts; nothing more is typed or said.
	l.Event(Event{Kind: TurnStarted}, c.now)
	if acts := c.advance(5 * time.Minute); len(kinds(acts)) != 0 {
		t.Errorf("after the answer: %v", acts)
	}
}

// TestCodexStopAsksTheServerForTheReset (issue 34 item 16; spec #294
// «解除予定は、止まった時点で一度だけ Codex の app-server に
// account/rateLimits/read を聞き…»): a stop asks the server at once and
// its notice waits for the answer; a "not allowed" answer's reset wins
// over the rollout's, the rollout's is said when the server names none or
// cannot answer, and "not known" only when neither has one. An "allowed"
// answer at the stop releases after the stop's notice.
func TestCodexStopAsksTheServerForTheReset(t *testing.T) {
	no, yes := false, true
	rollout, server := limitT0.Add(30*time.Minute), limitT0.Add(2*time.Hour)
	for _, c := range []struct {
		name        string
		rollout     time.Time
		allowed     *bool
		serverReset time.Time
		err         error
		says        string
		firstAsk    time.Duration
	}{
		{"the server's reset", time.Time{}, &no, server, nil, "It resets Oct 5 14:00.", 2*time.Hour + limitGrace},
		{"the server's before the rollout's", rollout, &no, server, nil, "It resets Oct 5 14:00.", 2*time.Hour + limitGrace},
		{"no reset from the server: the rollout's", rollout, &no, time.Time{}, nil, "It resets Oct 5 12:30.", 30*time.Minute + limitGrace},
		{"no answer: the rollout's", rollout, nil, server, errors.New("timeout"), "It resets Oct 5 12:30.", 30*time.Minute + limitGrace},
		{"no verdict: the rollout's", rollout, nil, server, nil, "It resets Oct 5 12:30.", 30*time.Minute + limitGrace},
		{"neither", time.Time{}, nil, time.Time{}, errors.New("codex account authentication required"), "The reset time is not known.", limitFirstAsk},
	} {
		l := New(Codex, "Lay", time.UTC)
		clock := &limitClock{t: t, l: l, now: limitT0}
		acts := l.Event(Event{Kind: Stop, ResetsAt: c.rollout}, clock.now)
		if noticeText(acts) != "" || !slices.Contains(kinds(acts), ActAsk) {
			t.Fatalf("%s: the stop said %q before asking (%v)", c.name, noticeText(acts), kinds(acts))
		}
		if in := l.Info(); !in.Limited || !in.ResetsAt.Equal(c.rollout) {
			t.Errorf("%s: while asking the panel shows %+v", c.name, in)
		}
		clock.now = clock.now.Add(5 * time.Second) // the check's answer comes later
		acts = l.Answer(c.allowed, c.serverReset, c.err, clock.now)
		if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice}) || !strings.Contains(noticeText(acts), "Lay stopped on its usage limit. "+c.says) {
			t.Errorf("%s: answer gave %v %q, want the stop's notice saying %q", c.name, got, noticeText(acts), c.says)
		}
		// A reset's check is due at its time (counted from the stop), an
		// unknown one's a minute after the answer.
		want := c.firstAsk - 5*time.Second
		if c.firstAsk == limitFirstAsk {
			want = limitFirstAsk
		}
		if d := clock.untilAsk(3 * time.Hour); d != want {
			t.Errorf("%s: first release check %s after the answer, want %s", c.name, d, want)
		}
	}
	l := New(Codex, "Lay", time.UTC)
	clock := &limitClock{t: t, l: l, now: limitT0}
	acts := codexStopped(t, clock, rollout, &yes, time.Time{}, nil)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice, ActMarkerClear, ActNotice, ActPrompt}) || l.Info().Limited {
		t.Errorf("allowed at the stop: %v, limited %v; want the stop's notice, then the release", got, l.Info().Limited)
	}
}

// TestCodexLimitUnknownAndPast: an unknown, past or absurd reset asks one
// minute after the stop.
func TestCodexLimitUnknownAndPast(t *testing.T) {
	for name, reset := range map[string]time.Time{
		"unknown": {}, "past": limitT0.Add(-time.Hour), "absurd": limitT0.AddDate(40, 0, 0),
	} {
		l := New(Codex, "Lay", time.UTC)
		c := &limitClock{t: t, l: l, now: limitT0}
		acts := codexStopped(t, c, reset, nil, time.Time{}, errors.New("no answer"))
		if name != "past" && !strings.Contains(noticeText(acts), "not known") {
			t.Errorf("%s: notice %q", name, noticeText(acts))
		}
		if d := c.untilAsk(time.Hour); d != limitFirstAsk {
			t.Errorf("%s: first ask after %s, want 1m", name, d)
		}
	}
}

// TestCodexLimitAnswerWait: a prompt without a turn in 120 s gives one
// "look at its terminal" notice and no retyping; a normal turn later says
// the seat is back. A stop after the prompt is a new episode (noticed,
// marked, asked again).
func TestCodexLimitAnswerWait(t *testing.T) {
	l := New(Codex, "Lay", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	no, yes := false, true
	codexStopped(t, c, time.Time{}, &no, time.Time{}, nil)
	c.untilAsk(time.Hour)
	l.Answer(&yes, time.Time{}, nil, c.now)
	acts := c.advance(limitAnswerWait - time.Second)
	if len(kinds(acts)) != 0 {
		t.Fatalf("before 120 s: %v", acts)
	}
	acts = c.advance(time.Hour)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice, ActLookSet}) || !strings.Contains(noticeText(acts), "look at Lay's terminal") {
		t.Fatalf("after 120 s: %v %q", got, noticeText(acts))
	}
	if !l.Info().LookAtTerminal {
		t.Error("the panel does not say so")
	}
	acts = l.Event(Event{Kind: Normal}, c.now)
	if !strings.Contains(noticeText(acts), "answered again") || l.Info().LookAtTerminal || !slices.Contains(kinds(acts), ActLookClear) {
		t.Errorf("back: %v %q %+v", kinds(acts), noticeText(acts), l.Info())
	}
	// A prompt answered by a turn that hits the limit again: a new
	// episode, its notice after the check it asks.
	codexStopped(t, c, time.Time{}, &no, time.Time{}, nil)
	c.untilAsk(time.Hour)
	l.Answer(&yes, time.Time{}, nil, c.now)
	if acts := codexStopped(t, c, time.Time{}, &no, time.Time{}, nil); !strings.Contains(noticeText(acts), "stopped on its usage limit") {
		t.Errorf("a stop after the prompt: %v", acts)
	}
	if d := c.untilAsk(time.Hour); d != limitFirstAsk {
		t.Errorf("asked again after %s", d)
	}
}

// TestCodexLimitNormalTurnAsksNow: a turn that went through while limited
// (the limit was reset by hand) moves the ask to now; it is no release by
// itself.
func TestCodexLimitNormalTurnAsksNow(t *testing.T) {
	l := New(Codex, "Lay", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	no := false
	codexStopped(t, c, limitT0.Add(5*time.Hour), &no, time.Time{}, nil)
	c.advance(time.Minute)
	l.Event(Event{Kind: Normal}, c.now)
	if !l.Info().Limited {
		t.Fatal("a normal turn released a Codex seat")
	}
	if d := c.untilAsk(time.Minute); d != time.Second {
		t.Errorf("asked %s after the normal turn, want at the next tick", d)
	}
}

// TestCodexLimitRestore: a launch whose marker says it stopped is limited
// at once, asks at the first tick, and says nothing to the room.
func TestCodexLimitRestore(t *testing.T) {
	l := New(Codex, "Lay", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	if got := kinds(l.RestoreCodex(c.now)); len(got) != 0 {
		t.Errorf("restore: %v", got)
	}
	if !l.Info().Limited {
		t.Error("not limited after the restore")
	}
	if d := c.untilAsk(time.Minute); d != time.Second {
		t.Errorf("first ask after %s", d)
	}
}

// TestClaudeLimitSchedule: the prompt 30 s after a known reset, never for
// an unknown one; the recovery is a normal parent answer; a refusal after
// the prompt retypes it later; the 120 s notice.
func TestClaudeLimitSchedule(t *testing.T) {
	l := New(Claude, "Lin", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	reset := limitT0.Add(20 * time.Minute)
	acts := l.Event(Event{Kind: Stop, ResetsAt: reset}, c.now)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice}) || !strings.Contains(noticeText(acts), "resets Oct 5 12:20") {
		t.Fatalf("stop: %v %q", got, noticeText(acts))
	}
	acts = c.advance(20*time.Minute + limitGrace - time.Second)
	if len(kinds(acts)) != 0 {
		t.Fatalf("before the reset: %v", acts)
	}
	acts = c.advance(time.Second)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice, ActPrompt}) {
		t.Fatalf("at reset+30s: %v", got)
	}
	// Refused again, naming no later reset (it passed): typed again after
	// a minute, then two.
	acts = l.Event(Event{Kind: Stop, ResetsAt: reset}, c.now)
	if !strings.Contains(noticeText(acts), "still on its usage limit") {
		t.Errorf("refused again: %q", noticeText(acts))
	}
	for _, want := range []time.Duration{time.Minute, 2 * time.Minute} {
		start := c.now
		for {
			c.now = c.now.Add(time.Second)
			if slices.Contains(kinds(l.Tick(c.now)), ActPrompt) {
				break
			}
			if c.now.Sub(start) > time.Hour {
				t.Fatal("never retyped")
			}
		}
		if d := c.now.Sub(start); d != want {
			t.Errorf("retyped after %s, want %s", d, want)
		}
		l.Event(Event{Kind: Stop, ResetsAt: reset}, c.now)
	}
	// The human resumed in the terminal: a normal answer recovers; nothing
	// is typed after.
	acts = l.Event(Event{Kind: Normal}, c.now)
	if l.Info().Limited || noticeText(acts) != "" {
		t.Errorf("after the normal answer: %+v %q", l.Info(), noticeText(acts))
	}
	if acts := c.advance(time.Hour); len(kinds(acts)) != 0 {
		t.Errorf("after the recovery: %v", acts)
	}
	// An unknown reset: noticed, never typed.
	acts = l.Event(Event{Kind: Stop}, c.now)
	if !strings.Contains(noticeText(acts), "not known") {
		t.Errorf("unknown reset notice %q", noticeText(acts))
	}
	if acts := c.advance(6 * time.Hour); len(kinds(acts)) != 0 {
		t.Errorf("typed for an unknown reset: %v", acts)
	}
	// A prompt nobody answers: one notice at 120 s, no retyping.
	l.Event(Event{Kind: Normal}, c.now)
	l.Event(Event{Kind: Stop, ResetsAt: c.now.Add(time.Minute)}, c.now)
	acts = c.advance(time.Minute + limitGrace + limitAnswerWait + time.Hour)
	if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice, ActPrompt, ActNotice, ActLookSet}) {
		t.Errorf("unanswered prompt: %v", got)
	}
}

// TestLookedAcrossLaunches (issue 34 item 22): a launch of a seat whose
// "look at its terminal" is still out (its mark) says it is back at its
// first normal answer, once, and clears the mark; it says nothing before.
func TestLookedAcrossLaunches(t *testing.T) {
	for _, r := range []Rules{Claude, Codex} {
		l := New(r, "Lin", time.UTC)
		if got := kinds(l.RestoreLooked()); len(got) != 0 {
			t.Errorf("%v: restore said %v", r, got)
		}
		if !l.Info().LookAtTerminal {
			t.Errorf("%v: the panel does not show the look out", r)
		}
		if acts := l.Tick(limitT0.Add(time.Hour)); len(kinds(acts)) != 0 {
			t.Errorf("%v: a tick said %v", r, kinds(acts))
		}
		acts := l.Event(Event{Kind: Normal}, limitT0.Add(time.Hour))
		if got := kinds(acts); !slices.Equal(got, []ActionKind{ActNotice, ActLookClear}) || !strings.Contains(noticeText(acts), "Lin answered again") {
			t.Errorf("%v: the first normal answer gave %v %q", r, got, noticeText(acts))
		}
		if acts := l.Event(Event{Kind: Normal}, limitT0.Add(2*time.Hour)); len(kinds(acts)) != 0 {
			t.Errorf("%v: said it twice: %v", r, kinds(acts))
		}
	}
}

// TestClaudeLimitRestore: a launch on a transcript ending in a refusal
// starts limited and types at once when the reset passed.
func TestClaudeLimitRestore(t *testing.T) {
	l := New(Claude, "Lin", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	l.RestoreClaude(limitT0.Add(-time.Hour), c.now)
	if !l.Info().Limited {
		t.Fatal("not limited")
	}
	if got := kinds(c.advance(time.Second)); !slices.Equal(got, []ActionKind{ActNotice, ActPrompt}) {
		t.Errorf("first tick: %v", got)
	}
	l2 := New(Claude, "Lin", time.UTC)
	l2.RestoreClaude(time.Time{}, limitT0)
	if !l2.Info().Limited || len(kinds((&limitClock{t: t, l: l2, now: limitT0}).advance(time.Hour))) != 0 {
		t.Errorf("an unknown reset restored: %+v", l2.Info())
	}
}

// TestClaudeSubagentLimit: a subagent's stop is its own episode, noticed
// once per agent and launch, with one "due to lift" notice at its reset;
// the parent stays unlimited.
func TestClaudeSubagentLimit(t *testing.T) {
	l := New(Claude, "Lin", time.UTC)
	c := &limitClock{t: t, l: l, now: limitT0}
	reset := limitT0.Add(time.Minute)
	if txt := noticeText(l.Event(Event{Kind: SubStop, Agent: "a1", ResetsAt: reset}, c.now)); !strings.Contains(txt, "subagent of Lin") {
		t.Errorf("sub stop notice %q", txt)
	}
	if acts := l.Event(Event{Kind: SubStop, Agent: "a1", ResetsAt: reset}, c.now); len(acts) != 0 {
		t.Errorf("the same episode again: %v", acts)
	}
	if l.Info().Limited {
		t.Error("a subagent's stop limited the parent")
	}
	if got := kinds(c.advance(time.Hour)); !slices.Equal(got, []ActionKind{ActNotice}) {
		t.Errorf("at its reset: %v", got)
	}
	// One notice per agent and launch: an answer and a new refusal of the
	// same agent say nothing more (a seat could loop them).
	l.Event(Event{Kind: SubNormal, Agent: "a1"}, c.now)
	if acts := l.Event(Event{Kind: SubStop, Agent: "a1"}, c.now); noticeText(acts) != "" {
		t.Errorf("the same agent noticed twice: %q", noticeText(acts))
	}
}

// TestLimitFlood: a seat writing refusals and answers into its own
// transcript in turn (a past reset: a prompt due at once) gets at most
// noticesMax notices and promptsMax prompts in ten minutes; the rest are
// logged.
func TestLimitFlood(t *testing.T) {
	l := New(Claude, "Lin", time.UTC)
	now := limitT0
	var notices, prompts int
	count := func(acts []Action) {
		for _, a := range l.Capped(acts, now) {
			switch a.Kind {
			case ActNotice:
				notices++
			case ActPrompt:
				prompts++
			}
		}
	}
	for range 120 {
		now = now.Add(time.Second)
		count(l.Event(Event{Kind: Stop, ResetsAt: now.Add(-time.Hour)}, now))
		count(l.Tick(now))
		count(l.Event(Event{Kind: Normal}, now))
	}
	if notices != noticesMax || prompts != promptsMax {
		t.Fatalf("%d notices and %d prompts in two minutes, want %d and %d", notices, prompts, noticesMax, promptsMax)
	}
	now = now.Add(capWindow)
	count(l.Event(Event{Kind: Stop}, now))
	if notices != noticesMax+1 {
		t.Error("no notice after the window")
	}
}
