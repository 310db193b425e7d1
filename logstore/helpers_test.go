package logstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fixedNow is the clock of test stores, so created_at and set-aside names are
// predictable.
var fixedNow = time.Date(2026, 10, 2, 1, 14, 5, 123e6, time.UTC)

// openStore opens a Store on a fresh data directory and closes it at the end.
func openStore(t testing.TB) (*Store, string) {
	t.Helper()
	data := t.TempDir()
	return openAt(t, data), data
}

// openAt opens a Store on data and closes it at the end of the test.
func openAt(t testing.TB, data string) *Store {
	t.Helper()
	s, err := Open(data, Options{Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatalf("Open(%s): %v", data, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// post is a small valid record.
func post(id, content string) Record {
	return Record{MessageID: id, Speaker: "Lin", Content: content, TS: "2026-10-01T16:14:05.123Z"}
}

// line is the JSONL line Append writes for r (with its '\n').
func line(t testing.TB, r Record) string {
	t.Helper()
	b, err := encodeLine(r, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[1:])
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustNotExist(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s exists (err %v), want it absent", path, err)
	}
}

// ids returns the message ids of recs.
func ids(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.MessageID
	}
	return out
}

// readAllPages pages topicID from the end to the start, limit at a time,
// and returns every record oldest first.
func readAllPages(t testing.TB, s *Store, topicID string, limit int) []Record {
	t.Helper()
	var all []Record
	before := ""
	for range 1 << 20 {
		recs, more, err := s.Page(topicID, before, limit)
		if err != nil {
			t.Fatalf("Page(%q, %d): %v", before, limit, err)
		}
		if more && len(recs) != limit {
			t.Fatalf("Page(%q): hasMore with %d < limit %d records", before, len(recs), limit)
		}
		all = append(append([]Record(nil), recs...), all...)
		if !more {
			return all
		}
		before = recs[0].MessageID
	}
	t.Fatal("paging did not end")
	return nil
}

// numbered builds n posts "m0".."m{n-1}" and the file holding them.
func numbered(t testing.TB, n int) ([]Record, string) {
	t.Helper()
	var b bytes.Buffer
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = post(fmt.Sprintf("m%d", i), fmt.Sprintf("post %d\nsecond line 二行目", i))
		b.WriteString(line(t, recs[i]))
	}
	return recs, b.String()
}
