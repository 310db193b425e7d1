// Package testkit holds the helpers every test package of Pullcept shares
// (docs/design.md §13): one way to wait on a condition with a deadline. It
// lives under testdata/ so `go test ./...` does not treat it as a product
// package; test files import it by path, and `make vet`, `make lint` and
// `make test` name it explicitly.
//
// Goroutines: none. Waits run in the test's goroutine.
package testkit

import (
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
