package logstore

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clipperhouse/displaywidth"
	"github.com/google/uuid"
)

// indexJSON reads index.json as generic JSON.
func indexJSON(t *testing.T, s *Store) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, s.indexPath())), &m); err != nil {
		t.Fatalf("index.json: %v", err)
	}
	return m
}

func findTopic(t *testing.T, s *Store, id string) (Topic, bool) {
	t.Helper()
	ts, err := s.Topics()
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range ts {
		if tp.ID == id {
			return tp, true
		}
	}
	return Topic{}, false
}

// TestLazyCreation: a new topic id writes nothing — no directory, file or
// entry — and is not listed until its first post.
func TestLazyCreation(t *testing.T) {
	t.Parallel()
	s, data := openStore(t)
	id := s.NewTopicID()
	if err := checkTopicID(id); err != nil {
		t.Fatalf("NewTopicID() = %q: %v", id, err)
	}
	if u, err := uuid.Parse(id); err != nil || u.Version() != 7 {
		t.Fatalf("NewTopicID() = %q is not a UUIDv7 (%v)", id, err)
	}
	if id == NewTopicID() {
		t.Fatal("two ids are equal")
	}
	ents, err := os.ReadDir(data)
	if err != nil || len(ents) != 0 {
		t.Fatalf("data dir after Open+NewTopicID has %v (%v)", ents, err)
	}
	if recs, more, err := s.Page(id, "", 50); err != nil || recs != nil || more {
		t.Fatalf("Tail of the lazy topic = %v %v %v", recs, more, err)
	}
	if n, err := s.LogSize(id); err != nil || n != 0 {
		t.Fatalf("LogSize = %v %v", n, err)
	}
	if ts, err := s.Topics(); err != nil || len(ts) != 0 {
		t.Fatalf("Topics = %v %v", ts, err)
	}
	mustNotExist(t, filepath.Join(data, "logs"))

	p := post("m1", "  \n最初の発言です。よろしくお願いします\nsecond line")
	if err := s.Append(id, p); err != nil {
		t.Fatal(err)
	}
	if tp, ok := findTopic(t, s, id); !ok || tp.Indexed || tp.Name != "最初の発言です。よろしくお願いします" {
		t.Fatalf("after Append, before NoteFirstPost: %+v %v", tp, ok)
	}
	if err := s.NoteFirstPost(id, p); err != nil {
		t.Fatal(err)
	}
	tp, ok := findTopic(t, s, id)
	if !ok || !tp.Indexed || tp.Name != "最初の発言です。よろしくお願いします" || !tp.CreatedAt.Equal(parseTime(p.TS)) || tp.Size == 0 {
		t.Fatalf("after NoteFirstPost: %+v", tp)
	}
	if n, _ := s.LogSize(id); n == 0 {
		t.Fatal("LogSize 0 after a post")
	}
}

// TestNameComesOnce: the first post names the topic; later posts never
// rename it; a name given by hand before the first post is kept.
func TestNameComesOnce(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	if err := s.Append("t1", post("m1", "hello room")); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteFirstPost("t1", post("m1", "hello room")); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("t1", post("m2", "another")); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteFirstPost("t1", post("m2", "another")); err != nil {
		t.Fatal(err)
	}
	if tp, _ := findTopic(t, s, "t1"); tp.Name != "hello room" {
		t.Fatalf("name = %q", tp.Name)
	}

	if err := s.Rename("t2", "named first"); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("t2", post("m1", "text")); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteFirstPost("t2", post("m1", "text")); err != nil {
		t.Fatal(err)
	}
	if tp, _ := findTopic(t, s, "t2"); tp.Name != "named first" {
		t.Fatalf("hand name replaced: %q", tp.Name)
	}

	// A seat start indexes without a name; the first post then names it.
	if err := s.EnsureTopic("t3"); err != nil {
		t.Fatal(err)
	}
	if tp, _ := findTopic(t, s, "t3"); !tp.Indexed || tp.Name != "" {
		t.Fatalf("EnsureTopic: %+v", tp)
	}
	if err := s.NoteFirstPost("t3", post("m1", "from the seat topic")); err != nil {
		t.Fatal(err)
	}
	if tp, _ := findTopic(t, s, "t3"); tp.Name != "from the seat topic" {
		t.Fatalf("name = %q", tp.Name)
	}

	// Indexed at a seat start, spoken in, naming lost (crash before
	// NoteFirstPost): listed with the first post's name, index untouched.
	if err := s.EnsureTopic("t4"); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("t4", post("m1", "spoken after the seat")); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, s.indexPath())
	if tp, _ := findTopic(t, s, "t4"); tp.Name != "spoken after the seat" || !tp.Indexed {
		t.Fatalf("t4 = %+v", tp)
	}
	if readFile(t, s.indexPath()) != before {
		t.Fatal("listing wrote the index")
	}
}

// TestTopicName covers the name rule: first non-blank line, trimmed, control
// characters out, at most 40 columns on a grapheme boundary with "…".
func TestTopicName(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"hello", "hello"},
		{"\n\n  spaced  \nnext", "spaced"},
		{"a\tb\x1b[31mred", "a b[31mred"},
		{"line\r\nnext", "line"},
		{"cr only\rnext", "cr only"},
		{"   \n\t\n", ""},
		{"", ""},
		{strings.Repeat("x", 40), strings.Repeat("x", 40)},
		{strings.Repeat("x", 41), strings.Repeat("x", 39) + "…"},
		{strings.Repeat("日本", 20), strings.Repeat("日本", 9) + "日…"},
		{strings.Repeat("日本", 10) + "x", strings.Repeat("日本", 9) + "日…"},
		{strings.Repeat("👨‍👩‍👧", 30), strings.Repeat("👨‍👩‍👧", 19) + "…"},
		{"Attachments:\n- /d/attachments/t/a.png\n- /d/attachments/t/b.pdf", "Attachments: a.png, b.pdf"},
		{"添付:\n- /d/attachments/t/画面.png", "添付: 画面.png"},
		{"look\n\nAttachments:\n- /d/attachments/t/a.png", "look"},
		{"Attachments:\n" + strings.Repeat("- /d/a/t/long-file-name.txt\n", 3), "Attachments: long-file-name.txt, long-f…"},
	}
	for _, tc := range cases {
		got := TopicName(tc.in)
		if got != tc.want {
			t.Errorf("TopicName(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if w := displaywidth.String(got); w > 40 {
			t.Errorf("TopicName(%q) is %d columns", tc.in, w)
		}
	}
}

// TestOrphanFileListed: a .jsonl the index does not have is listed (named
// and dated from its first readable post) without writing the index; the
// next intentional act writes its entry. Non-topic files are ignored.
func TestOrphanFileListed(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	first := post("m1", "orphan topic title")
	first.TS = "2026-09-01T10:00:00.000Z"
	writeFile(t, s.logPath("orphan-1"), "torn garbage\n"+line(t, first)+line(t, post("m2", "x")))
	writeFile(t, s.logPath("empty-1"), "")
	writeFile(t, filepath.Join(s.Dir(), "bad name.jsonl"), line(t, first))
	writeFile(t, filepath.Join(s.Dir(), "notes.txt"), "x")
	if err := os.MkdirAll(filepath.Join(s.Dir(), "dir.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.logPath("orphan-1"), s.logPath("link-1")); err != nil {
		t.Fatal(err)
	}
	ts, err := s.Topics()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Topic{}
	for _, tp := range ts {
		got[tp.ID] = tp
	}
	if len(got) != 2 {
		t.Fatalf("topics = %+v, want orphan-1 and empty-1", ts)
	}
	o := got["orphan-1"]
	if o.Indexed || o.Name != "orphan topic title" || !o.CreatedAt.Equal(parseTime(first.TS)) || o.LastActivity.IsZero() {
		t.Fatalf("orphan = %+v", o)
	}
	if e := got["empty-1"]; e.Indexed || e.Name != "" || e.CreatedAt.IsZero() {
		t.Fatalf("empty orphan = %+v", e)
	}
	mustNotExist(t, s.indexPath())

	if err := s.RecordSession("orphan-1", "acc", "sess-1"); err != nil {
		t.Fatal(err)
	}
	o, _ = findTopic(t, s, "orphan-1")
	if !o.Indexed || o.Name != "orphan topic title" || !o.CreatedAt.Equal(parseTime(first.TS)) {
		t.Fatalf("after RecordSession: %+v", o)
	}
	if e, _ := findTopic(t, s, "empty-1"); e.Indexed {
		t.Fatal("an untouched orphan was indexed")
	}
}

// TestTopicsOrder: newest activity first; an entry without a file uses its
// created_at.
func TestTopicsOrder(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	for _, id := range []string{"old", "new", "mid"} {
		if err := s.Append(id, post("m", id)); err != nil {
			t.Fatal(err)
		}
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"old", "mid", "new"} {
		tm := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(s.logPath(id), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.EnsureTopic("seat-only"); err != nil { // created_at = fixedNow (2026-10-02)
		t.Fatal(err)
	}
	ts, err := s.Topics()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tp := range ts {
		got = append(got, tp.ID)
	}
	if want := []string{"seat-only", "new", "mid", "old"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
	if !ts[0].LastActivity.Equal(fixedNow) || ts[0].Size != 0 {
		t.Fatalf("seat-only = %+v", ts[0])
	}
}

// TestRename: by hand, trimmed, control characters dropped, empty refused,
// persisted across Open.
func TestRename(t *testing.T) {
	t.Parallel()
	s, data := openStore(t)
	if err := s.Append("t1", post("m1", "auto name")); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteFirstPost("t1", post("m1", "auto name")); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename("t1", "  My\x07 topic\n "); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "   ", "\x01\n"} {
		if err := s.Rename("t1", bad); !errors.Is(err, ErrBadTopicName) {
			t.Fatalf("Rename(%q): %v", bad, err)
		}
	}
	if err := s.Rename("../x", "n"); !errors.Is(err, ErrBadTopicID) {
		t.Fatalf("Rename(bad id): %v", err)
	}
	s2 := openAt(t, data)
	if tp, _ := findTopic(t, s2, "t1"); tp.Name != "My topic" {
		t.Fatalf("name after reopen = %q", tp.Name)
	}
}

// TestSessions: record, overwrite, read, conditional and plain drop, and
// that they survive a reopen.
func TestSessions(t *testing.T) {
	t.Parallel()
	s, data := openStore(t)
	if err := s.RecordSession("t1", "acc-a", "s1"); err != nil {
		t.Fatal(err)
	}
	if tp, ok := findTopic(t, s, "t1"); !ok || !tp.Indexed || tp.Sessions["acc-a"] != "s1" {
		t.Fatalf("RecordSession did not materialise the topic: %+v", tp)
	}
	if err := s.RecordSession("t1", "acc-b", "s2"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSession("t1", "acc-a", "s3"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][2]string{{"", "s"}, {"a", ""}} {
		if err := s.RecordSession("t1", bad[0], bad[1]); !errors.Is(err, ErrBadSession) {
			t.Fatalf("RecordSession(%q): %v", bad, err)
		}
	}
	if id, ok := s.Session("t1", "acc-a"); !ok || id != "s3" {
		t.Fatalf("Session = %q %v", id, ok)
	}
	// #127: drop only while the record is still the failed id.
	if dropped, err := s.DropSessionIf("t1", "acc-a", "s1"); err != nil || dropped {
		t.Fatalf("DropSessionIf(old id) = %v %v", dropped, err)
	}
	if _, ok := s.Session("t1", "acc-a"); !ok {
		t.Fatal("a newer record was dropped")
	}
	if dropped, err := s.DropSessionIf("t1", "acc-a", "s3"); err != nil || !dropped {
		t.Fatalf("DropSessionIf(current id) = %v %v", dropped, err)
	}
	if _, ok := s.Session("t1", "acc-a"); ok {
		t.Fatal("record still there")
	}
	if dropped, err := s.DropSessionIf("t1", "acc-missing", "s1"); err != nil || dropped {
		t.Fatalf("DropSessionIf(no record) = %v %v", dropped, err)
	}
	if _, ok := s.Session("nope", "acc-b"); ok {
		t.Fatal("session in unknown topic")
	}
	s2 := openAt(t, data)
	if id, ok := s2.Session("t1", "acc-b"); !ok || id != "s2" {
		t.Fatalf("after reopen Session = %q %v", id, ok)
	}
	if dropped, err := s2.DropSessionIf("t1", "acc-b", "s2"); err != nil || !dropped {
		t.Fatalf("DropSessionIf after reopen = %v %v", dropped, err)
	}
	s3 := openAt(t, data)
	if _, ok := s3.Session("t1", "acc-b"); ok {
		t.Fatal("the drop was not persisted")
	}
}

// TestDeleteOrder: file, then attachments, then the index entry; a failure
// stops the later steps and leaves a state that a retry finishes.
func TestDeleteOrder(t *testing.T) {
	t.Parallel()
	s, data := openStore(t)
	setup := func(id string) {
		t.Helper()
		if err := s.Append(id, post("m1", "to delete")); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordSession(id, "acc", "sess"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveAttachment(id, "image.png", strings.NewReader("png")); err != nil {
			t.Fatal(err)
		}
	}
	setup("t1")
	var steps []string
	inIndex := func(id string) bool { return s.idx.find(id) != nil }
	s.fs.remove = func(p string) error {
		steps = append(steps, "remove "+filepath.Base(p))
		return os.Remove(p)
	}
	s.fs.removeAll = func(p string) error {
		steps = append(steps, "removeAll "+filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p))
		return os.RemoveAll(p)
	}
	s.fs.rename = func(o, n string) error {
		steps = append(steps, "rename →"+filepath.Base(n))
		return os.Rename(o, n)
	}
	if err := s.Delete("t1"); err != nil {
		t.Fatal(err)
	}
	// The usage-limit marks (mailboxes/t1.json) and the look marks
	// (mailboxes/look/t1.json) go with the topic too.
	if want := []string{"remove t1.jsonl", "removeAll attachments/t1", "remove t1.json", "remove t1.json", "rename →index.json"}; !reflect.DeepEqual(steps, want) {
		t.Fatalf("steps = %v, want %v", steps, want)
	}
	mustNotExist(t, s.logPath("t1"))
	mustNotExist(t, s.attachmentDir("t1"))
	if inIndex("t1") || strings.Contains(readFile(t, s.indexPath()), `"t1"`) {
		t.Fatal("entry still in the index")
	}
	// A late post (seats stop before the room is dropped) cannot bring it back.
	if err := s.Append("t1", post("m2", "late")); !errors.Is(err, ErrTopicDeleted) {
		t.Fatalf("Append after Delete: %v", err)
	}
	for _, err := range []error{s.EnsureTopic("t1"), s.RecordSession("t1", "a", "b"), s.Rename("t1", "x"), s.NoteFirstPost("t1", post("m", "x"))} {
		if !errors.Is(err, ErrTopicDeleted) {
			t.Fatalf("write after Delete: %v", err)
		}
	}
	mustNotExist(t, s.logPath("t1"))
	if err := s.Delete("t1"); !errors.Is(err, ErrUnknownTopic) {
		t.Fatalf("second Delete: %v", err)
	}

	// Attachments fail: the file is gone, the entry stays (listed, with no
	// file), and a retry finishes.
	setup("t2")
	s.fs.removeAll = func(string) error { return errors.New("injected: folder busy") }
	if err := s.Delete("t2"); err == nil || !strings.Contains(err.Error(), "attachments") {
		t.Fatalf("Delete with failing attachments: %v", err)
	}
	mustNotExist(t, s.logPath("t2"))
	if tp, ok := findTopic(t, s, "t2"); !ok || !tp.Indexed || tp.Size != 0 {
		t.Fatalf("after failed delete: %+v %v", tp, ok)
	}
	s.fs.removeAll = os.RemoveAll
	if err := s.Delete("t2"); err != nil {
		t.Fatal(err)
	}
	if _, ok := findTopic(t, s, "t2"); ok {
		t.Fatal("t2 still listed")
	}

	// The file fails: nothing else is touched.
	setup("t3")
	s.fs.remove = func(string) error { return errors.New("injected: file locked") }
	if err := s.Delete("t3"); err == nil || !strings.Contains(err.Error(), "log file") {
		t.Fatalf("Delete with failing file: %v", err)
	}
	if _, err := os.Stat(s.attachmentDir("t3")); err != nil {
		t.Fatalf("attachments removed although the file failed: %v", err)
	}
	if !inIndex("t3") {
		t.Fatal("entry removed although the file failed")
	}

	// An entry without a file (#117) deletes cleanly; a reopened store
	// agrees with memory.
	s.fs = osOps()
	if err := s.EnsureTopic("t4"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("t4"); err != nil {
		t.Fatal(err)
	}
	s2 := openAt(t, data)
	if _, ok := findTopic(t, s2, "t4"); ok {
		t.Fatal("t4 back after reopen")
	}
	if _, ok := findTopic(t, s2, "t3"); !ok {
		t.Fatal("t3 lost after reopen")
	}
	if err := s.Delete("never"); !errors.Is(err, ErrUnknownTopic) {
		t.Fatalf("Delete(never): %v", err)
	}
}
