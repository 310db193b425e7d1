package cli

import (
	"testing"
	"time"
)

var obsT0 = time.Date(2026, 10, 2, 14, 30, 0, 0, time.UTC)

func at(ms int) time.Time { return obsT0.Add(time.Duration(ms) * time.Millisecond) }

// TestObservedFirstSecondSaysNothing: a seat that writes nothing says
// nothing for its first second, then idle since its start (spec #148: the
// silence is measured from the start, never left unsaid).
func TestObservedFirstSecondSaysNothing(t *testing.T) {
	t.Parallel()
	o := NewObserved(obsT0)
	if a := o.Activity(); a.Kind != ActivityUnknown {
		t.Fatalf("at start: %v, want unknown", a.Kind)
	}
	if due := o.Due(); !due.Equal(at(1000)) {
		t.Fatalf("due = %v, want the start + 1 s", due)
	}
	if o.Settle(at(999)) || o.Activity().Kind != ActivityUnknown {
		t.Fatalf("idle before a second of silence: %+v", o.Activity())
	}
	if !o.Settle(at(1000)) {
		t.Fatal("a second of silence did not change the word")
	}
	if a := o.Activity(); a.Kind != ActivityIdle || !a.Since.Equal(obsT0) {
		t.Fatalf("after a silent second: %+v, want idle since the start", a)
	}
	if !o.Due().IsZero() || o.Settle(at(5000)) {
		t.Fatal("an idle seat has more to change without output")
	}
}

// TestObservedBurstThenQuiet: output is "output" at once, one change per
// burst however many reads it takes; a second without output is idle since
// the burst's last read.
func TestObservedBurstThenQuiet(t *testing.T) {
	t.Parallel()
	o := NewObserved(obsT0)
	if !o.Output(at(100)) {
		t.Fatal("the first output did not start a burst")
	}
	if a := o.Activity(); a.Kind != ActivityOutput || !a.Since.Equal(at(100)) {
		t.Fatalf("after output: %+v, want output since it", a)
	}
	changes := 0
	for ms := 150; ms <= 900; ms += 50 {
		if o.Output(at(ms)) {
			changes++
		}
	}
	if changes != 0 {
		t.Fatalf("%d changes inside one burst, want none", changes)
	}
	if due := o.Due(); !due.Equal(at(1900)) {
		t.Fatalf("due = %v, want the last output + 1 s", due)
	}
	if o.Settle(at(1899)) || o.Activity().Kind != ActivityOutput {
		t.Fatal("idle before a full second without output")
	}
	if !o.Settle(at(1900)) {
		t.Fatal("a second without output did not end the burst")
	}
	if a := o.Activity(); a.Kind != ActivityIdle || !a.Since.Equal(at(900)) {
		t.Fatalf("after the burst: %+v, want idle since its last output", a)
	}
	// The next burst is a change again.
	if !o.Output(at(4000)) || o.Activity().Kind != ActivityOutput {
		t.Fatalf("a new burst: %+v", o.Activity())
	}
}

// TestObservedEchoIsNotOutput: what the terminal shows within EchoWindow
// of a write into it (the echo of the human's keys, a post typed and its
// Enter) is its answer, not the seat writing; what comes later is.
func TestObservedEchoIsNotOutput(t *testing.T) {
	t.Parallel()
	o := NewObserved(obsT0)
	o.Settle(at(1000)) // idle
	// The human types a line key by key, each echoed and redrawn.
	for ms := 2000; ms <= 3000; ms += 120 {
		o.Wrote(at(ms))
		o.Wrote(at(ms + 1)) // the write ended
		for _, d := range []int{0, 2, 40, 250} {
			if o.Output(at(ms + 1 + d)) {
				t.Fatalf("the echo %d ms after a key started a burst", d)
			}
		}
	}
	// A read stamped before the write it answers (two goroutines' clocks).
	o.Wrote(at(3500))
	if o.Output(at(3499)) {
		t.Fatal("output read as a write ended started a burst")
	}
	if a := o.Activity(); a.Kind != ActivityIdle || !a.Since.Equal(obsT0) {
		t.Fatalf("after the human's keys: %+v, want still idle since the start", a)
	}
	// The Enter of a post: the CLI's answer goes on past the window.
	o.Wrote(at(5000))
	burst := time.Time{}
	for ms := 5010; ms <= 7000; ms += 30 {
		if o.Output(at(ms)) && burst.IsZero() {
			burst = at(ms)
		}
	}
	if want := at(5000).Add(EchoWindow); burst.Before(want) || burst.After(want.Add(30*time.Millisecond)) {
		t.Fatalf("the answer to an Enter is output from %v, want from the end of the echo window %v", burst, want)
	}
}
