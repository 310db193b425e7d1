package app

import (
	"sync"
)

// What several UIs of one App share (`pullcept server`, docs/serve.md
// "Two UIs, one room"): which of them hold a topic's room open, and which
// of them a seat's terminal size follows. One UI alone (--no-server)
// behaves as before: it holds what it opened and every size is its own.

// roomHolds counts the UIs that show a topic, so one UI leaving a fresh
// topic cannot drop the room another still shows (CloseRoom).
type roomHolds struct {
	mu    sync.Mutex // leaf
	holds map[string]map[*Backend]struct{}
}

func (h *roomHolds) hold(topic string, b *Backend) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holds == nil {
		h.holds = map[string]map[*Backend]struct{}{}
	}
	if h.holds[topic] == nil {
		h.holds[topic] = map[*Backend]struct{}{}
	}
	h.holds[topic][b] = struct{}{}
}

// release lets b's hold on topic go and reports whether nobody else holds
// it: only then may the room close.
func (h *roomHolds) release(topic string, b *Backend) (last bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.holds[topic], b)
	if len(h.holds[topic]) == 0 {
		delete(h.holds, topic)
		return true
	}
	return false
}

// releaseAll lets every hold of a closing UI go, closing nothing: a room
// stays open when its last viewer detaches, as it did when the one UI
// quit with the process.
func (h *roomHolds) releaseAll(b *Backend) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for t, m := range h.holds {
		delete(m, b)
		if len(m) == 0 {
			delete(h.holds, t)
		}
	}
}

// seatSizes: a seat's PTY takes the size of the UI that last typed into
// it or started it (tmux's window-size "latest"); the others draw its
// screen clipped or padded. Each UI's wish is kept, so when the owner
// leaves, the latest other wish takes over.
type seatSizes struct {
	mu    sync.Mutex // held across the seat's Resize: orders the PTY's sizes
	seq   uint64
	seats map[seatKey]*seatSize
}

type seatKey struct{ topic, account string }

type seatSize struct {
	owner *Backend
	wants map[*Backend]sizeWish
}

type sizeWish struct {
	cols, rows int
	seq        uint64 // when the UI last asked or typed
}

// want records b's size for the seat; it is applied (by resize) when b
// owns the seat's size or nobody does.
func (z *seatSizes) want(k seatKey, b *Backend, cols, rows int, resize func(cols, rows int) error) error {
	z.mu.Lock()
	defer z.mu.Unlock()
	s := z.seat(k)
	z.seq++
	s.wants[b] = sizeWish{cols: cols, rows: rows, seq: z.seq}
	if s.owner == nil || s.owner == b {
		s.owner = b
		return resize(cols, rows)
	}
	return nil
}

// claim makes b the seat's size owner (it typed into the seat or started
// it); when b had asked for another size than the owner's, b's applies.
func (z *seatSizes) claim(k seatKey, b *Backend, resize func(cols, rows int) error) error {
	z.mu.Lock()
	defer z.mu.Unlock()
	s := z.seat(k)
	z.seq++
	w, ok := s.wants[b]
	if ok {
		w.seq = z.seq
		s.wants[b] = w
	}
	if s.owner == b {
		return nil
	}
	s.owner = b
	if !ok {
		return nil
	}
	return resize(w.cols, w.rows)
}

// leave forgets b (its UI closed): the seats it owned follow the latest
// remaining wish, through resize.
func (z *seatSizes) leave(b *Backend, resize func(k seatKey, cols, rows int)) {
	z.mu.Lock()
	defer z.mu.Unlock()
	for k, s := range z.seats {
		delete(s.wants, b)
		if s.owner != b {
			continue
		}
		s.owner = nil
		var next *Backend
		var best sizeWish
		for ob, w := range s.wants {
			if next == nil || w.seq > best.seq {
				next, best = ob, w
			}
		}
		if next != nil {
			s.owner = next
			resize(k, best.cols, best.rows)
		}
		if len(s.wants) == 0 {
			delete(z.seats, k)
		}
	}
}

func (z *seatSizes) seat(k seatKey) *seatSize {
	if z.seats == nil {
		z.seats = map[seatKey]*seatSize{}
	}
	s := z.seats[k]
	if s == nil {
		s = &seatSize{wants: map[*Backend]sizeWish{}}
		z.seats[k] = s
	}
	return s
}

// started makes b the owner of a seat it just started at cols×rows (the
// PTY already has that size).
func (z *seatSizes) started(k seatKey, b *Backend, cols, rows int) {
	z.mu.Lock()
	defer z.mu.Unlock()
	s := z.seat(k)
	z.seq++
	s.wants[b] = sizeWish{cols: cols, rows: rows, seq: z.seq}
	s.owner = b
}

// forget drops every hold on a deleted topic.
func (h *roomHolds) forget(topic string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.holds, topic)
}
