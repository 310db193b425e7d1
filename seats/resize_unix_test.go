//go:build unix

package seats

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestSeatResizeReappliedAfterStart: a size applied while the child was
// starting reaches it again at its first output as a SIGWINCH, which a CLI
// that read its size before it listened for SIGWINCH needs; the child sees
// the start size, the resize and the re-apply, all read from its terminal.
func TestSeatResizeReappliedAfterStart(t *testing.T) {
	sizes := filepath.Join(t.TempDir(), "sizes")
	s, log, open := gatedSeat(t, "-winch "+config.QuoteWord(sizes), 10*time.Millisecond)
	testkit.Eventually(t, "the fake CLI recording its size", func() bool {
		return slices.Equal(fakecli.Sizes(sizes), []string{"80x24"})
	})
	if err := s.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the child's SIGWINCH for 100×30", func() bool {
		return slices.Equal(fakecli.Sizes(sizes), []string{"80x24", "100x30"})
	})
	open()
	testkit.Eventually(t, "the size re-applied at the first output", func() bool {
		return slices.Equal(fakecli.Sizes(sizes), []string{"80x24", "100x30", "100x30"})
	})
	if sz, _ := log.get(); !slices.Equal(sz, [][2]int{{100, 30}}) {
		t.Fatalf("PTY sizes %v: the re-apply must not resize again", sz)
	}
}
