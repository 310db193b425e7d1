package testkit

import (
	"sync/atomic"
	"testing"
	"time"
)

// fakeTB records a failure instead of ending the test.
type fakeTB struct {
	testing.TB
	failed atomic.Bool
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed.Store(true)
	panic("Fatalf") // Eventually must not go on after a failure
}

func TestEventuallyReturnsOnceTheConditionHolds(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	go func() {
		for range 3 {
			time.Sleep(time.Millisecond)
			n.Add(1)
		}
	}()
	Eventually(t, "three ticks", func() bool { return n.Load() == 3 })
}

func TestEventuallyFailsAfterTheDeadline(t *testing.T) {
	t.Parallel()
	f := &fakeTB{TB: t}
	start := time.Now()
	func() {
		defer func() { _ = recover() }()
		EventuallyWithin(f, 30*time.Millisecond, "never", func() bool { return false })
	}()
	if !f.failed.Load() {
		t.Fatal("Eventually did not fail on a condition that never holds")
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Fatalf("failed after %v, before its deadline", took)
	}
}
