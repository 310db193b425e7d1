// Package testkit holds the helpers every test package of Pullcept shares
// (docs/design.md §13): one way to wait on a condition with a deadline, the
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
	"os"
	"testing"
	"time"
)

// Wait is the deadline Eventually gives a condition: far above what a
// healthy run needs (milliseconds), enough for a -race binary on a loaded
// two-core machine starting real processes.
const Wait = 20 * time.Second

// poll is how often Eventually looks again: short against the latencies
// under test, long enough not to load the machine.
const poll = 5 * time.Millisecond

// Eventually waits until cond holds, checking it at once and then every few
// milliseconds, and fails t (naming what it waited for) after Wait.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	EventuallyWithin(t, Wait, what, cond)
}

// EventuallyWithin is Eventually with its own deadline.
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
			t.Fatalf("waited %v for %s", d, what)
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
