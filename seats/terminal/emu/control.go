package emu

import "github.com/charmbracelet/x/ansi"

// execute runs a C0 or C1 control.
func (t *Terminal) execute(b byte) {
	t.flushPending()
	switch b {
	case ansi.BS:
		t.cursorBack(1)
	case ansi.HT:
		t.tabForward(1)
	case ansi.LF, ansi.VT, ansi.FF:
		t.index()
		if t.m.LNM {
			t.carriageReturn()
		}
	case ansi.CR:
		t.carriageReturn()
	case ansi.SO:
		t.gl = 1
	case ansi.SI:
		t.gl = 0
	case ansi.IND:
		t.index()
	case ansi.NEL:
		t.index()
		t.carriageReturn()
	case ansi.HTS:
		t.tabs[t.x] = true
	case ansi.RI:
		t.reverseIndex()
	case ansi.SS2:
		t.single = 2
	case ansi.SS3:
		t.single = 3
	}
}

// esc runs an ESC sequence.
func (t *Terminal) esc(cmd ansi.Cmd) {
	t.flushPending()
	inter, final := cmd.Intermediate(), cmd.Final()
	switch inter {
	case '(', ')', '*', '+':
		g := inter - '('
		switch final {
		case '0', 'A':
			t.charsets[g] = final
		case 'B':
			t.charsets[g] = 0
		}
		return
	case '#':
		if final == '8' {
			t.alignment()
		}
		return
	case 0:
	default:
		return
	}
	switch final {
	case '7':
		t.saveCursor()
	case '8':
		t.restoreCursor()
	case 'D':
		t.index()
	case 'E':
		t.index()
		t.carriageReturn()
	case 'H':
		t.tabs[t.x] = true
	case 'M':
		t.reverseIndex()
	case 'N':
		t.single = 2
	case 'O':
		t.single = 3
	case 'n':
		t.gl = 2
	case 'o':
		t.gl = 3
	case '=':
		t.m.AppKeypad = true
	case '>':
		t.m.AppKeypad = false
	case 'c':
		t.reset()
	}
}

// index moves the cursor down a row, scrolling the region up at its bottom
// margin (IND, and LF without LNM).
func (t *Terminal) index() {
	t.wrapNext = false
	if t.y == t.bottom {
		if t.x >= t.left && t.x <= t.right {
			t.scrollUp(1)
		}
		return
	}
	if t.y < t.rows-1 {
		t.y++
	}
}

// reverseIndex moves the cursor up a row, scrolling the region down at its
// top margin (RI). The pending wrap stays, as in x/vt and tmux.
func (t *Terminal) reverseIndex() {
	if t.y == t.top {
		if t.x >= t.left && t.x <= t.right {
			t.scrollDown(1)
		}
		return
	}
	if t.y > 0 {
		t.y--
	}
}

// carriageReturn moves the cursor to the left margin, or to column 0 when
// it is left of it.
func (t *Terminal) carriageReturn() {
	t.wrapNext = false
	if t.x >= t.left {
		t.x = t.left
	} else {
		t.x = 0
	}
}

// tabForward moves to the n-th next tab stop, at most to the right margin
// (or the last column); the pending wrap stays.
func (t *Terminal) tabForward(n int) {
	right := t.cols - 1
	if t.x <= t.right {
		right = t.right
	}
	for ; n > 0 && t.x < right; n-- {
		x := t.x + 1
		for x < right && !t.tabs[x] {
			x++
		}
		t.x = x
	}
}

// tabBack moves to the n-th previous tab stop, at least to the left margin
// in origin mode (else column 0).
func (t *Terminal) tabBack(n int) {
	left := 0
	if t.m.Origin || t.x >= t.left {
		left = t.left
	}
	for ; n > 0 && t.x > left; n-- {
		x := t.x - 1
		for x > left && !t.tabs[x] {
			x--
		}
		t.x = x
	}
	t.wrapNext = false
}

// screenIndex is 0 for the primary screen, 1 for the alternate one.
func (t *Terminal) screenIndex() int {
	if t.scr == &t.alt {
		return 1
	}
	return 0
}

// saveCursor is DECSC.
func (t *Terminal) saveCursor() {
	t.saved[t.screenIndex()] = savedCursor{x: t.x, y: t.y, wrapNext: t.wrapNext, pen: t.pen,
		link: t.penLink, origin: t.m.Origin, charsets: t.charsets, gl: t.gl}
}

// restoreCursor is DECRC: without a saved cursor it goes home with the
// default pen and charsets.
func (t *Terminal) restoreCursor() {
	sv := t.saved[t.screenIndex()]
	t.x, t.y = min(sv.x, t.cols-1), min(sv.y, t.rows-1)
	t.wrapNext = sv.wrapNext && t.x == sv.x
	t.pen, t.penLink = sv.pen, sv.link
	t.penChanged()
	t.m.Origin = sv.origin
	t.charsets, t.gl = sv.charsets, sv.gl
}

// altMode switches screens for ?47, ?1047 and ?1049, and saves or restores
// the cursor for ?1048 and ?1049. As in tmux, the alternate screen is blank
// each time it is entered, the cursor keeps its place, and a switch to the
// screen already shown does nothing.
func (t *Terminal) altMode(n int, on bool) {
	if n == 1048 {
		if on {
			t.saveCursor()
		} else {
			t.restoreCursor()
		}
		return
	}
	if on == (t.scr == &t.alt) {
		return
	}
	t.flushPending()
	if on {
		if n == 1049 {
			t.saveCursor()
		}
		if t.alt.lines == nil || len(t.alt.lines) != t.rows {
			t.alt = newScreen(t.cols, t.rows)
		} else {
			fillScreen(&t.alt, 0)
			t.alt.top = 0
		}
		t.scr = &t.alt
	} else {
		t.scr = &t.pri
		if n == 1049 {
			t.restoreCursor()
		}
	}
	t.allDirty = true
}

// alignment is DECALN: the screen filled with E, margins reset, cursor home.
func (t *Terminal) alignment() {
	t.resetMargins()
	for y := range t.rows {
		cells := t.scr.row(y).cells
		for x := range cells {
			cells[x] = cell{ch: 'E'}
		}
	}
	t.allDirty = true
	t.x, t.y, t.wrapNext = 0, 0, false
}
