//go:build !windows

package logstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestLogReplacedByALinkIsNotFollowed: a topic log replaced by a symbolic
// link gets no post appended to the link's target, and is not read through
// it; the append reports an error (the room still delivers the post and
// says the log failed).
func TestLogReplacedByALinkIsNotFollowed(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	topic := NewTopicID()
	target := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(s.Dir(), topic+".jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(topic, Record{MessageID: "m1", Speaker: "x", Content: "hi", TS: "2026-12-01T09:00:00.000Z"}); err == nil {
		t.Fatal("append through a symbolic link succeeded")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
	if _, _, err := s.Page(topic, "", 10); err == nil {
		t.Fatal("the log was read through a symbolic link")
	}
}

// TestFIFOInPlaceOfALogDoesNotBlock: a FIFO planted where an indexed
// topic's log goes (issue 32) used to hang the first post's naming under
// the index lock, and every topic with it. Now every open of a log refuses
// it at once: the append to that topic fails with ErrNotAFile and the
// other topics keep working.
func TestFIFOInPlaceOfALogDoesNotBlock(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	bad, good := NewTopicID(), NewTopicID()
	if err := s.EnsureTopic(bad); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := s.logPath(bad)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// A failed run leaves goroutines blocked in the open: release them.
	t.Cleanup(func() { releaseFIFO(fifo) })
	done := make(chan error, 1)
	go func() {
		// Each read opens the log on its own (no append handle yet): a
		// FIFO without a writer blocked the open.
		_, _, perr := s.Page(bad, "", 10)
		_, _, _ = s.Search(context.Background(), "hello", 5)
		_, rerr := (&Reader{s: s}).Each(bad, func(Record) error { return nil })
		rec := post("m1", "hello")
		err := s.Append(bad, rec)
		for _, e := range []error{perr, rerr} {
			if !errors.Is(e, ErrNotAFile) {
				err = errors.Join(err, fmt.Errorf("a read of the FIFO: %v", e))
			}
		}
		_ = s.NoteFirstPost(bad, rec)
		if _, terr := s.Topics(); terr != nil {
			err = errors.Join(err, terr)
		}
		if gerr := s.Append(good, post("m2", "other topic")); gerr != nil {
			err = errors.Join(err, gerr)
		}
		if gerr := s.NoteFirstPost(good, post("m2", "other topic")); gerr != nil {
			err = errors.Join(err, gerr)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotAFile) || strings.Contains(err.Error(), "a read of") {
			t.Fatalf("reading and appending a FIFO log: %v, want %v from each", err, ErrNotAFile)
		}
		if !strings.Contains(err.Error(), bad) {
			t.Errorf("the error does not name the topic: %v", err)
		}
	case <-time.After(testkit.Slow(10 * time.Second)):
		t.Fatal("a FIFO in place of a topic log blocked the store")
	}
	recs, _, err := s.Page(good, "", 10)
	if err != nil || len(recs) != 1 {
		t.Fatalf("the other topic: %v, %d records", err, len(recs))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v", err)
	}
}

// releaseFIFO opens path for reading and writing without blocking and
// closes it again, so an open waiting for the other end returns.
func releaseFIFO(path string) {
	for range 3 {
		if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	}
}

// TestLinkAtALongPostNameGetsTheFallbackName: a symbolic link (or FIFO)
// planted at a long post's file name is a taken name (docs/design.md §8
// "Long posts"): the body goes to a name with a random suffix, and the
// link's target is not written. It used to fail the save ("Log write
// failed").
func TestLinkAtALongPostNameGetsTheFallbackName(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	dir, err := s.TopicAttachmentsDir("t1")
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "post-m1.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "post-m2.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"m1", "m2"} {
		name, path, err := s.SaveBody("t1", id, "the whole body")
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !strings.HasPrefix(name, "post-"+id+"-") || filepath.Dir(path) != dir {
			t.Errorf("%s: saved as %q (%s), want the fallback name post-%s-<hex>.txt", id, name, path, id)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != "the whole body" {
			t.Errorf("%s: %q %v", id, b, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
	// The same for an attachment: a link at its name is a taken name.
	if err := os.Symlink(target, filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	p, err := s.SaveAttachment("t1", "notes.txt", strings.NewReader("new"))
	if err != nil || filepath.Base(p) != "notes (2).txt" {
		t.Fatalf("attachment over a link: %q %v", p, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
}

// TestFIFOInPlaceOfTheIndexIsSetAside: a FIFO planted at index.json is set
// aside like an index that does not parse; Open neither waits for a writer
// nor fails.
func TestFIFOInPlaceOfTheIndexIsSetAside(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	dir := filepath.Join(data, "logs", "main")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, indexName)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { releaseFIFO(fifo) })
	type opened struct {
		s   *Store
		err error
	}
	done := make(chan opened, 1)
	go func() {
		s, err := Open(data, Options{})
		done <- opened{s, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		s := o.s
		defer s.Close()
		if w := s.TakeWarnings(); len(w) != 1 || !errors.Is(w[0], ErrIndexUnreadable) {
			t.Fatalf("warnings %v, want the index set aside", w)
		}
		if _, err := os.Lstat(fifo); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("the FIFO is still the index: %v", err)
		}
		if _, err := OpenReader(data); err != nil {
			t.Fatal(err)
		}
	case <-time.After(testkit.Slow(10 * time.Second)):
		t.Fatal("a FIFO in place of index.json blocked Open")
	}
}

// TestIndexPlantedAsALinkIsNotWrittenThrough: a link planted at
// index.json while the store is open is replaced by the next write of the
// index, never written through (breaker review of issue 32: AtomicFile
// resolved the link and renamed the index over its target). Open sets a
// link there aside; this one comes after.
func TestIndexPlantedAsALinkIsNotWrittenThrough(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	topic := NewTopicID()
	if err := s.EnsureTopic(topic); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(s.indexPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, s.indexPath()); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename(topic, "planted"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Errorf("the index went through the link: the target holds %q", b)
	}
	if fi, err := os.Lstat(s.indexPath()); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("index.json: %v %v, want a regular file", fi, err)
	}
}
