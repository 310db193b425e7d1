//go:build !windows

package character

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pullcept/pullcept/config"
)

// TestCharacterFIFO: a FIFO in the body file's place is refused at once,
// not waited on (a read would block until someone writes into it).
func TestCharacterFIFO(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	styles := filepath.Join(work, ".claude", "output-styles")
	if err := os.MkdirAll(styles, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(styles, "Lin.md"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := Open(config.KindClaudeCode, work, "Lin"); !errors.Is(err, ErrNotFile) {
		t.Fatalf("FIFO read: %v", err)
	}
	w := Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "Lin", Text: "x"}
	if _, err := Write(w); !errors.Is(err, ErrNotFile) {
		t.Fatalf("FIFO written: %v", err)
	}
	if styles, _ := ListStyles(config.KindClaudeCode, work, func(string) string { return "" }); len(styles) != 1 || styles[0].Name != "Lin" {
		t.Fatalf("a FIFO style is listed by its file name: %+v", styles)
	}
}
