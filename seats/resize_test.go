package seats

// Resize debounce and re-apply (resize.go), on every OS: the rules over a
// fake PTY, and a real seat's PTY (a ConPTY on Windows, also under Wine
// with make wine) wrapped to count what reaches it.

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// sizeLog records the sizes a PTY was given and the re-applies (Winch).
type sizeLog struct {
	mu      sync.Mutex
	sizes   [][2]int
	winches int
}

func (l *sizeLog) resized(cols, rows int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sizes = append(l.sizes, [2]int{cols, rows})
}

func (l *sizeLog) get() ([][2]int, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.sizes), l.winches
}

// fakeSizeProc is a PTY with no child: it records sizes and re-applies.
type fakeSizeProc struct {
	sizeLog
	procBufferless
}

func (p *fakeSizeProc) Resize(cols, rows int) error { p.resized(cols, rows); return nil }
func (p *fakeSizeProc) Winch() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.winches++
	return nil
}

// procBufferless is the rest of a Proc that never runs anything.
type procBufferless struct{}

func (procBufferless) Read([]byte) (int, error)    { select {} }
func (procBufferless) Write(b []byte) (int, error) { return len(b), nil }
func (procBufferless) Wait() (int, error)          { select {} }
func (procBufferless) Signaled() int               { select {} }
func (procBufferless) Kill() error                 { return nil }
func (procBufferless) Close() error                { return nil }
func (procBufferless) Pid() int                    { return 4242 }

// sizedSeat is a listed-looking seat over p at 80×24 whose resizer runs
// until the test ends.
func sizedSeat(t *testing.T, p pty.Proc, quiet time.Duration) (*Manager, *Seat) {
	t.Helper()
	m := &Manager{opts: ManagerOptions{ResizeQuiet: quiet}, logger: slog.New(slog.DiscardHandler)}
	screen, err := terminal.NewScreen(80, 24, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &Seat{Topic: "t", Account: "a", proc: p, screen: screen, state: StateRunning,
		done: make(chan struct{}), resizeKick: make(chan struct{}, 1), output: make(chan struct{}),
		size: seatSize{want: [2]int{80, 24}, have: [2]int{80, 24}}}
	ended := make(chan struct{})
	go func() { defer close(ended); m.resizer(s) }()
	t.Cleanup(func() {
		close(s.done)
		<-ended
		_ = screen.Close()
	})
	return m, s
}

// started stands for the child's first output (outputSignal).
func (s *Seat) startedForTest() { s.outputOnce.Do(func() { close(s.output) }) }

// begun reports whether the resizer has seen the child's first output.
func (s *Seat) begun() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size.begun
}

// TestResizeRules: a burst is one resize with the last size; a size asked
// for while the child starts goes at its first output; a size applied
// before the first output is re-applied then; without one, nothing is.
func TestResizeRules(t *testing.T) {
	t.Run("burst", func(t *testing.T) {
		p := &fakeSizeProc{}
		// The quiet window is scaled: the 20 sizes must all come within
		// it, and a loaded box may pause the loop (issue 28).
		_, s := sizedSeat(t, p, testkit.Slow(500*time.Millisecond))
		s.startedForTest()
		testkit.Eventually(t, "the first output seen", s.begun)
		for i := range 20 {
			if err := s.Resize(81+i, 25+i%3); err != nil {
				t.Fatal(err)
			}
		}
		testkit.Eventually(t, "a resize", func() bool { sz, _ := p.get(); return len(sz) > 0 })
		if sz, w := p.get(); !slices.Equal(sz, [][2]int{{100, 26}}) || w != 0 {
			t.Fatalf("20 sizes in a burst gave resizes %v and %d re-applies; want one, the last (100×26)", sz, w)
		}
		if snap := s.Screen().Snapshot(); snap.Cols != 100 || snap.Rows != 26 {
			t.Fatalf("screen %d×%d, want the PTY's 100×26", snap.Cols, snap.Rows)
		}
	})
	t.Run("pending at the first output", func(t *testing.T) {
		p := &fakeSizeProc{}
		_, s := sizedSeat(t, p, time.Hour) // the quiet window never ends here
		if err := s.Resize(120, 40); err != nil {
			t.Fatal(err)
		}
		if sz, _ := p.get(); len(sz) != 0 {
			t.Fatalf("resized %v before the size held or the child started", sz)
		}
		s.startedForTest()
		testkit.Eventually(t, "the size applied at the first output", func() bool {
			sz, w := p.get()
			return slices.Equal(sz, [][2]int{{120, 40}}) && w == 0
		})
	})
	t.Run("applied while starting is re-applied", func(t *testing.T) {
		p := &fakeSizeProc{}
		_, s := sizedSeat(t, p, time.Millisecond)
		if err := s.Resize(90, 30); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, "the size applied", func() bool { sz, _ := p.get(); return len(sz) == 1 })
		s.startedForTest()
		testkit.Eventually(t, "the size re-applied at the first output", func() bool {
			sz, w := p.get()
			return slices.Equal(sz, [][2]int{{90, 30}}) && w == 1
		})
	})
	t.Run("nothing to re-apply", func(t *testing.T) {
		p := &fakeSizeProc{}
		_, s := sizedSeat(t, p, time.Millisecond)
		s.startedForTest()
		testkit.Eventually(t, "the first output seen", s.begun)
		if err := s.Resize(70, 20); err != nil { // after the start: no re-apply
			t.Fatal(err)
		}
		testkit.Eventually(t, "the resize", func() bool { sz, _ := p.get(); return len(sz) == 1 })
		if sz, w := p.get(); !slices.Equal(sz, [][2]int{{70, 20}}) || w != 0 {
			t.Fatalf("resizes %v, re-applies %d; want [70×20] and none", sz, w)
		}
	})
	t.Run("after the PTY closed", func(t *testing.T) {
		p := &fakeSizeProc{}
		_, s := sizedSeat(t, p, time.Millisecond)
		s.startedForTest()
		testkit.Eventually(t, "the first output seen", s.begun)
		s.ptyMu.Lock()
		s.ptyClosed = true // what the exit watcher does before it closes the PTY
		s.ptyMu.Unlock()
		if err := s.Resize(70, 20); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, "the screen at 70×20", func() bool {
			snap := s.Screen().Snapshot()
			return snap.Cols == 70 && snap.Rows == 20
		})
		if sz, w := p.get(); len(sz) != 0 || w != 0 {
			t.Fatalf("a closed PTY got resizes %v and %d re-applies", sz, w)
		}
	})
	t.Run("exited keeps the last size", func(t *testing.T) {
		_, s := sizedSeat(t, &fakeSizeProc{}, time.Hour)
		s.mu.Lock()
		s.state = StateExited
		s.mu.Unlock()
		if err := s.Resize(120, 40); err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		want := s.size.want
		s.mu.Unlock()
		if snap := s.Screen().Snapshot(); snap.Cols != 120 || snap.Rows != 40 || want != [2]int{120, 40} {
			t.Fatalf("exited seat: screen %d×%d, wanted %v; want both 120×40 (the resizer's last act reads it)", snap.Cols, snap.Rows, want)
		}
	})
	t.Run("bad size", func(t *testing.T) {
		p := &fakeSizeProc{}
		_, s := sizedSeat(t, p, time.Millisecond)
		if err := s.Resize(0, 10); err == nil {
			t.Fatal("0×10 accepted")
		}
	})
}

// gatedProc is a real seat PTY whose output the test holds back until it
// opens the gate; the first read after that stands for the child's first
// output (under Wine a ConPTY child's output never comes back). It counts
// the sizes that reach the PTY.
type gatedProc struct {
	pty.Proc
	log   *sizeLog
	gate  chan struct{}
	first sync.Once
}

func (p *gatedProc) Read(b []byte) (int, error) {
	<-p.gate
	n := 0
	p.first.Do(func() { n = copy(b, "started\r\n") })
	if n > 0 {
		return n, nil
	}
	return p.Proc.Read(b)
}

func (p *gatedProc) Resize(cols, rows int) error {
	p.log.resized(cols, rows)
	return p.Proc.Resize(cols, rows) // under Wine: "not implemented", logged by the seat
}

func (p *gatedProc) Winch() error {
	if w, ok := p.Proc.(winchSender); ok {
		return w.Winch()
	}
	return nil
}

// gatedSeat starts a fake CLI seat (with opts) at 80×24 whose PTY is a
// gatedProc; the gate is opened at the test's end at the latest.
func gatedSeat(t *testing.T, opts string, quiet time.Duration) (*Seat, *sizeLog, func()) {
	t.Helper()
	dir := t.TempDir()
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	a := fakecli.Account(t, "sized", "Sized", work, opts)
	m, err := NewManager(ManagerOptions{Sessions: store, PullceptPath: fakecli.Command(t), Environ: os.Environ,
		Accounts: func(id string) (config.Account, bool) { return a, id == a.ID }, ResizeQuiet: quiet})
	if err != nil {
		t.Fatal(err)
	}
	m.SetRoom(RoomEndpoint{URL: "ws://127.0.0.1:9/room", HooksURL: "http://127.0.0.1:9", Token: "t"})
	log := &sizeLog{}
	gate := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(gate) }) }
	m.spawn = func(o pty.Options) (pty.Proc, error) {
		p, err := pty.Start(o)
		if err != nil {
			return nil, err
		}
		return &gatedProc{Proc: p, log: log, gate: gate}, nil
	}
	t.Cleanup(func() {
		open()
		m.Close()
		_ = store.Close()
	})
	if _, err := m.Start("topic-1", a.ID, 80, 24); err != nil {
		t.Fatal(err)
	}
	s, ok := m.Seat("topic-1", a.ID)
	if !ok {
		t.Fatal("no seat after Start")
	}
	return s, log, open
}

// TestSeatResizeBurstReachesThePTYOnce: a burst of sizes on a running seat
// is one resize of its real PTY, the last size.
func TestSeatResizeBurstReachesThePTYOnce(t *testing.T) {
	// Scaled: the burst must come within the quiet window (issue 28).
	s, log, open := gatedSeat(t, "-stay", testkit.Slow(300*time.Millisecond))
	open()
	testkit.Eventually(t, "the child's first output seen", s.begun)
	if got := s.info().Size; got != [2]int{80, 24} {
		t.Fatalf("info's size before a resize = %v, want 80×24", got)
	}
	for i := range 20 {
		if err := s.Resize(100+i, 30); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Eventually(t, "a resize of the PTY", func() bool { sz, _ := log.get(); return len(sz) > 0 })
	if sz, _ := log.get(); !slices.Equal(sz, [][2]int{{119, 30}}) {
		t.Fatalf("a burst of 20 sizes reached the PTY as %v; want one, the last (119×30)", sz)
	}
	// The window the details show is the one the PTY took.
	testkit.Eventually(t, "the seat's info says 119×30", func() bool { return s.info().Size == [2]int{119, 30} })
}

// TestSeatResizeWhileStartingAppliedAtFirstOutput: a size asked for while
// the child starts reaches its real PTY at the child's first output,
// without waiting for the quiet window.
func TestSeatResizeWhileStartingAppliedAtFirstOutput(t *testing.T) {
	s, log, open := gatedSeat(t, "-stay", time.Hour)
	if err := s.Resize(132, 43); err != nil {
		t.Fatal(err)
	}
	if sz, _ := log.get(); len(sz) != 0 {
		t.Fatalf("PTY resized %v before the child's first output", sz)
	}
	open()
	testkit.Eventually(t, "the size at the first output", func() bool {
		sz, _ := log.get()
		return slices.Equal(sz, [][2]int{{132, 43}})
	})
	if snap := s.Screen().Snapshot(); snap.Cols != 132 || snap.Rows != 43 {
		t.Fatalf("screen %d×%d, want 132×43", snap.Cols, snap.Rows)
	}
}
