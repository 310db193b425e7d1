package pubsub

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// wait bounds every blocking step of these tests; a healthy run takes
// microseconds (scaled: testkit.Slow).
var wait = testkit.Slow(5 * time.Second)

// recv reads n events from s or fails.
func recv(t *testing.T, s *Subscription[int], n int) []int {
	t.Helper()
	out := make([]int, 0, n)
	timeout := time.After(wait)
	for len(out) < n {
		select {
		case e, ok := <-s.C():
			if !ok {
				t.Fatalf("channel closed after %d of %d events (err %v)", len(out), n, s.Err())
			}
			out = append(out, e)
		case <-timeout:
			t.Fatalf("got %d of %d events", len(out), n)
		}
	}
	return out
}

// closedWith waits until s's channel is closed and checks Err.
func closedWith(t *testing.T, s *Subscription[int], want error) {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case _, ok := <-s.C():
			if !ok {
				if err := s.Err(); !errors.Is(err, want) || (want == nil && err != nil) {
					t.Fatalf("Err = %v, want %v", err, want)
				}
				return
			}
		case <-timeout:
			t.Fatal("channel not closed")
		}
	}
}

// TestOneOrderForEverySubscriber: events published from many goroutines
// reach every subscriber in the same order, each exactly once.
func TestOneOrderForEverySubscriber(t *testing.T) {
	t.Parallel()
	b := NewBroker(Options[int]{})
	defer b.Close()
	subs := []*Subscription[int]{b.Subscribe(), b.Subscribe(), b.Subscribe()}
	const writers, each = 8, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				b.Publish(w*each + i)
			}
		}()
	}
	got := make([][]int, len(subs))
	var rg sync.WaitGroup
	for i, s := range subs {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for len(got[i]) < writers*each {
				select {
				case e := <-s.C():
					got[i] = append(got[i], e)
				case <-time.After(wait):
					return
				}
			}
		}()
	}
	wg.Wait()
	rg.Wait()
	seen := map[int]bool{}
	for _, e := range got[0] {
		if seen[e] {
			t.Fatalf("event %d delivered twice", e)
		}
		seen[e] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("first subscriber got %d distinct events, want %d", len(seen), writers*each)
	}
	for i := 1; i < len(got); i++ {
		if len(got[i]) != len(got[0]) {
			t.Fatalf("subscriber %d got %d events, subscriber 0 %d", i, len(got[i]), len(got[0]))
		}
		for j := range got[0] {
			if got[i][j] != got[0][j] {
				t.Fatalf("subscriber %d event %d = %d, subscriber 0 has %d", i, j, got[i][j], got[0][j])
			}
		}
	}
}

// TestPublishNeverBlocksOnAStuckReader: a subscriber that never reads does
// not slow Publish nor the other subscribers, up to its bound.
func TestPublishNeverBlocksOnAStuckReader(t *testing.T) {
	t.Parallel()
	b := NewBroker(Options[int]{MaxEvents: 1000})
	defer b.Close()
	stuck := b.Subscribe()
	live := b.Subscribe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 999 {
			b.Publish(i)
		}
	}()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Publish blocked on a subscriber that does not read")
	}
	if got := recv(t, live, 999); got[998] != 998 {
		t.Fatalf("live subscriber's last event = %d", got[998])
	}
	// Still within its bound: the stuck one gets everything once it reads.
	if got := recv(t, stuck, 999); got[0] != 0 || got[998] != 998 {
		t.Fatalf("stuck subscriber got %d…%d", got[0], got[998])
	}
}

// TestCutOffByEvents: the event that would take a subscriber's queue over
// MaxEvents cuts it off (ErrOverflow); the others go on unaffected and a
// new subscription works.
func TestCutOffByEvents(t *testing.T) {
	t.Parallel()
	b := NewBroker(Options[int]{MaxEvents: 4})
	defer b.Close()
	stuck := b.Subscribe()
	live := b.Subscribe()
	var got []int
	for i := range 10 {
		b.Publish(i)
		got = append(got, recv(t, live, 1)...)
	}
	closedWith(t, stuck, ErrOverflow)
	if len(got) != 10 || got[9] != 9 {
		t.Fatalf("live subscriber got %v", got)
	}
	again := b.Subscribe()
	b.Publish(42)
	if e := recv(t, again, 1); e[0] != 42 {
		t.Fatalf("new subscription got %v", e)
	}
}

// TestCutOffByBytes: Size counts bytes; a reader that stopped is cut off
// at MaxBytes even with few events.
func TestCutOffByBytes(t *testing.T) {
	t.Parallel()
	b := NewBroker(Options[int]{MaxBytes: 100, Size: func(e int) int { return e }})
	defer b.Close()
	s := b.Subscribe()
	b.Publish(60) // the pump may hand this one to the channel at once
	b.Publish(30)
	b.Publish(50) // 60+30+50 or 30+50 queued: 80 fits, 140 does not
	b.Publish(50)
	closedWith(t, s, ErrOverflow)
}

// TestReaderThatKeepsUp: a reader that keeps up is never cut off, however
// many events pass through (the bound is on the backlog, not the total).
func TestReaderThatKeepsUp(t *testing.T) {
	t.Parallel()
	b := NewBroker(Options[int]{MaxEvents: 8})
	defer b.Close()
	s := b.Subscribe()
	for i := range 10000 {
		b.Publish(i)
		if e := recv(t, s, 1); e[0] != i {
			t.Fatalf("event %d = %d", i, e[0])
		}
	}
	if err := s.Err(); err != nil {
		t.Fatalf("Err = %v", err)
	}
}

// TestClose: the broker's Close closes every channel (ErrClosed), later
// Publish calls do nothing, and a subscription made after Close is closed
// from the start; a subscriber's own Close gives no error.
func TestClose(t *testing.T) {
	t.Parallel()
	b := NewBroker(Options[int]{})
	own := b.Subscribe()
	other := b.Subscribe()
	b.Publish(1)
	own.Close()
	own.Close() // idempotent
	closedWith(t, own, nil)
	b.Close()
	b.Close()
	closedWith(t, other, ErrClosed)
	b.Publish(2)
	late := b.Subscribe()
	closedWith(t, late, ErrClosed)
}

// TestSignalCoalesces: many Notify calls wake a waiter once; every waiter
// learns of a change; done and Close end a wait.
func TestSignalCoalesces(t *testing.T) {
	t.Parallel()
	var s Signal
	for range 100 {
		s.Notify()
	}
	gen, ok := s.Wait(nil, 0)
	if !ok || gen != 100 {
		t.Fatalf("Wait = %d, %v; want 100, true", gen, ok)
	}
	// Two waiters on the same generation both wake on one Notify.
	woke := make(chan uint64, 2)
	for range 2 {
		go func() {
			g, _ := s.Wait(nil, gen)
			woke <- g
		}()
	}
	s.Notify()
	for range 2 {
		select {
		case g := <-woke:
			if g != gen+1 {
				t.Fatalf("woke at %d, want %d", g, gen+1)
			}
		case <-time.After(wait):
			t.Fatal("a waiter did not wake")
		}
	}
	done := make(chan struct{})
	close(done)
	if _, ok := s.Wait(done, gen+1); ok {
		t.Fatal("Wait with done closed reported a change")
	}
	s.Close()
	if _, ok := s.Wait(nil, gen+1); ok {
		t.Fatal("Wait after Close reported a change")
	}
}

func BenchmarkPublishOneSubscriber(b *testing.B) {
	br := NewBroker(Options[int]{})
	defer br.Close()
	s := br.Subscribe()
	go func() {
		for range s.C() {
		}
	}()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		br.Publish(i)
	}
}
