package tui

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

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

// wrapText wraps plain text (no ANSI) to w cells per line where Unicode
// line breaking (UAX #14, rivo/uniseg) allows it: at spaces, and between
// wide characters (Japanese has no spaces), never before a closing
// bracket or "、" nor after an opening one (kinsoku: issue 35 left "（" at
// a line's end). Besides: a kanji compound stays whole, a name followed
// by a Japanese particle ("Claude が") stays with it, and a word joined by
// hyphens or slashes (an id, a path) breaks only where it must. What is wider
// than a line is cut at its width. Spaces are kept as written but where a
// line breaks; empty lines are kept.
func wrapText(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapPara(para, w)...)
	}
	return out
}

// wrapPara is wrapText for text without line breaks.
func wrapPara(para string, w int) []string {
	var out []string
	line, lw, gap := "", 0, "" // gap: the spaces after line, dropped at a break
	for _, u := range breakUnits(para) {
		body := strings.TrimRight(u, " ")
		space := u[len(body):]
		bw, gw := ansi.StringWidth(body), ansi.StringWidth(gap)
		if lw > 0 && lw+gw+bw > w {
			out = append(out, line)
			line, lw, gap, gw = "", 0, "", 0
		}
		for lw == 0 && bw > w { // wider than a line: cut where it must
			head := cutUnit(body, w)
			out = append(out, head)
			body = body[len(head):]
			bw -= ansi.StringWidth(head)
		}
		line += gap + body
		lw += gw + bw
		gap = space
	}
	if line != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// cutUnit is the head of a unit wider than w that a line shows: after
// its last hyphen or slash when that fills half the line or more (an id
// reads "…-45c2-" then "b0d7-…"), else all that fits — less what comes before
// a closing mark, which never starts a line.
func cutUnit(u string, w int) string {
	// What w cells can hold, not all of u: a long unit is cut many times.
	if k := 8*w + 32; k < len(u) {
		for k > 0 && !utf8.RuneStart(u[k]) {
			k--
		}
		u = u[:k]
	}
	head := ansi.Truncate(u, w, "")
	if i := strings.LastIndexAny(head, "-/"); i >= 0 && i < len(head)-1 && ansi.StringWidth(head[:i+1]) >= (w+1)/2 {
		return head[:i+1]
	}
	for {
		next, _ := utf8.DecodeRuneInString(u[len(head):])
		_, n := utf8.DecodeLastRuneInString(head)
		if !strings.ContainsRune(helpClosing, next) || n >= len(head) {
			break
		}
		head = head[:len(head)-n]
	}
	if head == "" {
		head, _, _, _ = uniseg.FirstGraphemeClusterInString(u, -1)
	}
	return head
}

// breakUnits cuts para where a line may break: UAX #14's opportunities,
// and after every space but one before a closing mark (UAX #14 keeps
// "folder /tmp" together, a path's slash being a symbol), but those
// wrapText keeps closed. Each unit ends with the spaces after it; units
// are slices of para (a 100 KB word is not copied once per piece).
func breakUnits(para string) []string {
	var units []string
	start, end := 0, 0        // the unit being built: para[start:end]
	add := func(seg string) { // seg is para[end : end+len(seg)]
		// A paragraph's indentation goes with its first word.
		indent := len(units) == 0 && strings.TrimLeft(para[start:end], " ") == ""
		if end > start && (indent || keepTogether(para[start:end], seg)) {
			end += len(seg)
			return
		}
		if end > start {
			units = append(units, para[start:end])
		}
		start, end = end, end+len(seg)
	}
	state := -1
	for rest := para; rest != ""; {
		var seg string
		seg, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		for {
			lead := len(seg) - len(strings.TrimLeft(seg, " "))
			i := strings.IndexByte(seg[lead:], ' ')
			if i < 0 {
				break
			}
			i += lead
			j := i + len(seg[i:]) - len(strings.TrimLeft(seg[i:], " "))
			next, _ := utf8.DecodeRuneInString(seg[j:])
			if j == len(seg) || strings.ContainsRune(helpClosing, next) {
				break
			}
			add(seg[:j])
			seg = seg[j:]
		}
		add(seg)
	}
	if end > start {
		units = append(units, para[start:end])
	}
	return units
}

// wideFrom is where wide characters start (Hangul Jamo; CJK, kana and
// the fullwidth forms lie above): below it a rune is narrow, for the
// rules of keepTogether, without measuring it.
const wideFrom = 0x1100

// keepTogether reports whether the break between units a and b stays
// closed: a kanji compound (kanjiWord), a hyphen or slash inside a word,
// a name and the Japanese particle after it.
func keepTogether(a, b string) bool {
	last, _ := utf8.DecodeLastRuneInString(a)
	next, _ := utf8.DecodeRuneInString(b)
	switch {
	case last == ' ':
		// "Claude が": the space before a particle is not a place to break.
		body := strings.TrimRight(a, " ")
		prev, _ := utf8.DecodeLastRuneInString(body)
		return body != "" && unicode.IsLetter(prev) && prev < wideFrom && unicode.Is(unicode.Hiragana, next)
	case last == '-', last == '/':
		// An id or a path: whole while it fits (cutUnit breaks it after
		// its last hyphen or slash when it does not).
		return !unicode.IsSpace(next) && next < wideFrom
	}
	// Only the run of kanji at a's end counts: its last few runes.
	tail := make([]rune, 0, helpKanjiRun)
	for i := len(a); i > 0 && len(tail) < helpKanjiRun; {
		r, n := utf8.DecodeLastRuneInString(a[:i])
		tail = append([]rune{r}, tail...)
		i -= n
	}
	return kanjiWord(tail, next)
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
