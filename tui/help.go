package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// helpMinColW is the narrowest help column beside another one (a key and a
// description that still read); helpMinDescW the narrowest description
// there. Narrower, the help is one column that scrolls: at 80 columns one
// column of whole descriptions reads better than two of wrapped ones.
// helpMaxKeyW bounds the key column (a longer list of keys wraps at its
// " / ").
const (
	helpMinColW  = 44
	helpMinDescW = 18
	helpMaxKeyW  = 32
	helpGap      = 2 // cells between columns
)

// helpLayout is the help overlay laid out for a screen: its columns of
// rows, how many rows show at once, and the width of one column.
type helpLayout struct {
	cols   [][]string
	rows   int // the longest column's rows
	page   int // rows shown at once
	colW   int
	keyW   int // the key column within colW
	footer []string
}

// scrolls reports whether the rows do not all show at once.
func (l *helpLayout) scrolls() bool { return l.rows > l.page }

// maxOff is the last offset that still fills the page.
func (l *helpLayout) maxOff() int { return max(l.rows-l.page, 0) }

// layoutHelp lists every binding of the key map by group (docs/design.md
// §10: every action has a key and the help overlay lists it) in as few
// columns as let it all show, or, when even the most the width allows
// cannot, in those columns scrolled. Descriptions and long key lists wrap
// in their column (at spaces, between wide characters, never before a
// closing mark), so nothing is cut at 80×24 or in Japanese; an entry
// never splits between columns and a group's title stays on its first
// entry.
func layoutHelp(e *env, maxW, maxH int) *helpLayout {
	entries := e.keys.grouped()
	inner := max(maxW-4, 20)
	keyW, descW := 0, 0
	widths := make([]int, 0, len(entries))
	for _, en := range entries {
		keyW = max(keyW, ansi.StringWidth(keysLabel(*en.b)))
		w := ansi.StringWidth(e.helpText(en.help))
		descW = max(descW, w)
		widths = append(widths, w)
	}
	keyW = min(keyW, helpMaxKeyW)
	// The key column gives way to the descriptions up to what nineteen
	// in twenty of them need: a long key list wraps before they do.
	slices.Sort(widths)
	descMost := widths[len(widths)*19/20]
	footer := wrapWords(e.tr.t(mHelpFooter), inner)
	page := max(maxH-5-len(footer), 3) // frame, title, blank, blank, footer
	var best *helpLayout
	for c := 1; ; c++ {
		cw := min((inner-(c-1)*helpGap)/c, keyW+2+descW)
		kw := min(keyW, max(cw/3, cw-2-descMost, 12))
		if c > 1 && (cw < helpMinColW || cw-kw-2 < helpMinDescW) {
			break
		}
		l := &helpLayout{page: page, colW: cw, keyW: kw}
		l.flow(helpBlocks(e, entries, kw, cw-kw-2), c)
		if best == nil || l.rows < best.rows {
			best = l
		}
		if l.rows <= page {
			break
		}
	}
	if best.scrolls() {
		best.footer = wrapWords(e.tr.t(mHelpFooterScroll), inner)
		best.page = max(maxH-5-len(best.footer), 3)
	} else {
		best.footer = footer
	}
	return best
}

// helpBlock is one entry's rows, or the blank between groups (gap).
// cont is its group's title marked as continued, for an entry that is not
// its group's first: a column that starts with it starts with that title
// (issue 35: a column began mid-section, its title in another column).
type helpBlock struct {
	lines []string
	gap   bool
	cont  string
}

// helpBlocks are the entries' rows with their groups' titles on the first
// entry of each, the key column kw and the description column dw wide.
func helpBlocks(e *env, entries []bindingEntry, kw, dw int) []helpBlock {
	var out []helpBlock
	var group msgKey = -1
	for _, en := range entries {
		var lines []string
		cont := e.th.accentS.Render(e.tr.t(en.group)) + e.th.dim.Render(e.tr.t(mHelpCont))
		if en.group != group {
			if group >= 0 {
				out = append(out, helpBlock{gap: true})
			}
			group = en.group
			lines = append(lines, e.th.accentS.Render(e.tr.t(group)))
			cont = ""
		}
		keys := wrapKeys(keyTexts(*en.b), kw)
		desc := wrapWords(e.helpText(en.help), dw)
		for i := range max(len(keys), len(desc)) {
			var k, d string
			if i < len(keys) {
				k = keys[i]
			}
			if i < len(desc) {
				d = desc[i]
			}
			lines = append(lines, e.th.text.Render(fit(k, kw))+"  "+e.th.dim.Render(d))
		}
		out = append(out, helpBlock{lines: lines, cont: cont})
	}
	return out
}

// flow puts the blocks into at most c columns as evenly as whole blocks
// allow (a gap at the top of a column is dropped).
func (l *helpLayout) flow(blocks []helpBlock, c int) {
	total, tallest := 0, 0
	for _, b := range blocks {
		total += max(len(b.lines), 1)
		tallest = max(tallest, len(b.lines))
	}
	for h := max((total+c-1)/c, tallest); ; h++ {
		cols := [][]string{nil}
		gap := false
		for _, b := range blocks {
			cur := &cols[len(cols)-1]
			if b.gap {
				gap = len(*cur) > 0
				continue
			}
			need := len(b.lines)
			if gap {
				need++
			}
			if len(*cur) > 0 && len(*cur)+need > h {
				cols = append(cols, nil)
				cur, gap = &cols[len(cols)-1], false
				if b.cont != "" {
					*cur = append(*cur, b.cont)
				}
			}
			if gap {
				*cur = append(*cur, "")
			}
			*cur = append(*cur, b.lines...)
			gap = false
		}
		if len(cols) <= c || h >= total {
			l.cols, l.rows = cols, 0
			for _, col := range cols {
				l.rows = max(l.rows, len(col))
			}
			return
		}
	}
}

// helpView draws the help overlay scrolled off rows down (↑/↓, PgUp/PgDn,
// Home/End while it is open). It returns off clamped to the rows there
// are, which the overlay keeps, so scrolling back up answers at once however
// far down the keys went.
func helpView(e *env, maxW, maxH, off int) (string, int) {
	l := layoutHelp(e, maxW, maxH)
	off = clampInt(off, 0, l.maxOff())
	inner := len(l.cols)*l.colW + (len(l.cols)-1)*helpGap
	title := e.tr.t(mHelpTitle)
	if l.scrolls() {
		// Rows shown and of how many: the last page ends at the last row.
		title += fmt.Sprintf("  %d–%d / %d", off+1, min(off+l.page, l.rows), l.rows)
	}
	inner = max(inner, ansi.StringWidth(title))
	for _, f := range l.footer {
		inner = max(inner, ansi.StringWidth(f))
	}
	inner = min(inner, max(maxW-4, 20))
	out := []string{e.th.title.Render(title), ""}
	for r := off; r < l.rows && r < off+l.page; r++ {
		var b strings.Builder
		for c, col := range l.cols {
			if c > 0 {
				b.WriteString(strings.Repeat(" ", helpGap))
			}
			s := ""
			if r < len(col) {
				s = col[r]
			}
			b.WriteString(fit(s, l.colW))
		}
		out = append(out, b.String())
	}
	out = append(out, "")
	for _, f := range l.footer {
		out = append(out, e.th.dim.Render(f))
	}
	return modalBox(e, strings.Join(out, "\n"), inner), off
}

// wrapKeys lays a binding's keys out in w cells, as many a row as fit,
// joined by " / ". A row the list goes on from ends with " /": a key
// alone on the next row read as a binding without a description (issue
// 35: `ctrl+j` and `shift+tab` at 200 columns).
func wrapKeys(keys []string, w int) []string {
	var out []string
	line := ""
	for i, k := range keys {
		more := ""
		if i < len(keys)-1 {
			more = " /" // room for the mark should this row end after k
		}
		switch {
		case line == "":
			line = k
		case ansi.StringWidth(line+" / "+k+more) <= w:
			line += " / " + k
		default:
			out = append(out, line+" /")
			line = k
		}
	}
	return append(out, line)
}

// kanjiWord reports whether r continues a run of kanji at the end of unit
// (at most helpKanjiRun long): a compound such as 作成 or 再起動 is one
// word, never split across lines (issue 35). There is no Japanese word
// segmenter on the module proxy; kanji compounds are short.
func kanjiWord(unit []rune, r rune) bool {
	if !unicode.Is(unicode.Han, r) {
		return false
	}
	n := 0
	for i := len(unit) - 1; i >= 0 && unicode.Is(unicode.Han, unit[i]); i-- {
		n++
	}
	return n > 0 && n < helpKanjiRun
}

// helpKanjiRun is the longest run of kanji kept as one word.
const helpKanjiRun = 4

// helpOpening and helpClosing are the marks a line may not end with and
// may not start with (kinsoku), so 「（Esc」 and 「る）」 stay whole; "@"
// belongs to the name after it as an opening mark does ("@名前").
const (
	helpOpening = "(（「『[【〈《@＠"
	helpClosing = ")）」』]】〉》、。，．・：；！？ー…:;,.!?"
)

// particleAfterLatin reports whether r is hiragana (a particle: が, の,
// で…) right after a word of narrow letters or digits, so the two stay on
// one line.
func particleAfterLatin(unit string, r rune) bool {
	if !unicode.In(r, unicode.Hiragana) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(unit)
	return (unicode.IsLetter(last) || unicode.IsDigit(last)) && ansi.StringWidth(string(last)) == 1
}

// unbreakable reports whether r, right after unit with no space between,
// must stay on its line: a closing mark, what follows an opening one, a
// narrow letter after a narrow one, a mark of zero width, narrow
// punctuation, a kanji compound's next kanji.
func unbreakable(unit string, r rune) bool {
	prev := []rune(unit)
	last := prev[len(prev)-1]
	wide, lastWide := ansi.StringWidth(string(r)) > 1, ansi.StringWidth(string(last)) > 1
	return strings.ContainsRune(helpClosing, r) || strings.ContainsRune(helpOpening, last) ||
		!wide && !lastWide || ansi.StringWidth(string(r)) == 0 ||
		!wide && unicode.IsPunct(r) && !strings.ContainsRune(helpOpening, r) ||
		kanjiWord(prev, r)
}

// atEnd reports whether unit ends with "@" (or "＠").
func atEnd(unit string) bool { return strings.HasSuffix(unit, "@") || strings.HasSuffix(unit, "＠") }

// wrapWords wraps plain text to w cells: at spaces, and between wide
// characters (Japanese has no spaces), never inside a word of narrow
// letters, before a closing mark or after an opening one (kinsoku), nor
// between a Latin word and the particle after it. A word wider than w
// alone is cut where it must.
func wrapWords(s string, w int) []string {
	w = max(w, 1)
	type unit struct {
		text  string
		space bool // a space before it: a break there drops it
	}
	var units []unit
	space := false
	for _, r := range s {
		if r == ' ' || r == '\n' {
			space = true
			continue
		}
		if n := len(units); n > 0 && (particleAfterLatin(units[n-1].text, r) || space && atEnd(units[n-1].text)) {
			// A Latin word keeps its particle (AI の, F9 で), and "@"
			// the word after it (@ の候補): a line that starts with
			// the particle, or ends with "@", reads as cut (issue 35).
			if space {
				units[n-1].text += " "
			}
			units[n-1].text += string(r)
			space = false
			continue
		}
		if n := len(units); n > 0 && !space && unbreakable(units[n-1].text, r) {
			units[len(units)-1].text += string(r)
		} else {
			units = append(units, unit{text: string(r), space: space})
		}
		space = false
	}
	var out []string
	line, lw := "", 0
	for _, u := range units {
		uw := ansi.StringWidth(u.text)
		sep := 0
		if u.space && lw > 0 {
			sep = 1
		}
		if lw > 0 && lw+sep+uw > w {
			out = append(out, line)
			line, lw, sep = "", 0, 0
		}
		for uw > w { // a word wider than the column
			head := ansi.Truncate(u.text, w-lw-sep, "")
			if head == "" && lw > 0 {
				out, line, lw, sep = append(out, line), "", 0, 0
				continue
			}
			if head == "" {
				head = string([]rune(u.text)[0])
			}
			out = append(out, line+strings.Repeat(" ", sep)+head)
			line, lw, sep = "", 0, 0
			u.text = strings.TrimPrefix(u.text, head)
			uw = ansi.StringWidth(u.text)
		}
		line += strings.Repeat(" ", sep) + u.text
		lw += sep + uw
	}
	if line != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}
