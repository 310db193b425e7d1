package emu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// rows3 is "abcdefghij" / "klmnopqrst" / "uvwxyz0123" with the cursor on
// row 2, column 4 (the "m"... of the middle row: "o").
const rows3 = "abcdefghij\r\nklmnopqrst\r\nuvwxyz0123\x1b[2;5H"

func TestErase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"ED 0", "\x1b[J", []string{"abcdefghij", "klmn", ""}},
		{"ED 1", "\x1b[1J", []string{"", "     pqrst", "uvwxyz0123"}},
		{"ED 2", "\x1b[2J", []string{"", "", ""}},
		{"EL 0", "\x1b[K", []string{"abcdefghij", "klmn", "uvwxyz0123"}},
		{"EL 1", "\x1b[1K", []string{"abcdefghij", "     pqrst", "uvwxyz0123"}},
		{"EL 2", "\x1b[2K", []string{"abcdefghij", "", "uvwxyz0123"}},
		{"ECH", "\x1b[3X", []string{"abcdefghij", "klmn   rst", "uvwxyz0123"}},
		{"ECH past the row", "\x1b[99X", []string{"abcdefghij", "klmn", "uvwxyz0123"}},
		{"ICH", "\x1b[2@", []string{"abcdefghij", "klmn  opqr", "uvwxyz0123"}},
		{"ICH past the row", "\x1b[99@", []string{"abcdefghij", "klmn", "uvwxyz0123"}},
		{"DCH", "\x1b[2P", []string{"abcdefghij", "klmnqrst", "uvwxyz0123"}},
		{"DCH past the row", "\x1b[99P", []string{"abcdefghij", "klmn", "uvwxyz0123"}},
		{"IL", "\x1b[L", []string{"abcdefghij", "", "klmnopqrst"}},
		{"DL", "\x1b[M", []string{"abcdefghij", "uvwxyz0123", ""}},
		{"SU", "\x1b[S", []string{"klmnopqrst", "uvwxyz0123", ""}},
		{"SD", "\x1b[T", []string{"", "abcdefghij", "klmnopqrst"}},
		{"SD past the screen", "\x1b[99T", []string{"", "", ""}},
		{"insert mode", "\x1b[4hXY", []string{"abcdefghij", "klmnXYopqr", "uvwxyz0123"}},
		{"replace mode", "\x1b[4h\x1b[4lXY", []string{"abcdefghij", "klmnXYqrst", "uvwxyz0123"}},
		{"DECALN", "\x1b#8", []string{"EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"}},
	}
	for _, c := range cases {
		tm := newFixture(10, 3).feed(rows3 + c.in)
		if got := tm.rows(); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, show(got), show(c.want))
		}
	}
	// IL and DL move the cursor to the left margin.
	tm := newFixture(10, 3).feed(rows3 + "\x1b[L")
	if x, y, _ := tm.Cursor(); x != 0 || y != 1 {
		t.Errorf("IL: cursor %d,%d", x, y)
	}
}

// Erased and scrolled-in cells take the pen's background and nothing else.
func TestEraseUsesBackground(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed(rows3 + "\x1b[1;31;44m\x1b[K\x1b[3;1H\n")
	want := Style{Bg: IndexedColor(4)}
	if st := tm.StyleAt(6, 0); st != want {
		t.Errorf("erased cell: %+v, want %+v", st, want)
	}
	if st := tm.StyleAt(0, 2); st != want {
		t.Errorf("scrolled-in cell: %+v, want %+v", st, want)
	}
	if st := tm.StyleAt(0, 0); st != (Style{}) {
		t.Errorf("untouched cell: %+v", st)
	}
}

// A scroll region scrolls inside itself; on the primary screen the rows it
// scrolls off go to the scrollback (tmux 3.3: from any region), on the
// alternate screen nowhere.
func TestScrollRegion(t *testing.T) {
	t.Parallel()
	tm := newFixture(5, 5).feed("1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[4;1H\nx")
	tm.check(t, 1, 3, "1", "3", "4", "x", "5")
	if got := tm.scrollback(); !slices.Equal(got, []string{"2"}) {
		t.Errorf("scrollback %q", got)
	}
	// RI at the top margin scrolls the region down.
	tm = newFixture(5, 5).feed("1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[2;1H\x1bMx")
	tm.check(t, 1, 1, "1", "x", "2", "3", "5")
	// Below the region a line feed moves down to the last row, no scroll.
	tm = newFixture(5, 5).feed("\x1b[1;2r\x1b[4;1H\n\n\nx")
	tm.check(t, 1, 4, "", "", "", "", "x")
	// Delete lines never feed the scrollback.
	tm = newFixture(5, 3).feed("1\r\n2\r\n3\x1b[H\x1b[M")
	tm.check(t, 0, 0, "2", "3", "")
	if tm.ScrollbackLen() != 0 {
		t.Errorf("DL kept %q", tm.scrollback())
	}
	// The alternate screen keeps no scrollback.
	tm = newFixture(5, 2).feed("\x1b[?1049h1\r\n2\r\n3")
	if tm.ScrollbackLen() != 0 {
		t.Errorf("alternate screen kept %q", tm.scrollback())
	}
}

// A margin past the screen is clamped to it (tmux, xterm): x/vt indexed
// past its buffer and panicked (docs/dependencies.md §9.8).
func TestMarginsPastTheScreen(t *testing.T) {
	t.Parallel()
	tm := newFixture(5, 4).feed("1\r\n2\r\n3\r\n4\x1b[1;99r\x1b[4;1H\nx")
	tm.check(t, 1, 3, "2", "3", "4", "x")
	tm = newFixture(5, 4).feed("\x1b[99;99r\x1bM\x1b[?69h\x1b[2;99s\x1b[1;5H\x1b[@\x1b[3S\x1b[3T\x1b[L\x1b[M\x1bD")
	tm.feed("\x1b[99;1r\x1b[50;60s\x1b[3;2r") // refused: no region of fewer than 2 rows
	// A region of one row is refused.
	tm = newFixture(5, 4).feed("\x1b[2;2r\x1b[2;1H\nx")
	tm.check(t, 1, 2, "", "", "x", "")
}

// DECLRMM and DECSLRM: scrolls, inserts and deletes stay inside the
// left/right margins; the autowrap wraps at the right margin.
func TestLeftRightMargins(t *testing.T) {
	t.Parallel()
	base := "abcdefghij\r\nklmnopqrst\r\nuvwxyz0123"
	tm := newFixture(10, 3).feed(base + "\x1b[?69h\x1b[3;6s\x1b[3;3H\n")
	tm.check(t, 2, 2, "abmnopghij", "klwxyzqrst", "uv    0123")
	// Outside the margins a line feed at the bottom does nothing.
	tm = newFixture(10, 3).feed(base + "\x1b[?69h\x1b[3;6s\x1b[3;1H\n")
	tm.check(t, 0, 2, "abcdefghij", "klmnopqrst", "uvwxyz0123")
	if tm.ScrollbackLen() != 0 {
		t.Errorf("a scroll inside margins kept %q", tm.scrollback())
	}
	tm = newFixture(10, 3).feed(base + "\x1b[?69h\x1b[3;6s\x1b[2;4H\x1b[2@")
	tm.check(t, 3, 1, "abcdefghij", "klm  nqrst", "uvwxyz0123")
	tm = newFixture(10, 3).feed(base + "\x1b[?69h\x1b[3;6s\x1b[2;4H\x1b[2P")
	tm.check(t, 3, 1, "abcdefghij", "klmp  qrst", "uvwxyz0123")
	tm = newFixture(10, 3).feed("\x1b[?69h\x1b[3;6s\x1b[3CABCDEF")
	tm.check(t, 5, 1, "   ABC", "  DEF", "")
	// Resetting DECLRMM drops the margins.
	tm = newFixture(10, 3).feed("\x1b[?69h\x1b[3;6s\x1b[?69l\x1b[1;1HABCDEFGH")
	tm.check(t, 8, 0, "ABCDEFGH", "", "")
	// Without DECLRMM, CSI s saves the cursor.
	tm = newFixture(10, 3).feed("\x1b[2;2H\x1b[3;6s\x1b[H\x1b[uX")
	tm.check(t, 2, 1, "", " X", "")
}

// ED 2 scrolls what the primary screen shows into the scrollback first
// (tmux's scroll-on-clear), down to its last row with anything on it; ED 0
// from the top-left corner only erases (xterm, x/vt; tmux takes it for a
// clear); ED 3 clears the scrollback only.
func TestClearScreenKeepsHistory(t *testing.T) {
	t.Parallel()
	tm := newFixture(5, 5).feed("a\r\nb\r\n\r\n\x1b[2J")
	if got := tm.scrollback(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("ED 2 kept %q", got)
	}
	tm.check(t, 0, 3, "", "", "", "", "")
	tm = newFixture(5, 5).feed("a\r\nb\r\nc\x1b[H\x1b[J")
	if got := tm.scrollback(); len(got) != 0 {
		t.Errorf("ED 0 at home kept %q", got)
	}
	tm.check(t, 0, 0, "", "", "", "", "")
	tm.feed("1\r\n2\r\n3\r\n4\r\n5\r\n6\x1b[H")
	tm.feed("x\x1b[3J")
	tm.check(t, 1, 0, "x", "3", "4", "5", "6")
	if tm.ScrollbackLen() != 0 {
		t.Errorf("ED 3 left %q", tm.scrollback())
	}
}

// REP repeats the last ASCII character; a huge count costs at most a
// screenful and ends with the same screen as the exact count.
func TestRepeat(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed("ab\x1b[3bc")
	tm.check(t, 6, 0, "abbbbc", "", "")
	tm = newFixture(10, 3).feed("\x1b[5b")
	tm.check(t, 0, 0, "", "", "")
	tm = newFixture(4, 2).feed("x\x1b[999999999b")
	// 1 + 999999999 = 10⁹ x's on 4 columns: full rows, the pending wrap on
	// the last column of the last row.
	tm.check(t, 3, 1, "xxxx", "xxxx")
	tm = newFixture(4, 2).feed("x\x1b[999999997by")
	tm.check(t, 3, 1, "xxxx", "xxy")
	// Any character, as xterm and tmux repeat it (x/vt only ASCII).
	tm = newFixture(10, 2).feed("a日\x1b[2b")
	tm.check(t, 7, 0, "a日日日", "")
	tm = newFixture(10, 2).feed("e\u0301\x1b[2b")
	tm.check(t, 3, 0, "e\u0301e\u0301e\u0301", "")
	tm = newFixture(5, 2).feed("日\x1b[999999999b")
	tm.check(t, 4, 1, "日日", "日日")
	// The line drawing set applies when the repeat is printed.
	tm = newFixture(10, 2).feed("\x1b(0q\x1b[2b")
	tm.check(t, 3, 0, "───", "")
}

// EL and ECH end a pending wrap: the next character lands in the last
// column (DEC STD 070, xterm, x/vt), not on the next row.
func TestEraseEndsPendingWrap(t *testing.T) {
	t.Parallel()
	for _, seq := range []string{"\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[X"} {
		tm := newFixture(10, 2).feed("0123456789" + seq + "X")
		if got := tm.PlainRow(1); got != "" {
			t.Errorf("%q: the next character went to the next row: %q", seq, tm.rows())
		}
		if got := tm.PlainRow(0); !strings.HasSuffix(got, "X") || len(got) != 10 {
			t.Errorf("%q: row %q", seq, got)
		}
	}
}

// REP of a character ends as that character printed n more times, in
// every state the cursor and the modes can be in (REP takes a faster path
// a row at a time).
func TestRepeatIsPrinting(t *testing.T) {
	t.Parallel()
	states := []string{"", "\x1b[1;7H", "\x1b[1;10H", "\x1b[?7l", "\x1b[?7l\x1b[1;8H", "\x1b[2;3r\x1b[3;1H",
		"\x1b[?69h\x1b[3;6s\x1b[1;4H", "\x1b[?69h\x1b[3;4s\x1b[1;3H", "\x1b[?69h\x1b[5;5s\x1b[1;5H", "\x1b[4h\x1b[1;3H",
		"abcdefghi", "\x1b[1;10Hz", "\x1b[44m", "\x1b(0",
		// Margins three columns wide (a count cut by the screen's width
		// left the cursor elsewhere), the cursor left of the margins (the
		// right one is its edge from the left one on), insert mode in
		// them, the line drawing set by a single shift, and a region.
		"\x1b[?69h\x1b[3;5s\x1b[1;3H", "\x1b[?69h\x1b[4;7s\x1b[2;1H", "\x1b[?69h\x1b[4;7s\x1b[4h\x1b[2;1Habcdefghij\x1b[1;5H",
		"\x1b[4h\x1b[2;1Habcdefghij\x1b[1;5H", "\x1b*0\x1bN", "\x1b[1;2r\x1b[2;2H\x1b[?69h\x1b[2;9s"}
	for _, c := range []string{"x", "日", "e\u0301", "👩\u200d💻", "q"} {
		for _, st := range states {
			for _, n := range []int{1, 2, 3, 4, 5, 9, 10, 11, 31, 64, 65, 66, 67, 99, 1000, 1001} {
				rep := newFixture(10, 3).feed(st + c + "\x1b[" + itoa(n) + "b")
				want := newFixture(10, 3).feed(st + strings.Repeat(c, n+1))
				wx, wy, _ := want.Cursor()
				// Past a screenful and a few rows the count is cut: fewer
				// rows reach the scrollback (see repeat).
				sbSame := n > 20 || slices.Equal(rep.scrollback(), want.scrollback())
				if x, y, _ := rep.Cursor(); !slices.Equal(rep.rows(), want.rows()) || x != wx || y != wy ||
					!sbSame || rep.wrapNext != want.wrapNext {
					t.Errorf("%q then %q REP %d:\n%s cursor %d,%d\nprinted:\n%s cursor %d,%d",
						st, c, n, show(rep.rows()), x, y, show(want.rows()), wx, wy)
				}
				for y := range 3 {
					for x := range 10 {
						if rep.StyleAt(x, y) != want.StyleAt(x, y) {
							t.Fatalf("%q then %q REP %d: style at %d,%d", st, c, n, x, y)
						}
					}
				}
			}
		}
	}
}

// Printing from left of the left margin, the right margin is the edge once
// the cursor reached the left one: the same whether the run comes whole,
// in pieces or through a character set (the whole run went to the screen's
// edge, through the right margin).
func TestPrintingFromLeftOfTheMargins(t *testing.T) {
	t.Parallel()
	const margins = "\x1b[?69h\x1b[4;6s\x1b[1;1H"
	for _, chunks := range [][]string{{"abcdefghij"}, {"abc", "defghij"}, {"\x1b(Aabcdefghij"}, {"ab", "cdefghi", "j"}} {
		tm := newFixture(10, 3)
		_, _ = tm.Write([]byte(margins))
		for _, c := range chunks {
			_, _ = tm.Write([]byte(c))
		}
		tm.Flush()
		tm.check(t, 4, 2, "abcdef", "   ghi", "   j")
	}
}

// A REP moves at most a few screenfuls of cells, whatever the count, the
// modes and the margins: in insert mode each character was an insert of
// its own (10 200 inserts of up to a row each for one "CSI 99999 b" at
// 200×50); in margins two columns wide the count, cut to a screenful of
// the screen's width, wrapped 5 100 times, each a scroll of the region;
// and at the bottom of a region each row of it scrolled the region (52
// screenfuls in wide margins, 2 000 in a region of 4 000 rows).
func TestRepeatCostsAFewScreenfuls(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, state, char string }{
		{"insert", "\x1b[4h", "x"},
		{"insert wide", "\x1b[4h", "日"},
		{"insert cluster", "\x1b[4h", "e\u0301"},
		{"insert in margins", "\x1b[4h\x1b[?69h\x1b[3;9s\x1b[50;5H", "x"},
		{"narrow margins", "\x1b[?69h\x1b[1;2s", "x"},
		{"narrow margins, at the bottom", "\x1b[?69h\x1b[1;2s\x1b[50;1H", "x"},
		{"narrow margins, from left of them", "\x1b[?69h\x1b[5;6s\x1b[50;1H", "x"},
		{"narrow margins, wide", "\x1b[?69h\x1b[1;3s\x1b[50;1H", "日"},
		{"wide margins", "\x1b[?69h\x1b[2;199s\x1b[50;2H", "x"},
		{"wide margins, wide", "\x1b[?69h\x1b[2;198s\x1b[50;2H", "日"},
		{"region", "\x1b[2r\x1b[9999;1H", "x"},
	} {
		for _, size := range [][2]int{{200, 50}, {2, 4000}} {
			cols, rows := size[0], size[1]
			tm := newFixture(cols, rows).feed(c.state + c.char)
			tm.cost = 0
			tm.feed("\x1b[99999b")
			if tm.cost > 5*cols*rows {
				t.Errorf("%s at %d×%d: one REP moved %d cells, %.1f screenfuls", c.name, cols, rows, tm.cost, float64(tm.cost)/float64(cols*rows))
			}
		}
	}
}

// A scroll of a region, however tall and however many rows, moves its rows
// once: it moved them in steps of 64, so "CSI 32767 S" in a region of
// 32 765 rows moved 16 million rows (40 ms for 9 bytes).
func TestRegionScrollMovesRowsOnce(t *testing.T) {
	t.Parallel()
	for _, seq := range []string{"\x1b[32767S", "\x1b[32000S", "\x1b[32000T", "\x1b[3H\x1b[32000L", "\x1b[3H\x1b[32000M"} {
		tm := newFixture(1, maxSize).feed("\x1b[2;32766r")
		tm.cost = 0
		tm.feed(seq)
		if tm.cost > 3*maxSize {
			t.Errorf("%q moved %d rows and cells in a region of %d rows", seq, tm.cost, maxSize-2)
		}
	}
}

// fastRepeat with any count, uncut, ends as printing: rows, wrapped flags,
// scrollback and cursor, from random cursors, regions, margins and modes
// (repeatRows does the rows at the bottom of a region in one scroll).
func TestFastRepeatIsPrinting(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 99))
	for range 5000 {
		cols, rows := 1+r.IntN(16), 1+r.IntN(10)
		prefix := randomState(r, cols, rows)
		c := []string{"x", "日", "e\u0301"}[r.IntN(3)]
		n := 1 + r.IntN(4*cols*(rows+3))
		rep := New(cols, rows, 1000, nil)
		_, _ = rep.Write([]byte(prefix + c))
		rep.Flush()
		ch, w := rep.lastCh, rep.lastW
		if rep.lastChar != 0 {
			ch, w = uint32(rep.lastChar), 1
		}
		rep.fastRepeat(ch, w, n)
		printed := New(cols, rows, 1000, nil)
		_, _ = printed.Write([]byte(prefix + strings.Repeat(c, n+1)))
		printed.Flush()
		if a, b := fullState(rep), fullState(printed); !slices.Equal(a, b) {
			t.Fatalf("%d×%d %q, then %q and %d more:\nrepeated %q\nprinted  %q", cols, rows, prefix, c, n, a, b)
		}
	}
}

// randomState is a few sequences that move the cursor, set margins,
// modes and colours, or print.
func randomState(r *rand.Rand, cols, rows int) string {
	toks := []func() string{
		func() string { return fmt.Sprintf("\x1b[%d;%dr", 1+r.IntN(rows), 1+r.IntN(rows+2)) },
		func() string { return fmt.Sprintf("\x1b[?69h\x1b[%d;%ds", 1+r.IntN(cols), 1+r.IntN(cols+2)) },
		func() string { return fmt.Sprintf("\x1b[%d;%dH", 1+r.IntN(rows+1), 1+r.IntN(cols+1)) },
		func() string { return "hello world abc"[:r.IntN(15)] },
		func() string { return "日本語"[:3*r.IntN(3)] },
		func() string { return "\x1b[?69l" }, func() string { return "\x1b[4h" }, func() string { return "\x1b[4l" },
		func() string { return "\x1b[?1049h" }, func() string { return "\r\n" }, func() string { return "\x1b[?6h" },
		func() string { return "\x1b[?7l" }, func() string { return "\x1b[?7h" },
		func() string { return fmt.Sprintf("\x1b[3%d;4%dm", r.IntN(8), r.IntN(8)) },
	}
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(toks[r.IntN(len(toks))]())
	}
	return b.String()
}

// fullState is the cursor, every row with its wrapped flag, and the
// scrollback.
func fullState(tm *Terminal) []string {
	out := []string{fmt.Sprint(tm.x, tm.y, tm.wrapNext)}
	for y := range tm.rows {
		out = append(out, fmt.Sprintf("%v %s", tm.scr.row(y).wrapped, tm.RenderRow(y, nil)))
	}
	for i := range tm.sb.len() {
		out = append(out, fmt.Sprintf("sb %v %s", tm.sb.at(i).wrapped, tm.RenderScrollbackRow(i, nil)))
	}
	return out
}
