package logstore

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestLimitedMarks: marks per (topic, account) survive a reopen, keep
// what we did not write, remove the file when the last goes, go with the
// topic, and a bad file is an error, never overwritten.
func TestLimitedMarks(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const topic = "t-20261005-aaaa"
	if err := s.EnsureTopic(topic); err != nil {
		t.Fatal(err)
	}
	if on, err := s.Limited(topic, "lay"); on || err != nil {
		t.Fatalf("unmarked: %v %v", on, err)
	}
	path := filepath.Join(s.Dir(), "mailboxes", topic+".json")
	// The original app's file: another account holding old post ids.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"old":["m-1","m-2"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkLimited(topic, "lay"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, acct := range []string{"lay", "old"} {
		if on, err := s.Limited(topic, acct); !on || err != nil {
			t.Errorf("%s after a reopen: %v %v", acct, on, err)
		}
	}
	if err := s.ClearLimited(topic, "lay"); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	b, _ := os.ReadFile(path)
	if json.Unmarshal(b, &m) != nil || string(m["old"]) != `["m-1","m-2"]` || len(m) != 1 {
		t.Errorf("file after clearing lay: %s", b)
	}
	if err := s.ClearLimited(topic, "old"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the empty marker file stayed: %v", err)
	}
	if err := s.MarkLimited(topic, "lay"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(topic); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the marker outlived its topic: %v", err)
	}
	if err := s.MarkLimited(topic, "lay"); !errors.Is(err, ErrTopicDeleted) {
		t.Errorf("a mark for a deleted topic: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a deleted topic's marker came back: %v", err)
	}
	const other = "t-20261005-bbbb"
	if err := os.WriteFile(filepath.Join(s.Dir(), "mailboxes", other+".json"), []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Limited(other, "lay"); err == nil {
		t.Error("a corrupt marker file read as fine")
	}
	if err := s.MarkLimited(other, "lay"); err == nil {
		t.Error("a corrupt marker file was overwritten")
	}
	if err := s.MarkLimited("../x", "lay"); !errors.Is(err, ErrBadTopicID) {
		t.Errorf("a bad topic id: %v", err)
	}
}

// TestLookedMarks (issue 34 item 22): the "look at its terminal" marks
// survive a reopen, are apart from the usage-limit marks and the original
// app's file, and go with their topic.
func TestLookedMarks(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const topic = "t-20261005-cccc"
	if err := s.EnsureTopic(topic); err != nil {
		t.Fatal(err)
	}
	if on, err := s.Looked(topic, "lin"); on || err != nil {
		t.Fatalf("unmarked: %v %v", on, err)
	}
	if err := s.MarkLooked(topic, "lin"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if on, err := s.Looked(topic, "lin"); !on || err != nil {
		t.Fatalf("after a reopen: %v %v", on, err)
	}
	if on, _ := s.Limited(topic, "lin"); on {
		t.Error("a look mark reads as a usage-limit mark")
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "mailboxes", topic+".json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a look mark wrote the original app's marker file: %v", err)
	}
	if err := s.ClearLooked(topic, "lin"); err != nil {
		t.Fatal(err)
	}
	if on, _ := s.Looked(topic, "lin"); on {
		t.Error("still looked after the clear")
	}
	if err := s.MarkLooked(topic, "lin"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(topic); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "mailboxes", "look", topic+".json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the look mark outlived its topic: %v", err)
	}
	if err := s.MarkLooked(topic, "lin"); !errors.Is(err, ErrTopicDeleted) {
		t.Errorf("a look mark for a deleted topic: %v", err)
	}
}
