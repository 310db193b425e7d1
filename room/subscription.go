package room

import (
	"fmt"
	"log/slog"
	"sync"
)

// Subscription receives the Hub's events (PostDelivered, LogFailed,
// RosterChanged, SeatReported) on C, must-deliver and in the one order every
// subscriber sees (DESIGN §1: events reach the UI as plain values). Its queue
// is unbounded so that Deliver never waits for a slow reader; one pump
// goroutine (owned by the Subscription) moves events from the queue to C.
//
// Close, or Hub.Close, ends the pump and closes C; events still queued are
// dropped then. Safe for concurrent use.
type Subscription struct {
	hub *Hub
	out chan Event

	mu     sync.Mutex
	queue  []Event
	closed bool

	wake      chan struct{} // capacity 1: "queue grew"
	done      chan struct{} // closed by Close
	exited    chan struct{} // closed when the pump returned
	closeOnce sync.Once
}

// newSubscription makes a subscription and starts its pump.
func newSubscription(h *Hub, logger *slog.Logger) *Subscription {
	s := &Subscription{
		hub:    h,
		out:    make(chan Event),
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	go s.pump(logger)
	return s
}

// C returns the channel events arrive on. It is closed after Close.
func (s *Subscription) C() <-chan Event { return s.out }

// Close unsubscribes, ends the pump and waits for it; C is then closed.
// Idempotent.
func (s *Subscription) Close() {
	if s.hub != nil {
		s.hub.unsubscribe(s)
	}
	s.stop()
}

// stop ends the pump without touching the hub's list (Hub.Close holds it).
func (s *Subscription) stop() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.queue = nil
		s.mu.Unlock()
		close(s.done)
	})
	<-s.exited
}

// push queues e; it never blocks (called under the room lock).
func (s *Subscription) push(e Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// pump moves queued events to out in order until Close.
func (s *Subscription) pump(logger *slog.Logger) {
	defer close(s.exited)
	defer close(s.out)
	defer func() {
		if r := recover(); r != nil {
			logger.Error("room: subscription pump panicked", "panic", fmt.Sprint(r))
		}
	}()
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.mu.Unlock()
			select {
			case <-s.wake:
				continue
			case <-s.done:
				return
			}
		}
		e := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
		s.mu.Unlock()
		select {
		case s.out <- e:
		case <-s.done:
			return
		}
	}
}
