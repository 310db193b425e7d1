package room

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Conn is one connection to the hub (docs/design.md §0 "connection"): a sidecar's
// socket, identified inside the room by its origin, which is never on the
// wire. It sits in no room until its first successful Hello and then in that
// room for life (docs/design.md §6). Safe for concurrent use; the server calls it
// from the socket's reader goroutine.
type Conn struct {
	hub    *Hub
	origin uint64
	// binding is the seat a socket's token was issued for (Server.Grant);
	// nil for in-process callers and the run's own token. Set before the
	// first frame, never changed.
	binding *SeatBinding
	// renames bounds renames (a later hello) per connection: each redraws
	// every screen's roster, and a flood of them slowed the human's
	// keystroke echo to 8 s. Guarded by mu.
	renames *rate.Limiter
	// hellos is the seat token's limiter over every hello of its sockets,
	// joins included (nil: unbound); set with binding.
	hellos *rate.Limiter
	// reads is the seat token's limiter over history requests (grants.go);
	// nil for the run's own connections.
	reads *rate.Limiter
	// place is the seat launch's one place in its room (place.go); nil
	// for unbound connections. Set with binding.
	place *seatPlace
	// tell queues an unasked frame to the socket (an identity frame) and
	// never blocks; nil for in-process connections. Set before the first
	// frame, never changed.
	tell func(IdentityFrame)

	mu     sync.Mutex // guards room, closed; taken before Hub.mu and room locks
	room   *roomState
	closed bool
}

// Hello seats the connection (docs/design.md §6 hello). The first successful hello
// seats it in h.Room for life: the room must be open (else ErrNoRoom and the
// connection stays roomless), its floor position is the room's order at that
// moment, and Terminals.SidecarJoined reports the account, if any. A hello
// naming an account Identities knows sits under that account's current
// name, full name and hue, whatever it says itself (identity.go). A later
// hello naming the same room renames: name, full name, hue and account are
// replaced, the seat and floor position stay, RosterChanged is emitted. A
// hello naming another room gives ErrBadHello. Errors (wrapped): ErrBadHello
// (no name, no room, another room, protocol present but not Protocol, a
// name that is the human's or Pullcept's), ErrNoRoom, ErrClosed.
func (c *Conn) Hello(hl Hello) error {
	hl = cleanHello(hl)
	// The binding first: a hello for another seat closes the socket, even
	// when its names are bad too.
	if err := checkBinding(c.binding, hl); err != nil {
		return err
	}
	if err := checkHello(hl); err != nil {
		return err
	}
	if err := c.hub.checkBoundAccount(c.binding); err != nil {
		return err
	}
	if c.hellos != nil && !c.hellos.Allow() {
		return fmt.Errorf("%w: this seat said hello too often (at most %d at once, then one a second)", ErrBadHello, renameBurst)
	}
	if err := c.hub.checkSocketAccount(hl.AccountID); err != nil {
		return err
	}
	// A known account's connection sits under the account's names, not
	// the hello's (identity.go); read and seated under idMu.
	c.hub.idMu.Lock()
	defer c.hub.idMu.Unlock()
	hl, err := c.hub.identify(hl)
	if err != nil {
		return err
	}
	if c.origin != c.hub.adminOrigin {
		if err := c.hub.checkSocketName(hl.Name); err != nil {
			return err
		}
	}
	switch {
	case hl.Name == "":
		return fmt.Errorf("hello without a name: %w", ErrBadHello)
	case strings.TrimSpace(hl.Room) == "":
		return fmt.Errorf("hello without a room: %w", ErrBadHello)
	case hl.Protocol != 0 && hl.Protocol != Protocol:
		// 0 = not declared (in-process callers); a sidecar always sends it.
		return fmt.Errorf("hello protocol %d, room speaks %d: %w", hl.Protocol, Protocol, ErrBadHello)
	}
	h := c.hub
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	role := h.socketRole(hl.AccountID)
	if c.room != nil {
		if c.room.topic != hl.Room {
			return fmt.Errorf("connection sits in room %q, hello names %q: %w", c.room.topic, hl.Room, ErrBadHello)
		}
		return c.rename(hl, role)
	}
	return c.join(hl, role)
}

// join seats the connection in hl.Room for life (its first hello), in its
// seat launch's place (place.go). Holds c.mu.
func (c *Conn) join(hl Hello, role Role) error {
	h := c.hub
	stale, err := c.takePlace(hl.Instance)
	if err != nil {
		return err
	}
	r, err := h.room(hl.Room)
	if err != nil {
		c.leavePlace()
		return err
	}
	r.mu.Lock()
	if r.closeErr != nil {
		r.mu.Unlock()
		c.leavePlace()
		return fmt.Errorf("room %q: %w", hl.Room, r.closeErr)
	}
	m := &member{origin: c.origin, hello: hl, role: role, joinSeq: r.seq, tell: c.tell}
	if c.binding != nil {
		m.launch = c.binding.Launch
	}
	r.members = append(r.members, m)
	if stale != nil {
		// The same sidecar's older connection (a reconnect overlapping it):
		// its member goes in the same roster change (place.go).
		r.drop(stale.origin)
	}
	m.told()
	h.emit(RosterChanged{Topic: r.topic, Roster: r.roster()})
	r.mu.Unlock()
	c.room = r
	if stale != nil {
		stale.detach()
	}
	if hl.AccountID != "" && h.terms != nil {
		h.terms.SidecarJoined(r.topic, hl.AccountID)
	}
	return nil
}

// takePlace takes the seat launch's place for instance (place.go): the
// connection it replaces, if any, or ErrLaunchSeated. Unbound connections
// have no place.
func (c *Conn) takePlace(instance string) (*Conn, error) {
	if c.place == nil {
		return nil, nil
	}
	stale, err := c.place.take(c, instance, c.hub.now())
	if err != nil {
		c.hub.logger.Debug("room: a second sidecar of a seat launch refused", "account", c.binding.Account, "topic", c.binding.Topic)
	}
	return stale, err
}

// leavePlace gives the place up when c holds it.
func (c *Conn) leavePlace() {
	if c.place != nil {
		c.place.leave(c, c.hub.now())
	}
}

// detach marks a connection replaced by a newer one of the same sidecar:
// it is out of its room (its member was dropped with the newcomer's
// join), and its later requests get ErrClosed.
func (c *Conn) detach() {
	c.mu.Lock()
	c.room, c.closed = nil, true
	c.mu.Unlock()
}

// rename replaces the seat's declaration. Holds c.mu.
func (c *Conn) rename(hl Hello, role Role) error {
	h, r := c.hub, c.room
	if c.renames == nil {
		c.renames = rate.NewLimiter(renameRate, renameBurst)
	}
	if c.hellos == nil && !c.renames.Allow() { // a seat's hellos are counted above
		return fmt.Errorf("%w: renamed too often (at most %d at once, then one every %v)", ErrBadHello, renameBurst, time.Duration(float64(time.Second)/float64(renameRate)))
	}
	r.mu.Lock()
	m := r.member(c.origin)
	if m == nil {
		err := r.closeErr
		r.mu.Unlock()
		if err == nil {
			err = ErrNoRoom
		}
		return fmt.Errorf("room %q: %w", r.topic, err)
	}
	prevAccount := m.hello.AccountID
	m.hello, m.role = hl, role
	m.told()
	h.emit(RosterChanged{Topic: r.topic, Roster: r.roster()})
	r.mu.Unlock()
	if hl.AccountID != "" && hl.AccountID != prevAccount && h.terms != nil {
		h.terms.SidecarJoined(r.topic, hl.AccountID)
	}
	return nil
}

// Rename bounds per connection: a burst of renameBurst, then renameRate a
// second.
const (
	renameRate  rate.Limit = 1
	renameBurst int        = 5
)

// seated returns the connection's room while it is open, or ErrNoRoom /
// ErrClosed.
func (c *Conn) seated() (*roomState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	r := c.room
	if r == nil {
		return nil, fmt.Errorf("connection has not said hello to an open room: %w", ErrNoRoom)
	}
	r.mu.Lock()
	closeErr := r.closeErr
	r.mu.Unlock()
	if closeErr != nil {
		return nil, fmt.Errorf("room %q: %w", r.topic, closeErr)
	}
	return r, nil
}

// Post delivers d from this connection (role: its account's kind, docs/design.md §4)
// through the floor like every post. Errors: ErrNoRoom (no seat, or its room
// was closed), ErrEmptyPost, ErrOnlyMentions, ErrClosed. A floor rejection is
// Result.Delivered false with Missed, not an error.
func (c *Conn) Post(d Draft) (Result, error) {
	// Before the room lock: a refused list or id costs the room nothing.
	if err := checkTo(d.To); err != nil {
		return Result{}, err
	}
	if err := checkMessageID(d.MessageID); err != nil {
		return Result{}, err
	}
	r, err := c.seated()
	if err != nil {
		return Result{}, err
	}
	return c.hub.deliver(r, sender{kind: sendSocket, origin: c.origin}, d)
}

// History reads the connection's room like Hub.History (oldest first,
// limit ≤ 0 → 50, at most 200). Errors: ErrNoRoom, ErrNoMessage, the log's
// errors, ErrClosed.
func (c *Conn) History(before string, limit int) ([]Post, bool, error) {
	r, err := c.seated()
	if err != nil {
		return nil, false, err
	}
	if c.reads != nil && !c.reads.Allow() {
		return nil, false, fmt.Errorf("%w: at most %d at once, then %d a second", ErrTooManyReads, readBurst, readRate)
	}
	return c.hub.history(r.topic, r, before, limit)
}

// Usage is this connection's own seat's usage (docs/design.md §6 usage:
// the frame names no seat; the room looks up the connection's room and the
// account its hello named, so no other seat's figures can be read). ok is
// false when nothing was reported yet. Errors: ErrNoRoom (no seat),
// ErrNoAccount (a hello without an account).
func (c *Conn) Usage() (SeatUsage, bool, error) {
	r, err := c.seated()
	if err != nil {
		return SeatUsage{}, false, err
	}
	r.mu.Lock()
	var account string
	if m := r.member(c.origin); m != nil {
		account = m.hello.AccountID
	}
	r.mu.Unlock()
	if account == "" {
		return SeatUsage{}, false, ErrNoAccount
	}
	if c.hub.terms == nil {
		return SeatUsage{}, false, nil
	}
	u, ok := c.hub.terms.Usage(r.topic, account)
	return u, ok, nil
}

// Ready passes the sidecar's ready frame on to Terminals.SidecarReady for
// this connection's (topic, account): its CLI has listed the tools (docs/design.md §7
// startup race). A connection without a seat or an account reports nothing.
func (c *Conn) Ready() {
	r, err := c.seated()
	if err != nil {
		c.hub.logger.Debug("room: ready from a connection without a seat", "err", err)
		return
	}
	r.mu.Lock()
	var account string
	if m := r.member(c.origin); m != nil {
		account = m.hello.AccountID
	}
	r.mu.Unlock()
	if account == "" || c.hub.terms == nil {
		return
	}
	c.hub.terms.SidecarReady(r.topic, account)
}

// Close takes this connection (only this one) out of the roster and emits
// RosterChanged. Later calls return ErrClosed. Idempotent.
func (c *Conn) Close() {
	c.mu.Lock()
	r := c.room
	c.room, c.closed = nil, true
	c.mu.Unlock()
	c.leavePlace()
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drop(c.origin) && r.closeErr == nil {
		c.hub.emit(RosterChanged{Topic: r.topic, Roster: r.roster()})
	}
}

// drop takes the member of origin out of the room; false when it was not
// there. Holds r.mu.
func (r *roomState) drop(origin uint64) bool {
	for i, m := range r.members {
		if m.origin == origin {
			r.members = append(r.members[:i:i], r.members[i+1:]...)
			return true
		}
	}
	return false
}
