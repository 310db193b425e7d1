package pubsub

import "sync"

// Signal is a coalesced broadcast "something changed" (screen damage):
// Notify never blocks and costs no allocation while nobody waits; any number
// of waiters each learn of a change once, however many Notify calls it
// took. A waiter then reads the current state, so coalescing loses nothing.
// The zero value is ready to use. Safe for concurrent use.
type Signal struct {
	mu     sync.Mutex
	gen    uint64        // Notify calls so far
	ch     chan struct{} // closed by the next Notify or Close; nil while nobody waits
	closed bool
}

// Notify marks a change and wakes every waiter.
func (s *Signal) Notify() {
	s.mu.Lock()
	s.gen++
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
	s.mu.Unlock()
}

// Wait blocks until the signal moved past seen — a generation an earlier
// Wait returned, 0 at first — and returns the new generation. ok is false
// when done closed or the signal was closed first.
func (s *Signal) Wait(done <-chan struct{}, seen uint64) (gen uint64, ok bool) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return seen, false
		}
		if s.gen != seen {
			gen = s.gen
			s.mu.Unlock()
			return gen, true
		}
		if s.ch == nil {
			s.ch = make(chan struct{})
		}
		ch := s.ch
		s.mu.Unlock()
		select {
		case <-ch:
		case <-done:
			return seen, false
		}
	}
}

// Close wakes every waiter for good: Wait then reports false.
func (s *Signal) Close() {
	s.mu.Lock()
	s.closed = true
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
	s.mu.Unlock()
}
