package logstore

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongPostBody: SaveBody writes a long post's whole body to a file of
// its own, never over another (a reused id gets a random suffix); the log line keeps
// the body whole and names the file; Page hands the body back clipped to
// BodyInline at a rune boundary with its whole size (a history page of 200
// long posts was 200 MiB).
func TestLongPostBody(t *testing.T) {
	s, _ := openStore(t)
	body := strings.Repeat("é", BodyInline) // 2 bytes a rune: the cut lands mid-rune
	name, path, err := s.SaveBody("t1", "m/1:\x00", body)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != body {
		t.Fatalf("body file %s: %d bytes, %v", path, len(data), err)
	}
	if got := s.BodyPath("t1", name); got != path {
		t.Fatalf("BodyPath(%q) = %q, want %q", name, got, path)
	}
	name2, path2, err := s.SaveBody("t1", "m/1:\x00", "other")
	if err != nil || name2 == name || path2 == path || strings.ContainsRune(name2, ' ') {
		t.Fatalf("second save of the same id: %q %q %v", name2, path2, err)
	}
	// A plain id (a UUID) names its file; any other id, its hash: no
	// shell syntax in a path typed into seats, no shared prefixes.
	for id, want := range map[string]string{
		"3f0c7a52-1b2e-4c3d-9e8f-0a1b2c3d4e5f": "post-3f0c7a52-1b2e-4c3d-9e8f-0a1b2c3d4e5f",
		"x y;$(touch ~_pwned)`id`&'q'":         "post-",
		"..":                                   "post-",
		strings.Repeat("a", 65):                "post-",
	} {
		got := bodyFileName(id)
		if !strings.HasPrefix(got, want) || strings.ContainsAny(got, " ;$`&'()") || (want == "post-" && len(got) != len("post-")+16) {
			t.Errorf("bodyFileName(%q) = %q", id, got)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != body {
		t.Fatal("a second save wrote over the first")
	}
	if err := s.Append("t1", Record{MessageID: "m1", Speaker: "Lin", Content: body, TS: "2026-10-01T00:00:00Z", BodyFile: name}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("t1", Record{MessageID: "m2", Speaker: "Lin", Content: "short", TS: "2026-10-01T00:00:01Z"}); err != nil {
		t.Fatal(err)
	}
	recs, _, err := s.Page("t1", "", 10)
	if err != nil || len(recs) != 2 {
		t.Fatalf("page: %d records, %v", len(recs), err)
	}
	long := recs[0]
	if long.Size != len(body) || len(long.Content) > BodyInline || !utf8.ValidString(long.Content) ||
		!strings.HasPrefix(body, long.Content) || len(long.Content) < BodyInline-utf8.UTFMax || long.BodyFile != name {
		t.Fatalf("long record: %d bytes, size %d, file %q", len(long.Content), long.Size, long.BodyFile)
	}
	if recs[1].Size != 0 || recs[1].Content != "short" {
		t.Fatalf("short record: %+v", recs[1])
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := s.BodyPath("t1", name); got != "" {
		t.Fatalf("BodyPath of a removed file = %q", got)
	}
	if got := s.BodyPath("t1", "../t1.jsonl"); got != "" {
		t.Fatalf("BodyPath outside the folder = %q", got)
	}
}

// TestDropBody: the room drops the body file of a post it did not deliver
// with it (refused, rejected by the floor, stamped with other text); only
// a long post's file goes.
func TestDropBody(t *testing.T) {
	s, _ := openStore(t)
	name, path, err := s.SaveBody("t1", "m1", strings.Repeat("x", BodyInline+1))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DropBody("t1", name); err != nil {
		t.Fatalf("DropBody(%q): %v", name, err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("dropped body file %s: %v", path, err)
	}
	if err := s.DropBody("t1", "notes.txt"); err == nil {
		t.Fatal("DropBody removed a file that is not a long post's")
	}
}
