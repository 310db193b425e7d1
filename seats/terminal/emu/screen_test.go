package emu

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Resize does what x/vt did (seats/terminal's behaviour so far): no
// reflow, rows cut or padded on the right, rows cut or added at the
// bottom, the cursor clamped, margins and tabs reset.
func TestResize(t *testing.T) {
	t.Parallel()
	tm := newFixture(6, 4).feed("ab日cd\r\n12345\r\nxy")
	tm.Resize(3, 4) // cuts 日 in half: blanked
	tm.check(t, 2, 2, "ab", "123", "xy", "")
	tm.Resize(8, 2)
	tm.check(t, 2, 1, "ab", "123")
	// A pending wrap becomes the column after the last character when
	// the row grows.
	tm = newFixture(4, 2).feed("abcd")
	tm.Resize(6, 2)
	tm.check(t, 4, 0, "abcd", "")
	tm.feed("e")
	tm.check(t, 5, 0, "abcde", "")
	// The scroll region is the whole screen again; tabs every 8 columns.
	tm = newFixture(20, 4).feed("\x1b[2;3r\x1b[3g")
	tm.Resize(20, 5)
	tm.feed("\x1b[5;1H\nx\r\t")
	tm.check(t, 8, 4, "", "", "", "", "x")
	// The alternate screen is resized too.
	tm = newFixture(4, 2).feed("\x1b[?1049habcd")
	tm.Resize(2, 3)
	tm.check(t, 1, 0, "ab", "", "")
	tm.feed("\x1b[?1049l")
	tm.check(t, 0, 0, "", "", "")
	// Every size is clamped to 1…32767.
	tm.Resize(0, -5)
	if c, r := tm.Size(); c != 1 || r != 1 {
		t.Errorf("size %d×%d", c, r)
	}
}

// Dirty marks exactly the rows that changed; a scroll marks every row.
func TestDirty(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 4)
	for y := range 4 {
		if !tm.Dirty(y) {
			t.Errorf("a new terminal's row %d is clean", y)
		}
	}
	tm.ClearDirty()
	tm.feed("\x1b[2;1Hab\x1b[4;3H\x1b[K")
	want := []bool{false, true, false, true}
	for y, w := range want {
		if tm.Dirty(y) != w {
			t.Errorf("row %d dirty %v, want %v", y, tm.Dirty(y), w)
		}
	}
	tm.ClearDirty()
	tm.feed("\x1b[H\x1b[31m\x1b[2;5H") // moves and SGR change no cell
	for y := range 4 {
		if tm.Dirty(y) {
			t.Errorf("row %d dirty after cursor moves", y)
		}
	}
	tm.feed("\x1b[4;1H\n")
	for y := range 4 {
		if !tm.Dirty(y) {
			t.Errorf("row %d clean after a scroll", y)
		}
	}
	tm.ClearDirty()
	tm.feed("\x1b[2;3r\x1b[3;1H\n")
	want = []bool{false, true, true, false}
	for y, w := range want {
		if tm.Dirty(y) != w {
			t.Errorf("region scroll: row %d dirty %v, want %v", y, tm.Dirty(y), w)
		}
	}
	tm.ClearDirty()
	tm.feed("\x1b[?1049h")
	if !tm.Dirty(0) || !tm.Dirty(3) {
		t.Error("a screen switch left rows clean")
	}
}

// A flood of lines through a full scrollback takes no allocation per line:
// the scrollback's oldest row comes back as the new blank row.
func TestScrollReusesRows(t *testing.T) {
	tm := New(80, 24, 50, nil)
	line := []byte("some text on a line\r\n")
	for range 200 {
		_, _ = tm.Write(line)
	}
	allocs := testing.AllocsPerRun(100, func() {
		for range 10 {
			_, _ = tm.Write(line)
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per 10 lines", allocs)
	}
	if tm.ScrollbackLen() != 50 {
		t.Errorf("scrollback %d", tm.ScrollbackLen())
	}
}

// The scrollback holds exactly the last rows that left the screen, in
// order, through region scrolls, clears and the ring's turns.
func TestScrollbackOrder(t *testing.T) {
	t.Parallel()
	tm := &fixture{Terminal: New(5, 3, 7, nil)}
	var want []string
	for i := range 30 {
		tm.feed(fmt.Sprintf("\r\n%d", i))
	}
	// Rows "", "0" … "26" left the screen; "27" to "29" are on it.
	for i := 20; i <= 26; i++ {
		want = append(want, fmt.Sprint(i))
	}
	if got := tm.scrollback(); !slices.Equal(got, want) {
		t.Errorf("scrollback %q, want %q", got, want)
	}
	tm.check(t, 2, 2, "27", "28", "29")
}

// A scrollback row renders with its styles, its trailing blanks cut.
func TestRenderScrollbackRow(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 2).feed("\x1b[31mab\x1b[m  \r\n\x1b[44m  \x1b[m\r\nx\r\n")
	if got, want := string(tm.RenderScrollbackRow(0, nil)), "\x1b[0;31mab\x1b[m"; got != want {
		t.Errorf("row 0: %q, want %q", got, want)
	}
	if got, want := string(tm.RenderScrollbackRow(1, nil)), "\x1b[0;44m  \x1b[m"; got != want {
		t.Errorf("row 1: %q, want %q", got, want)
	}
	if got := tm.RenderScrollbackRow(5, []byte("x")); string(got) != "x" {
		t.Errorf("out of range: %q", got)
	}
}

// With in-band resize reports on (?2048) a resize is reported.
func TestResizeReports(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 4)
	tm.Resize(20, 5)
	tm.feed("\x1b[?2048h")
	tm.Resize(30, 6)
	want := []string{"\x1b[48;5;20;0;0t", "\x1b[48;6;30;0;0t"}
	if !slices.Equal(tm.replies, want) {
		t.Errorf("replies %q, want %q", tm.replies, want)
	}
}

// A row links at most maxRowLinks bytes of links: cells that alternate
// between two links of 2 KB each rendered 2 KB a cell (a 200-column row
// 400 KB, the seats' 2 000 lines of scrollback 800 MB for each look at
// them, from 3 MB of cells); past the budget the text stays, unlinked.
func TestRenderBoundsTheLinksOfARow(t *testing.T) {
	t.Parallel()
	a := "https://a.example/" + strings.Repeat("a", maxLinkURL-18)
	b := "https://b.example/" + strings.Repeat("b", maxLinkURL-18)
	var in strings.Builder
	for i := range 200 * 2 {
		fmt.Fprintf(&in, "\x1b]8;;%s\x07%c", []string{a, b}[i%2], 'a'+i%26)
	}
	tm := newFixture(200, 3).feed(in.String() + "\x1b]8;;\x07\x1b[3;1H\x1b]8;;https://x.test/1\x07one\x1b]8;;\x07 \x1b]8;;https://x.test/2\x07two\x1b]8;;\x07")
	if got := tm.PlainRow(0); len(got) != 200 || got[:3] != "abc" {
		t.Errorf("the text went too: %q", got)
	}
	if tm.LinkAt(0, 0) != a || tm.LinkAt(199, 0) != b {
		t.Errorf("the cells lost their links")
	}
	if row := string(tm.RenderRow(2, nil)); strings.Count(row, "https://x.test/") != 2 {
		t.Errorf("a row of short links lost some: %q", row)
	}
	rows := [][]byte{tm.RenderRow(0, nil), tm.RenderRow(1, nil)}
	tm.feed("\x1b[S")
	rows = append(rows, tm.RenderScrollbackRow(0, nil))
	for i, row := range rows {
		if len(row) > 8<<10+200*16 {
			t.Errorf("row %d renders %d bytes", i, len(row))
		}
		if !strings.Contains(string(row), a) {
			t.Errorf("row %d: the first link went too", i)
		}
	}
}
