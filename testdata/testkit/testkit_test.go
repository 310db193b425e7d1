package testkit

import (
	"math"
	"strings"
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

func TestDecideSlow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  string
		ci   bool
		load float64
		want float64
		bad  bool
	}{
		{env: "", load: 0, want: 1},
		{env: "", load: 0.7, want: 1},
		{env: "", ci: true, load: 0.5, want: 2},
		{env: "", load: 3.5, want: 3.5},          // 7 runnable on 2 CPUs
		{env: "", ci: true, load: 12.5, want: 8}, // at most maxAutoSlow
		{env: "3", ci: true, load: 12, want: 3},  // set: used as it is
		{env: " 0.5 ", load: 4, want: 0.5},
		{env: "1", load: 6, want: 1}, // 1 turns the raise off
		{env: "0", bad: true},
		{env: "-2", bad: true},
		{env: "fast", bad: true},
		{env: "NaN", bad: true},
		{env: "Inf", bad: true},
	} {
		got, err := decideSlow(c.env, c.ci, c.load)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("decideSlow(%q, ci %v, load %v) = %v, %v; want %v (bad %v)", c.env, c.ci, c.load, got, err, c.want, c.bad)
		}
		if err != nil && !strings.Contains(err.Error(), SlowEnv) {
			t.Errorf("error %q does not name %s", err, SlowEnv)
		}
	}
}

func TestSlowScalesByTheFactor(t *testing.T) {
	t.Parallel()
	f := slowFactor()
	if f <= 0 {
		t.Fatalf("factor %v", f)
	}
	if got, want := Slow(10*time.Second), time.Duration(float64(10*time.Second)*f); got != want {
		t.Errorf("Slow(10s) = %v, want %v (factor %v)", got, want, f)
	}
	if Wait != Slow(20*time.Second) {
		t.Errorf("Wait = %v, want Slow(20s) = %v", Wait, Slow(20*time.Second))
	}
	if got := Slow(math.MaxInt64); got <= 0 {
		t.Errorf("Slow of a huge deadline overflowed to %v", got)
	}
}
