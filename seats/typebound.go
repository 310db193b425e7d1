package seats

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pullcept/pullcept/room"
)

// The typing queue's bound (docs/design.md §5 "The queue", issue 32): a
// seat types a few posts a second at best and one per turn when its CLI
// confirms, while a flood of notices or another seat's posts can arrive by
// the thousand (20 000 notices of 16 KB queued 80 minutes of typing, and
// 313 MiB, ahead of the human's next post). A Typist keeps at most
// maxQueuedPosts posts and maxQueuedBytes of text; a post that would go
// over is not queued but folded into one marker, typed in its place, that
// tells the seat how many it did not get and where they are. The human's
// posts are never folded: they are always queued, over the bound too.
const (
	maxQueuedPosts = 64
	maxQueuedBytes = 1 << 20
)

// foldEarly folds p when the queue is already full by count, before its
// text is made (a flood costs no normalizing), and reports whether it did.
func (t *Typist) foldEarly(p room.Post) bool {
	if p.Role == room.RoleAdmin {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped || len(t.posts) < maxQueuedPosts {
		return false
	}
	t.foldLocked()
	return true
}

// fold counts n posts the seat did not get, as if each had been folded
// (a starting seat's held posts past the bound, earlyJoin.replay).
func (t *Typist) fold(n int) {
	t.mu.Lock()
	if !t.stopped {
		for range n {
			t.foldLocked()
		}
	}
	t.mu.Unlock()
	t.poke()
	t.changed()
}

// queueLocked queues post p (typed as payload) or folds it. Caller holds
// t.mu.
func (t *Typist) queueLocked(p room.Post, payload []byte) {
	if p.Role != room.RoleAdmin && (len(t.posts) >= maxQueuedPosts || t.queuedBytes+len(payload) > maxQueuedBytes) {
		t.foldLocked()
		return
	}
	t.posts = append(t.posts, queued{id: p.MessageID, b: payload})
	t.queuedBytes += len(payload)
}

// foldLocked counts one post not queued on the marker that waits, or on a
// new one at the tail. Caller holds t.mu.
func (t *Typist) foldLocked() {
	t.folded++
	for i := len(t.posts) - 1; i >= 0; i-- {
		if t.posts[i].fold > 0 { // at most one marker waits: it takes the count
			t.posts[i].fold++
			return
		}
	}
	t.foldSeq++
	t.posts = append(t.posts, queued{id: "pullcept-fold-" + strconv.Itoa(t.foldSeq), fold: 1})
}

// popLocked takes the head post off the queue and returns it with its
// text; a marker's text is written now, with the count it reached.
// Caller holds t.mu.
func (t *Typist) popLocked() queued {
	p := t.posts[0]
	t.posts[0] = queued{}
	t.posts = t.posts[1:]
	t.queuedBytes -= len(p.b)
	if p.fold > 0 {
		p.b = []byte(t.foldText(p))
	}
	return p
}

// foldText is a marker as typed: an app notice's tag (Pullcept's own
// text, never a seat's) and what the seat missed.
func (t *Typist) foldText(p queued) string {
	tag := room.Tag(room.Post{Role: room.RoleApp, Speaker: room.AppSpeaker, MessageID: p.id,
		TS: t.clock.Now().UTC().Format(time.RFC3339Nano)}, t.loc)
	return tag + "\n" + fmt.Sprintf("%d posts not typed to you: your typing queue was full (%d posts or %d KiB). "+
		"read_room_history has them.", p.fold, maxQueuedPosts, maxQueuedBytes>>10)
}
