//go:build unix

package app

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The last open topic is read back; what sits at ui-state.json instead of a
// small file — a FIFO, a link to a device, garbage — is ignored at once
// (a FIFO there hung the start), never followed.
func TestLastTopicReadsOnlyASmallFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := &App{dataDir: dir, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := a.rememberTopic("t-1"); err != nil {
		t.Fatal(err)
	}
	if got := a.lastTopic(); got != "t-1" {
		t.Fatalf("last topic %q, want t-1", got)
	}
	path := filepath.Join(dir, uiStateFileName)
	for name, plant := range map[string]func() error{
		"fifo":    func() error { return syscall.Mkfifo(path, 0o600) },
		"link":    func() error { return os.Symlink("/dev/zero", path) },
		"garbage": func() error { return os.WriteFile(path, []byte("{not json"), 0o600) },
	} {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := plant(); err != nil {
			t.Fatal(err)
		}
		if got := a.lastTopic(); got != "" {
			t.Errorf("%s: last topic %q", name, got)
		}
	}
}

// TestUIStateLinkIsNotWrittenThrough: ui-state.json being a symbolic
// link, the screen's state is not written into its target (it is not
// read through it either).
func TestUIStateLinkIsNotWrittenThrough(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := &App{dataDir: dir, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("precious data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, uiStateFileName)); err != nil {
		t.Fatal(err)
	}
	if err := a.rememberTopic("t-1"); err == nil {
		t.Fatal("written through a link")
	}
	if b, _ := os.ReadFile(target); string(b) != "precious data" {
		t.Fatalf("the link's target now holds %q", b)
	}
}
