package emu

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Printing. A character is held (t.pend) until the next one shows it
// cannot grow into a bigger grapheme cluster ("e" then U+0301, "👩" then
// ZWJ "💻"): clusters are cut where x/ansi's FirstGraphemeCluster cuts them
// and take the width it gives (ansi.GraphemeWidth, the width the UI's
// renderer gives the same text), so the screen never depends on where the
// child's writes were split. Runes no other rune can join (printable ASCII,
// box drawing, CJK ideographs, kana, Hangul syllables, fullwidth forms) skip
// the segmenter when the next rune is one of them too.

// sid is the style id of what the pen prints now.
func (t *Terminal) sid() uint32 {
	for !t.penValid {
		t.penValid = true // a compaction inside styleID resets it: go again
		id := t.styleID(t.pen, true)
		if t.penValid {
			t.penSID = id
		}
	}
	return t.penSID
}

// blank is the style id erased cells get: the pen's background only.
func (t *Terminal) blank() uint32 {
	for !t.eraseValid {
		t.eraseValid = true
		id := t.styleID(Style{Bg: t.pen.Bg}, false)
		if t.eraseValid {
			t.eraseSID = id
		}
	}
	return t.eraseSID
}

// penChanged forgets the pen's style ids.
func (t *Terminal) penChanged() { t.penValid, t.eraseValid = false, false }

// printASCII prints a run of printable ASCII in the ground state; its last
// character is held (a combining mark may follow).
func (t *Terminal) printASCII(run []byte) {
	t.flushPending()
	head := run[:len(run)-1]
	if len(head) > 0 {
		if t.single != 0 || t.charsets[t.gl] != 0 || t.m.Insert {
			for _, b := range head {
				t.placeASCII(b)
			}
		} else {
			t.fastASCII(head)
		}
	}
	t.pend[0], t.npen, t.pendW = run[len(run)-1], 1, 1
}

// fastASCII places ASCII without charsets or insert mode a row's worth at
// a time.
func (t *Terminal) fastASCII(run []byte) {
	for len(run) > 0 {
		if t.wrapNext && t.m.AutoWrap {
			t.wrapLine()
		}
		// After the wrap: its scroll may have compacted the style table.
		sid := t.sid()
		right := t.rightEdge()
		x := t.x
		cells := t.scr.row(t.y).cells
		n := min(len(run), right-x)
		if x < t.left {
			n = min(n, t.left-x) // past the left margin the right one is the edge (place)
		}
		for i, b := range run[:n] {
			cells[x+i] = cell{ch: uint32(b), sid: sid}
		}
		repair(cells, x)
		repair(cells, x+n)
		t.touch(t.y)
		t.lastChar = run[n-1]
		run = run[n:]
		if x+n < right {
			t.x, t.wrapNext = x+n, false
			continue
		}
		t.x = right - 1
		t.wrapNext = t.m.AutoWrap
		if !t.m.AutoWrap && len(run) > 0 {
			// Without autowrap the rest overwrites the last column.
			b := run[len(run)-1]
			cells[right-1] = cell{ch: uint32(b), sid: sid}
			repair(cells, right-1)
			t.lastChar = b
			run = nil
		}
	}
}

// fastRepeat places ch, of width w (1 or 2), n times (REP) a row's worth
// at a time, as place would one by one: in insert mode a row's worth is
// one insert.
func (t *Terminal) fastRepeat(ch uint32, w, n int) {
	for n > 0 {
		if k := t.repeatRows(ch, w, n); k > 0 {
			n -= k
			continue
		}
		if t.wrapNext && t.m.AutoWrap {
			t.wrapLine()
		}
		right := t.rightEdge()
		left := 0
		if right == t.right+1 {
			left = t.left
		}
		if w > right-left || t.x+w > right && !t.m.AutoWrap {
			return // it fits nowhere, or not before the margin: dropped
		}
		if t.x+w > right {
			t.wrapLine()
			continue
		}
		x := t.x
		k := min(n, (right-x)/w)
		if x < t.left {
			k = min(k, (t.left-x+w-1)/w) // past the left margin the right one is the edge
		}
		if t.m.Insert {
			t.insertCells(k * w)
		}
		// After the wrap, the insert and the pen's style, each of which may
		// have compacted the tables (a cluster is t.lastCh, renumbered).
		sid := t.sid()
		if ch&chCluster != 0 {
			ch = t.lastCh
		}
		putRun(t.scr.row(t.y).cells, x, x+k*w, ch, w, sid)
		t.touch(t.y)
		n -= k
		if x+k*w < right {
			t.x, t.wrapNext = x+k*w, false
			continue
		}
		t.x, t.wrapNext = right-1, t.m.AutoWrap
		if !t.m.AutoWrap {
			return // the rest overwrite the last column with the same character
		}
	}
}

// repeatRows places ch in whole rows at the bottom of the scroll region,
// when the next one wraps there: m wraps, each scrolling the region a row
// and filling the new row, are one scroll of m rows and m rows filled (a
// scroll of the region for every row cost a REP m regions' worth of cells
// in left/right margins, m × its height in rows otherwise). It returns how
// many it placed, 0 when that is not where the cursor is.
func (t *Terminal) repeatRows(ch uint32, w, n int) int {
	width := t.right - t.left + 1
	perRow := width / w
	wraps := t.wrapNext || t.x+w > t.right+1
	if !t.m.AutoWrap || !wraps || t.y != t.bottom || !t.insideMargins() || perRow == 0 {
		return 0
	}
	m := min(n/perRow, t.bottom-t.top+1)
	if m < 2 {
		return 0
	}
	fullWidth := width == t.cols
	t.scr.row(t.y).wrapped = true // as wrapLine
	t.scrollUp(m)
	sid := t.sid() // after the scroll, which may have compacted the tables
	if ch&chCluster != 0 {
		ch = t.lastCh
	}
	end := t.left + perRow*w
	for y := t.bottom - m + 1; y <= t.bottom; y++ {
		putRun(t.scr.row(y).cells, t.left, end, ch, w, sid)
		t.touch(y)
		if fullWidth && y < t.bottom {
			t.scr.row(y).wrapped = true // left by a wrap; in margins the flag stays on the bottom row
		}
	}
	t.x, t.wrapNext = end, false
	if end > t.right {
		t.x, t.wrapNext = t.right, true
	}
	return m * perRow
}

// putRun writes ch (width w) in style sid over cells[from:to] and mends
// the wide characters it cut at either end.
func putRun(cells []cell, from, to int, ch uint32, w int, sid uint32) {
	for i := from; i < to; i += w {
		if w == 2 {
			cells[i] = cell{ch: ch | chWide, sid: sid}
			cells[i+1] = cell{ch: chTail, sid: sid}
		} else {
			cells[i] = cell{ch: ch, sid: sid}
		}
	}
	repair(cells, from)
	repair(cells, to)
}

// rightEdge is one past the last column the cursor may print in: the right
// margin's when the cursor is inside the left/right margins.
func (t *Terminal) rightEdge() int {
	if t.x >= t.left && t.x <= t.right {
		return t.right + 1
	}
	return t.cols
}

// wrapLine is the autowrap: the row is marked wrapped, the cursor goes to
// the next row (scrolling at the bottom margin) at the left margin.
func (t *Terminal) wrapLine() {
	t.scr.row(t.y).wrapped = true
	left := 0
	if t.x >= t.left && t.x <= t.right {
		left = t.left
	}
	t.index()
	t.x = left
}

// printRune prints a rune the parser decoded (ASCII comes through
// printASCII).
func (t *Terminal) printRune(r rune) {
	if r < 0x80 {
		if r >= 0x20 && r < 0x7f {
			t.printASCII([]byte{byte(r)})
		}
		return
	}
	var enc [utf8.UTFMax]byte
	n := utf8.EncodeRune(enc[:], r)
	if t.npen == 0 {
		t.npen = copy(t.pend[:], enc[:n])
		t.pendW, _ = plainRune(r)
		t.pendCut = true
		return
	}
	if t.pendW > 0 {
		if w, ok := plainRune(r); ok {
			t.placeBytes(t.pend[:t.npen], t.pendW)
			t.npen = copy(t.pend[:], enc[:n])
			t.pendW = w
			return
		}
	}
	if t.npen+n > maxClusterBytes {
		var both [maxClusterBytes + utf8.UTFMax]byte
		k := copy(both[:], t.pend[:t.npen])
		k += copy(both[k:], enc[:n])
		if c, _ := ansi.FirstGraphemeCluster(both[:k], ansi.GraphemeWidth); len(c) == k {
			return // it would extend a cluster already maxClusterBytes long: dropped
		}
		t.flushPending()
		t.npen = copy(t.pend[:], enc[:n])
		t.pendW, _ = plainRune(r)
		return
	}
	t.npen += copy(t.pend[t.npen:], enc[:n])
	t.pendW = 0
	t.settle()
}

// settle places the held clusters but the last, which may still grow.
func (t *Terminal) settle() {
	b := t.pend[:t.npen]
	for {
		c, w := firstCluster(b)
		if len(c) == 0 || len(c) == len(b) {
			break
		}
		t.placeBytes(c, w)
		b = b[len(c):]
	}
	t.npen = copy(t.pend[:], b)
	t.pendW = 0
	if r, n := utf8.DecodeRune(t.pend[:t.npen]); n == t.npen {
		t.pendW, _ = plainRune(r)
	}
}

// flushPending places the held cluster(s).
func (t *Terminal) flushPending() {
	if t.npen == 0 {
		return
	}
	b := t.pend[:t.npen]
	t.npen = 0
	if t.pendW > 0 {
		t.placeBytes(b, t.pendW)
		return
	}
	for len(b) > 0 {
		c, w := firstCluster(b)
		if len(c) == 0 {
			return
		}
		t.placeBytes(c, w)
		b = b[len(c):]
	}
}

// placeBytes places the cluster c of width w.
func (t *Terminal) placeBytes(c []byte, w int) {
	cut := t.pendCut
	t.pendCut = false
	if len(c) == 1 {
		t.placeASCII(c[0])
		return
	}
	t.single = 0
	r, n := utf8.DecodeRune(c)
	if cut && r >= 0x300 && !isPlain(r) && attaches(c) {
		return // as a zero-width one: drawn, it would join the character before it
	}
	ch := uint32(r)
	if n < len(c) {
		ch = t.clusterCh(c, r, min(w, 2))
	}
	if w > 0 {
		t.lastChar, t.lastCh, t.lastW = 0, ch, w
	}
	t.place(ch, w)
}

// attaches reports whether the cluster c joins whatever character comes
// before it (it starts with a combining or spacing mark, an emoji
// modifier or a ZWJ: a control, a sequence or a cursor move cut it from
// its base). Placed, it would be drawn as part of the cell before it, and
// its row would be narrower than its cells in the UI.
func attaches(c []byte) bool {
	var b [1 + maxClusterBytes]byte
	b[0] = 'a'
	n := 1 + copy(b[1:], c)
	first, _ := ansi.FirstGraphemeCluster(b[:n], ansi.GraphemeWidth)
	return len(first) > 1
}

// placeASCII places one ASCII character through the charsets.
func (t *Terminal) placeASCII(b byte) {
	cs := t.charsets[t.gl]
	if t.single != 0 {
		cs = t.charsets[t.single]
		t.single = 0
	}
	t.lastChar = b
	t.place(uint32(mapCharset(cs, b)), 1)
}

// place writes a character of width w (1 or 2) at the cursor, wrapping,
// inserting and moving the cursor as the modes say; a cluster's ch must be
// t.lastCh (see below). A zero-width cluster is
// dropped, as is a wide one where no two columns fit, or that does not fit
// before the right margin with autowrap off (tmux and x/vt drop it too).
func (t *Terminal) place(ch uint32, w int) {
	if w <= 0 {
		return
	}
	w = min(w, 2)
	if t.wrapNext && t.m.AutoWrap {
		t.wrapLine()
	}
	right := t.rightEdge()
	left := 0
	if right == t.right+1 {
		left = t.left
	}
	if w > right-left {
		return
	}
	if t.x+w > right {
		if !t.m.AutoWrap {
			return
		}
		t.wrapLine()
		right = t.rightEdge()
	}
	if t.m.Insert {
		t.insertCells(w)
	}
	sid := t.sid()
	if ch&chCluster != 0 {
		// The wrap's scroll, the insert or the pen's style may have
		// compacted the tables: a cluster being placed is t.lastCh, which
		// a compaction keeps and renumbers.
		ch = t.lastCh
	}
	cells := t.scr.row(t.y).cells
	if w == 2 {
		cells[t.x] = cell{ch: ch | chWide, sid: sid}
		cells[t.x+1] = cell{ch: chTail, sid: sid}
	} else {
		cells[t.x] = cell{ch: ch, sid: sid}
	}
	repair(cells, t.x)
	repair(cells, t.x+w)
	t.touch(t.y)
	if t.x+w >= right {
		t.x, t.wrapNext = right-1, t.m.AutoWrap
		return
	}
	t.x += w
	t.wrapNext = false
}

// firstCluster is ansi.FirstGraphemeCluster with ansi.GraphemeWidth,
// without the segmenter for a plain rune followed by another (or nothing).
func firstCluster(b []byte) ([]byte, int) {
	r, n := utf8.DecodeRune(b)
	if w, ok := plainRune(r); ok {
		if n == len(b) {
			return b, w
		}
		if r2, _ := utf8.DecodeRune(b[n:]); isPlain(r2) {
			return b[:n], w
		}
	}
	return ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
}

// plainRune reports the width of a rune that neither extends the rune
// before it nor is extended by a rune of this set after it (grapheme class
// Other: no Extend, SpacingMark, ZWJ, Prepend, jamo, regional indicator or
// emoji): printable ASCII, box drawing and block elements (1), CJK
// symbols, kana, ideographs, Hangul syllables and fullwidth forms (2).
// TestPlainRunesMatchXAnsi checks every one against x/ansi.
func plainRune(r rune) (int, bool) {
	switch {
	case r >= 0x20 && r < 0x7f, r >= 0x2500 && r <= 0x259f:
		return 1, true
	case r >= 0x3000 && r <= 0x3029, r >= 0x3041 && r <= 0x3096, r >= 0x30a1 && r <= 0x30fa,
		r >= 0x30fc && r <= 0x30fe, r >= 0x3400 && r <= 0x4dbf, r >= 0x4e00 && r <= 0x9fff,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xff01 && r <= 0xff60:
		return 2, true
	}
	return 0, false
}

func isPlain(r rune) bool {
	_, ok := plainRune(r)
	return ok
}

// mapCharset is b in charset cs: DEC special graphics ('0') and the UK set
// ('A') replace a few characters; anything else is b.
func mapCharset(cs, b byte) rune {
	switch cs {
	case '0':
		if b >= '`' && b <= '~' {
			return decSpecial[b-'`']
		}
	case 'A':
		if b == '#' {
			return '£'
		}
	}
	return rune(b)
}

// decSpecial is the DEC special graphics set for 0x60–0x7E (VT100 line
// drawing).
var decSpecial = [...]rune{'◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺',
	'⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·'}
