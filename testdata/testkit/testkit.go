// Package testkit holds the helpers every test package of Pullcept shares
// (docs/design.md §13): one way to wait on a condition with a deadline, one
// way to scale a deadline to the machine (Slow, PULLCEPT_TEST_SLOW), the
// one way to skip a test under Wine for a Wine gap, and (Linux) a private
// Secret Service for the tests that seal env values in the OS keyring
// (StartSecretService). It
// lives under testdata/ so `go test ./...` does not treat it as a product
// package; test files import it by path, and `make vet`, `make lint` and
// `make test` name it explicitly.
//
// Goroutines: none but StartSecretService's reader of dbus-daemon's address
// line (it ends with the daemon's output; the test owns the daemon, which
// its cleanup kills and waits for). Waits run in the test's goroutine.
package testkit

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// SlowEnv names the slow factor: a positive number every test deadline is
// multiplied by (Slow). Unset, the factor is 1, or 2 when CI is set (a
// shared CI box), raised to the load average per CPU when that is higher,
// at most maxAutoSlow: a machine running 8 runnable threads per core gives
// each about an eighth of a core. Set, it is used as it is (CI can pin it;
// 1 turns the automatic raise off). The Makefile scales go test's -timeout
// by the same rule.
const SlowEnv = "PULLCEPT_TEST_SLOW"

// maxAutoSlow caps the factor taken from the load average.
const maxAutoSlow = 8

// Slow scales a deadline of a test to this machine: d times the slow factor
// (SlowEnv), which is decided once per test binary, at its first use. Every
// deadline a test can fail on goes through it exactly once, where it is
// defined (`var stepWait = testkit.Slow(60 * time.Second)`): Eventually,
// EventuallyWithin and Wait take deadlines already scaled. A bad SlowEnv
// value panics: every test would otherwise run with deadlines nobody chose.
// Slow is for deadlines only, never for a time the product is asked to
// wait or a pace the test keeps.
func Slow(d time.Duration) time.Duration {
	x := float64(d) * slowFactor()
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(x)
}

var slowOnce = sync.OnceValue(func() float64 {
	f, err := decideSlow(os.Getenv(SlowEnv), os.Getenv("CI") != "", loadPerCPU())
	if err != nil {
		panic(err)
	}
	return f
})

// slowFactor is the factor Slow multiplies by.
func slowFactor() float64 { return slowOnce() }

// decideSlow is the slow factor: env when set (a positive number), else 1
// (2 when ci), raised to load (the load average per CPU) up to maxAutoSlow.
func decideSlow(env string, ci bool, load float64) (float64, error) {
	if env = strings.TrimSpace(env); env != "" {
		f, err := strconv.ParseFloat(env, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%s=%q: want a positive number (docs/design.md §13)", SlowEnv, env)
		}
		return f, nil
	}
	f := 1.0
	if ci {
		f = 2
	}
	return math.Max(f, math.Min(load, maxAutoSlow)), nil
}

// loadPerCPU is the one-minute load average over the CPUs this process
// may use (Linux /proc/loadavg; 0 where there is none).
func loadPerCPU() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0
	}
	l, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0
	}
	return l / float64(runtime.NumCPU())
}

// Wait is the deadline Eventually gives a condition, scaled (Slow): 20 s,
// far above what a healthy run needs (milliseconds), enough for a -race
// binary on a loaded two-core machine starting real processes.
var Wait = Slow(20 * time.Second)

// poll is how often Eventually looks again: short against the latencies
// under test, long enough not to load the machine.
const poll = 5 * time.Millisecond

// Eventually waits until cond holds, checking it at once and then every few
// milliseconds, and fails t (naming what it waited for) after Wait.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	EventuallyWithin(t, Wait, what, cond)
}

// EventuallyWithin is Eventually with its own deadline d, already scaled
// (Slow).
func EventuallyWithin(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if cond() {
		return
	}
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if cond() {
				return
			}
		case <-deadline.C:
			if cond() {
				return
			}
			t.Fatalf("waited %v for %s (deadlines ×%g here, %s)", d, what, slowFactor(), SlowEnv)
		}
	}
}

// UnderWine reports whether the test binary runs under Wine in the
// Windows rig (testdata/wine/run.sh sets PULLCEPT_WINE=1).
func UnderWine() bool { return os.Getenv("PULLCEPT_WINE") == "1" }

// SkipUnderWine skips t under Wine only, printing why: a Wine gap, not a
// behaviour of real Windows, which the test still checks there.
func SkipUnderWine(t testing.TB, why string) {
	t.Helper()
	if UnderWine() {
		t.Skipf("under Wine: %s", why)
	}
}

// AppendFile appends s to the file at path, made when missing: how a CLI
// grows the JSONL files the seats tail (a Codex rollout, a transcript).
func AppendFile(t testing.TB, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// RoomSocketDir is a fresh short directory for a test room's Unix socket
// (room.ServerOptions.SocketDir; on Windows it asks for a named pipe),
// removed at the test's end. Short: a socket path is at most 104–108
// bytes, and t.TempDir holds the test's name.
func RoomSocketDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pcr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// Buffer is a bytes.Buffer that goroutines may write while a test reads
// it (a logger's or a child's output).
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
