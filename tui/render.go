package tui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room/blank"
)

// sgrReset ends any styling a cached line may carry, so one block's colours
// never bleed into its neighbour on the same screen row.
const sgrReset = "\x1b[m"

// fitLeft keeps the end of plain s (a path: its last elements say the
// most) within w cells, cutting its start with "…". ansi.TruncateLeft keeps
// a wide character the cut runs through, one cell too many, so that cut
// goes one cell further.
func fitLeft(s string, w int) string {
	sw := ansi.StringWidth(s)
	switch {
	case sw <= w:
		return s
	case w <= 1:
		return "…"
	}
	t := ansi.TruncateLeft(s, sw-w+1, "")
	if ansi.StringWidth(t) > w-1 {
		t = ansi.TruncateLeft(s, sw-w+2, "")
	}
	return "…" + t
}

// cutPath keeps plain path p within w cells: whole when it fits, else cut
// in its middle with "…", keeping its file name and as much of its start
// as fits ("/work/…/claude"); a file name too wide for that keeps its end
// (fitLeft). A path cut at its end lost what names it (issue 35).
func cutPath(p string, w int) string {
	if ansi.StringWidth(p) <= w {
		return p
	}
	i := strings.LastIndexAny(p, `/\`)
	if i <= 0 {
		return fitLeft(p, w)
	}
	base := p[i:]
	bw := ansi.StringWidth(base)
	if bw+2 > w {
		return fitLeft(p, w)
	}
	return ansi.Truncate(p[:i], w-bw-1, "") + "…" + base
}

// fit truncates s (which may hold ANSI styling) to w cells and pads it with
// spaces to exactly w cells. Widths follow x/ansi's grapheme widths, so
// Japanese and emoji count as two cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := cellWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// fitRight is fit with the text pushed to the right edge.
func fitRight(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw >= w {
		return fit(s, w)
	}
	return strings.Repeat(" ", w-sw) + s
}

// block is a rectangle's worth of lines: exactly H lines of exactly W cells.
func block(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// wrapText wraps plain text (no ANSI) to w cells per line: at spaces when
// it can, inside a word when it must (Japanese has no spaces). Empty lines
// are kept.
func wrapText(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if para == "" {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(para, w, ""), "\n")...)
	}
	return out
}

// sanitize makes post text safe to draw: CR/LF become LF, tabs four spaces,
// every other control character (ESC included) is dropped, so a post can
// never move the cursor or restyle the screen, and what draws nothing — a
// bidi control, a tag character, a filler (room/blank) — is shown as its
// code ("<U+202E>") instead of reordering or hiding text. Text is otherwise
// kept as written (docs/design.md §10 "posts shown as written").
func sanitize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '\t':
			b.WriteString("    ")
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	// Shown, not obeyed: U+202E would draw what follows reversed, and tag
	// characters carry words nobody sees (docs/design.md §10, §16).
	shown, _ := blank.Show(b.String())
	return shown
}

// placed is a block of lines at a rectangle of the screen.
type placed struct {
	r     rect
	lines []string // len == r.H, each exactly r.W cells
}

// compose assembles a w×h screen from non-overlapping blocks: for each row,
// the blocks covering it are concatenated left to right, gaps filled with
// spaces. It only concatenates cached strings (docs/design.md §14).
func compose(w, h int, blocks []placed) string {
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].r.X < blocks[j].r.X })
	var b strings.Builder
	b.Grow(w * h * 2)
	for y := 0; y < h; y++ {
		x := 0
		for _, p := range blocks {
			if p.r.empty() || y < p.r.Y || y >= p.r.Y+p.r.H {
				continue
			}
			if p.r.X > x {
				b.WriteString(strings.Repeat(" ", p.r.X-x))
			}
			b.WriteString(p.lines[y-p.r.Y])
			b.WriteString(sgrReset)
			x = p.r.X + p.r.W
		}
		if x < w {
			b.WriteString(strings.Repeat(" ", w-x))
		}
		if y < h-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// taggedLines are a widget's lines with what each stands for (an item
// index, a row id), so a click on a row finds what it shows.
type taggedLines[T comparable] struct {
	lines []string
	tags  []T
}

func (t *taggedLines[T]) add(line string, tag T) {
	t.lines = append(t.lines, line)
	t.tags = append(t.tags, tag)
}

// keepVisible scrolls so the first line tagged tag shows within h lines,
// by dropping lines under the first one (the widget's title).
func (t *taggedLines[T]) keepVisible(tag T, h int) {
	first := 0
	for i, x := range t.tags {
		if x == tag {
			if i >= h {
				first = i - h + 1
			}
			break
		}
	}
	if first > 0 {
		t.lines = append(t.lines[:1], t.lines[first+1:]...)
		t.tags = append(t.tags[:1], t.tags[first+1:]...)
	}
}

// fill returns exactly h lines of w cells and their h tags (none for the
// padding).
func (t *taggedLines[T]) fill(w, h int, none T) ([]string, []T) {
	tags := t.tags
	for len(tags) < h {
		tags = append(tags, none)
	}
	return block(t.lines, w, h), tags[:h]
}
