package seats

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// Ledger is the seat ledger: at most one seat per (topic, account), claimed
// in one lock before anything is launched (docs/design.md §9 "one seat per
// (topic, account): claim in one lock; liveness is its PTY is still
// running"). The Manager claims, records the started process, and releases
// when the process has been reaped, so an entry lives exactly as long as its
// process. All methods are safe for concurrent use; the ledger's lock is a
// leaf (it calls nothing while held).
type Ledger struct {
	mu      sync.Mutex
	next    uint64 // last claim id handed out; ids start at 1
	entries map[ledgerKey]*ledgerEntry
}

type ledgerKey struct{ topic, account string }

type ledgerEntry struct {
	id      uint64
	running bool
	rec     SeatRecord
}

// Claim is a held place in the Ledger, from Claim until Release. Its id is
// unique for the Ledger's life, so a late Release of an old seat can never
// free the place of the seat that replaced it. The zero Claim holds nothing.
type Claim struct {
	Topic, Account string
	id             uint64
}

// SeatRecord is what the ledger keeps about a started seat: the PTY child's
// process id, when it started, its command line and working directory
// (docs/design.md §9). Argv never holds secrets: the room token reaches the
// child through its environment only (docs/design.md §7).
type SeatRecord struct {
	Pid     int
	Started time.Time
	Argv    []string
	Dir     string
}

// LedgerEntry is one place in the ledger as List reports it. Running is
// false while the seat is claimed but its process not started yet (then the
// record is empty).
type LedgerEntry struct {
	Topic, Account string
	Running        bool
	Record         SeatRecord
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger {
	return &Ledger{entries: map[ledgerKey]*ledgerEntry{}}
}

// Claim takes the place of (topic, account). It fails with ErrSeatTaken
// while that place is claimed or running, and with ErrNoSeatKey when topic
// or account is empty.
func (l *Ledger) Claim(topic, account string) (Claim, error) {
	if topic == "" || account == "" {
		return Claim{}, ErrNoSeatKey
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	k := ledgerKey{topic, account}
	if _, taken := l.entries[k]; taken {
		return Claim{}, ErrSeatTaken
	}
	l.next++
	l.entries[k] = &ledgerEntry{id: l.next}
	return Claim{Topic: topic, Account: account, id: l.next}, nil
}

// Started records the claimed seat's running process. ErrSeatReleased when
// c no longer holds its place (released, or never claimed). Argv is copied.
func (l *Ledger) Started(c Claim, r SeatRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.holder(c)
	if e == nil {
		return ErrSeatReleased
	}
	r.Argv = slices.Clone(r.Argv)
	e.rec, e.running = r, true
	return nil
}

// Release frees c's place and reports whether c still held it (false for a
// second Release, or when the place now belongs to a newer claim).
func (l *Ledger) Release(c Claim) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder(c) == nil {
		return false
	}
	delete(l.entries, ledgerKey{c.Topic, c.Account})
	return true
}

// holder returns c's entry if c still holds its place. l.mu must be held.
func (l *Ledger) holder(c Claim) *ledgerEntry {
	if c.id == 0 {
		return nil
	}
	e, ok := l.entries[ledgerKey{c.Topic, c.Account}]
	if !ok || e.id != c.id {
		return nil
	}
	return e
}

// Running returns the record of (topic, account)'s started seat; false when
// there is none or it is only claimed.
func (l *Ledger) Running(topic, account string) (SeatRecord, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.entries[ledgerKey{topic, account}]
	if !ok || !e.running {
		return SeatRecord{}, false
	}
	r := e.rec
	r.Argv = slices.Clone(r.Argv)
	return r, true
}

// List returns topic's places ("" = every topic's), claimed and running,
// ordered by topic then account. The records are copies.
func (l *Ledger) List(topic string) []LedgerEntry {
	l.mu.Lock()
	out := make([]LedgerEntry, 0, len(l.entries))
	for k, e := range l.entries {
		if topic != "" && k.topic != topic {
			continue
		}
		r := e.rec
		r.Argv = slices.Clone(r.Argv)
		out = append(out, LedgerEntry{Topic: k.topic, Account: k.account, Running: e.running, Record: r})
	}
	l.mu.Unlock()
	slices.SortFunc(out, func(a, b LedgerEntry) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return strings.Compare(a.Account, b.Account)
	})
	return out
}
