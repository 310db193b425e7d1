package cli

import "time"

// What a seat's terminal says of it where its CLI reports nothing (a
// generic CLI: cli.Adapter.Observed; spec «走っているアカウントが何をして
// いるか» #82, #148; docs/design.md §10): output arriving is
// ActivityOutput, a terminal silent for QuietAfter is ActivityIdle. It
// counts that bytes arrived, never what they say (the spec's #82: reading
// them would be one parser per CLI, broken by each redraw it changes).
//
// Output that answers a write into the terminal is not the seat's own: the
// echo of the human's keys, the redraw of an input box taking them, a
// post Pullcept typed and its Enter, the redraw at a new size (the seat
// notes a resize as a write). It is told apart by time alone: output
// read within EchoWindow of the end of such a write is its answer. The
// emulator's replies to the CLI's own queries (cursor position, device
// attributes) are not such writes: the output after them is the CLI's.

// QuietAfter is how long a terminal is silent before its seat is idle
// (spec #148: 1 s). It is also the first second after the seat's start, in
// which nothing is said: that silence has not been measured yet.
const QuietAfter = time.Second

// EchoWindow is how long after a write into the terminal its output is
// the answer to that write. A PTY echoes a cooked line within the write;
// measured on a 2-core box, key by key, the output after a key came
// within 0.6 ms (the fake CLI: median 0.05 ms; bash --norc -i, which
// draws its own line: median 0.2 ms, with and without -race). 300 ms
// leaves a starved CLI room to answer a key, and costs only
// the first 300 ms of a burst that a post's Enter starts: the seat shows
// "output" that much later, and a CLI's turn lasts seconds. A stream of
// keys spaced under EchoWindow hides what the CLI writes between them; the
// human typing into that terminal sees it anyway.
const EchoWindow = 300 * time.Millisecond

// Observed is the activity a seat's terminal shows (ActivityUnknown for
// the first QuietAfter, then ActivityOutput or ActivityIdle). Its methods
// take the time of what they note; it keeps no clock, no timer and no
// lock: the seat serialises the calls and wakes Settle at Due.
type Observed struct {
	began  time.Time // the seat started: the silence is measured from here
	wrote  time.Time // the last write into the terminal ended (zero: none)
	worked time.Time // the last output that was the seat's own (zero: none)
	act    Activity
}

// NewObserved starts measuring a seat's terminal at began.
func NewObserved(began time.Time) Observed { return Observed{began: began} }

// Wrote notes a write into the terminal at now: the human's keys, a post
// or its Enter, a new size (called as the write starts and as it ends).
func (o *Observed) Wrote(now time.Time) {
	if now.After(o.wrote) {
		o.wrote = now
	}
}

// Output notes output read at now. It reports whether the activity
// changed: a burst began (at most once a burst, so a seat is redrawn when
// its word changes, never per read). Output within EchoWindow of a write
// changes nothing.
func (o *Observed) Output(now time.Time) bool {
	if !o.wrote.IsZero() && now.Sub(o.wrote) < EchoWindow {
		return false
	}
	o.worked = now
	if o.act.Kind == ActivityOutput {
		return false
	}
	o.act = Activity{Kind: ActivityOutput, Since: now}
	return true
}

// Due is when the activity changes if no more output arrives (zero:
// never, the seat is idle). Settle at or after Due changes it.
func (o *Observed) Due() time.Time {
	switch o.act.Kind {
	case ActivityUnknown:
		return o.began.Add(QuietAfter)
	case ActivityOutput:
		return o.worked.Add(QuietAfter)
	}
	return time.Time{}
}

// Settle applies the silence measured at now: a terminal silent for
// QuietAfter (since its last output of its own, or since the start) is
// idle since that output. It reports whether the activity changed.
func (o *Observed) Settle(now time.Time) bool {
	due := o.Due()
	if due.IsZero() || now.Before(due) {
		return false
	}
	since := o.worked
	if since.IsZero() {
		since = o.began
	}
	o.act = Activity{Kind: ActivityIdle, Since: since}
	return true
}

// Activity is what the terminal shows now.
func (o *Observed) Activity() Activity { return o.act }
