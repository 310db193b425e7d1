//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRolloutTailHostile: a FIFO in a rollout's place is never opened (the
// open would block); one poll reads at most pollMax, the next one the
// rest.
func TestRolloutTailHostile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTail(fifo, 0).Poll(func([]byte) {}); err == nil {
		t.Fatal("a FIFO was taken for a rollout")
	}
	path := filepath.Join(dir, "big.jsonl")
	line := strings.Repeat("z", 1023) + "\n"
	testkit.AppendFile(t, path, strings.Repeat(line, pollMax/len(line)+100))
	tail := NewTail(path, 0)
	if _, n := pollLines(t, tail); n != pollMax/len(line) || tail.offset != pollMax {
		t.Fatalf("first poll: %d lines to offset %d, want %d lines to %d", n, tail.offset, pollMax/len(line), pollMax)
	}
	if _, n := pollLines(t, tail); n != 100 {
		t.Fatalf("second poll: %d lines, want 100", n)
	}
}
