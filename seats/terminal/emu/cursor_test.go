package emu

import "testing"

// Cursor movement (ECMA-48 / VT100): relative moves stop at the screen's
// edges, and at a margin when they start inside it (xterm, tmux).
func TestCursorMoves(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		x, y int
	}{
		{"CUP", "\x1b[3;4H", 3, 2},
		{"CUP defaults", "\x1b[3;4H\x1b[H", 0, 0},
		{"CUP clamps", "\x1b[99;99H", 9, 4},
		{"CUP missing row", "\x1b[;5H", 4, 0},
		{"HVP", "\x1b[2;2f", 1, 1},
		{"CUU stops at row 0", "\x1b[3;1H\x1b[9A", 0, 0},
		{"CUD stops at the last row", "\x1b[9B", 0, 4},
		{"CUF stops at the last column", "\x1b[99C", 9, 0},
		{"CUB stops at column 0", "\x1b[1;5H\x1b[99D", 0, 0},
		{"CUF 0 is 1", "\x1b[0C", 1, 0},
		{"CNL", "\x1b[1;5H\x1b[2E", 0, 2},
		{"CPL", "\x1b[4;5H\x1b[2F", 0, 1},
		{"CHA", "\x1b[2;2H\x1b[7G", 6, 1},
		{"HPA", "\x1b[2;2H\x1b[7`", 6, 1},
		{"HPR", "\x1b[2;2H\x1b[3a", 4, 1},
		{"VPA", "\x1b[2;2H\x1b[4d", 1, 3},
		{"VPR", "\x1b[2;2H\x1b[2e", 1, 3},
		{"BS", "ab\b", 1, 0},
		{"BS at column 0", "\b", 0, 0},
		{"CR", "abc\r", 0, 0},
		{"LF keeps the column", "abc\n", 3, 1},
		{"LNM: LF returns too", "\x1b[20habc\n", 0, 1},
		{"NEL", "abc\x1bE", 0, 1},
		{"IND", "abc\x1bD", 3, 1},
		{"RI", "\x1b[3;3H\x1bM", 2, 1},
		// The scroll region is rows 2–4: a move starting inside stops at
		// its margins, one starting outside at the screen's edges.
		{"CUU stops at the top margin", "\x1b[2;4r\x1b[4;1H\x1b[9A", 0, 1},
		{"CUU from below the region stops at the top margin", "\x1b[2;4r\x1b[5;1H\x1b[9A", 0, 1},
		{"CUU above the region", "\x1b[3;4r\x1b[2;1H\x1b[9A", 0, 0},
		{"CUD stops at the bottom margin", "\x1b[2;4r\x1b[1;1H\x1b[9B", 0, 3},
		{"CUD below the region", "\x1b[2;4r\x1b[5;1H\x1b[9B", 0, 4},
		// Origin mode: CUP counts from the region and stays inside it.
		{"DECOM CUP", "\x1b[2;4r\x1b[?6h\x1b[2;3H", 2, 2},
		{"DECOM CUP clamps", "\x1b[2;4r\x1b[?6h\x1b[9;1H", 0, 3},
		{"DECOM homes", "\x1b[2;4r\x1b[5;5H\x1b[?6h", 0, 1},
		{"DECOM reset homes", "\x1b[2;4r\x1b[?6h\x1b[?6l", 0, 0},
		{"DECOM VPA", "\x1b[2;4r\x1b[?6h\x1b[2d", 0, 2},
	}
	for _, c := range cases {
		tm := newFixture(10, 5).feed(c.in)
		if x, y, _ := tm.Cursor(); x != c.x || y != c.y {
			t.Errorf("%s (%q): cursor %d,%d, want %d,%d", c.name, c.in, x, y, c.x, c.y)
		}
	}
}

// Tab stops: every eighth column, set with HTS, cleared with TBC, moved
// over with HT, CHT and CBT; HT stops at the last column.
func TestTabs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		x    int
	}{
		{"HT", "\t", 8},
		{"HT twice", "\t\t", 16},
		{"HT stops at the last column", "\t\t\t\t", 19},
		{"CHT", "\x1b[2I", 16},
		{"CBT", "\x1b[1;19H\x1b[Z", 16},
		{"CBT 2", "\x1b[1;19H\x1b[2Z", 8},
		{"CBT stops at 0", "\x1b[1;5H\x1b[3Z", 0},
		{"HTS", "\x1b[1;4H\x1bH\r\t", 3},
		{"C1 HTS", "\x1b[1;4H\x88\r\t", 3},
		{"TBC 0", "\t\x1b[g\r\t", 16},
		{"TBC 3", "\x1b[3g\t", 19},
		{"DECST8C", "\x1b[3g\x1b[?5W\t", 8},
		{"HT keeps a pending wrap", "01234567890123456789\t", 19},
	}
	for _, c := range cases {
		tm := newFixture(20, 3).feed(c.in)
		if x, _, _ := tm.Cursor(); x != c.x {
			t.Errorf("%s (%q): cursor x %d, want %d", c.name, c.in, x, c.x)
		}
	}
	tm := newFixture(20, 3).feed("01234567890123456789\tX")
	tm.check(t, 1, 1, "01234567890123456789", "X", "")
}

// DECSC/DECRC save and restore the cursor, the pen and the charsets; SCOSC
// and SCORC (CSI s, CSI u) the same while DECLRMM is off.
func TestSaveRestoreCursor(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed("\x1b[2;3H\x1b[31m\x1b(0\x1b7\x1b[m\x1b(B\x1b[H\x1b8q")
	tm.check(t, 3, 1, "", "  ─", "")
	if st := tm.StyleAt(2, 1); st.Fg != IndexedColor(1) {
		t.Errorf("restored pen %+v", st)
	}
	tm = newFixture(10, 3).feed("\x1b[2;3H\x1b[s\x1b[H\x1b[uX")
	tm.check(t, 3, 1, "", "  X", "")
	// No saved cursor: home.
	tm = newFixture(10, 3).feed("\x1b[2;3H\x1b8X")
	tm.check(t, 1, 0, "X", "", "")
}

// DECSTR resets modes, margins and pen but keeps the screen and cursor;
// RIS resets everything but the scrollback.
func TestResets(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed("ab\x1b[4h\x1b[?7l\x1b[?25l\x1b[2;3r\x1b[31m\x1b[2;2H\x1b[!pX")
	tm.check(t, 2, 1, "ab", " X", "")
	m := tm.Modes()
	if m.Insert || !m.AutoWrap || !m.CursorVisible || tm.StyleAt(1, 1) != (Style{}) {
		t.Errorf("after DECSTR: %+v, style %+v", m, tm.StyleAt(1, 1))
	}
	tm.feed("\x1b[3;1H\n") // the region is the whole screen again: this scrolls
	tm.check(t, 0, 2, " X", "", "")
	tm = newFixture(10, 3).feed("1\r\n2\r\n3\r\n4\x1b]2;t\x07\x1b[?2004h\x1bc")
	tm.check(t, 0, 0, "", "", "")
	if tm.ScrollbackLen() != 1 || tm.Title() != "t" || tm.Modes().BracketedPaste {
		t.Errorf("after RIS: scrollback %d, title %q, modes %+v", tm.ScrollbackLen(), tm.Title(), tm.Modes())
	}
}
