//go:build linux

package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// echoKeys is how many keys are typed in each phase of TestCompareEcho, and
// echoGap the pause between two (a fast typist).
const (
	echoKeys = 120
	echoGap  = 15 * time.Millisecond
)

// echoSeat is a seat of the measurement: a program in a seats PTY, its
// Screen fed by Pump, keys through its Typist.
type echoSeat struct {
	proc   pty.Proc
	screen *terminal.Screen
	keys   *seats.Typist
	pumped chan struct{}
}

func startEchoSeat(t *testing.T, script, dir string) *echoSeat {
	t.Helper()
	proc, err := pty.Start(pty.Options{Argv: []string{"/bin/sh", "-c", script}, Dir: dir,
		Env: os.Environ(), Cols: StreamCols, Rows: StreamRows})
	if err != nil {
		t.Fatal(err)
	}
	s := &echoSeat{proc: proc, pumped: make(chan struct{})}
	s.keys = seats.NewTypist(proc, seats.TypistOptions{Ready: true})
	if s.screen, err = terminal.NewScreen(StreamCols, StreamRows, s.keys.Reply); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.pumped)
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("pump panicked: %v", r)
			}
		}()
		_ = terminal.Pump(proc, s.screen)
	}()
	t.Cleanup(s.stop)
	return s
}

func (s *echoSeat) stop() {
	_ = s.proc.Kill()
	_, _ = s.proc.Wait()
	_ = s.proc.Close()
	<-s.pumped
	_ = s.keys.Close()
	_ = s.screen.Close()
}

// TestCompareEcho measures what a flooding seat does to typing into
// another (docs/design.md §10, issue 13 "backpressure stays fair"): keys typed
// into a seat running `cat` (the terminal echoes them), timed from the write
// to the key on that seat's Screen, first alone, then while a second seat
// prints the line flood in a loop; a renderer snapshots both screens at
// tui.FrameRate frames a second meanwhile, as the UI does. It prints the echo's median, 95th
// percentile and worst case in both phases and the flood's throughput. A
// measurement, not a timing check: it fails only when a key never shows.
func TestCompareEcho(t *testing.T) {
	dir := t.TempDir()
	flood := filepath.Join(dir, "flood.txt")
	f, err := os.Create(flood)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteLineFlood(f, 4<<20); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	typer := startEchoSeat(t, "exec cat", dir)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	screens := []*terminal.Screen{typer.screen}
	var mu sync.Mutex
	render := func() {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range screens {
			_ = s.Snapshot()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("renderer panicked: %v", r)
			}
		}()
		tick := time.NewTicker(uiFrame)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				render()
			}
		}
	}()

	alone := typeKeys(t, typer, 0)
	flooder := startEchoSeat(t, "stty -echo; while :; do cat "+shellQuote(flood)+"; done", dir)
	mu.Lock()
	screens = append(screens, flooder.screen)
	mu.Unlock()
	cpu0, start := selfCPU(t), time.Now()
	flooded := typeKeys(t, typer, 1)
	wall, cpu := time.Since(start), selfCPU(t)-cpu0
	t.Logf("echo alone: %s", echoFigures(alone))
	t.Logf("echo beside a flooding seat: %s (this process used %.0f%% of a core meanwhile)",
		echoFigures(flooded), 100*cpu.Seconds()/wall.Seconds())
}

// typeKeys types echoKeys keys into s, a line of them at a time (Enter after
// 40, and at the end), and returns how long each took to show on its Screen.
func typeKeys(t *testing.T, s *echoSeat, phase int) []time.Duration {
	t.Helper()
	var out []time.Duration
	line := ""
	for i := range echoKeys {
		if i%40 == 0 {
			if i > 0 {
				s.keys.Human([]byte("\r"))
				waitScreen(t, s.screen, line+"\n"+line) // the echo, then cat's copy
			}
			line = fmt.Sprintf("p%d-%03d:", phase, i) // typed as one burst: a unique marker
			s.keys.Human([]byte(line))
			waitScreen(t, s.screen, line)
		}
		key := string(rune('a' + i%26))
		line += key
		start := time.Now()
		s.keys.Human([]byte(key))
		waitScreen(t, s.screen, line)
		out = append(out, time.Since(start))
		time.Sleep(echoGap) // a person's pace between keys
	}
	s.keys.Human([]byte("\r")) // the next phase starts on a line of its own
	waitScreen(t, s.screen, line+"\n"+line)
	return out
}

// waitScreen waits until s shows want, at most a minute (scaled).
func waitScreen(t *testing.T, s *terminal.Screen, want string) {
	t.Helper()
	waitScreenUntil(t, s, fmt.Sprintf("%q showing", want), func(txt string) bool { return strings.Contains(txt, want) })
}

// waitScreenUntil waits until s's text satisfies ok, at most a minute
// (scaled), woken by each change of s.
func waitScreenUntil(t *testing.T, s *terminal.Screen, what string, ok func(string) bool) {
	t.Helper()
	deadline := time.After(testkit.Slow(time.Minute))
	for !ok(s.Text()) {
		select {
		case <-s.Changed():
		case <-deadline:
			snap := s.Snapshot()
			t.Fatalf("never %s; the screen (cursor %d,%d):\n%s", what, snap.CursorX, snap.CursorY, strings.Join(snap.Lines, "\n"))
		}
	}
}

func echoFigures(d []time.Duration) string {
	q := func(p float64) time.Duration { return quantile(d, p).Round(10 * time.Microsecond) }
	return fmt.Sprintf("p50 %v, p95 %v, max %v over %d keys", q(0.5), q(0.95), q(1), len(d))
}

// quantile is the p-quantile of d (0 ≤ p ≤ 1; 1 is the worst case); d is
// not empty.
func quantile(d []time.Duration, p float64) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[min(len(d)-1, int(p*float64(len(d))))]
}
