package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestSpliceRow: a box segment over a row keeps the row's cells on both
// sides, styled or not; a wide character the cut splits becomes a space on
// its side of the box; the row stays exactly w cells.
func TestSpliceRow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, row, seg string
		x              int
		want           string
	}{
		{"plain", "abcdefghij", "XY", 3, "abcXYfghij"},
		{"styled", "\x1b[31mabc\x1b[m\x1b[32mdefghij\x1b[m", "XY", 3, "abcXYfghij"},
		{"wide cut on the left", "あいうえお", "XY", 3, "あ XY えお"},
		{"wide cut on the right", "あいうえお", "XYZ", 2, "あXYZ えお"},
		{"wide cut on both sides", "あいうえお", "XY", 1, " XY うえお"},
		{"at the right edge", "abcdefghij", "XY", 8, "abcdefghXY"},
		{"past a short row", "abc", "XY", 6, "abc   XY  "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := 10
			got := spliceRow(tc.row, w, tc.x, tc.seg, ansi.StringWidth(tc.seg))
			if ansi.StringWidth(got) != w {
				t.Fatalf("width %d, want %d: %q", ansi.StringWidth(got), w, got)
			}
			if plain := ansi.Strip(got); plain != tc.want {
				t.Fatalf("got %q, want %q", plain, tc.want)
			}
			var c rowCut
			if again := c.splice(tc.row, w, tc.x, tc.seg, ansi.StringWidth(tc.seg)); again != got {
				t.Fatalf("cached splice %q differs from %q", again, got)
			}
			if again := c.splice(tc.row, w, tc.x, tc.seg, ansi.StringWidth(tc.seg)); again != got {
				t.Fatalf("second cached splice %q differs from %q", again, got)
			}
		})
	}
}

// TestOverlayLayersKeepStyleRight: the right part of a row keeps the
// colour it had at the cut, and the box's own styling ends at its edge.
func TestOverlayLayersKeepStyleRight(t *testing.T) {
	t.Parallel()
	row := "\x1b[31m" + strings.Repeat("r", 10) + "\x1b[m"
	var cuts rowCuts
	got := overlayLayers(row+"\n"+row, 10, 2, []layer{{box: "\x1b[1mB\x1b[m", x: 4, y: 1}}, &cuts)
	rows := strings.Split(got, "\n")
	if rows[0] != row {
		t.Fatalf("row 0 changed: %q", rows[0])
	}
	i := strings.Index(rows[1], "B")
	if i < 0 || !strings.Contains(rows[1][i:], sgrReset) || !strings.Contains(rows[1][i:], "\x1b[31m") {
		t.Fatalf("row 1 %q: the box is not reset after, or the right part lost its colour", rows[1])
	}
	if ansi.Strip(rows[1]) != "rrrrBrrrrr" {
		t.Fatalf("row 1 = %q", ansi.Strip(rows[1]))
	}
}

// TestCellWidth: the ASCII shortcut measures what x/ansi's grapheme width
// measures, styled or not, and hands anything else to it.
func TestCellWidth(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "abc", "\x1b[1;38;2;1;2;3mbold\x1b[m text", "tab\there", "\x1b]0;title\x07x",
		"日本語", "e\u0301", "👍🏽 ok", "\x1b[31mあ\x1b[m", "a\x00b", "\x7f"} {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, want %d", s, got, want)
		}
	}
}
