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

// longRoom is a hub over a real store whose SaveBody is watched, with
// Ann (cc) and Lin (cx) seated in topic t.
type longRoom struct {
	h        *Hub
	store    *logstore.Store
	log      *watchedLog
	terms    *readingTerms
	ann, lin *Conn
	long     string // a body over logstore.BodyInline
}

func newLongRoom(t *testing.T) *longRoom {
	t.Helper()
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	lr := &longRoom{store: store, long: strings.Repeat("長い投稿の本文 ", logstore.BodyInline/len("長い投稿の本文 ")+16)}
	lr.log = &watchedLog{Store: store, room: func() *roomState { r, _ := lr.h.room("t"); return r }}
	lr.terms = &readingTerms{fakeTerms: newFakeTerms("t/cc", "t/cx"), found: map[string]string{}}
	lr.h = newTestHub(t, lr.log, lr.terms, testAccounts)
	mustOpen(t, lr.h, "t")
	lr.ann = seat(t, lr.h, "t", "Ann", "cc")
	lr.lin = seat(t, lr.h, "t", "Lin", "cx")
	return lr
}

// TestLongPostFileWrittenBeforeTheLock: a long post's body file is written
// before the room lock is taken (docs/design.md §2: nothing slow under
// it; docs/architecture.md "Under the room lock"), yet a seat handed the
// post finds the file there, holding exactly the text the room stamped
// under the lock — even when a rename during the write changed which of
// its @mentions match (the file is written again, the stale one removed).
func TestLongPostFileWrittenBeforeTheLock(t *testing.T) {
	t.Parallel()
	lr := newLongRoom(t)
	// Ann renames while Lin's post is being written: "@Ann" matches
	// nobody under the lock, so the post keeps it and its file is
	// written again with that text.
	lr.log.duringFn = func(n int) {
		if n == 1 {
			if err := lr.ann.Hello(Hello{Protocol: Protocol, Name: "Anna", Room: "t", AccountID: "cc"}); err != nil {
				t.Errorf("rename: %v", err)
			}
		}
	}
	draft := "@Ann " + lr.long
	p := say(t, lr.lin, draft, "")
	if len(p.To) != 0 || p.Size != len(draft) || p.BodyFile == "" {
		t.Fatalf("post: to %q, size %d of %d, file %q", p.To, p.Size, len(draft), p.BodyFile)
	}
	if got := lr.terms.found[p.MessageID]; got != draft {
		t.Fatalf("the seat found %d bytes at %s, want the %d the room stamped (%.60q)", len(got), p.BodyFile, len(draft), got)
	}
	if files := bodyFiles(t, lr.store); len(files) != 1 || files[0] != p.BodyFile {
		t.Fatalf("body files %q, want only %s (the stale write removed)", files, p.BodyFile)
	}
	if lr.log.saves != 2 || lr.log.locked != 0 {
		t.Fatalf("%d writes, %d under the room lock; want 2, none", lr.log.saves, lr.log.locked)
	}
}

// TestLongPostNotDeliveredLeavesNoFile: a long post the floor rejects
// leaves no file behind, and a retry of a delivered one adds none.
func TestLongPostNotDeliveredLeavesNoFile(t *testing.T) {
	t.Parallel()
	lr := newLongRoom(t)
	p := say(t, lr.lin, lr.long, "")
	if res, err := lr.ann.Post(Draft{Content: lr.long, LastSeen: "nothing"}); err != nil || res.Delivered {
		t.Fatalf("stale post: delivered %v, %v", res.Delivered, err)
	}
	if res, err := lr.lin.Post(Draft{MessageID: p.MessageID, Content: lr.long}); err != nil || !res.Delivered {
		t.Fatalf("retry: delivered %v, %v", res.Delivered, err)
	}
	if files := bodyFiles(t, lr.store); len(files) != 1 || files[0] != p.BodyFile {
		t.Fatalf("body files after a rejection and a retry: %q, want %s", files, p.BodyFile)
	}
	if lr.log.saves != 3 || lr.log.locked != 0 {
		t.Fatalf("%d writes, %d under the room lock; want 3, none", lr.log.saves, lr.log.locked)
	}
}

// TestLongPostsKeepOneOrder: many long posts at once keep one order in the
// log, the events and the typing, whatever order their files were written
// in, and each file holds its post.
func TestLongPostsKeepOneOrder(t *testing.T) {
	t.Parallel()
	lr := newLongRoom(t)
	sub := lr.h.Subscribe()
	t.Cleanup(sub.Close)
	const senders, each = 4, 5
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				if _, err := lr.h.AppNotice("t", fmt.Sprintf("notice %d.%d %s", g, i, lr.long)); err != nil {
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
	if logged := logOrder(t, lr.store); !slices.Equal(logged, events) {
		t.Fatalf("log order %q, events %q", logged, events)
	}
	var typed []string
	for _, c := range lr.terms.calls {
		if c.account == "cx" {
			typed = append(typed, c.post.MessageID)
		}
	}
	if !slices.Equal(typed, events) {
		t.Fatalf("typed into Lin %q, events %q", typed, events)
	}
	recs, _, err := lr.store.Page("t", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		data, err := os.ReadFile(lr.store.BodyPath("t", rec.BodyFile))
		if err != nil || !strings.HasPrefix(string(data), rec.Content) || len(data) != rec.Size || lr.terms.found[rec.MessageID] != string(data) {
			t.Fatalf("post %s: file %q holds %d bytes (%v), the log %d", rec.MessageID, rec.BodyFile, len(data), err, rec.Size)
		}
	}
	if files := bodyFiles(t, lr.store); len(files) != len(recs) {
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
	lr := newLongRoom(t)
	sub := lr.h.Subscribe()
	t.Cleanup(sub.Close)
	// Ann leaves during odd writes and comes back during even ones.
	ann := lr.ann
	lr.log.duringFn = func(n int) {
		if n%2 == 1 {
			ann.Close()
			return
		}
		ann = lr.h.Connect()
		if err := ann.Hello(Hello{Protocol: Protocol, Name: "Ann", Room: "t", AccountID: "cc"}); err != nil {
			t.Errorf("hello: %v", err)
		}
	}
	t.Cleanup(func() { ann.Close() })
	draft := "@Ann " + strings.Repeat("x", logstore.BodyInline+100)
	p := say(t, lr.lin, draft, "")
	if lr.log.saves != maxLongWrites || lr.log.locked != 0 {
		t.Fatalf("%d writes, %d under the lock; want %d, none", lr.log.saves, lr.log.locked, maxLongWrites)
	}
	if p.BodyFile != "" || p.Size == 0 || len(p.Content) > logstore.BodyInline {
		t.Fatalf("post: file %q, size %d, %d bytes inline", p.BodyFile, p.Size, len(p.Content))
	}
	nextEvent(t, sub, func(e LogFailed) bool { return e.MessageID == p.MessageID })
	if files := bodyFiles(t, lr.store); len(files) != 0 {
		t.Fatalf("body files left: %q", files)
	}
	recs, _, err := lr.store.Page("t", "", 10)
	if err != nil || len(recs) != 1 || recs[0].Size != p.Size || recs[0].BodyFile != "" {
		t.Fatalf("log: %d records, %v", len(recs), err)
	}
}
