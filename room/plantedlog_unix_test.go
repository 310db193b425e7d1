//go:build unix

package room

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestFIFOInPlaceOfATopicLog: a FIFO planted where an indexed topic's log
// goes hung the room's open of that topic, and with it the human's posts
// in every topic, at "sending…" until a restart (issue 32). Now the open
// returns, the human's post there is delivered with LogFailed naming the
// cause (the log is not a regular file), and another topic's posts are
// logged as before.
func TestFIFOInPlaceOfATopicLog(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	store, err := logstore.Open(data, logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	const bad, good = "t-bad", "t-good"
	if err := store.EnsureTopic(bad); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(store.Dir(), bad+".jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// A failed run leaves the open blocked: give it its writer.
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	})
	h := newTestHub(t, store, nil, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	sub := h.Subscribe()
	defer sub.Close()

	type result struct {
		res Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		if err := h.OpenRoom(bad); err != nil {
			done <- result{err: err}
			return
		}
		res, err := h.Post(bad, Draft{Content: "into the planted log"})
		done <- result{res, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(testkit.Slow(10 * time.Second)):
		t.Fatal("a FIFO in place of the topic log blocked the room")
	}
	if r.err != nil || !r.res.Delivered {
		t.Fatalf("post to the topic with the planted log: %v, delivered %v", r.err, r.res.Delivered)
	}
	if !errors.Is(r.res.LogErr, logstore.ErrNotAFile) {
		t.Fatalf("LogErr = %v, want %v", r.res.LogErr, logstore.ErrNotAFile)
	}
	lf := nextEvent[LogFailed](t, sub, nil)
	if lf.Topic != bad || !errors.Is(lf.Err, logstore.ErrNotAFile) {
		t.Fatalf("LogFailed %+v", lf)
	}

	mustOpen(t, h, good)
	res, err := h.Post(good, Draft{Content: "elsewhere"})
	if err != nil || !res.Delivered || res.LogErr != nil {
		t.Fatalf("post to another topic: %v, delivered %v, log %v", err, res.Delivered, res.LogErr)
	}
	if recs, _, err := store.Page(good, "", 10); err != nil || len(recs) != 1 {
		t.Fatalf("the other topic's log: %d records, %v", len(recs), err)
	}
}
