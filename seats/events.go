package seats

import "sync"

// eventQueue is an unbounded, must-deliver FIFO of Events with one pump
// goroutine feeding C (owner: the queue; ended by Close after the backlog is
// drained or abandoned). Push never blocks: seat goroutines must not stall
// on a slow UI (STYLE "Domain goroutines never call Program.Send").
type eventQueue struct {
	mu     sync.Mutex
	items  []Event
	kick   chan struct{} // capacity 1
	out    chan Event
	done   chan struct{}
	closed bool
}

func newEventQueue() *eventQueue {
	q := &eventQueue{kick: make(chan struct{}, 1), out: make(chan Event), done: make(chan struct{})}
	go q.pump()
	return q
}

// C is the receiving end; it is closed after Close.
func (q *eventQueue) C() <-chan Event { return q.out }

// Push queues e; after Close it is dropped (nobody listens any more).
func (q *eventQueue) Push(e Event) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// Close ends the pump; events not yet received are dropped and C closes.
func (q *eventQueue) Close() {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.closed = true
	q.mu.Unlock()
	close(q.done)
}

func (q *eventQueue) pump() {
	defer close(q.out)
	for {
		q.mu.Lock()
		var next Event
		have := len(q.items) > 0
		if have {
			next = q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
		}
		q.mu.Unlock()
		if !have {
			select {
			case <-q.kick:
				continue
			case <-q.done:
				return
			}
		}
		select {
		case q.out <- next:
		case <-q.done:
			return
		}
	}
}
