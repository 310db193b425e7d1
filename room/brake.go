package room

import (
	"fmt"
	"slices"
)

// The brake on AI-to-AI loops (docs/design.md §2 "The brake"). Two AI seats
// that answer every post they are typed would answer each other without
// end; the room counts the AI posts in a row since the human last spoke
// and, at HubOptions.Brake, stops typing AI posts into its seats until the
// human posts or releases the brake (Hub.ReleaseBrake). Posts are still
// delivered: logged, shown and returned by history; seats catch up through
// the floor and read_room_history. The posts the brake held back are kept
// (at most maxHeld, maxHeldBytes; hold): a release types them, in
// order (issue 35: F9 "released" and the seats sat idle); the human's own
// post drops them — it is what the seats should answer now.

// Bounds of the posts a braked room holds back: a seat that goes on
// posting while braked cannot grow the room without bound.
const (
	maxHeld      = 32
	maxHeldBytes = 1 << 20
)

// brake is one room's count and state. Guarded by the room lock.
type brake struct {
	run int  // AI posts in a row since the human's last post (frozen while on)
	on  bool // AI posts are not typed into seats
	// held are the AI posts not typed while on, oldest first; heldBytes
	// their content; dropped how many the bounds let go (hold).
	held      []heldPost
	heldBytes int
	dropped   int
}

// heldPost is a post the brake kept from the seats, with the accounts it
// was kept from: those it would have been typed into when it was said. A
// release types it into those alone, never into a seat that took its
// place after the post (Hub.seatedFor).
type heldPost struct {
	post Post
	to   []string
}

// hold keeps p, kept from the accounts to, typed later by a release. Past
// the bounds the speaker holding the most (posts, or bytes past the byte
// bound) lets go of its oldest: a seat that floods a braked room loses its
// own, never another seat's (the attention list's rule, docs/design.md
// §17).
func (b *brake) hold(p Post, to []string) {
	b.held = append(b.held, heldPost{post: p, to: to})
	b.heldBytes += len(p.Content)
	for len(b.held) > maxHeld || (b.heldBytes > maxHeldBytes && len(b.held) > 1) {
		i := b.letGo(len(b.held) <= maxHeld)
		b.heldBytes -= len(b.held[i].post.Content)
		b.held = slices.Delete(b.held, i, i+1)
		b.dropped++
	}
}

// letGo is the index of the held post to let go: the oldest of the
// speaker (by account, else name) holding the most posts, or the most
// bytes when bytes.
func (b *brake) letGo(bytes bool) int {
	who := func(p Post) string { return p.Account + "\x00" + p.Speaker }
	load := map[string]int{}
	for _, hp := range b.held {
		n := 1
		if bytes {
			n = len(hp.post.Content)
		}
		load[who(hp.post)] += n
	}
	most, at := -1, 0
	for i, hp := range b.held {
		if n := load[who(hp.post)]; n > most {
			most, at = n, i
		}
	}
	return at
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
			left := len(b.held) + b.dropped
			*b = brake{}
			return BrakeChanged{On: false, Dropped: left}, true
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

// BrakeNotice is the text of the app notice delivered when the brake
// engages after n AI posts in a row, in English (HubOptions.BrakeNotice
// words it in the human's language). It is typed into the seats (an app
// post is not an AI post), so they learn why posts stopped arriving, and
// says no reply is needed: a seat that answers it only lengthens the loop.
func BrakeNotice(n int, releaseKey string) string {
	posts := "posts"
	if n == 1 {
		posts = "post"
	}
	return fmt.Sprintf("Brake: after %d AI %s in a row with no post from the human, the room stopped "+
		"typing AI posts into the seats. They are still delivered and logged (read_room_history). "+
		"To go on, the human posts, or presses %s to release the brake and type the posts it held. (no reply needed)", n, posts, releaseKey)
}

// brakeNotice is the notice's text for this hub (HubOptions.BrakeNotice).
func (h *Hub) brakeNotice(n int) string {
	if h.brakeText != nil {
		return h.brakeText(n)
	}
	return BrakeNotice(n, "the release key")
}

// ReleaseBrake releases the brake of topicID's room: the posts it held
// back are typed into the seats, in order (docs/design.md §2 "The brake"),
// each into the accounts it was kept from that are still seated,
// AI posts are typed again from the next one on, and the count starts
// from zero. It emits BrakeChanged with Released and how many were typed
// (Typed) or let go past the bounds (Dropped); a room whose brake is off
// is left as it is. Errors: ErrNoRoom, ErrClosed.
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
	held, dropped := r.brake.held, r.brake.dropped
	r.brake = brake{}
	for _, hp := range held {
		h.typeInto(r, hp.post, nil, hp.to)
	}
	h.emit(BrakeChanged{Topic: topicID, On: false, Released: true, Typed: len(held), Dropped: dropped})
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
