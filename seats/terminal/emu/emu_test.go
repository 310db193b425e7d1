package emu

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fixture is a cols×rows terminal with a 100-row scrollback whose replies are
// collected.
type fixture struct {
	*Terminal
	replies []string
}

func newFixture(cols, rows int) *fixture {
	tm := &fixture{}
	tm.Terminal = New(cols, rows, 100, func(b []byte) { tm.replies = append(tm.replies, string(b)) })
	return tm
}

// feed writes s and places the held cluster.
func (tm *fixture) feed(s string) *fixture {
	_, _ = tm.Write([]byte(s))
	tm.Flush()
	return tm
}

// rows is the screen as PlainRow gives it.
func (tm *fixture) rows() []string {
	_, n := tm.Size()
	out := make([]string, n)
	for y := range out {
		out[y] = tm.PlainRow(y)
	}
	return out
}

func (tm *fixture) scrollback() []string {
	out := make([]string, tm.ScrollbackLen())
	for i := range out {
		out[i] = tm.ScrollbackRow(i)
	}
	return out
}

// check compares the screen and the cursor with what is expected.
func (tm *fixture) check(t *testing.T, x, y int, want ...string) {
	t.Helper()
	if got := tm.rows(); !slices.Equal(got, want) {
		t.Errorf("screen:\n%s\nwant:\n%s", show(got), show(want))
	}
	if cx, cy, _ := tm.Cursor(); cx != x || cy != y {
		t.Errorf("cursor at %d,%d, want %d,%d", cx, cy, x, y)
	}
}

func show(rows []string) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  |%s|\n", r)
	}
	return b.String()
}

func TestPlainText(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed("hello\r\nworld")
	tm.check(t, 5, 1, "hello", "world", "")
}

func TestAutowrapAndPendingWrap(t *testing.T) {
	t.Parallel()
	// Ten characters fill the row: the cursor stays on the last column
	// with a pending wrap, and the next character starts the next row.
	tm := newFixture(10, 3).feed("0123456789")
	tm.check(t, 9, 0, "0123456789", "", "")
	tm.feed("a")
	tm.check(t, 1, 1, "0123456789", "a", "")
	// CR clears the pending wrap.
	tm = newFixture(10, 3).feed("0123456789\rX")
	tm.check(t, 1, 0, "X123456789", "", "")
	// Without autowrap the last column is overwritten.
	tm = newFixture(5, 2).feed("\x1b[?7labcdefg")
	tm.check(t, 4, 0, "abcdg", "")
}

func TestScrollIntoScrollback(t *testing.T) {
	t.Parallel()
	tm := newFixture(5, 3).feed("1\r\n2\r\n3\r\n4\r\n5")
	tm.check(t, 1, 2, "3", "4", "5")
	if got := tm.scrollback(); !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("scrollback %q", got)
	}
}

func TestScrollbackBound(t *testing.T) {
	t.Parallel()
	tm := &fixture{Terminal: New(4, 2, 3, nil)}
	for i := range 20 {
		tm.feed(fmt.Sprintf("%d\r\n", i))
	}
	if got := tm.scrollback(); !slices.Equal(got, []string{"16", "17", "18"}) {
		t.Errorf("scrollback %q", got)
	}
	tm.check(t, 0, 1, "19", "")
}

func TestResizeKeepsTopRows(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 4).feed("aaaa\r\nbbbb\r\ncccc\r\ndddd")
	tm.Resize(3, 2)
	tm.check(t, 2, 1, "aaa", "bbb")
	tm.Resize(6, 3)
	tm.check(t, 2, 1, "aaa", "bbb", "")
}
