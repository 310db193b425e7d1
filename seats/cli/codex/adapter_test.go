//go:build unix

package codex

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// fakeSeat is a cli.Seat that keeps what its Run reports: the reported
// state, how many reports changed something shown, the holds released, the
// limit steps and the notices.
type fakeSeat struct {
	done, output chan struct{}
	cooked       atomic.Bool      // the TUI has not asked for bracketed paste yet
	clock        func() time.Time // Now's clock (nil: time.Now)

	mu       sync.Mutex
	rep      cli.Reported
	updates  int
	released []string
	limited  int
	notices  []string
	session  string
	submits  []string
}

func newFakeSeat() *fakeSeat {
	return &fakeSeat{done: make(chan struct{}), output: make(chan struct{})}
}

func (f *fakeSeat) Topic() string { return "t" }

func (f *fakeSeat) Submitted(text string) {
	f.mu.Lock()
	f.submits = append(f.submits, text)
	f.mu.Unlock()
}

func (f *fakeSeat) Account() string         { return "cc" }
func (f *fakeSeat) Started() time.Time      { return time.Now() }
func (f *fakeSeat) Done() <-chan struct{}   { return f.done }
func (f *fakeSeat) Output() <-chan struct{} { return f.output }
func (f *fakeSeat) Pasting() bool           { return !f.cooked.Load() }
func (f *fakeSeat) Now() time.Time {
	if f.clock != nil {
		return f.clock()
	}
	return time.Now()
}
func (f *fakeSeat) Logger() *slog.Logger { return slog.New(slog.DiscardHandler) }
func (f *fakeSeat) Kill() error          { return nil }

func (f *fakeSeat) Report(fn func(*cli.Reported) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fn(&f.rep) {
		f.updates++
	}
	f.rep.Closed = nil
}

func (f *fakeSeat) Release(hold string) {
	f.mu.Lock()
	f.released = append(f.released, hold)
	f.mu.Unlock()
}

func (f *fakeSeat) Limit(func(*limits.Limiter, time.Time) []limits.Action) {
	f.mu.Lock()
	f.limited++
	f.mu.Unlock()
}

func (f *fakeSeat) Notice(_ bool, format string, _ ...any) {
	f.mu.Lock()
	f.notices = append(f.notices, format)
	f.mu.Unlock()
}

func (f *fakeSeat) SessionFound(id string) {
	f.mu.Lock()
	f.session = id
	f.mu.Unlock()
}

// state is what the seat holds now and how many reports changed it.
func (f *fakeSeat) state() (cli.Reported, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rep, f.updates
}

// TestCodexSeatTail: a Codex seat's rollout reads store what it says in
// the seat and announce a change only when something shown changed.
func TestCodexSeatTail(t *testing.T) {
	t.Parallel()
	s := newFakeSeat()
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	lines := rolloutLines(t, realRollout)
	first := slices.IndexFunc(lines, func(l []byte) bool { return bytes.Contains(l, []byte(`"type":"task_complete"`)) })
	tail, rep := cli.NewTail(path, 0), codexReport{}
	r := &run{a: New(time.Second, nil)}
	testkit.AppendFile(t, path, string(bytes.Join(lines[:first], []byte("\n")))+"\n")
	if n := r.readRollout(s, tail, &rep); n != first {
		t.Fatalf("read %d lines, want %d", n, first)
	}
	if in, n := s.state(); in.Usage.Context == nil || *in.Usage.Context != 7 || in.Usage.Effort != "high" || in.Activity.Kind != cli.ActivityThinking || n != 1 {
		t.Fatalf("after the first turn's lines: %+v, %+v, %d updates (want 1)", in.Usage, in.Activity, n)
	}
	testkit.AppendFile(t, path, string(realLine(t, "token_usage_record", 0))+"\nnot json\n"+string(realLine(t, "token_count", 1))+"\n")
	if n := r.readRollout(s, tail, &rep); n != 3 {
		t.Fatalf("lines that change nothing shown: %d read", n)
	}
	if _, n := s.state(); n != 1 {
		t.Fatalf("lines that change nothing shown were announced: %d updates", n)
	}
	if r.readRollout(s, tail, &rep) != 0 {
		t.Fatal("an unchanged rollout gave lines")
	}
	testkit.AppendFile(t, path, string(lines[first])+"\n")
	r.readRollout(s, tail, &rep)
	if in, n := s.state(); in.Activity.Kind != cli.ActivityIdle || n != 2 {
		t.Fatalf("after task_complete: %+v, %d updates", in.Activity, n)
	}
}

// TestCodexSeatTailEnds: the tail goroutine reads what is appended and ends
// with its seat, after a last read of the lines written before the exit.
func TestCodexSeatTailEnds(t *testing.T) {
	t.Parallel()
	s := newFakeSeat()
	r := &run{a: New(5*time.Millisecond, nil)}
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	testkit.AppendFile(t, path, "")
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		r.tailRollout(s, cli.NewTail(path, 0), codexReport{})
	}()
	testkit.AppendFile(t, path, string(realLine(t, "turn_context", 0))+"\n")
	testkit.Eventually(t, "the model shown", func() bool { in, _ := s.state(); return in.Usage.Model == "gpt-5.5" })
	testkit.AppendFile(t, path, string(realLine(t, "task_complete", 0))+"\n")
	close(s.done)
	select {
	case <-ended:
	case <-time.After(testkit.Slow(30 * time.Second)):
		t.Fatal("the tail outlived its seat")
	}
	if in, _ := s.state(); in.Activity.Kind != cli.ActivityIdle {
		t.Fatalf("activity after the exit = %+v, want idle (the last read)", in.Activity)
	}
}

// TestAttachWaitsForRawMode: HoldAttach stays while the TUI reads its
// terminal cooked, whatever said the attach was due, and goes once it
// asked for bracketed paste.
func TestAttachWaitsForRawMode(t *testing.T) {
	t.Parallel()
	s := newFakeSeat()
	s.cooked.Store(true)
	a := attachWait{s: s, started: time.Now()}
	a.due()
	if s.releasedHolds() != 0 || a.look == nil {
		t.Fatal("HoldAttach let go of a TUI still cooked")
	}
	s.cooked.Store(false)
	<-a.look
	a.look = nil
	a.due()
	if s.releasedHolds() != 1 {
		t.Fatal("HoldAttach kept once the TUI reads raw")
	}
	a.due()
	if s.releasedHolds() != 1 {
		t.Fatal("HoldAttach released twice")
	}
	// A TUI that never goes raw gets its posts after codexAttachLimit.
	late := newFakeSeat()
	late.cooked.Store(true)
	b := attachWait{s: late, started: time.Now().Add(-codexAttachLimit)}
	b.due()
	if late.releasedHolds() != 1 {
		t.Fatal("HoldAttach held past its limit")
	}
}

func (f *fakeSeat) releasedHolds() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.released)
}
