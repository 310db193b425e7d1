// Package attention keeps what needs the human (docs/design.md §17
// "Attention"): a permission card waiting, a post addressed to the human, a
// seat stopped on its usage limit or back from it, a seat that exited on its
// own with an error, a braked topic, a failed session operation, a local
// MCP server that died. The App feeds it from the room's and the seats'
// events (app/attention.go); every attached UI reads the same list, shows
// it, rings its own terminal for it, and clears an item once its human saw
// it, so one list survives windows that come and go.
//
// Goroutines: none. Lock order: List.mu is taken alone (callers hold no
// lock of room or seats while they call it; Notify wakes waiters without
// it).
package attention

import (
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room/pubsub"
)

// Kind is what an item asks of the human.
type Kind int

// Kinds, in no order of weight: the UI walks items oldest first.
const (
	// Card: a permission card waits for an answer (Ref: the card's id,
	// Detail: the tool).
	Card Kind = iota + 1
	// CardTimedOut: a card's wait passed unanswered; the seat's own dialog
	// in its pane decides now (Ref: the card's id, Detail: the tool).
	CardTimedOut
	// Addressed: a post names the human (Ref: its message id, Detail: the
	// speaker's name).
	Addressed
	// Limited: a seat stopped on its plan's usage limit (Detail: when it
	// resets, RFC 3339, or "").
	Limited
	// Resumed: a seat that stopped on its usage limit runs again.
	Resumed
	// Exited: a seat ended on its own with an error (Detail: why).
	Exited
	// Braked: a topic's brake engaged (Count: the AI posts in a row).
	Braked
	// OpFailed: a session operation failed (Account: the seat that asked
	// for it, Detail: the action and reason).
	OpFailed
	// MCPDied: a local MCP server exited or failed (Account: its mcp
	// account's id, Detail: why).
	MCPDied
)

// Item is one thing that needs the human. Topic is "" for an item of no
// topic (MCPDied). Seen is kept only for cards: a card seen on a screen no
// longer rings but stays until it is answered or closes.
type Item struct {
	ID      uint64
	Kind    Kind
	Topic   string
	Account string
	Ref     string
	Detail  string
	Count   int
	At      time.Time
	Seen    bool
}

// Bounds: a seat is hostile and may address the human a thousand times a
// second; the list keeps MaxItems, dropping the flooding seat's oldest
// (List.evict), and counts what it dropped.
const (
	MaxItems  = 200
	maxDetail = 300
)

// List is the one list of items. The zero value is not ready: use New.
type List struct {
	mu      sync.Mutex
	items   []Item
	next    uint64
	dropped uint64
	now     func() time.Time
	changed pubsub.Signal
}

// New returns an empty list; now stamps items (nil: time.Now).
func New(now func() time.Time) *List {
	if now == nil {
		now = time.Now
	}
	return &List{now: now}
}

// same reports whether two items stand for one thing: a newer one
// replaces an older one (a seat exiting twice rings twice, but is listed
// once).
func same(a, b Item) bool {
	return a.Kind == b.Kind && a.Topic == b.Topic && a.Account == b.Account && a.Ref == b.Ref
}

// Add lists it with a new id and time, replacing the item that stands for
// the same thing, and returns it as listed. Past MaxItems the oldest item
// of the seat holding the most goes (evict), never a waiting card (cards
// leave only when they close; at most the room's 64 wait at once).
func (l *List) Add(it Item) Item {
	it.Detail = clip(it.Detail)
	l.mu.Lock()
	l.items = slices.DeleteFunc(l.items, func(x Item) bool { return same(x, it) })
	l.next++
	it.ID, it.At, it.Seen = l.next, l.now(), false
	l.items = append(l.items, it)
	for len(l.items) > MaxItems {
		i := l.evict()
		l.items = slices.Delete(l.items, i, i+1)
		l.dropped++
	}
	l.mu.Unlock()
	l.changed.Notify()
	return it
}

// evict is the index of the item the bound drops: the oldest item, not a
// waiting card, of the seat (topic and account) that holds the most such
// items. A seat addressing the human a thousand times then drops its own
// posts, never another seat's items, which would leave unseen and unrung.
// Called with l.mu held.
func (l *List) evict() int {
	// Seats are few: a slice searched in order is cheaper than a map here,
	// which a flood calls on every Add.
	type seat struct {
		topic, account string
		n, first       int
	}
	var seats []seat
	j := -1
	for i := range l.items {
		x := &l.items[i]
		if x.Kind == Card {
			continue
		}
		if j < 0 || seats[j].topic != x.Topic || seats[j].account != x.Account {
			j = slices.IndexFunc(seats, func(s seat) bool { return s.topic == x.Topic && s.account == x.Account })
		}
		if j < 0 {
			seats = append(seats, seat{topic: x.Topic, account: x.Account, first: i})
			j = len(seats) - 1
		}
		seats[j].n++
	}
	// Oldest first: a seat's first item is its oldest, and of two seats
	// holding as many, the one with the older item goes first.
	best, most := 0, 0
	for _, s := range seats {
		if s.n > most {
			best, most = s.first, s.n
		}
	}
	return best
}

// Remove drops every item match picks and reports how many went.
func (l *List) Remove(match func(Item) bool) int {
	l.mu.Lock()
	n := len(l.items)
	l.items = slices.DeleteFunc(l.items, match)
	n -= len(l.items)
	l.mu.Unlock()
	if n > 0 {
		l.changed.Notify()
	}
	return n
}

// Seen records that the human saw the items ids: a card is marked seen
// (it stays until it closes), every other item leaves the list.
func (l *List) Seen(ids []uint64) {
	l.mu.Lock()
	changed := false
	l.items = slices.DeleteFunc(l.items, func(x Item) bool {
		if !slices.Contains(ids, x.ID) {
			return false
		}
		changed = true
		return x.Kind != Card
	})
	for i := range l.items {
		if l.items[i].Kind == Card && !l.items[i].Seen && slices.Contains(ids, l.items[i].ID) {
			l.items[i].Seen = true
		}
	}
	l.mu.Unlock()
	if changed {
		l.changed.Notify()
	}
}

// Items returns a copy of the list, oldest first, and how many items the
// bound dropped so far.
func (l *List) Items() ([]Item, uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items), l.dropped
}

// WaitChange blocks until the list changed since generation seen (0 at
// first) and returns the new generation; ok is false once done closed or
// the list was closed.
func (l *List) WaitChange(done <-chan struct{}, seen uint64) (uint64, bool) {
	return l.changed.Wait(done, seen)
}

// Close wakes every waiter for good.
func (l *List) Close() { l.changed.Close() }

// clip bounds a detail at maxDetail bytes on a rune boundary.
func clip(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	cut := maxDetail
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
