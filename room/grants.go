package room

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"
)

// SeatBinding is what a seat's token may do (docs/design.md §6 "Seat
// tokens"): sit as Account in the room of Topic, and report hooks for that
// seat only. Launch is the seat launch the token was issued to (its PTY id,
// docs/design.md §15): session operations are attributed to it, and a
// launch's connection is told from an older one of the same account by it.
type SeatBinding struct {
	Account, Topic, Launch string
}

// grant is one issued seat token: its binding and the sockets it opened.
type grant struct {
	binding SeatBinding
	trees   []func(pid int) bool // the seat's process trees (BindTree, seatpeer.go); guarded by Server.mu
	sockets map[*websocket.Conn]struct{}
	hooks   int // hook requests in flight (maxHooksPerSeat)
	// hellos bounds the hellos (joins and renames) of all the token's
	// sockets together: reconnecting must not get around the rename limit.
	hellos *rate.Limiter
	// reads bounds the history requests of all the token's sockets: a
	// page of 200 long posts costs 1.5 s of parsing, and a seat asking in
	// a loop on its 4 sockets slowed the human's posts tenfold (breaker
	// review).
	reads *rate.Limiter
	// place is the launch's one place in its room (place.go).
	place *seatPlace
}

// History reads per seat token: a burst of 20, then 5 a second — far above
// a model calling read_room_history, which pages once per tool call.
const (
	readRate  = 5
	readBurst = 20
)

// maxSocketsPerSeat bounds the sockets one seat token may hold open: its
// sidecar needs one (a reconnect overlaps for a moment). Without it, one
// seat's processes could take every socket of MaxConns and lock every new
// sidecar out (128 idle sockets did).
const maxSocketsPerSeat = 4

// maxHooksPerSeat bounds one seat token's hook requests in flight, well
// under the server's MaxHooks, so one seat cannot take every slot.
const maxHooksPerSeat = 4

// ErrWrongSeat: a seat token was used for another account or room than it
// was issued for.
var ErrWrongSeat = errors.New("this token is for another seat")

// Grant issues a fresh random token for one seat launch, bound to
// (account, topic) and the launch's id: its socket's hello must name that
// account and room, and its hooks that seat. revoke ends the token and closes the sockets it
// opened; call it when the seat's process is gone. The token goes to the
// seat's process environment only (never a file, argv or log). Errors: no
// random bytes, or an empty account or topic.
func (s *Server) Grant(account, topic, launch string) (token string, revoke func(), err error) {
	if account == "" || topic == "" {
		return "", nil, fmt.Errorf("grant a seat token: %w: empty account or topic", ErrWrongSeat)
	}
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", nil, fmt.Errorf("grant a seat token: %w", err)
	}
	token = hex.EncodeToString(raw)
	key := grantKey(token)
	s.mu.Lock()
	s.grants[key] = &grant{binding: SeatBinding{Account: account, Topic: topic, Launch: launch}, sockets: map[*websocket.Conn]struct{}{},
		hellos: rate.NewLimiter(renameRate, renameBurst), reads: rate.NewLimiter(readRate, readBurst), place: &seatPlace{}}
	s.mu.Unlock()
	return token, func() { s.revoke(key) }, nil
}

// grantKey is how a token is looked up: its SHA-256, so the map's timing
// says nothing about the token itself.
func grantKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return string(sum[:])
}

// revoke drops a grant and closes its sockets. Idempotent.
func (s *Server) revoke(key string) {
	s.mu.Lock()
	var open []*websocket.Conn
	if g := s.grants[key]; g != nil {
		for ws := range g.sockets { // copied: their handlers delete themselves under s.mu
			open = append(open, ws)
		}
	}
	delete(s.grants, key)
	s.mu.Unlock()
	for _, ws := range open {
		_ = ws.Close()
	}
}

// granted reports whether g is still issued (not revoked).
func (s *Server) granted(g *grant) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.grants {
		if have == g {
			return true
		}
	}
	return false
}

// seatGrant returns the grant of a bearer token, if it is a seat's.
func (s *Server) seatGrant(token string) (string, *grant) {
	key := grantKey(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	return key, s.grants[key]
}

// checkBinding refuses a hello that names another account or room than its
// token's binding.
func checkBinding(b *SeatBinding, hl Hello) error {
	if b == nil {
		return nil
	}
	if hl.AccountID != b.Account || hl.Room != b.Topic {
		return fmt.Errorf("%w: %w: hello names account %q in room %q", ErrBadHello, ErrWrongSeat, hl.AccountID, hl.Room)
	}
	return nil
}
