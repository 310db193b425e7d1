//go:build !windows

package logstore

import (
	"os"
	"path/filepath"
	"testing"
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
