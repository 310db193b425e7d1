//go:build !windows

package config

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestMCPServersFIFO: a FIFO in the file's place is refused at once by
// every operation (no wait for a writer) and stays a FIFO; a symbolic link
// to a real file is read and written through, and stays a link.
func TestMCPServersFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, MCPServersFileName)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewMCPServers(dir)
	_, err := s.List()
	for op, e := range map[string]error{
		"List": err, "SetServer": s.SetServer("a", "c", nil, nil), "RemoveServer": s.RemoveServer("a"),
	} {
		if !errors.Is(e, ErrNotRegular) || !errors.Is(e, ErrBadFile) {
			t.Errorf("%s on a FIFO: %v", op, e)
		}
	}
	if wrote, err := s.WriteDefault(func() (string, bool) { return path, true }); wrote || err != nil {
		t.Errorf("WriteDefault over a FIFO: %v, %v", wrote, err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v, %v", fi, err)
	}

	linked := t.TempDir()
	target := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	if err := os.WriteFile(target, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(linked, MCPServersFileName)); err != nil {
		t.Fatal(err)
	}
	ls := NewMCPServers(linked)
	if err := ls.SetServer("b", "y", nil, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(ls.Path()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v, %v", fi, err)
	}
	if got, err := NewMCPServers(linked).List(); err != nil || len(got) != 2 {
		t.Fatalf("through the link: %+v, %v", got, err)
	}
}
