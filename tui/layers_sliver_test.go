package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestOverlayNeverLeavesASliver: a box's margin narrower than
// overlaySliver is blanked with it — at 80 columns the attach prompt left
// the last character of 「未起動」 beside its edge (issue 35) — a wider one
// keeps what is under it, and a wide character the box's edge cuts is
// blanked, never shown in half, with styled rows too.
func TestOverlayNeverLeavesASliver(t *testing.T) {
	t.Parallel()
	row := " Codex           \x1b[2m未起動\x1b[m  "
	w := ansi.StringWidth(row)
	for bx := 0; bx < w-2; bx++ {
		for bw := 2; bx+bw <= w; bw++ {
			box := "│" + strings.Repeat("x", bw-2) + "│"
			var cuts rowCuts
			got := ansi.Strip(overlayLayers(row, w, 1, []layer{{box: box, x: bx, y: 0, w: bw}}, &cuts))
			if ansi.StringWidth(got) != w {
				t.Fatalf("box at %d, %d wide: %q is %d cells", bx, bw, got, ansi.StringWidth(got))
			}
			left, right := ansi.Cut(got, 0, bx), ansi.Cut(got, bx+bw, w)
			under := ansi.Strip(row)
			if bx < overlaySliver && strings.TrimSpace(left) != "" {
				t.Fatalf("box at %d: the left sliver %q shows", bx, left)
			}
			if r := w - bx - bw; r < overlaySliver && strings.TrimSpace(right) != "" {
				t.Fatalf("box at %d, %d wide: the right sliver %q shows", bx, bw, right)
			}
			// What shows is what was there, or a blank for a split cell.
			if r := w - bx - bw; r >= overlaySliver {
				was, now := screenCells(under), screenCells(got)
				for c := bx + bw; c < w; c++ {
					split := c == bx+bw && was[c] == ""
					if now[c] != was[c] && !(split && now[c] == " ") {
						t.Fatalf("box at %d, %d wide: cell %d %q, under it %q: %q", bx, bw, c, now[c], was[c], got)
					}
				}
			}
		}
	}
}

// screenCells are a plain row's cells: a wide character, then "" for its
// right half.
func screenCells(s string) []string {
	var out []string
	for _, r := range s {
		out = append(out, string(r))
		if ansi.StringWidth(string(r)) == 2 {
			out = append(out, "")
		}
	}
	return out
}
