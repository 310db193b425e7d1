package room

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pullcept/pullcept/logstore"
)

// watchedLog is a real logstore.Store that records, for each SaveBody,
// whether the room's lock was held (checked with TryLock while nothing
// else runs in the room) and lets a test act in the middle of a write.
type watchedLog struct {
	*logstore.Store
	room     func() *roomState
	mu       sync.Mutex
	saves    int
	locked   int         // SaveBody calls made with the room lock held
	duringFn func(n int) // runs inside SaveBody call n (1, 2, …) made without the lock
}

func (l *watchedLog) SaveBody(topic, id, body string) (string, string, error) {
	l.mu.Lock()
	l.saves++
	n, during := l.saves, l.duringFn
	l.mu.Unlock()
	if r := l.room(); r.mu.TryLock() {
		r.mu.Unlock()
		if during != nil {
			during(n)
		}
	} else { // (during would deadlock: it takes the room lock)
		l.mu.Lock()
		l.locked++
		l.mu.Unlock()
	}
	return l.Store.SaveBody(topic, id, body)
}

// readingTerms reads each long post's body file when the room hands the
// post to a seat: what the seat would find at the path it is typed.
type readingTerms struct {
	*fakeTerms
	mu    sync.Mutex
	found map[string]string // message id → the file's text, or the read error
}

func (t *readingTerms) Enqueue(topic, account string, p Post) bool {
	if p.BodyFile != "" {
		data, err := os.ReadFile(p.BodyFile)
		got := string(data)
		if err != nil {
			got = err.Error()
		}
		t.mu.Lock()
		t.found[p.MessageID] = got
		t.mu.Unlock()
	}
	return t.fakeTerms.Enqueue(topic, account, p)
}

// bodyFiles lists the long posts' files of topic t.
func bodyFiles(t *testing.T, store *logstore.Store) []string {
	t.Helper()
	dir, err := store.TopicAttachmentsDir("t")
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "post-*"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestLongPostFileWrittenBeforeTheLock: a long post's body file is written
// before the room lock is taken (docs/design.md §2: nothing slow under
// it; docs/architecture.md "Under the room lock"), yet a seat handed the
// post finds the file there, holding exactly the text the room stamped
// under the lock — even when a rename during the write changed which of
// its @mentions match (the file is written again). A post that is not
// delivered leaves no file, a retry none more, and many long posts at
// once keep one order in the log, the events and the typing, whatever
// order their files were written in.
func TestLongPostFileWrittenBeforeTheLock(t *testing.T) {
	t.Parallel()
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var h *Hub
	log := &watchedLog{Store: store, room: func() *roomState { r, _ := h.room("t"); return r }}
	terms := &readingTerms{fakeTerms: newFakeTerms("t/cc", "t/cx"), found: map[string]string{}}
	h = newTestHub(t, log, terms, testAccounts)
	mustOpen(t, h, "t")
	ann := seat(t, h, "t", "Ann", "cc")
	lin := seat(t, h, "t", "Lin", "cx")
	long := strings.Repeat("長い投稿の本文 ", logstore.BodyInline/len("長い投稿の本文 ")+16)

	// Ann renames while Lin's post is being written: "@Ann" matches
	// nobody under the lock, so the post keeps it and its file is
	// written again with that text.
	log.duringFn = func(n int) {
		if n == 1 {
			if err := ann.Hello(Hello{Protocol: Protocol, Name: "Anna", Room: "t", AccountID: "cc"}); err != nil {
				t.Errorf("rename: %v", err)
			}
		}
	}
	draft := "@Ann " + long
	p := say(t, lin, draft, "")
	log.duringFn = nil
	if len(p.To) != 0 || p.Size != len(draft) || p.BodyFile == "" {
		t.Fatalf("post: to %q, size %d of %d, file %q", p.To, p.Size, len(draft), p.BodyFile)
	}
	if got := terms.found[p.MessageID]; got != draft {
		t.Fatalf("the seat found %d bytes at %s, want the %d the room stamped (%.60q)", len(got), p.BodyFile, len(draft), got)
	}
	if files := bodyFiles(t, store); len(files) != 1 || files[0] != p.BodyFile {
		t.Fatalf("body files %q, want only %s (the stale write removed)", files, p.BodyFile)
	}
	if log.saves != 2 || log.locked != 0 {
		t.Fatalf("%d writes, %d under the room lock; want 2, none", log.saves, log.locked)
	}

	// Rejected by the floor (Ann has not seen Lin's post), and a retry of
	// a delivered post: no file stays behind, none is added.
	if res, err := ann.Post(Draft{Content: long, LastSeen: "nothing"}); err != nil || res.Delivered {
		t.Fatalf("stale post: delivered %v, %v", res.Delivered, err)
	}
	if res, err := lin.Post(Draft{MessageID: p.MessageID, Content: draft}); err != nil || !res.Delivered {
		t.Fatalf("retry: delivered %v, %v", res.Delivered, err)
	}
	if files := bodyFiles(t, store); len(files) != 1 {
		t.Fatalf("body files after a rejection and a retry: %q", files)
	}
	if log.locked != 0 {
		t.Fatalf("%d writes under the room lock", log.locked)
	}

	// Many senders at once: the room's order is the log's, the events'
	// and the typing's, and each file holds its post.
	sub := h.Subscribe()
	t.Cleanup(sub.Close)
	const senders, each = 4, 5
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				if _, err := h.AppNotice("t", fmt.Sprintf("notice %d.%d %s", g, i, long)); err != nil {
					t.Errorf("notice %d.%d: %v", g, i, err)
				}
			}
		})
	}
	wg.Wait()
	var events []string
	for range senders * each {
		events = append(events, nextEvent[PostDelivered](t, sub, nil).Post.MessageID)
	}
	logged := logOrder(t, store)
	if !slices.Equal(logged[len(logged)-len(events):], events) {
		t.Fatalf("log order %q, events %q", logged, events)
	}
	var typed []string
	for _, c := range terms.calls {
		if c.account == "cx" && c.post.Role == RoleApp {
			typed = append(typed, c.post.MessageID)
		}
	}
	if !slices.Equal(typed, events) {
		t.Fatalf("typed into Lin %q, events %q", typed, events)
	}
	recs, _, err := store.Page("t", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		data, err := os.ReadFile(store.BodyPath("t", rec.BodyFile))
		if whole := strings.HasPrefix(string(data), rec.Content); err != nil || !whole || len(data) != rec.Size {
			t.Fatalf("post %s: file %q holds %d bytes (%v), the log %d", rec.MessageID, rec.BodyFile, len(data), err, rec.Size)
		}
		if terms.found[rec.MessageID] != string(data) {
			t.Fatalf("post %s: the seat found other text at its path", rec.MessageID)
		}
	}
	if files := bodyFiles(t, store); len(files) != len(recs) {
		t.Fatalf("%d body files for %d long posts", len(files), len(recs))
	}
}

// logOrder is the message ids of topic t's log lines, in log order.
func logOrder(t *testing.T, store *logstore.Store) []string {
	t.Helper()
	recs, _, err := store.Page("t", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		ids = append(ids, r.MessageID)
	}
	return ids
}

// TestLongPostWritesAreBounded: when the roster changes the post's
// @mentions during every write of its body file, the room stops after
// maxLongWrites writes and delivers the post without a file — told as
// LogFailed, the log line holding the text, no file left and no path
// typed to a file that does not hold it.
func TestLongPostWritesAreBounded(t *testing.T) {
	t.Parallel()
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var h *Hub
	log := &watchedLog{Store: store, room: func() *roomState { r, _ := h.room("t"); return r }}
	terms := &readingTerms{fakeTerms: newFakeTerms("t/cc", "t/cx"), found: map[string]string{}}
	h = newTestHub(t, log, terms, testAccounts)
	mustOpen(t, h, "t")
	sub := h.Subscribe()
	t.Cleanup(sub.Close)
	ann := seat(t, h, "t", "Ann", "cc")
	lin := seat(t, h, "t", "Lin", "cx")
	// Ann leaves during odd writes and comes back during even ones.
	log.duringFn = func(n int) {
		if n%2 == 1 {
			ann.Close()
			return
		}
		ann = h.Connect()
		if err := ann.Hello(Hello{Protocol: Protocol, Name: "Ann", Room: "t", AccountID: "cc"}); err != nil {
			t.Errorf("hello: %v", err)
		}
	}
	t.Cleanup(func() { ann.Close() })
	draft := "@Ann " + strings.Repeat("x", logstore.BodyInline+100)
	p := say(t, lin, draft, "")
	if log.saves != maxLongWrites || log.locked != 0 {
		t.Fatalf("%d writes, %d under the lock; want %d, none", log.saves, log.locked, maxLongWrites)
	}
	if p.BodyFile != "" || p.Size == 0 || len(p.Content) > logstore.BodyInline {
		t.Fatalf("post: file %q, size %d, %d bytes inline", p.BodyFile, p.Size, len(p.Content))
	}
	nextEvent(t, sub, func(e LogFailed) bool { return e.MessageID == p.MessageID })
	if files := bodyFiles(t, store); len(files) != 0 {
		t.Fatalf("body files left: %q", files)
	}
	recs, _, err := store.Page("t", "", 10)
	if err != nil || len(recs) != 1 || recs[0].Size != p.Size || recs[0].BodyFile != "" {
		t.Fatalf("log: %d records, %v", len(recs), err)
	}
}
