package room

import "fmt"

// The brake on AI-to-AI loops (docs/design.md §2 "The brake"). Two AI seats
// that answer every post they are typed would answer each other without
// end; the room counts the AI posts in a row since the human last spoke
// and, at HubOptions.Brake, stops typing AI posts into its seats until the
// human posts or releases the brake (Hub.ReleaseBrake). Posts are still
// delivered: logged, shown and returned by history; seats catch up through
// the floor and read_room_history. Posts made while braked are never typed
// later.

// brake is one room's count and state. Guarded by the room lock.
type brake struct {
	run int  // AI posts in a row since the human's last post (frozen while on)
	on  bool // AI posts are not typed into seats
}

// count records a delivered post of role in a room whose brake engages at
// limit (0: off). The human's post (admin) ends the run and releases the
// brake; an AI post lengthens the run and engages the brake at limit.
// Notices (app, mcp) and unknown speakers neither count nor reset. It
// returns the change to publish (Topic unset) and whether there is one.
func (b *brake) count(limit int, role Role) (BrakeChanged, bool) {
	switch {
	case role == RoleAdmin:
		b.run = 0
		if b.on {
			b.on = false
			return BrakeChanged{On: false}, true
		}
	case limit > 0 && role.AI() && !b.on:
		b.run++
		if b.run >= limit {
			b.on = true
			return BrakeChanged{On: true, Count: b.run}, true
		}
	}
	return BrakeChanged{}, false
}

// brakeNotice is the text of the app notice delivered when the brake
// engages after n AI posts in a row. It is typed into the seats (an app
// post is not an AI post), so they learn why posts stopped arriving; the
// seats read English, like the sidecar's instructions.
func brakeNotice(n int) string {
	return fmt.Sprintf("Brake: after %d AI posts in a row with no post from the human, the room stopped "+
		"typing AI posts into the seats. They are still delivered and logged (read_room_history). "+
		"To continue, the human posts, or releases the brake (Pullcept's release_brake key).", n)
}

// ReleaseBrake releases the brake of topicID's room, as the human's next
// post would: AI posts are typed into its seats again from the next one on
// (none made while braked is typed later) and the count starts from zero.
// It emits BrakeChanged; a room whose brake is off is left as it is.
// Errors: ErrNoRoom, ErrClosed.
func (h *Hub) ReleaseBrake(topicID string) error {
	r, err := h.room(topicID)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closeErr != nil {
		return r.closeErr
	}
	if !r.brake.on {
		return nil
	}
	r.brake = brake{}
	h.emit(BrakeChanged{Topic: topicID, On: false})
	return nil
}

// Braked reports whether the brake of topicID's room is on (false for a
// room that is not open).
func (h *Hub) Braked(topicID string) bool {
	h.mu.Lock()
	r := h.rooms[topicID]
	h.mu.Unlock()
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.brake.on
}

// SetBrake sets the brake of every room, open or opened later, to n AI
// posts in a row (0: off), as config.json's "brake" changed in the
// settings while the app runs (docs/design.md §2 "The brake"). It applies
// from the next post on: a room whose run already reaches n brakes at its
// next AI post; a room already braked stays braked until the human posts
// or releases it (turning the brake off does not post for the human). A
// negative n is refused (ErrBadBrake) and changes nothing.
func (h *Hub) SetBrake(n int) error {
	if n < 0 {
		return fmt.Errorf("set brake %d: %w", n, ErrBadBrake)
	}
	h.brake.Store(int64(n))
	return nil
}
