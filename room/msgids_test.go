package room

import (
	"errors"
	"fmt"
	"testing"
)

// TestMessageIDsAreOnePostEach: a post reusing a delivered post's id from
// another connection is refused and not delivered (it made a post the
// human's chat never showed); the same post sent again by the same
// connection (a retry after a lost answer) gets the same answer and is not
// delivered twice; a floor-rejected id may be used again.
func TestMessageIDsAreOnePostEach(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms()
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	lin := seat(t, h, "t", "Lin", "cc")
	kai := seat(t, h, "t", "Kai", "cc2")
	first, err := lin.Post(Draft{MessageID: "m-1", Content: "hello @Kai"})
	if err != nil || !first.Delivered {
		t.Fatalf("first: %+v %v", first, err)
	}
	if _, err := kai.Post(Draft{MessageID: "m-1", Content: "hello @Kai", LastSeen: "m-1"}); !errors.Is(err, ErrDuplicateID) {
		t.Fatalf("another connection reusing m-1: %v, want ErrDuplicateID", err)
	}
	if _, err := lin.Post(Draft{MessageID: "m-1", Content: "something else", LastSeen: "m-1"}); !errors.Is(err, ErrDuplicateID) {
		t.Fatalf("the same connection reusing m-1 for another post: %v", err)
	}
	again, err := lin.Post(Draft{MessageID: "m-1", Content: "hello @Kai"})
	if err != nil || !again.Delivered || again.Post.MessageID != "m-1" || again.Post.Content != first.Post.Content ||
		fmt.Sprint(again.Post.To) != fmt.Sprint(first.Post.To) || again.Post.TS != first.Post.TS {
		t.Fatalf("retry: %+v %v, want %+v", again.Post, err, first.Post)
	}
	hist, _, err := h.History("t", "", 50)
	if err != nil || len(hist) != 1 {
		t.Fatalf("history after the retry and the refusals: %d posts, %v", len(hist), err)
	}

	// A rejected post was never delivered: its id stays free.
	say(t, kai, "news", "m-1")
	if res, err := lin.Post(Draft{MessageID: "m-2", Content: "late", LastSeen: "m-1"}); err != nil || res.Delivered {
		t.Fatalf("stale post: %+v %v, want a floor rejection", res, err)
	}
	hist, _, _ = h.History("t", "", 50)
	if res, err := lin.Post(Draft{MessageID: "m-2", Content: "late", LastSeen: hist[len(hist)-1].MessageID}); err != nil || !res.Delivered {
		t.Fatalf("resend of a rejected id: %+v %v", res, err)
	}
}

// TestRecentIDsAreBounded: a room remembers at most maxRecentIDs ids.
func TestRecentIDsAreBounded(t *testing.T) {
	t.Parallel()
	var ids recentIDs
	for i := range maxRecentIDs + 10 {
		ids.add(Post{MessageID: fmt.Sprint(i)}, 1, "c")
	}
	if len(ids.byID) != maxRecentIDs || len(ids.ring) != maxRecentIDs {
		t.Fatalf("%d ids kept, ring %d; want %d", len(ids.byID), len(ids.ring), maxRecentIDs)
	}
	if _, _, err := ids.check("0", 2, "c"); err != nil {
		t.Fatalf("the oldest id is still checked: %v", err)
	}
	if _, _, err := ids.check(fmt.Sprint(maxRecentIDs+9), 2, "c"); !errors.Is(err, ErrDuplicateID) {
		t.Fatalf("the newest id: %v", err)
	}
}
