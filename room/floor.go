package room

// floorEntry is one post in a room's floor window with what the judgement
// needs: the origin (connection) that said it and its room order.
type floorEntry struct {
	post   Post
	origin uint64
	seq    uint64
}

// floor is a room's window of the last FloorWindow posts (docs/design.md §2, spec
// «床»): a ring buffer, oldest first. Guarded by the room lock.
type floor struct {
	ring  [FloorWindow]floorEntry
	start int // index of the oldest entry in ring
	n     int // entries held, ≤ FloorWindow
}

// at returns the i-th oldest entry (0 ≤ i < n).
func (f *floor) at(i int) *floorEntry { return &f.ring[(f.start+i)%FloorWindow] }

// push adds e as the newest entry, dropping the oldest when full.
func (f *floor) push(e floorEntry) {
	if f.n < FloorWindow {
		f.ring[(f.start+f.n)%FloorWindow] = e
		f.n++
		return
	}
	f.ring[f.start] = e
	f.start = (f.start + 1) % FloorWindow
}

// position returns the window position just after the post lastSeen, or 0
// when lastSeen is "" or not in the window ("seen nothing": the safe side,
// spec «床» — an unknown or evicted id costs the sender one round trip).
// Searching from the newest end makes the common case (the sender saw the
// latest post) O(1).
func (f *floor) position(lastSeen string) int {
	if lastSeen == "" {
		return 0
	}
	for i := f.n - 1; i >= 0; i-- {
		if f.at(i).post.MessageID == lastSeen {
			return i + 1
		}
	}
	return 0
}

// judge returns the posts the sender has not seen, oldest first: those after
// lastSeen that another origin said after the sender took its seat (its room
// order was joinSeq then). An empty result means the post may be delivered.
// The returned posts are copies; To and Hue are shared and read-only.
func (f *floor) judge(lastSeen string, origin, joinSeq uint64) []Post {
	var missed []Post
	for i := f.position(lastSeen); i < f.n; i++ {
		e := f.at(i)
		if e.origin == origin || e.seq <= joinSeq {
			continue
		}
		missed = append(missed, e.post)
	}
	return missed
}

// before returns up to limit posts older than the post with message_id
// before ("" = from the newest), oldest first, and whether older posts remain
// in the window. ok is false when before is not in the window.
func (f *floor) before(before string, limit int) (posts []Post, hasMore, ok bool) {
	end := f.n
	if before != "" {
		end = -1
		for i := f.n - 1; i >= 0; i-- {
			if f.at(i).post.MessageID == before {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, false, false
		}
	}
	start := max(end-limit, 0)
	posts = make([]Post, 0, end-start)
	for i := start; i < end; i++ {
		posts = append(posts, f.at(i).post)
	}
	return posts, start > 0, true
}
