package emu

import (
	"github.com/charmbracelet/x/ansi"
)

// maxCount bounds a count parameter: nothing on a 32767-cell row or
// screen needs more, and a huge count must not cost more than that.
const maxCount = maxSize

// param is parameter i or def when missing or 0, clamped to 1…maxCount.
func param(params ansi.Params, i, def int) int {
	n, _, _ := params.Param(i, def)
	if n <= 0 {
		n = def
	}
	return min(n, maxCount)
}

// csi runs a CSI sequence.
func (t *Terminal) csi(cmd ansi.Cmd, params ansi.Params) {
	t.flushPending()
	prefix, inter := cmd.Prefix(), cmd.Intermediate()
	switch {
	case prefix == 0 && inter == 0:
		if !t.csiMove(cmd.Final(), params) {
			t.csiPlain(cmd.Final(), params)
		}
	case prefix == '?' && inter == 0:
		t.csiPrivate(cmd.Final(), params)
	case prefix == '>' && inter == 0 && cmd.Final() == 'c':
		if n, _, _ := params.Param(0, 0); n == 0 {
			t.sendReply(ansi.SecondaryDeviceAttributes(1, 10, 0)) // x/vt's: a VT220, version 1.0
		}
	case inter == '$' && cmd.Final() == 'p':
		t.requestMode(params, prefix == '?')
	case prefix == 0 && inter == ' ' && cmd.Final() == 'q':
		if n, _, _ := params.Param(0, 0); n >= 0 && n <= 6 {
			t.cursorSty = n
		}
	case prefix == 0 && inter == '!' && cmd.Final() == 'p':
		t.softReset()
	}
}

// csiMove runs the cursor movements; false for any other final byte.
func (t *Terminal) csiMove(final byte, params ansi.Params) bool {
	n := param(params, 0, 1)
	switch final {
	case 'A':
		t.cursorUp(n)
	case 'B', 'e':
		t.cursorDown(n)
	case 'C', 'a':
		t.cursorForward(n)
	case 'D':
		t.cursorBack(n)
	case 'E':
		t.cursorDown(n)
		t.carriageReturn()
	case 'F':
		t.cursorUp(n)
		t.carriageReturn()
	case 'G', '`':
		t.moveTo(n-1, t.y-t.originTop())
	case 'H', 'f':
		t.moveTo(param(params, 1, 1)-1, n-1)
	case 'd':
		t.moveTo(t.x-t.originLeft(), n-1)
	case 'I':
		t.tabForward(n)
	case 'Z':
		t.tabBack(n)
	default:
		return false
	}
	return true
}

// csiPlain runs the CSI sequences without prefix or intermediate that do
// not only move the cursor.
func (t *Terminal) csiPlain(final byte, params ansi.Params) {
	n := param(params, 0, 1)
	switch final {
	case '@':
		t.insertCells(n)
	case 'J':
		t.eraseDisplay(param0(params))
	case 'K':
		t.eraseLine(param0(params))
	case 'L':
		t.insertLines(n)
	case 'M':
		t.deleteLines(n)
	case 'P':
		t.deleteCells(n)
	case 'S':
		t.scrollUp(n)
	case 'T':
		t.scrollDown(n)
	case 'X':
		t.eraseChars(n)
	case 'b':
		t.repeat(params)
	case 'c':
		if param0(params) == 0 {
			t.sendReply(ansi.PrimaryDeviceAttributes(62, 1, 6, 22)) // x/vt's: VT220, 132 columns, selective erase, colour
		}
	case 'g':
		switch param0(params) {
		case 0:
			t.tabs[t.x] = false
		case 3:
			clear(t.tabs)
		}
	case 'h', 'l':
		t.setModes(params, final == 'h', false)
	case 'm':
		old := t.pen
		sgr(&t.pen, params)
		if t.pen != old {
			t.penValid = false
			t.eraseValid = t.eraseValid && t.pen.Bg == old.Bg
		}
	case 'n':
		t.statusReport(param0(params), false)
	case 'r':
		t.setTopBottom(params)
	case 's':
		if t.m.LeftRightMargins {
			t.setLeftRight(params)
		} else {
			t.saveCursor() // SCOSC
		}
	case 'u':
		if len(params) == 0 {
			t.restoreCursor() // SCORC
		}
	}
}

// csiPrivate runs the CSI ? sequences.
func (t *Terminal) csiPrivate(final byte, params ansi.Params) {
	switch final {
	case 'h', 'l':
		t.setModes(params, final == 'h', true)
	case 'n':
		t.statusReport(param0(params), true)
	case 'W':
		if param0(params) == 5 {
			t.resetTabs() // DECST8C
		}
	}
}

// param0 is the first parameter, 0 when missing.
func param0(params ansi.Params) int {
	n, _, _ := params.Param(0, 0)
	return n
}

// statusReport answers DSR 5 and 6 and DECXCPR (?6). The cursor report is
// relative to the scroll region's origin in origin mode (as xterm and tmux
// report it).
func (t *Terminal) statusReport(n int, dec bool) {
	switch {
	case n == 5 && !dec:
		// x/vt answers "CSI ? 0 n"; the VT100's answer, and xterm's and
		// tmux's, has no "?".
		t.sendReply("\x1b[0n")
	case n == 6 && !dec:
		t.sendReply(ansi.CursorPositionReport(t.y-t.originTop()+1, t.x-t.originLeft()+1))
	case n == 6 && dec:
		t.sendReply(ansi.ExtendedCursorPositionReport(t.y-t.originTop()+1, t.x-t.originLeft()+1, 0))
	}
}

// originTop and originLeft are where row and column 1 are: the margins in
// origin mode, else the screen's corner.
func (t *Terminal) originTop() int {
	if t.m.Origin {
		return t.top
	}
	return 0
}

func (t *Terminal) originLeft() int {
	if t.m.Origin {
		return t.left
	}
	return 0
}

// moveTo puts the cursor at column x, row y counted from the origin,
// clamped to the margins in origin mode and to the screen otherwise.
func (t *Terminal) moveTo(x, y int) {
	if t.m.Origin {
		t.x = min(max(t.left+x, t.left), t.right)
		t.y = min(max(t.top+y, t.top), t.bottom)
	} else {
		t.x = min(max(x, 0), t.cols-1)
		t.y = min(max(y, 0), t.rows-1)
	}
	t.wrapNext = false
}

// home is CUP with no parameters.
func (t *Terminal) home() { t.moveTo(0, 0) }

// cursorUp stops at the top margin when it starts at or below it.
func (t *Terminal) cursorUp(n int) {
	floor := 0
	if t.y >= t.top {
		floor = t.top
	}
	t.y = max(t.y-n, floor)
	t.wrapNext = false
}

// cursorDown stops at the bottom margin when it starts at or above it.
func (t *Terminal) cursorDown(n int) {
	ceil := t.rows - 1
	if t.y <= t.bottom {
		ceil = t.bottom
	}
	t.y = min(t.y+n, ceil)
	t.wrapNext = false
}

func (t *Terminal) cursorForward(n int) {
	ceil := t.cols - 1
	if t.x <= t.right {
		ceil = t.right
	}
	t.x = min(t.x+n, ceil)
	t.wrapNext = false
}

func (t *Terminal) cursorBack(n int) {
	floor := 0
	if t.x >= t.left {
		floor = t.left
	}
	t.x = max(t.x-n, floor)
	t.wrapNext = false
}

// setTopBottom is DECSTBM. A bottom margin past the screen is the last row
// and a top past it the last row too (as tmux clamps them); a region of
// fewer than two rows is refused. The cursor goes home.
func (t *Terminal) setTopBottom(params ansi.Params) {
	top := min(param(params, 0, 1), t.rows) - 1
	bottom := min(param(params, 1, t.rows), t.rows) - 1
	if top >= bottom {
		return
	}
	t.top, t.bottom = top, bottom
	t.home()
}

// setLeftRight is DECSLRM, clamped like DECSTBM.
func (t *Terminal) setLeftRight(params ansi.Params) {
	left := min(param(params, 0, 1), t.cols) - 1
	right := min(param(params, 1, t.cols), t.cols) - 1
	if left >= right {
		return
	}
	t.left, t.right = left, right
	t.home()
}

// repeat is REP: the last character printed, n times (xterm, tmux; x/vt
// repeats only an ASCII one), a row's worth at a time (fastRepeat). Once
// the cursor has wrapped into the margins every row takes perRow of them,
// and once every row it can reach was written (or, where wide characters
// leave a column, scrolled off) the screen repeats with that period: a
// count past that is cut to one with the same remainder. The screen ends
// the same, the scrollback keeps fewer copies of the repeated row, and a
// stray "CSI 999999999 b" costs about a screenful (two, for wide
// characters in an odd width). Cut by the screen's width, the count left
// the cursor elsewhere in narrower margins; one by one in insert mode, it
// cost a row's shift per character.
func (t *Terminal) repeat(params ansi.Params) {
	if t.lastChar == 0 && t.lastW == 0 {
		return
	}
	n, _, _ := params.Param(0, 1)
	n = max(n, 1)
	ch, w := t.lastCh, min(t.lastW, 2)
	if c := t.lastChar; c != 0 {
		if t.single != 0 {
			t.placeASCII(c) // a single shift is for the first one only
			n--
		}
		ch, w = uint32(mapCharset(t.charsets[t.gl], c)), 1
	}
	perRow := max((t.right-t.left+1)/w, 1)
	rows := t.rows + 3
	if perRow*w < t.right-t.left+1 {
		// A column wide characters leave: the old text there goes only
		// once its row scrolled off.
		rows += t.rows
	}
	limit := perRow * rows
	switch { // from outside the margins, what it takes to wrap into them
	case t.x < t.left:
		limit += (t.right-t.x)/w + 1 // to the right margin
	case t.x > t.right:
		limit += (t.cols-t.x)/w + (t.right+1)/w + 2 // to the screen's edge, then a row
	}
	if n > limit {
		n = limit + (n-limit)%perRow
	}
	t.fastRepeat(ch, w, n)
}

// softReset is DECSTR: modes, margins, pen, charsets and saved cursor back
// to their defaults; the screen and the cursor's place stay.
func (t *Terminal) softReset() {
	t.m.Insert, t.m.Origin, t.m.AutoWrap, t.m.CursorVisible = false, false, true, true
	t.m.AppCursorKeys, t.m.AppKeypad = false, false
	t.resetMargins()
	t.pen, t.penLink = Style{}, 0
	t.penChanged()
	t.charsets, t.gl, t.single = [4]byte{}, 0, 0
	t.saved = [2]savedCursor{}
	t.wrapNext = false
}
