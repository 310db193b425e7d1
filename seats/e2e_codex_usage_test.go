//go:build linux || darwin

package seats_test

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// codexUsageFake is the fake model of TestE2ECodexRoundTripAndResume: the
// room script (adminOnly), each answer reporting the token usage of the
// current phase, the plan's rate limits on every reply (x-codex-* headers),
// and the first turn's final answer held until released, so the seat is
// seen thinking.
type codexUsageFake struct {
	script      func(*fakeapi.Request) fakeapi.Reply
	input       atomic.Int64 // input tokens each answer reports
	hold        chan struct{}
	held        chan struct{} // closed once the final answer is held
	holdOnce    sync.Once
	releaseOnce sync.Once
	fiveHour    fakeapi.CodexLimit
	weekly      fakeapi.CodexLimit
}

func newCodexUsageFake() *codexUsageFake {
	now := time.Now()
	f := &codexUsageFake{
		script: adminOnly(fakeapi.Script{}),
		hold:   make(chan struct{}),
		held:   make(chan struct{}),
		// The weekly window comes first (primary): the windows are told
		// apart by length, never by position.
		weekly:   fakeapi.CodexLimit{UsedPercent: 40, WindowMinutes: 10080, ResetsAt: now.Add(100 * time.Hour).Truncate(time.Second)},
		fiveHour: fakeapi.CodexLimit{UsedPercent: 12.5, WindowMinutes: 300, ResetsAt: now.Add(3 * time.Hour).Truncate(time.Second)},
	}
	f.input.Store(29000)
	return f
}

// limits is the fake's Options.CodexLimits.
func (f *codexUsageFake) limits() []fakeapi.CodexLimits {
	return []fakeapi.CodexLimits{{Primary: &f.weekly, Secondary: &f.fiveHour}}
}

func (f *codexUsageFake) respond(q *fakeapi.Request) fakeapi.Reply {
	rep := f.script(q)
	rep.Usage = fakeapi.Usage{InputTokens: int(f.input.Load()), OutputTokens: 100}
	if rep.Call == nil && rep.Status == 0 && q.OutputSchema == nil && len(q.NewResults()) > 0 {
		f.holdOnce.Do(func() {
			rep.Hold = f.hold
			close(f.held)
		})
	}
	return rep
}

func (f *codexUsageFake) release() { f.releaseOnce.Do(func() { close(f.hold) }) }

// codexUsageWant is what a Codex seat's panel must show after a turn.
type codexUsageWant struct {
	model, effort string
	context       float64   // used %, Codex's /status formula
	after         time.Time // the turn's post: idle since after it
}

// waitCodexUsage waits until account id's Codex seat is idle after a turn
// and shows its usage, and checks the figures against want and the fake's
// limits.
func waitCodexUsage(t *testing.T, r *rig, id string, s *seats.Seat, f *codexUsageFake, want codexUsageWant) {
	t.Helper()
	var in seats.SeatInfo
	e2eUntil(t, id+" idle with its usage", func() bool {
		in = r.seatInfo(id)
		u := in.Usage
		return in.Activity.Kind == cli.ActivityIdle && u.Context != nil && u.FiveHour != nil && u.Weekly != nil
	}, s.Done())
	u, a := in.Usage, in.Activity
	if u.Model != want.model || u.Effort != want.effort {
		t.Errorf("model, effort = %q, %q; want %q, %q", u.Model, u.Effort, want.model, want.effort)
	}
	if *u.Context != want.context {
		t.Errorf("context = %v %%, want %v %%", *u.Context, want.context)
	}
	if *u.FiveHour != f.fiveHour.UsedPercent || !u.FiveHourResets.Equal(f.fiveHour.ResetsAt) {
		t.Errorf("5-hour = %v %% until %v, want %v %% until %v", *u.FiveHour, u.FiveHourResets, f.fiveHour.UsedPercent, f.fiveHour.ResetsAt)
	}
	if *u.Weekly != f.weekly.UsedPercent || !u.WeeklyResets.Equal(f.weekly.ResetsAt) {
		t.Errorf("weekly = %v %% until %v, want %v %% until %v", *u.Weekly, u.WeeklyResets, f.weekly.UsedPercent, f.weekly.ResetsAt)
	}
	if u.At.Before(want.after) || a.Since.Before(want.after) {
		t.Errorf("usage read at %v, idle since %v: want both after the post at %v", u.At, a.Since, want.after)
	}
}

// recordRolloutEnv names a file the Codex e2e test copies the session's
// rollout to: how seats/cli/codex/testdata/codex-0.169.0-rollout.jsonl was recorded
// (see seats/cli/codex/testdata/README.md).
const recordRolloutEnv = "PULLCEPT_RECORD_ROLLOUT"

func recordRollout(t *testing.T, codexHome, session string) {
	t.Helper()
	dst := os.Getenv(recordRolloutEnv)
	if dst == "" {
		return
	}
	src, ok := codex.Rollout(codexHome, session)
	if !ok {
		t.Fatalf("no rollout of %s to record", session)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s (%d bytes) to %s", filepath.Base(src), len(b), dst)
}
