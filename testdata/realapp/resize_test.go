//go:build linux

package realapp

// A window resized in a burst (docs/design.md §10 "Resize is debounced and
// re-applied"): the seat's terminal takes the last size once, so its CLI
// redraws once. The seat is the fake CLI with -winch, which appends its
// terminal's size at start and at every SIGWINCH it gets.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"

	"github.com/pullcept/pullcept/testdata/fakecli"
)

// resizeQuiet is seats.resizeQuiet: a size must hold this long before a
// seat's PTY takes it. The test only uses it to tell a burst (every gap
// between two window sizes shorter) from separate resizes.
const resizeQuiet = 300 * time.Millisecond

// paneBox finds name's pane on the screen and returns its terminal's size
// (the box inside the border) and whether every row of the box is whole:
// the top edge with the title, a │ at both sides of each row, the bottom
// edge, all in the same columns.
func paneBox(screen, name string) (cols, rows int, whole, found bool) {
	lines := strings.Split(screen, "\n")
	for y, row := range lines {
		i := strings.Index(row, "╭─ "+name+" · ")
		if i < 0 {
			continue
		}
		j := strings.Index(row[i:], "╮")
		if j < 0 {
			return 0, 0, false, true
		}
		left := ansi.StringWidth(row[:i])
		right := left + ansi.StringWidth(row[i:i+j])
		cell := func(l string, x int) string { return ansi.Cut(l, x, x+1) }
		whole = true
		for b := y + 1; b < len(lines); b++ {
			if cell(lines[b], left) == "╰" {
				return right - left - 1, b - y - 1, whole && cell(lines[b], right) == "╯", true
			}
			whole = whole && cell(lines[b], left) == "│" && cell(lines[b], right) == "│"
		}
		return 0, 0, false, true
	}
	return 0, 0, false, false
}

// TestResizeBurstReachesTheSeatOnce: with a fake CLI seat's pane shown at
// 120×30, the window is resized 20 times in quick succession (each a
// separate tmux resize-window, as a dragged window sends them), ending at
// 104×28. The seat gets one SIGWINCH for the whole burst, and at it its
// terminal has the final pane's size; the pane is drawn whole at that size
// with the seat's screen in it, and keys still reach the seat.
func TestResizeBurstReachesTheSeatOnce(t *testing.T) {
	winch := filepath.Join(t.TempDir(), "winch")
	r := newRig(t, 120, 30, "en", seat{id: "ana", name: "Ana", opts: "-winch " + winch})
	r.startSeats()

	// settled waits until the seat recorded more than had sizes and its
	// last is its pane's terminal size as drawn, the pane whole and showing
	// the seat's prompt.
	settled := func(what string, had int) (sizes []string) {
		t.Helper()
		r.waitScreen(what, func(s string) bool {
			sizes = fakecli.Sizes(winch)
			cols, rows, whole, _ := paneBox(s, "Ana")
			return whole && len(sizes) > had && sizes[len(sizes)-1] == fmt.Sprintf("%dx%d", cols, rows) &&
				strings.Contains(s, fakecli.PromptMark) && strings.Contains(s, fakecli.Ready)
		})
		return sizes
	}
	before := settled("the seat has its pane's size", 0)

	// The burst: 20 sizes, 25 ms apart, the last 104×28, set on the app's
	// terminal as a terminal sets them while its window is dragged
	// (TIOCSWINSZ; the kernel sends SIGWINCH). tmux's own resize-window
	// would not do: tmux passes a pane at most one size per 250 ms. The
	// sizes fit in tmux's 120×30 pane, so capture-pane still shows the app
	// whole (it clears its screen at each new size). Every gap is timed, so
	// a box too loaded to send a burst says so.
	tty, err := os.OpenFile(strings.TrimSpace(r.tmux("display-message", "-p", "-t", "app", "#{pane_tty}")), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	pace := time.NewTicker(25 * time.Millisecond)
	defer pace.Stop()
	var gaps []time.Duration
	last := time.Now()
	for i := range 20 {
		w, h := 100+(i*7)%20, 24+(i*3)%6
		if i == 19 {
			w, h = 104, 28
		}
		if i > 0 {
			<-pace.C
		}
		if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(w), Row: uint16(h)}); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if i > 0 {
			gaps = append(gaps, now.Sub(last))
		}
		last = now
	}
	breaks := 0
	for _, g := range gaps {
		if g >= resizeQuiet {
			breaks++
		}
	}

	after := settled("the seat has its new pane's size", len(before))
	got := after[len(before):]
	t.Logf("the seat's sizes: %q before the burst, %q after it; the longest gap between two sizes %v", before, got, slices.Max(gaps))
	if breaks > 0 {
		// Not a burst to the app: each pause of resizeQuiet may end one.
		t.Logf("the box paused %d times for %v or more between two sizes (gaps %v)", breaks, resizeQuiet, gaps)
	}
	if len(got) < 1 || len(got) > breaks+1 {
		t.Fatalf("the seat got %d SIGWINCH for a burst of 20 sizes (%d pauses of %v), sizes %q; want 1",
			len(got), breaks, resizeQuiet, got)
	}
	s := r.screenOrEmpty()
	cols, rows, _, _ := paneBox(s, "Ana")
	if want := fmt.Sprintf("%dx%d", cols, rows); got[len(got)-1] != want || want == before[len(before)-1] {
		t.Fatalf("the seat's terminal is %s after the burst, its pane %s (before %s):\n%s", got[len(got)-1], want, before[len(before)-1], s)
	}

	// The seat still reads the human's keys at its new size.
	r.keys("F6")
	r.text("after the burst")
	r.keys("Enter")
	r.waitLine("ana", "after the burst")
}
