package emu

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cellAt is screen cell (x, y).
func (t *Terminal) cellAt(x, y int) (cell, bool) {
	if x < 0 || y < 0 || x >= t.cols || y >= t.rows {
		return cell{}, false
	}
	return t.scr.row(y).cells[x], true
}

// StyleAt is the style of cell (x, y); the zero Style outside the screen.
func (t *Terminal) StyleAt(x, y int) Style {
	c, ok := t.cellAt(x, y)
	if !ok {
		return Style{}
	}
	return t.tab.styles[c.sid].st
}

// PlainRow is screen row y as text: each cell's grapheme cluster (a wide
// character once), blank cells as spaces, trailing spaces trimmed.
func (t *Terminal) PlainRow(y int) string {
	if y < 0 || y >= t.rows {
		return ""
	}
	return t.plain(t.scr.row(y).cells)
}

// ScrollbackRow is scrollback row i (0 the oldest) as PlainRow gives it.
func (t *Terminal) ScrollbackRow(i int) string {
	if i < 0 || i >= t.sb.len() {
		return ""
	}
	return t.plain(t.sb.at(i).cells)
}

func (t *Terminal) plain(cells []cell) string {
	var b strings.Builder
	b.Grow(len(cells))
	for _, c := range cells {
		b.Write(t.appendCh(nil, c))
	}
	return strings.TrimRight(b.String(), " ")
}

// appendCh appends what cell c shows: nothing for the right half of a wide
// character, a space for a blank cell.
func (t *Terminal) appendCh(dst []byte, c cell) []byte {
	switch {
	case c.tail():
		return dst
	case c.ch == 0:
		return append(dst, ' ')
	case c.ch&chCluster != 0:
		return append(dst, t.tab.clusters[c.ch&chValue]...)
	}
	r := rune(c.ch & chValue)
	if r < utf8.RuneSelf {
		return append(dst, byte(r))
	}
	return utf8.AppendRune(dst, r)
}

// RenderRow appends screen row y as a pane draws it: every cell, padded to
// the width, with SGR sequences where the style changes and OSC 8 around
// links, ending in the default style with no link open.
func (t *Terminal) RenderRow(y int, dst []byte) []byte {
	if y < 0 || y >= t.rows {
		return dst
	}
	return t.render(t.scr.row(y).cells, dst)
}

// RenderScrollbackRow appends scrollback row i (0 the oldest) as RenderRow
// renders a screen row, without its trailing blank default-style cells.
func (t *Terminal) RenderScrollbackRow(i int, dst []byte) []byte {
	if i < 0 || i >= t.sb.len() {
		return dst
	}
	cells := t.sb.at(i).cells
	n := len(cells)
	for n > 0 && (cells[n-1].ch == 0 || cells[n-1].ch == ' ') && t.tab.styles[cells[n-1].sid] == (styleKey{}) {
		n--
	}
	return t.render(cells[:n], dst)
}

// maxRowLinks bounds the bytes of links one rendered row opens (four links
// of the longest, or dozens of usual ones): a child alternating two long
// links cell by cell would make each cell of the screen and the
// scrollback cost 2 KB at every render. Past it the rest of the row is
// drawn unlinked.
const maxRowLinks = 8 << 10

func (t *Terminal) render(cells []cell, dst []byte) []byte {
	var sid, link uint32
	var prev cell      // the last cell drawn
	prevJoins := false // and it may join what follows (joinsOn)
	spent := 0
	for _, c := range cells {
		if c.tail() {
			continue
		}
		if c.sid != sid {
			k := t.tab.styles[c.sid]
			if l := k.link; l != link && (l == 0 || spent+len(t.tab.links[l]) <= maxRowLinks) {
				dst = t.appendLink(dst, l)
				link = l
				spent += len(t.tab.links[l])
			} else if l != link && link != 0 {
				dst = t.appendLink(dst, 0) // over the budget: unlinked
				link = 0
			}
			if t.tab.styles[sid].st != k.st {
				dst = appendSGR(dst, k.st)
			}
			sid = c.sid
		}
		if prevJoins && t.joins(prev, c) {
			dst = append(dst, "\u200c"...) // ZWNJ: each cell its own cluster
		}
		dst = t.appendCh(dst, c)
		prev, prevJoins = c, false
		switch {
		case c.ch < 0x600: // ASCII, Latin and the like: nothing joins them
		case c.ch&chCluster != 0:
			prevJoins = strings.ContainsFunc(t.tab.clusters[c.ch&chValue], joinsOn)
		default:
			prevJoins = joinsOn(rune(c.ch & chValue))
		}
	}
	if t.tab.styles[sid].st != (Style{}) {
		dst = append(dst, "\x1b[m"...)
	}
	if link != 0 {
		dst = t.appendLink(dst, 0)
	}
	return dst
}

// joins reports whether cell c, drawn after cell prev, would join it into
// one grapheme cluster: a cursor move or a sequence put them side by side
// (half a ZWJ sequence and an emoji, two regional indicators, Hangul
// jamo, a prepended mark and a letter), and the row would be drawn
// narrower than its cells. A ZWNJ between them keeps them apart (it ends
// prev's cluster; what joins a ZWNJ is never placed, attaches).
func (t *Terminal) joins(prev, c cell) bool {
	if prev.ch&chCluster == 0 && isPlain(rune(prev.ch&chValue)) &&
		(c.ch == 0 || c.ch&chCluster == 0 && isPlain(rune(c.ch&chValue))) {
		return false // Hangul syllables side by side
	}
	t.joinBuf = t.appendCh(t.joinBuf[:0], prev)
	n := len(t.joinBuf)
	t.joinBuf = t.appendCh(t.joinBuf, c)
	first, _ := ansi.FirstGraphemeCluster(t.joinBuf, ansi.GraphemeWidth)
	return len(first) > n
}

// joinsOn reports whether a cluster holding r may join what follows it
// (UAX #29 GB6–GB9c, GB11–GB13): Hangul jamo and syllables, prepended
// marks, Indic conjuncts, a ZWJ, regional indicators. Emoji, Latin, CJK
// and the like never do; a render asks the segmenter only about these.
func joinsOn(r rune) bool {
	return r >= 0x600 && r < 0x2000 || r == 0x200d || r >= 0xa960 && r <= 0xd7ff ||
		r >= 0x11000 && r < 0x12000 || r >= 0x1f1e6 && r <= 0x1f1ff
}

// appendLink appends the OSC 8 that starts link id (0: ends the link).
func (t *Terminal) appendLink(dst []byte, id uint32) []byte {
	dst = append(dst, "\x1b]8;"...)
	if id == 0 {
		dst = append(dst, ';')
	} else {
		dst = append(dst, t.tab.links[id]...)
	}
	return append(dst, "\x1b\\"...)
}
