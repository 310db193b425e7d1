package seats

import (
	"sync"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// observer is the activity of a seat whose CLI reports none
// (cli.Adapter.Observed: a generic CLI), read off its terminal
// (cli.Observed; docs/design.md §10): the PTY reader notes each read that
// brought output, the Typist each write of the human's keys or of a post
// (TypistOptions.OnTyped), and the seat's quiet watcher (watchQuiet) turns
// a measured silence into idle.
//
// Cost per PTY read: one clock read and one uncontended lock; nothing is
// allocated. A SeatUpdated goes out when the word changes — a burst's
// start and its end, never per read — and the watcher's one timer is
// armed per burst, and once a second while output goes on (it looks at the
// last output when it fires instead of being pushed back by each read).
type observer struct {
	now func() time.Time

	mu  sync.Mutex // a leaf: nothing is called under it
	obs cli.Observed

	kick chan struct{} // cap 1: a burst began, the watcher arms its timer
}

func newObserver(now func() time.Time, began time.Time) *observer {
	return &observer{now: now, obs: cli.NewObserved(began), kick: make(chan struct{}, 1)}
}

// typed notes a write into the terminal (TypistOptions.OnTyped).
func (o *observer) typed() {
	now := o.now()
	o.mu.Lock()
	o.obs.Wrote(now)
	o.mu.Unlock()
}

// output notes a read that brought output; it reports whether a burst
// began (the seat's word changed), and then wakes the watcher.
func (o *observer) output() bool {
	now := o.now()
	o.mu.Lock()
	began := o.obs.Output(now)
	o.mu.Unlock()
	if began {
		select {
		case o.kick <- struct{}{}:
		default:
		}
	}
	return began
}

// activity is what the terminal shows now.
func (o *observer) activity() cli.Activity {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.obs.Activity()
}

// due is when the activity changes without more output (zero: never).
func (o *observer) due() time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.obs.Due()
}

// settle applies the silence measured now; true when the word changed.
func (o *observer) settle() bool {
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.obs.Settle(now)
}

// watchQuiet is an observed seat's quiet watcher (seats/doc.go): it wakes
// at the observer's due time and turns the silence into idle, announcing
// the change; a burst's start wakes it to arm its one timer again. It
// ends at the seat's exit.
func (m *Manager) watchQuiet(s *Seat) {
	o := s.observed
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		var fire <-chan time.Time
		if due := o.due(); !due.IsZero() {
			timer.Reset(max(due.Sub(o.now()), 0))
			fire = timer.C
		}
		select {
		case <-s.done:
			return
		case <-o.kick:
		case <-fire:
			if o.settle() {
				s.updated()
			}
		}
	}
}
