package logstore

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestIndexShape: the file holds topics with id, name, created_at, sessions.
func TestIndexShape(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	if err := s.Append("t1", post("m1", "name <&> here")); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteFirstPost("t1", post("m1", "name <&> here")); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSession("t1", "acc", "sess"); err != nil {
		t.Fatal(err)
	}
	raw := readFile(t, s.indexPath())
	if !strings.Contains(raw, `"name <&> here"`) {
		t.Fatalf("name escaped or missing: %s", raw)
	}
	want := map[string]any{"topics": []any{map[string]any{
		"id": "t1", "name": "name <&> here", "created_at": "2026-10-01T16:14:05.123Z",
		"sessions": map[string]any{"acc": "sess"},
	}}}
	if got := indexJSON(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("index = %v\nwant %v", got, want)
	}
}

// TestIndexUnknownKeysKept: keys we do not own, at the top and in entries,
// survive every rewrite; so do entries of the wrong shape.
func TestIndexUnknownKeysKept(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	idx := filepath.Join(data, "logs", "main", "index.json")
	writeFile(t, idx, `{
  "version": 3,
  "user_note": {"pinned": ["t1"]},
  "topics": [
    {"id": "t1", "name": "one", "created_at": "2026-01-01T00:00:00Z", "sessions": {"a": "s"}, "color": "red", "tags": ["x"]},
    {"id": "../evil", "name": "bad id"},
    {"id": "t2", "name": 5},
    "not an object",
    {"id": "t1", "name": "duplicate"},
    {"id": "t3", "name": null, "created_at": null, "sessions": null}
  ]
}`)
	s := openAt(t, data)
	warns := s.TakeWarnings()
	if len(warns) != 4 {
		t.Fatalf("warnings = %v, want 4 bad entries", warns)
	}
	for _, w := range warns {
		if !errors.Is(w, ErrBadIndexEntry) {
			t.Fatalf("warning %v is not ErrBadIndexEntry", w)
		}
	}
	if s.TakeWarnings() != nil {
		t.Fatal("warnings not drained")
	}
	if err := s.Rename("t1", "renamed"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSession("t3", "b", "s2"); err != nil {
		t.Fatal(err)
	}
	got := indexJSON(t, s)
	if got["version"] != 3.0 || !reflect.DeepEqual(got["user_note"], map[string]any{"pinned": []any{"t1"}}) {
		t.Fatalf("top-level keys lost: %v", got)
	}
	topics := got["topics"].([]any)
	if len(topics) != 6 {
		t.Fatalf("topics = %v", topics)
	}
	t1 := topics[0].(map[string]any)
	if t1["name"] != "renamed" || t1["color"] != "red" || !reflect.DeepEqual(t1["tags"], []any{"x"}) ||
		!reflect.DeepEqual(t1["sessions"], map[string]any{"a": "s"}) || t1["created_at"] != "2026-01-01T00:00:00Z" {
		t.Fatalf("t1 = %v", t1)
	}
	if !reflect.DeepEqual(topics[1], map[string]any{"id": "../evil", "name": "bad id"}) ||
		!reflect.DeepEqual(topics[2], map[string]any{"id": "t2", "name": 5.0}) ||
		topics[3] != "not an object" ||
		!reflect.DeepEqual(topics[4], map[string]any{"id": "t1", "name": "duplicate"}) {
		t.Fatalf("bad entries not kept verbatim: %v", topics[1:5])
	}
	if t3 := topics[5].(map[string]any); !reflect.DeepEqual(t3["sessions"], map[string]any{"b": "s2"}) {
		t.Fatalf("t3 = %v", t3)
	}
	ts, err := s.Topics()
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 {
		t.Fatalf("Topics = %+v, want t1 and t3 only", ts)
	}
	// Deleting t1 removes its duplicate raw entry too (it would otherwise
	// become the live entry on the next Open).
	if err := s.Delete("t1"); err != nil {
		t.Fatal(err)
	}
	if raw := readFile(t, idx); strings.Contains(raw, `"t1"`) && strings.Contains(raw, `"duplicate"`) {
		t.Fatalf("duplicate of a deleted topic kept: %s", raw)
	}
	if raw := readFile(t, idx); !strings.Contains(raw, `"user_note"`) {
		t.Fatal("user key lost on delete")
	}
}

// TestIndexUnreadableSetAside: an index that does not parse is renamed aside
// (content intact), reported, and the list is rebuilt from the log files.
func TestIndexUnreadableSetAside(t *testing.T) {
	t.Parallel()
	for _, content := range []string{`{"topics": [`, ``, `null`, `[1,2]`, `{"topics": {"id": "x"}}`, "\x00\x01binary"} {
		t.Run(content, func(t *testing.T) {
			data := t.TempDir()
			dir := filepath.Join(data, "logs", "main")
			writeFile(t, filepath.Join(dir, "index.json"), content)
			writeFile(t, filepath.Join(dir, "t1.jsonl"), line(t, post("m1", "still here")))
			s := openAt(t, data)
			warns := s.TakeWarnings()
			if len(warns) != 1 || !errors.Is(warns[0], ErrIndexUnreadable) {
				t.Fatalf("warnings = %v", warns)
			}
			aside := filepath.Join(dir, "index.json.bad-20261002T011405Z")
			if got := readFile(t, aside); got != content {
				t.Fatalf("set-aside content = %q", got)
			}
			if !strings.Contains(warns[0].Error(), aside) {
				t.Fatalf("warning does not say where: %v", warns[0])
			}
			mustNotExist(t, filepath.Join(dir, "index.json"))
			tp, ok := findTopic(t, s, "t1")
			if !ok || tp.Name != "still here" || tp.Indexed {
				t.Fatalf("rebuilt topic = %+v %v", tp, ok)
			}
			// A second bad index the same second does not overwrite the first.
			writeFile(t, filepath.Join(dir, "index.json"), "{{")
			s2 := openAt(t, data)
			if w := s2.TakeWarnings(); len(w) != 1 {
				t.Fatalf("warnings = %v", w)
			}
			if readFile(t, aside) != content || readFile(t, aside+"-2") != "{{" {
				t.Fatal("set-aside files mixed up")
			}
		})
	}
}

// TestIndexAtomic: a crash mid-write leaves the old index (a leftover temp
// file is ignored and removed); a failed rename leaves disk and memory old.
func TestIndexAtomic(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	s := openAt(t, data)
	if err := s.Rename("t1", "old name"); err != nil {
		t.Fatal(err)
	}
	old := readFile(t, s.indexPath())

	// Crash between the temp write and the rename: the temp holds half an index.
	leftover := filepath.Join(s.Dir(), "index.json.tmp-123456")
	writeFile(t, leftover, `{"topics":[{"id":"t1","name":"new na`)
	migrating := filepath.Join(s.Dir(), "legacy-main.jsonl.tmp-99")
	writeFile(t, migrating, "partial copy")
	s2 := openAt(t, data)
	if tp, _ := findTopic(t, s2, "t1"); tp.Name != "old name" {
		t.Fatalf("name after crash = %q", tp.Name)
	}
	mustNotExist(t, leftover)
	mustNotExist(t, migrating)
	if w := s2.TakeWarnings(); w != nil {
		t.Fatalf("warnings = %v", w)
	}

	// The rename fails: the error is returned, disk and memory keep the old.
	s2.fs.rename = func(string, string) error { return errors.New("injected: power cut") }
	if err := s2.Rename("t1", "new name"); err == nil {
		t.Fatal("Rename succeeded with a failing rename")
	}
	if got := readFile(t, s2.indexPath()); got != old {
		t.Fatalf("index changed:\n%s", got)
	}
	if tp, _ := findTopic(t, s2, "t1"); tp.Name != "old name" {
		t.Fatalf("memory changed: %q", tp.Name)
	}
	ents, err := os.ReadDir(s2.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temp file left after a failed write: %s", e.Name())
		}
	}
	s2.fs = osOps()
	if err := s2.Rename("t1", "new name"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Topics []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(readFile(t, s2.indexPath())), &doc); err != nil || doc.Topics[0].Name != "new name" {
		t.Fatalf("index after retry: %+v %v", doc, err)
	}
}

// TestIndexUnreadableCannotSetAside: when the bad index (bad JSON, or a
// folder in its place) cannot be moved aside, Open fails rather than
// overwrite it later.
func TestIndexUnreadableCannotSetAside(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	idx := filepath.Join(data, "logs", "main", "index.json")
	writeFile(t, idx, "{bad")
	ops := osOps()
	ops.rename = func(string, string) error { return errors.New("injected: read-only") }
	if _, err := open(data, Options{}, ops); !errors.Is(err, ErrIndexUnreadable) {
		t.Fatalf("open with a failing set-aside: %v", err)
	}
	if readFile(t, idx) != "{bad" {
		t.Fatal("the unreadable index changed")
	}

	if err := os.Remove(idx); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(idx, 0o700); err != nil { // unreadable as a file
		t.Fatal(err)
	}
	if _, err := open(data, Options{}, ops); !errors.Is(err, ErrIndexUnreadable) {
		t.Fatalf("open with a folder as the index and a failing set-aside: %v", err)
	}
	// A folder (like a link or FIFO) in its place is set aside like an
	// index that does not parse.
	s := openAt(t, data)
	if w := s.TakeWarnings(); len(w) != 1 || !errors.Is(w[0], ErrIndexUnreadable) {
		t.Fatalf("warnings %v", w)
	}
	mustNotExist(t, idx)
}
