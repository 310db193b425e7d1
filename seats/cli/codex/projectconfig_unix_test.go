//go:build !windows

package codex

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestStaleRoomEntriesPlantedFiles: a FIFO or a link planted as the
// project config is refused at once and left as it is (docs/design.md
// §16 "Planted files").
func TestStaleRoomEntriesPlantedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := RemoveStaleRoomEntries(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO read as the project config")
		}
	case <-time.After(testkit.Slow(10 * time.Second)):
		t.Fatal("a FIFO as the project config blocked")
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real.toml")
	if err := os.WriteFile(real, []byte("[mcp_servers.pullcept-room-a]\nenv = { PULLCEPT_ACCOUNT_ID = \"a\" }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, p); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveStaleRoomEntries(dir); err == nil {
		t.Fatal("a linked project config was rewritten")
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
}
