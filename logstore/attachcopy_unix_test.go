//go:build !windows

package logstore

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestCopyAttachmentFIFO: a FIFO in place of a picked file is refused at
// once (not a regular file), never waited on for a writer.
func TestCopyAttachmentFIFO(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	fifo := filepath.Join(t.TempDir(), "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CopyAttachment("t1", fifo); !errors.Is(err, ErrNotAFile) {
		t.Fatalf("a FIFO: %v", err)
	}
}
