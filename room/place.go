package room

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// One member a launch (docs/design.md §6 "One member a launch"; spec
// «Codex の launch と sidecar の対応» #315): a CLI's child agent inherits
// its seat's environment, token included, and may start a sidecar of its
// own. Every sidecar process says hello with a random instance id of its
// own (Hello.Instance); a seat launch's place in its room belongs to one
// instance at a time. Another instance's hello is refused while the
// holder is seated, and for placeHold after its last connection left (its
// reconnect gets the place back first); the same instance's new
// connection replaces its older one, so a reconnect overlapping a stale
// socket is still one member. A restarted sidecar (a CLI that restarts
// its MCP server) gets the place once the old one has been gone
// placeHold.

// ErrLaunchSeated: another sidecar instance of the same seat launch holds
// its place in the room. The socket is closed with this text, which the
// sidecar's tool calls then report (a close reason: at most 123 bytes).
var ErrLaunchSeated = errors.New("another sidecar of this seat's launch is in the room: a child agent shares its parent's seat")

// placeHold is how long a seat launch's place stays its instance's after
// that instance's last connection left: the sidecar redials within its
// backoff (at most 5 s).
const placeHold = 10 * time.Second

// seatPlace is one seat launch's place in its room (one per seat token,
// grant.place). Its lock is a leaf.
type seatPlace struct {
	mu       sync.Mutex
	taken    bool      // an instance has held it
	instance string    // the instance holding it (Hello.Instance)
	conn     *Conn     // its seated connection; nil when none
	left     time.Time // when conn last left
}

// take seats c as instance in the place at now. It returns the holder's
// older connection to close when c replaces it (the same instance), or
// ErrLaunchSeated (wrapping ErrBadHello) when another instance holds it.
func (p *seatPlace) take(c *Conn, instance string, now time.Time) (*Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.taken && instance != p.instance && (p.conn != nil || now.Sub(p.left) < placeHold) {
		return nil, fmt.Errorf("%w: %w", ErrBadHello, ErrLaunchSeated)
	}
	old := p.conn
	p.taken, p.instance, p.conn = true, instance, c
	if old == c {
		old = nil
	}
	return old, nil
}

// leave takes c out of the place at now (a no-op when c does not hold
// it: it was replaced).
func (p *seatPlace) leave(c *Conn, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == c {
		p.conn, p.left = nil, now
	}
}
