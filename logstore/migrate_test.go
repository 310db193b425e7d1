package logstore

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// legacyContent is an original single-room log: old-style `to` as a string,
// a hue key the new schema drops on read, and a torn last line.
func legacyContent(t *testing.T) string {
	first := post("L1", "前のアプリの部屋\nsecond line")
	first.TS = "2026-08-01T09:00:00.000Z"
	return line(t, first) +
		`{"message_id":"L2","speaker":"Kai","hue":200,"content":"reply","to":"Lin","ts":"2026-08-01T09:01:00.000Z"}` + "\n" +
		`{"message_id":"L3","speaker":"Lin","content":"cut off by kill -`
}

// TestMigrateLegacy: logs/main.jsonl becomes topic legacy-main, moved (the
// original is gone), byte for byte, indexed and named from its first post;
// the torn line is skipped, counted, and a new post does not glue onto it.
// Opening again changes nothing.
func TestMigrateLegacy(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	legacy := filepath.Join(data, "logs", "main.jsonl")
	content := legacyContent(t)
	writeFile(t, legacy, content)
	s := openAt(t, data)
	if w := s.TakeWarnings(); w != nil {
		t.Fatalf("warnings = %v", w)
	}
	mustNotExist(t, legacy)
	if got := readFile(t, s.logPath(LegacyTopicID)); got != content {
		t.Fatalf("migrated content differs:\n%q", got)
	}
	tp, ok := findTopic(t, s, LegacyTopicID)
	if !ok || !tp.Indexed || tp.Name != "前のアプリの部屋" || tp.CreatedAt.Format("2006-01-02T15:04") != "2026-08-01T09:00" {
		t.Fatalf("migrated topic = %+v %v", tp, ok)
	}
	recs, _, err := s.Page(LegacyTopicID, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(recs); !reflect.DeepEqual(got, []string{"L1", "L2"}) || !reflect.DeepEqual(recs[1].To, Names{"Lin"}) {
		t.Fatalf("records = %+v", recs)
	}
	if s.Skipped(LegacyTopicID) != 1 {
		t.Fatalf("Skipped = %d", s.Skipped(LegacyTopicID))
	}
	if err := s.Append(LegacyTopicID, post("N1", "continued")); err != nil {
		t.Fatal(err)
	}
	recs, _, _ = s.Page(LegacyTopicID, "", 10)
	if got := ids(recs); !reflect.DeepEqual(got, []string{"L1", "L2", "N1"}) {
		t.Fatalf("after append = %v", got)
	}
	index := readFile(t, s.indexPath())

	s2 := openAt(t, data)
	if w := s2.TakeWarnings(); w != nil {
		t.Fatalf("second open warnings = %v", w)
	}
	ts, err := s2.Topics()
	if err != nil || len(ts) != 1 {
		t.Fatalf("second open topics = %+v %v", ts, err)
	}
	if readFile(t, s2.indexPath()) != index {
		t.Fatal("second open rewrote the index")
	}
}

// TestMigrateLegacyCopyFallback: when the move fails, the log is copied,
// synced, and only then the original removed; if the original cannot be
// removed, the copy goes away again and the legacy file stays for next time.
func TestMigrateLegacyCopyFallback(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	legacy := filepath.Join(data, "logs", "main.jsonl")
	content := legacyContent(t)
	writeFile(t, legacy, content)
	opts := Options{Now: func() time.Time { return fixedNow }}

	ops := osOps()
	ops.rename = func(o, n string) error {
		if o == legacy {
			return errors.New("injected: cross-device")
		}
		return os.Rename(o, n)
	}
	ops.remove = func(p string) error {
		if p == legacy {
			return errors.New("injected: held open by the old app")
		}
		return os.Remove(p)
	}
	s, err := open(data, opts, ops)
	if err != nil {
		t.Fatal(err)
	}
	w := s.TakeWarnings()
	if len(w) != 1 || !errors.Is(w[0], ErrLegacyMigration) || !strings.Contains(w[0].Error(), "held open") {
		t.Fatalf("warnings = %v", w)
	}
	if readFile(t, legacy) != content {
		t.Fatal("legacy content changed")
	}
	mustNotExist(t, s.logPath(LegacyTopicID))
	if ts, err := s.Topics(); err != nil || len(ts) != 0 {
		t.Fatalf("topics after failed migration = %+v %v", ts, err)
	}
	s.Close()

	// Next run: the move still fails but the original can be removed.
	ops.remove = os.Remove
	s, err = open(data, opts, ops)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if w := s.TakeWarnings(); w != nil {
		t.Fatalf("warnings = %v", w)
	}
	mustNotExist(t, legacy)
	if readFile(t, s.logPath(LegacyTopicID)) != content {
		t.Fatal("copied content differs")
	}
	if tp, ok := findTopic(t, s, LegacyTopicID); !ok || !tp.Indexed || tp.Name != "前のアプリの部屋" {
		t.Fatalf("topic = %+v %v", tp, ok)
	}
}

// TestMigrateLegacyResume: a run that copied the log and stopped before
// removing the original (the copy may have grown since) is finished, not
// repeated; a different legacy log found later becomes a new topic.
func TestMigrateLegacyResume(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	legacy := filepath.Join(data, "logs", "main.jsonl")
	content := legacyContent(t)
	writeFile(t, legacy, content)
	target := filepath.Join(data, "logs", "main", LegacyTopicID+".jsonl")
	grown := content + "\n" + line(t, post("N1", "written after the copy"))
	writeFile(t, target, grown)
	s := openAt(t, data)
	if w := s.TakeWarnings(); w != nil {
		t.Fatalf("warnings = %v", w)
	}
	mustNotExist(t, legacy)
	if readFile(t, target) != grown {
		t.Fatal("target changed")
	}
	ts, err := s.Topics()
	if err != nil || len(ts) != 1 || !ts[0].Indexed || ts[0].ID != LegacyTopicID {
		t.Fatalf("topics = %+v %v", ts, err)
	}

	other := line(t, post("X1", "another old conversation"))
	writeFile(t, legacy, other)
	s2 := openAt(t, data)
	if w := s2.TakeWarnings(); w != nil {
		t.Fatalf("warnings = %v", w)
	}
	mustNotExist(t, legacy)
	ts, err = s2.Topics()
	if err != nil || len(ts) != 2 {
		t.Fatalf("topics = %+v %v", ts, err)
	}
	var found bool
	for _, tp := range ts {
		if tp.ID != LegacyTopicID {
			found = tp.Indexed && tp.Name == "another old conversation" && readFile(t, s2.logPath(tp.ID)) == other
		}
	}
	if !found {
		t.Fatalf("second legacy log not migrated as its own topic: %+v", ts)
	}
	if readFile(t, target) != grown {
		t.Fatal("first topic changed")
	}
}

// TestMigrateLegacyNotAFile: a legacy path that is a directory is left alone
// and reported.
func TestMigrateLegacyNotAFile(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "logs", "main.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := openAt(t, data)
	if w := s.TakeWarnings(); len(w) != 1 || !errors.Is(w[0], ErrLegacyMigration) {
		t.Fatalf("warnings = %v", w)
	}
}
