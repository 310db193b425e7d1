// Package pubsub is Pullcept's one in-process event queue: every stream of
// domain events (the rooms' posts and rosters, the seats' life events, the
// app's notices) goes through a Broker, and the UI waits on them through one
// generic bridge (docs/architecture.md "Events").
//
// Delivery semantics of a Broker:
//
//   - Must-deliver and ordered. Every subscriber receives every event
//     published after it subscribed, in publish order, and all subscribers
//     see one order (Publish is serialised).
//   - Publish never blocks. It runs under the room lock and on seat
//     goroutines, which must never wait for a slow reader; each subscriber
//     has its own queue, drained into its channel by its own pump.
//   - Memory is bounded per subscriber. A subscriber that stops reading is
//     cut off when its queue would exceed Options.MaxEvents events or
//     Options.MaxBytes bytes (as Options.Size counts them): its queue is
//     dropped, its channel is closed and Err reports ErrOverflow. The broker
//     and the other subscribers are not affected. A cut-off subscriber has
//     lost events: it subscribes again and reloads whatever it derived from
//     the stream (the UI re-reads its topic, seats and lists).
//   - Close ends every subscription: queued events are dropped, channels
//     are closed and Err reports ErrClosed.
//
// Signal is the lossy counterpart: a coalesced "something changed" that any
// number of waiters can wait on (screen damage; the waiter then reads the
// current state, so nothing is lost by coalescing).
//
// Goroutines: one pump per Subscription (owner: the Subscription), which
// moves queued events to its channel. Subscription.Close, Broker.Close and
// a cut-off end it and wait for it; it recovers a panic into the logger.
//
// Lock order: Broker.mu → Subscription.mu. Nothing is called out with either
// held but a non-blocking wake-up send.
package pubsub

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
)

// Errors a Subscription's Err reports once its channel is closed.
var (
	// ErrOverflow: the subscriber fell too far behind and was cut off.
	ErrOverflow = errors.New("subscriber fell behind and was cut off")
	// ErrClosed: the broker was closed.
	ErrClosed = errors.New("broker closed")
)

// Defaults of Options (see MaxEvents, MaxBytes).
const (
	// DefaultMaxEvents: a UI draining in batches of a few hundred per
	// frame is never more than a few batches behind; 65 536 events is over
	// a minute of the soak test's 800 posts/s, so only a reader that truly
	// stopped reaches it.
	DefaultMaxEvents = 1 << 16
	// DefaultMaxBytes bounds what one stuck subscriber can pin: 64 MiB, the
	// size of 64 posts at the room's 1 MiB frame cap.
	DefaultMaxBytes = 64 << 20
)

// Options configures NewBroker. Every field is optional.
type Options[T any] struct {
	// MaxEvents and MaxBytes bound one subscriber's queue (0: the defaults).
	MaxEvents int
	MaxBytes  int
	// Size estimates an event's bytes for MaxBytes (nil: every event counts
	// as one byte, so only MaxEvents binds).
	Size func(T) int
	// Logger receives pump panics and cut-offs (nil: discarded).
	Logger *slog.Logger
}

// Broker fans published events out to its subscribers. Safe for concurrent
// use.
type Broker[T any] struct {
	opts   Options[T]
	logger *slog.Logger

	mu     sync.Mutex // guards subs, closed; held across one Publish
	subs   []*Subscription[T]
	closed bool
}

// NewBroker returns a broker with no subscriber.
func NewBroker[T any](o Options[T]) *Broker[T] {
	if o.MaxEvents <= 0 {
		o.MaxEvents = DefaultMaxEvents
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Size == nil {
		o.Size = func(T) int { return 1 }
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Broker[T]{opts: o, logger: lg}
}

// Publish queues e for every subscriber. It never blocks; a subscriber
// whose queue would exceed its bounds is cut off instead (see the package
// doc). After Close it does nothing.
func (b *Broker[T]) Publish(e T) {
	size := b.opts.Size(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	var cut []*Subscription[T]
	for _, s := range b.subs {
		if !s.push(e, size, b.opts.MaxEvents, b.opts.MaxBytes) {
			cut = append(cut, s)
		}
	}
	if len(cut) > 0 {
		b.subs = slices.DeleteFunc(b.subs, func(s *Subscription[T]) bool { return slices.Contains(cut, s) })
		for range cut {
			b.logger.Warn("pubsub: subscriber cut off", "err", ErrOverflow,
				"max_events", b.opts.MaxEvents, "max_bytes", b.opts.MaxBytes)
		}
	}
}

// Subscribe returns a subscription to every event published from now on.
// After Close it returns a subscription whose channel is already closed
// (Err: ErrClosed).
func (b *Broker[T]) Subscribe() *Subscription[T] {
	s := newSubscription(b, b.logger)
	b.mu.Lock()
	closed := b.closed
	if !closed {
		b.subs = append(b.subs, s)
	}
	b.mu.Unlock()
	if closed {
		s.end(ErrClosed)
	}
	return s
}

// Close ends every subscription (ErrClosed) and waits for their pumps.
// Idempotent.
func (b *Broker[T]) Close() {
	b.mu.Lock()
	b.closed = true
	subs := b.subs
	b.subs = nil
	b.mu.Unlock()
	for _, s := range subs {
		s.end(ErrClosed)
	}
}

// unsubscribe removes s (Subscription.Close).
func (b *Broker[T]) unsubscribe(s *Subscription[T]) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = slices.DeleteFunc(b.subs, func(x *Subscription[T]) bool { return x == s })
}

// Subscription is one subscriber's queue and channel. Read C until it is
// closed, then Err says why. Safe for concurrent use; C has one reader.
type Subscription[T any] struct {
	broker *Broker[T]
	out    chan T

	mu     sync.Mutex
	queue  []item[T]
	bytes  int // sum of the queued items' sizes
	ended  bool
	reason error

	wake      chan struct{} // capacity 1: the queue grew
	done      chan struct{} // closed by end
	exited    chan struct{} // closed when the pump returned
	closeOnce sync.Once
}

func newSubscription[T any](b *Broker[T], logger *slog.Logger) *Subscription[T] {
	s := &Subscription[T]{
		broker: b,
		out:    make(chan T),
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	go s.pump(logger)
	return s
}

// C is the channel events arrive on, in publish order. It is closed once
// the subscription ended (Close, the broker's Close, or a cut-off).
func (s *Subscription[T]) C() <-chan T { return s.out }

// Err is nil while the subscription runs or after the subscriber's own
// Close, ErrOverflow after a cut-off, ErrClosed after the broker's Close.
func (s *Subscription[T]) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason
}

// item is one queued event and its size as Options.Size counted it.
type item[T any] struct {
	e    T
	size int
}

// Close unsubscribes, ends the pump and waits for it; C is then closed.
// Idempotent.
func (s *Subscription[T]) Close() {
	s.broker.unsubscribe(s)
	s.end(nil)
}

// end stops the subscription for reason (nil: the subscriber's own Close)
// and waits for the pump. The first reason wins.
func (s *Subscription[T]) end(reason error) {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.ended, s.reason = true, reason
		s.queue, s.bytes = nil, 0
		s.mu.Unlock()
		close(s.done)
	})
	<-s.exited
}

// push queues e under the broker's lock. It reports false when e would take
// the queue over its bounds: the subscription is then ended (ErrOverflow)
// without waiting for its pump, which may be blocked on a reader that is
// gone; the pump sees done and exits by itself.
func (s *Subscription[T]) push(e T, size, maxEvents, maxBytes int) bool {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return true
	}
	if len(s.queue)+1 > maxEvents || s.bytes+size > maxBytes {
		s.mu.Unlock()
		s.closeOnce.Do(func() {
			s.mu.Lock()
			s.ended, s.reason = true, ErrOverflow
			s.queue, s.bytes = nil, 0
			s.mu.Unlock()
			close(s.done)
		})
		return false
	}
	s.queue = append(s.queue, item[T]{e, size})
	s.bytes += size
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
	return true
}

// pump moves queued events to out in order until the subscription ends.
func (s *Subscription[T]) pump(logger *slog.Logger) {
	defer close(s.exited)
	defer close(s.out)
	defer func() {
		if r := recover(); r != nil {
			logger.Error("pubsub: pump panicked", "panic", fmt.Sprint(r))
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
		it := s.queue[0]
		s.queue[0] = item[T]{}
		s.queue = s.queue[1:]
		s.bytes -= it.size
		s.mu.Unlock()
		e := it.e
		select {
		case s.out <- e:
		case <-s.done:
			return
		}
	}
}
