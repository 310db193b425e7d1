//go:build !windows

package claude

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestTranscriptPlantedAsAFIFO: a seat can put a FIFO where its
// transcript was; reading its end at a resume must refuse it at once, not
// wait for a writer (docs/design.md §16 "Planted files").
func TestTranscriptPlantedAsAFIFO(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() {
		_, ok := claudeLastParent(path, 1<<10)
		done <- ok
	}()
	select {
	case ok := <-done:
		if ok {
			t.Error("a FIFO read as a transcript")
		}
	case <-time.After(testkit.Slow(10 * time.Second)):
		t.Fatal("reading a FIFO as the transcript blocked")
	}
}
