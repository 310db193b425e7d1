package room

import (
	"crypto/sha256"
	"errors"
	"fmt"
)

// ErrDuplicateID: a post reuses the message_id of a post this room already
// delivered. One id is one post: a reused id made a post the human's chat
// never showed (it dedupes by id) while seats still got it typed.
var ErrDuplicateID = errors.New("message_id already used in this room")

// maxRecentIDs bounds the delivered ids a room remembers: about 200 bytes
// each plus up to maxKeptContent of text, so at most ~20 MiB a room. Older
// ids are not checked: the chat shows recent posts, and a sender's id is a
// fresh UUID v4.
const maxRecentIDs = 1 << 14

// recentIDs are the message ids of the posts a room delivered, newest
// maxRecentIDs, with who sent each and a digest of its content, so a
// retry from the same connection gets the same answer back. Guarded by
// the room's lock.
type recentIDs struct {
	byID map[string]sentPost
	ring []string // ids in delivery order, overwritten oldest first
	next int
}

// sentPost is one delivered post as a retry gets it back: the stamped post
// (its content kept only up to maxKeptContent bytes, else the retry's own
// draft text stands in), its sender, and the digest of the draft's text.
type sentPost struct {
	post   Post
	kept   bool // post.Content is the delivered text
	origin uint64
	sum    [sha256.Size]byte
}

// maxKeptContent bounds the delivered text kept per id for retries.
const maxKeptContent = 1 << 10

// maxKeptTo bounds the addressees kept per id for retries (a post to a
// handful of seats keeps them).
const maxKeptTo = 4

// check says what to do with a draft naming id from origin: a retry of the
// same post from the same connection gets its post back (ok true); any
// other reuse is refused.
func (ids *recentIDs) check(id string, origin uint64, content string) (Post, bool, error) {
	if id == "" || ids.byID == nil {
		return Post{}, false, nil
	}
	sent, seen := ids.byID[id]
	if !seen {
		return Post{}, false, nil
	}
	if sent.origin == origin && origin != 0 && sent.sum == sha256.Sum256([]byte(content)) {
		p := sent.post
		if !sent.kept {
			p.Content = content
		}
		return p, true, nil
	}
	return Post{}, false, fmt.Errorf("%w: %q", ErrDuplicateID, id)
}

// add remembers a delivered post p whose draft text was content,
// forgetting the oldest beyond the bound.
func (ids *recentIDs) add(p Post, origin uint64, content string) {
	if ids.byID == nil {
		ids.byID = make(map[string]sentPost)
	}
	if len(ids.ring) < maxRecentIDs {
		ids.ring = append(ids.ring, p.MessageID)
	} else {
		delete(ids.byID, ids.ring[ids.next])
		ids.ring[ids.next] = p.MessageID
		ids.next = (ids.next + 1) % maxRecentIDs
	}
	kept := len(p.Content) <= maxKeptContent
	if !kept {
		p.Content = ""
	}
	if len(p.To) > maxKeptTo {
		// A retry's answer is read for its id and "delivered"; the
		// addressees are in the log. 64 long names a post made 16 384
		// remembered posts 279 MiB (breaker review).
		p.To = nil
	}
	ids.byID[p.MessageID] = sentPost{post: p, kept: kept, origin: origin, sum: sha256.Sum256([]byte(content))}
}
