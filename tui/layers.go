package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// overlayLayers draws layers (boxes of equal-width lines, each at its x, y;
// later ones on top) over content, a composed screen of h rows of w cells.
// Each covered row is cut around the box with x/ansi (escape sequences
// kept, a wide character the cut splits becomes a space, a margin too
// narrow to read is blanked: slivers), so the cost is
// that of the rows a box covers. Measured (BenchmarkTypeKey, 200×50): Lip
// Gloss's compositor, which draws every cell of the whole screen into a
// cell buffer and renders it back, took ~5 ms per frame under the account
// editor, and keys in the editor echoed 80× slower than in the input bar.
//
// cuts keeps each covered row's left and right parts between frames: while
// a modal is open the screen under it rarely changes, so a key typed in the
// modal costs the splice of strings already cut.
func overlayLayers(content string, w, h int, layers []layer, cuts *rowCuts) string {
	if len(layers) == 0 {
		return content
	}
	rows := strings.SplitN(content, "\n", h)
	if len(cuts.rows) != len(rows) {
		cuts.rows = make([]rowCut, len(rows))
	}
	for li, l := range layers {
		box := strings.Split(l.box, "\n")
		bw := l.w
		if bw == 0 {
			for _, b := range box {
				bw = max(bw, ansi.StringWidth(b))
			}
		}
		sw := min(bw, w-l.x)
		// A margin too narrow to read is blanked with the box (slivers).
		lm, rm := slivers(l.x, sw, w)
		for i, b := range box {
			y := l.y + i
			if y < 0 || y >= len(rows) || sw <= 0 {
				continue
			}
			if l.w == 0 || sw < bw {
				b = fit(b, sw)
			}
			x, seg := l.x-lm, strings.Repeat(" ", lm)+b+strings.Repeat(" ", rm)
			if li > 0 {
				rows[y] = spliceRow(rows[y], w, x, seg, lm+sw+rm) // rows changed by the layer below
				continue
			}
			rows[y] = cuts.rows[y].splice(rows[y], w, x, seg, lm+sw+rm)
		}
	}
	return strings.Join(rows, "\n")
}

// overlaySliver is the narrowest margin beside a box that is left showing
// what is under it: a narrower one shows a fragment of a word — the last
// character of 「未起動」 beside the attach prompt at 80 columns read as half
// of one (issue 35) — so it is blanked with the box.
const overlaySliver = 4

// slivers are the cells left (lm) and right (rm) of a box at x, sw cells
// wide on a screen w wide, to blank with it: a margin under overlaySliver.
func slivers(x, sw, w int) (lm, rm int) {
	if x > 0 && x < overlaySliver {
		lm = x
	}
	if r := w - x - sw; r > 0 && r < overlaySliver {
		rm = r
	}
	return lm, rm
}

// rowCuts are the cut rows of the screen under the lowest layer, by row.
type rowCuts struct{ rows []rowCut }

// rowCut is one row cut around a segment: valid while row, x and the
// segment's width stay the same.
type rowCut struct {
	row         string
	x, sw       int
	left, right string
}

// splice is spliceRow with the row's cut parts kept for the next frame.
func (c *rowCut) splice(row string, w, x int, seg string, sw int) string {
	if c.row != row || c.x != x || c.sw != sw {
		c.row, c.x, c.sw = row, x, sw
		c.left, c.right = cutRow(row, w, x, sw)
	}
	return c.left + seg + c.right
}

// spliceRow puts seg (exactly sw cells) over row (w cells) at cell x,
// keeping the row's cells left and right of it.
func spliceRow(row string, w, x int, seg string, sw int) string {
	left, right := cutRow(row, w, x, sw)
	return left + seg + right
}

// cutRow is what stays of row (w cells) around a segment of sw cells at
// cell x: the left part (with a reset after it) and the right part (with
// a reset before it), each padded to its width.
func cutRow(row string, w, x, sw int) (string, string) {
	var b strings.Builder
	left := ansi.Truncate(row, x, "")
	b.WriteString(left)
	if lw := ansi.StringWidth(left); lw < x {
		b.WriteString(strings.Repeat(" ", x-lw)) // a wide character split by the cut
	}
	b.WriteString(sgrReset)
	want := w - x - sw
	if want <= 0 {
		return b.String(), sgrReset
	}
	left = b.String()
	b.Reset()
	b.WriteString(sgrReset)
	right := ansi.TruncateLeft(row, x+sw, "")
	rw := ansi.StringWidth(right)
	if rw > want {
		// The first cell is the right half of a wide character: drop it
		// and keep the escape sequences before and after it.
		right = ansi.TruncateLeft(right, rw-want+1, " ")
		rw = ansi.StringWidth(right)
	}
	b.WriteString(right)
	if rw < want {
		b.WriteString(strings.Repeat(" ", want-rw))
	}
	return left, b.String()
}

// cellWidth is ansi.StringWidth, four times faster on ASCII text (most
// of the UI's chrome and every escape sequence): there each grapheme is
// one byte and x/ansi's rune-width method gives the same widths without
// segmenting graphemes.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return ansi.StringWidthWc(s)
}
