//go:build !windows

package seats

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
	if _, err := OpenCharacter(config.KindClaudeCode, work, "Lin"); !errors.Is(err, ErrCharacterNotFile) {
		t.Fatalf("FIFO read: %v", err)
	}
	w := CharacterWrite{Kind: config.KindClaudeCode, WorkDir: work, Name: "Lin", Text: "x"}
	if _, err := WriteCharacter(w); !errors.Is(err, ErrCharacterNotFile) {
		t.Fatalf("FIFO written: %v", err)
	}
	if styles, _ := ListStyles(config.KindClaudeCode, work, func(string) string { return "" }); len(styles) != 1 || styles[0].Name != "Lin" {
		t.Fatalf("a FIFO style is listed by its file name: %+v", styles)
	}
}
