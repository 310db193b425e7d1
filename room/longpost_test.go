package room

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/logstore"
)

// TestLongPostsKeptOnDisk: a seat posts long bodies into an open topic with
// the human's chat subscribed (500 posts of 1 MB held 1.79 GB while the
// topic was open). The room holds each one's first logstore.BodyInline
// bytes only, so the heap grows by at most twice that per post (the room's
// and this test's chat copy) plus 8 MiB, whatever the bodies' size: `make
// test` posts 200 of 128 KiB (old code: over 50 MiB), `make soak` 500 of
// 1 MiB, the attack. Nothing is lost: every log line holds its
// body whole, every post's body file holds it whole, and history, the
// chat's event and the sender's answer carry the clipped body with its
// size and the file's path.
func TestLongPostsKeptOnDisk(t *testing.T) {
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	h := newTestHub(t, store, nil, testAccounts)
	mustOpen(t, h, "t")
	sub := h.Subscribe()
	t.Cleanup(sub.Close)
	var chat []Post // what the human's chat is handed
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for e := range sub.C() {
			if d, ok := e.(PostDelivered); ok {
				chat = append(chat, d.Post)
			}
		}
	}()
	s := newTestServer(t, h, ServerOptions{})
	c := dialRoom(t, s, bearer(s))
	c.hello("Lin", "t", "cc")
	waitRoster(t, h, "t", 1)

	posts, size := 200, 128<<10
	if os.Getenv("PULLCEPT_SOAK") != "" {
		posts, size = 500, MaxFrameBytes-4096
	}
	bound := int64(posts*2*logstore.BodyInline + 8<<20)
	body := func(i int) string {
		head := fmt.Sprintf("post %d ", i)
		return head + strings.Repeat("日本語のテキスト ", (size-len(head))/len("日本語のテキスト "))
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	last := ""
	for i := range posts {
		id := fmt.Sprintf("long-%d", i)
		fr := c.post(id, body(i), last)
		if !fr.Delivered {
			t.Fatalf("post %d: %+v", i, fr)
		}
		last = id
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("%d posts of %d bytes: heap in use %d MiB → %d MiB (cap: +%d MiB)", posts, size, before.HeapInuse>>20, after.HeapInuse>>20, bound>>20)
	if grew > bound {
		t.Fatalf("the heap grew by %d MiB holding %d long posts; cap %d MiB", grew>>20, posts, bound>>20)
	}

	// The log line holds each body whole; its body file too.
	f, err := os.Open(filepath.Join(store.Dir(), "t.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, logstore.MaxLineBytes)
	n := 0
	for ; sc.Scan(); n++ {
		var rec logstore.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("log line %d: %v", n, err)
		}
		if rec.Content != body(n) {
			t.Fatalf("log line %d holds %d bytes, want the whole %d", n, len(rec.Content), len(body(n)))
		}
		if n%100 == 0 {
			data, err := os.ReadFile(store.BodyPath("t", rec.BodyFile))
			if err != nil || string(data) != body(n) {
				t.Fatalf("body file %q of post %d: %d bytes, %v", rec.BodyFile, n, len(data), err)
			}
		}
	}
	if n != posts {
		t.Fatalf("%d log lines, want %d", n, posts)
	}

	// History, the chat and the floor carry the clipped body.
	clipped, _ := logstore.ClipBody(body(posts - 1))
	check := func(where string, p Post) {
		t.Helper()
		if p.Content != clipped || p.Size != len(body(posts-1)) || p.BodyFile == "" {
			t.Fatalf("%s: %d bytes, size %d, file %q", where, len(p.Content), p.Size, p.BodyFile)
		}
		if note := ClipNote(p); !strings.Contains(note, p.BodyFile) || strings.HasPrefix(note, TagPrefix) {
			t.Fatalf("%s: note %q", where, note)
		}
	}
	hist := c.history("h", "", HistoryDefault)
	if len(hist.Posts) != HistoryDefault {
		t.Fatalf("history: %d posts", len(hist.Posts))
	}
	check("history", hist.Posts[len(hist.Posts)-1])
	h.Close()
	<-drained
	if len(chat) != posts {
		t.Fatalf("the chat got %d posts, want %d", len(chat), posts)
	}
	check("chat", chat[posts-1])
}

// TestUIPostOverLimitIsRefused: the human's post has no frame to bound it;
// one over MaxPostBytes is refused with ErrPostTooLong naming both sizes
// (the input bar keeps the text), never written as a log line too long to
// read back.
func TestUIPostOverLimitIsRefused(t *testing.T) {
	log := newMemLog()
	h := newTestHub(t, log, nil, testAccounts)
	h.SetAdmin(Hello{Name: "Master", AccountID: "me"})
	mustOpen(t, h, "t")
	_, err := h.Post("t", Draft{Content: strings.Repeat("x", MaxPostBytes+1)})
	if !errors.Is(err, ErrPostTooLong) || !strings.Contains(err.Error(), fmt.Sprint(MaxPostBytes+1)) {
		t.Fatalf("post over the limit: %v", err)
	}
	if n := len(log.ids("t")); n != 0 {
		t.Fatalf("%d posts logged", n)
	}
	if res, err := h.Post("t", Draft{Content: strings.Repeat("x", MaxPostBytes)}); err != nil || !res.Delivered || res.Post.Size != MaxPostBytes {
		t.Fatalf("post at the limit: %+v %v", res.Post.Size, err)
	}
}
