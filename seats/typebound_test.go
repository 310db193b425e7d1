package seats

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// tagLog records the tag line of every post written.
type tagLog struct {
	mu   sync.Mutex
	tags []string
	body []string
}

func (w *tagLog) Write(p []byte) (int, error) {
	s := strings.TrimPrefix(string(p), string(postPasteStart))
	if strings.HasPrefix(s, room.TagPrefix) {
		tag, body, _ := strings.Cut(s, "\n")
		w.mu.Lock()
		w.tags = append(w.tags, tag)
		w.body = append(w.body, body)
		w.mu.Unlock()
	}
	return len(p), nil
}

func (w *tagLog) snapshot() (tags, bodies []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.tags...), append([]string(nil), w.body...)
}

// TestTypistQueueIsBounded (issue 32): 20 000 notices of 16 KB enqueued
// into a seat that is not ready, the human's post among them. The queue
// keeps at most maxQueuedPosts posts (and maxQueuedBytes) besides the
// human's, which are never dropped; the rest is folded into one marker
// typed where the first was dropped, telling the seat how many it did not
// get and where they are. Once the seat is ready, the human's post is
// typed with a bounded queue ahead of it. Before the bound the queue held
// all 20 001 (313 MiB).
func TestTypistQueueIsBounded(t *testing.T) {
	t.Parallel()
	const flood, size = 20000, 16 << 10
	w := &tagLog{}
	var hours atomic.Int64
	ty := NewTypist(w, TypistOptions{Clock: instantClock{hours: &hours}})
	t.Cleanup(func() { _ = ty.Close() })
	body := strings.Repeat("n", size)
	notice := func(i int) room.Post {
		return room.Post{MessageID: "n-" + strconv.Itoa(i), Role: room.RoleMCP, Speaker: "GitHub",
			Content: body, TS: "2026-10-01T16:14:05.123Z"}
	}
	for i := range flood / 2 {
		ty.Enqueue(notice(i))
	}
	human := room.Post{MessageID: "human-1", Role: room.RoleAdmin, Speaker: "Alice", Content: "stop, all of you",
		TS: "2026-10-01T16:14:06.000Z"}
	ty.Enqueue(human)
	for i := flood / 2; i < flood; i++ {
		ty.Enqueue(notice(i))
	}
	humans := 70 // more of the human's posts than the bound: all kept
	for i := range humans {
		ty.Enqueue(room.Post{MessageID: "human-x" + strconv.Itoa(i), Role: room.RoleAdmin, Speaker: "Alice", Content: "again"})
	}
	st := ty.State()
	t.Logf("queued %d posts, %d KiB; folded %d", st.Queued, st.QueuedBytes>>10, st.Folded)
	if max := maxQueuedPosts + 1 + 1 + humans; st.Queued > max {
		t.Fatalf("%d posts queued, want at most %d", st.Queued, max)
	}
	if st.QueuedBytes > maxQueuedBytes+(1+humans)*1024 {
		t.Fatalf("%d bytes queued, want at most %d plus the human's", st.QueuedBytes, maxQueuedBytes)
	}
	if kept := st.Queued - 1 - 1 - humans; st.Folded != flood-kept {
		t.Errorf("folded %d, want %d (the flood less the %d kept)", st.Folded, flood-kept, kept)
	}

	ty.Ready()
	testkit.Eventually(t, "the whole queue typed", func() bool { return ty.State().Queued == 0 })
	tags, bodies := w.snapshot()
	at, marker := -1, -1
	for i, tag := range tags {
		if strings.Contains(tag, `"message_id":"human-1"`) {
			at = i
		}
		if strings.Contains(tag, `"role":"app"`) && strings.Contains(bodies[i], "posts not typed to you") {
			marker = i
		}
	}
	if at < 0 || at > maxQueuedPosts+1 {
		t.Fatalf("the human's post typed at %d, want within the first %d", at, maxQueuedPosts+2)
	}
	if marker < 0 || marker > at || !strings.Contains(bodies[marker], "read_room_history") {
		t.Fatalf("no marker before the human's post (marker %d, human %d)", marker, at)
	}
	if len(tags) != st.Queued {
		t.Errorf("%d typed, %d were queued", len(tags), st.Queued)
	}
}

// gateWriter blocks every Write until open is closed, then counts bytes.
type gateWriter struct {
	open    chan struct{}
	entered chan struct{} // closed at the first Write
	once    sync.Once
	n       atomic.Int64
}

func (w *gateWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.entered) })
	<-w.open
	w.n.Add(int64(len(p)))
	return len(p), nil
}

// TestTypistRepliesBounded: a child that floods its terminal with queries
// and never reads the answers (its PTY write blocked) gets at most
// maxQueuedReplies of replies queued; the human's keys typed meanwhile are
// all kept. Before the bound, 200 000 replies were all queued.
func TestTypistRepliesBounded(t *testing.T) {
	t.Parallel()
	w := &gateWriter{open: make(chan struct{}), entered: make(chan struct{})}
	ty := NewTypist(w, TypistOptions{Ready: true})
	t.Cleanup(func() { _ = ty.Close() })
	ty.Reply([]byte("\x1b[1;1R"))
	<-w.entered // the writer is stuck on the first reply
	for range 200000 {
		ty.Reply([]byte("\x1b[12;34R"))
	}
	human := strings.Repeat("k", 100<<10)
	ty.Human([]byte(human))
	ty.mu.Lock()
	queued := ty.replyBytes
	ty.mu.Unlock()
	if queued > maxQueuedReplies || queued < maxQueuedReplies-16 {
		t.Fatalf("%d bytes of replies queued, want the bound %d", queued, maxQueuedReplies)
	}
	close(w.open)
	want := int64(len("\x1b[1;1R") + queued + len(human))
	testkit.Eventually(t, "every queued byte written", func() bool { return w.n.Load() == want })
	ty.mu.Lock()
	defer ty.mu.Unlock()
	if ty.replyBytes != 0 {
		t.Fatalf("%d reply bytes still counted after the queue drained", ty.replyBytes)
	}
}
