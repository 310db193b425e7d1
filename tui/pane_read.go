package tui

import (
	"regexp"
	"sort"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Reading a pane (docs/design.md §10 "Reading a pane"): a selection made
// with the mouse, the scrollback search, and copying through the
// terminal's clipboard (OSC 52). All of it is the human's doing: nothing a
// seat writes selects, searches or reaches the clipboard.

// maxFindHits bounds one search's matches: a one-letter query over a full
// scrollback (2 000 lines of 200 cells) would otherwise keep 400 000.
const maxFindHits = 10000

// maxCount bounds the count typed before the copy key (five digits: more
// than the scrollback holds).
const maxCount = 99999

// selection is a span of a pane's cells chosen with the mouse, in the
// pane's inner coordinates (the rows it shows): from the anchor to the head
// in reading order, both cells included. What is highlighted is what is
// copied; it is dropped when the view scrolls.
type selection struct {
	on     bool
	ax, ay int // where the drag began
	hx, hy int // where it is now
}

// empty reports whether no cell is selected: no drag, or a click that did
// not move.
func (s selection) empty() bool { return !s.on || (s.ax == s.hx && s.ay == s.hy) }

// ordered is the span from its first cell to its last in reading order.
func (s selection) ordered() (x0, y0, x1, y1 int) {
	x0, y0, x1, y1 = s.ax, s.ay, s.hx, s.hy
	if y1 < y0 || (y1 == y0 && x1 < x0) {
		x0, y0, x1, y1 = x1, y1, x0, y0
	}
	return x0, y0, x1, y1
}

// span is the cells [a, b) selected on row y of a cols-wide view.
func (s selection) span(y, cols int) (a, b int, ok bool) {
	if s.empty() {
		return 0, 0, false
	}
	x0, y0, x1, y1 := s.ordered()
	if y < y0 || y > y1 {
		return 0, 0, false
	}
	a, b = 0, cols
	if y == y0 {
		a = x0
	}
	if y == y1 {
		b = x1 + 1
	}
	a, b = clampInt(a, 0, cols), clampInt(b, 0, cols)
	return a, b, a < b
}

// wholeCells widens cells [a, b) of plain text to whole characters: a wide
// character half inside is selected whole, as terminals do.
func wholeCells(plain string, a, b int) (int, int) {
	col := 0
	for plain != "" && col < b {
		c, w := ansi.FirstGraphemeCluster(plain, ansi.GraphemeWidth)
		plain = plain[len(c):]
		end := col + max(w, 0)
		if col < a && a < end {
			a = col
		}
		if col < b && b < end {
			b = end
		}
		col = end
	}
	return a, b
}

// clearSel drops the pane's selection.
func (p *pane) clearSel() {
	if p.sel.on {
		p.sel = selection{}
		p.local++
	}
}

// selectionText is the selected text of the pane shown at r: each row's
// selected cells without styling or trailing spaces, rows joined by
// newlines; n counts the rows.
func (p *pane) selectionText(r rect) (text string, n int) {
	cols, rows := innerSize(r)
	src, _ := p.window(rows)
	var out []string
	for y := range min(rows, len(src)) {
		if a, b, ok := p.sel.span(y, cols); ok {
			plain := ansi.Strip(fit(src[y], cols))
			a, b = wholeCells(plain, a, b)
			out = append(out, strings.TrimRight(ansi.Cut(plain, a, b), " "))
		}
	}
	return strings.Join(out, "\n"), len(out)
}

// tailText is the text of the last n lines the pane shows up to the bottom
// of its view (in scrollback, of scrollback and screen): without styling or
// trailing spaces, blank lines at the end left out.
func (p *pane) tailText(n int) (text string, lines int) {
	all := p.snap.Rows
	end := len(all)
	if p.scrolling {
		all = p.lines()
		end = len(all) - p.sbOff
	}
	out := make([]string, 0, min(n, end))
	for _, l := range all[max(end-n, 0):end] {
		out = append(out, strings.TrimRight(ansi.Strip(l), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n"), len(out)
}

// copyText puts text from pane p on the clipboard through the terminal
// (OSC 52) and says so; n is how many lines it holds.
func (m *Model) copyText(p *pane, text string, n int) []tea.Cmd {
	tr := m.env.tr
	if strings.TrimSpace(text) == "" {
		m.setStatus(stInfo, tr.t(mStNothingToCopy, p.name))
		return nil
	}
	m.setStatus(stInfo, tr.tn(mStCopiedLines, n, n, p.name))
	return []tea.Cmd{tea.SetClipboard(text)}
}

// copyLines copies the pane's selection, or else the last lines up to the
// bottom of its view: as many as the count typed before the key, else a
// screenful.
func (m *Model) copyLines(p *pane) []tea.Cmd {
	r, _ := m.paneRect(p.key)
	_, rows := innerSize(r)
	n := p.count
	if n == 0 {
		n = rows
	}
	p.count = 0
	p.local++
	if !p.sel.empty() {
		text, lines := p.selectionText(r)
		return m.copyText(p, text, lines)
	}
	text, lines := p.tailText(n)
	return m.copyText(p, text, lines)
}

// paneFind is a pane's scrollback search: the prompt while it is typed,
// then the last query's matches over scrollback and screen, oldest first,
// and the one shown.
type paneFind struct {
	typing bool
	in     textinput.Model
	query  string
	re     *regexp.Regexp // nil: no search
	hits   []findHit
	cur    int // index into hits, -1 none
}

// findHit is one match: its line in scrollback + screen, its first cell
// and its width in cells.
type findHit struct{ line, col, w int }

// open shows the prompt; the real cursor sits at its caret (an IME types a
// Japanese query there).
func (f *paneFind) open(e *env) {
	ti := *newField(e, "")
	ti.Prompt = "/"
	ti.CharLimit = 200
	ti.SetVirtualCursor(false)
	ti.Focus()
	f.in, f.typing = ti, true
}

// promptView is the prompt in at most w cells: "/", the query and a cell
// for the caret (the border's line goes on after it).
func (f *paneFind) promptView(w int) string {
	f.in.SetWidth(max(w-2, 1))
	return ansi.Truncate(f.in.View(), min(ansi.StringWidth(f.in.Value())+2, w), "")
}

// findPattern matches query literally, ignoring case unless it holds an
// upper-case letter (smart case, as in less and vim).
func findPattern(query string) *regexp.Regexp {
	q := regexp.QuoteMeta(query)
	if !strings.ContainsFunc(query, unicode.IsUpper) {
		q = "(?i)" + q
	}
	return regexp.MustCompile(q)
}

// search finds query in the scrollback and screen and shows the newest
// match at or above the bottom of the view (the search goes up, towards
// older lines), or the newest of all when none is; rows is the view's
// height.
func (p *pane) search(query string, rows int) {
	f := &p.find
	f.query, f.re, f.hits, f.cur = query, findPattern(query), nil, -1
	all := p.lines()
scan:
	for i, l := range all {
		plain := ansi.Strip(l)
		for _, m := range f.re.FindAllStringIndex(plain, -1) {
			f.hits = append(f.hits, findHit{i, ansi.StringWidth(plain[:m[0]]), ansi.StringWidth(plain[m[0]:m[1]])})
			if len(f.hits) == maxFindHits {
				break scan
			}
		}
	}
	bottom := len(all) - p.sbOff
	f.cur = sort.Search(len(f.hits), func(i int) bool { return f.hits[i].line >= bottom }) - 1
	if f.cur < 0 {
		f.cur = len(f.hits) - 1
	}
	p.reveal(rows)
}

// findStep shows the next match d away (-1 older, +1 newer), wrapping.
func (p *pane) findStep(d, rows int) {
	f := &p.find
	if n := len(f.hits); n > 0 {
		f.cur = ((f.cur+d)%n + n) % n
		p.reveal(rows)
	}
}

// reveal scrolls the current match into a view of rows rows, about its
// middle, when it is not in view already.
func (p *pane) reveal(rows int) {
	f := &p.find
	p.local++
	if f.cur < 0 {
		return
	}
	line := f.hits[f.cur].line
	total := len(p.sb) + len(p.snap.Rows)
	end := total - p.sbOff
	if line >= end-rows && line < end {
		return
	}
	end = min(total, line+rows/2+1)
	p.sbOff = total - end
	p.scrollBy(0, rows)
	p.clearSel()
}

// readingParts are what the title adds in scrollback: the search and its
// position, the count typed for the copy key.
func (p *pane) readingParts(e *env) []titlePart {
	var parts []titlePart
	f := &p.find
	if f.re != nil {
		q := cut(oneLine(f.query), 24)
		if len(f.hits) == 0 {
			parts = append(parts, titlePart{text: e.tr.t(mPaneNotFound, q), st: e.th.dangerS, give: giveRead})
		} else {
			parts = append(parts, titlePart{text: e.tr.t(mPaneFound, q, f.cur+1, len(f.hits)), st: e.th.accentS, give: giveRead})
		}
	}
	if p.count > 0 {
		parts = append(parts, titlePart{text: e.tr.tn(mPaneCount, p.count, p.count), st: e.th.accentS, give: giveRead})
	}
	return parts
}

// segment is cells [a, b) of a row drawn in style st.
type segment struct {
	a, b int
	st   lipgloss.Style
}

// highlight draws the selection on view row y, or else the search's
// matches on it (line is the row's index in scrollback + screen): the
// current match in the accent, the others dimmer. A row with neither is
// returned as it is.
func (p *pane) highlight(e *env, row string, y, line, cols int) string {
	if a, b, ok := p.sel.span(y, cols); ok {
		a, b = wholeCells(ansi.Strip(row), a, b)
		return paint(row, []segment{{a, b, lipgloss.NewStyle().Reverse(true)}}, cols)
	}
	f := &p.find
	if f.re == nil || !p.scrolling || f.typing {
		return row
	}
	plain := ansi.Strip(row)
	ms := f.re.FindAllStringIndex(plain, -1)
	if len(ms) == 0 {
		return row
	}
	other := lipgloss.NewStyle().Foreground(e.th.muted).Reverse(true)
	cur := lipgloss.NewStyle().Foreground(e.th.accent).Reverse(true)
	segs := make([]segment, 0, len(ms))
	for _, m := range ms {
		a := ansi.StringWidth(plain[:m[0]])
		s := segment{a, a + ansi.StringWidth(plain[m[0]:m[1]]), other}
		if f.cur >= 0 && f.hits[f.cur].line == line && f.hits[f.cur].col == a {
			s.st = cur
		}
		segs = append(segs, s)
	}
	return paint(row, segs, cols)
}

// paint redraws the cells of each segment (in order, not overlapping) in
// its style over row, which keeps its own styling elsewhere: every piece of
// row carries the SGR sequences before it (ansi.Cut keeps them), and each
// segment starts from a reset, so no colour of the row bleeds into it.
func paint(row string, segs []segment, cols int) string {
	var b strings.Builder
	prev := 0
	for _, s := range segs {
		if s.a < prev || s.b <= s.a {
			continue
		}
		b.WriteString(ansi.Cut(row, prev, s.a))
		b.WriteString(sgrReset)
		b.WriteString(s.st.Render(ansi.Strip(ansi.Cut(row, s.a, s.b))))
		prev = s.b
	}
	b.WriteString(ansi.Cut(row, prev, cols))
	return fit(b.String(), cols)
}
