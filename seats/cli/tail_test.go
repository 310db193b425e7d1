package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestCodexTailEvery: 1 s while lines come, 10 s after a minute without
// one, back to 1 s when one comes (idle is since the last line).
func TestCodexTailEvery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		idle, fast, want time.Duration
	}{
		{0, time.Second, time.Second},
		{59 * time.Second, time.Second, time.Second},
		{time.Minute, time.Second, 10 * time.Second},
		{time.Hour, time.Second, 10 * time.Second},
		{time.Hour, 30 * time.Second, 30 * time.Second}, // a slower TailPoll is never sped up
		{0, 5 * time.Millisecond, 5 * time.Millisecond},
	} {
		if got := TailEvery(c.idle, c.fast); got != c.want {
			t.Errorf("TailEvery(%v, %v) = %v, want %v", c.idle, c.fast, got, c.want)
		}
	}
}

// pollLines polls tail once and returns the lines it handed over.
func pollLines(t *testing.T, tail *Tail) ([]string, int) {
	t.Helper()
	var got []string
	n, err := tail.Poll(func(l []byte) { got = append(got, string(l)) })
	if err != nil {
		t.Fatalf("poll: %v", err)
	}
	return got, n
}

// TestRolloutTail: the tail reads only what was appended, from its offset;
// a torn line waits for its newline; a line over 64 KiB is dropped without
// being kept; a resumed seat's tail starts at the end.
func TestRolloutTail(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	testkit.AppendFile(t, path, "old 1\nold 2\n")
	fi, _ := os.Stat(path)
	tail := NewTail(path, fi.Size()) // a resume: from the end
	if got, n := pollLines(t, tail); len(got) != 0 || n != 0 {
		t.Fatalf("a resumed tail read %q", got)
	}
	testkit.AppendFile(t, path, "one\ntw")
	if got, _ := pollLines(t, tail); strings.Join(got, "|") != "one" {
		t.Fatalf("got %q, want one (the torn line waits)", got)
	}
	if got, n := pollLines(t, tail); len(got) != 0 || n != 0 {
		t.Fatalf("an unchanged file gave %q", got)
	}
	testkit.AppendFile(t, path, "o\nthree\n")
	if got, _ := pollLines(t, tail); strings.Join(got, "|") != "two|three" {
		t.Fatalf("got %q, want two|three", got)
	}
	if fi, _ := os.Stat(path); tail.offset != fi.Size() {
		t.Fatalf("offset %d, file %d", tail.offset, fi.Size())
	}
	// A line of 200 KiB written in steps: never kept, never handed over.
	big := strings.Repeat("x", 50<<10)
	for range 4 {
		testkit.AppendFile(t, path, big)
		if got, n := pollLines(t, tail); len(got) != 0 || n != 0 || len(tail.partial) > DefaultLineMax {
			t.Fatalf("a long line's part gave %d lines, %d kept", len(got), len(tail.partial))
		}
	}
	if !tail.skipping || len(tail.partial) != 0 {
		t.Fatalf("the long line is kept (%d bytes) or not skipped", len(tail.partial))
	}
	testkit.AppendFile(t, path, "x\nafter\n")
	if got, n := pollLines(t, tail); strings.Join(got, "|") != "after" || n != 2 {
		t.Fatalf("got %q (%d ended), want after (2 ended)", got, n)
	}
	// A line of exactly 64 KiB is still read.
	edge := strings.Repeat("y", DefaultLineMax)
	testkit.AppendFile(t, path, edge+"\n")
	if got, _ := pollLines(t, tail); len(got) != 1 || got[0] != edge {
		t.Fatalf("the 64 KiB line was not read whole")
	}
}

// TestRolloutTailErrors: a missing file is an error; a file that shrank is
// read on from its new end.
func TestRolloutTailErrors(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	tail := NewTail(path, 0)
	if _, err := tail.Poll(func([]byte) {}); err == nil {
		t.Fatal("no error for a missing rollout")
	}
	testkit.AppendFile(t, path, "one\ntwo\n")
	pollLines(t, tail)
	if err := os.WriteFile(path, []byte("n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := tail.Poll(func([]byte) {}); err == nil || tail.offset != 1 {
		t.Fatalf("shrunk file: err %v, offset %d", err, tail.offset)
	}
	testkit.AppendFile(t, path, "ew\n")
	if got, _ := pollLines(t, tail); strings.Join(got, "|") != "ew" {
		t.Fatalf("after the shrink got %q", got)
	}
}

// TestTailLongHead: a line dropped for its length hands its head to Long.
func TestTailLongHead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	long := "HEAD" + strings.Repeat("x", 100<<10)
	if err := os.WriteFile(path, []byte("short\n"+long+"\nafter\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tl := NewTail(path, 0)
	var heads []string
	tl.Long = func(h []byte) { heads = append(heads, string(h)) }
	var lines []string
	if _, err := tl.Poll(func(l []byte) { lines = append(lines, string(l)) }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0] != "short" || lines[1] != "after" {
		t.Fatalf("lines %q", lines)
	}
	if len(heads) != 1 || len(heads[0]) != headMax || !strings.HasPrefix(heads[0], "HEAD") {
		t.Fatalf("heads: %d, first %d bytes", len(heads), len(heads[0]))
	}
}
