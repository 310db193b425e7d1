package emu

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// recorded is every recorded CLI stream (seats/terminal/testdata/pty) and
// the Claude Code session of make compare.
func recorded(tb testing.TB) map[string][]byte {
	tb.Helper()
	files, _ := filepath.Glob("../testdata/pty/*.ansi")
	files = append(files, "../../../testdata/bench/claude_session.ansi")
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	if len(out) < 7 {
		tb.Fatalf("only %d recorded streams", len(out))
	}
	return out
}

// small is a terminal with small table bounds, so a fuzzed stream reaches
// them.
func small(cols, rows int) *Terminal {
	tm := New(cols, rows, 20, func([]byte) {})
	tm.tab.maxStyles, tm.tab.maxClusters, tm.tab.maxLinks = 8, 4, 3
	return tm
}

// checkInvariants fails when the terminal is outside its bounds or its grid
// is inconsistent.
func checkInvariants(t *testing.T, tm *Terminal) {
	t.Helper()
	cols, rows := tm.Size()
	x, y, _ := tm.Cursor()
	if x < 0 || x >= cols || y < 0 || y >= rows {
		t.Fatalf("cursor %d,%d on %d×%d", x, y, cols, rows)
	}
	if tm.top < 0 || tm.top >= tm.bottom || tm.bottom >= rows || tm.left < 0 || tm.left >= tm.right || tm.right >= cols {
		if !(rows == 1 && tm.top == 0 && tm.bottom == 0) && !(cols == 1 && tm.left == 0 && tm.right == 0) {
			t.Fatalf("margins %d–%d, %d–%d on %d×%d", tm.top, tm.bottom, tm.left, tm.right, cols, rows)
		}
	}
	if len(tm.tab.styles) > tm.tab.maxStyles || len(tm.tab.clusters) > tm.tab.maxClusters ||
		len(tm.tab.links) > tm.tab.maxLinks {
		t.Fatalf("tables: %d styles, %d clusters, %d links", len(tm.tab.styles), len(tm.tab.clusters), len(tm.tab.links))
	}
	if tm.ScrollbackLen() > tm.sb.max || len(tm.Title()) > maxTitle || len(tm.m.other) > maxOtherModes {
		t.Fatalf("scrollback %d, title %d bytes, %d modes", tm.ScrollbackLen(), len(tm.Title()), len(tm.m.other))
	}
	checkGrid(t, tm)
}

// checkGrid fails when a row has the wrong width, a wide character lost a
// half, or a cell points past a table.
func checkGrid(t *testing.T, tm *Terminal) {
	t.Helper()
	cols, rows := tm.Size()
	for yy := range rows {
		cells := tm.scr.row(yy).cells
		if len(cells) != cols {
			t.Fatalf("row %d has %d cells", yy, len(cells))
		}
		for i, c := range cells {
			if c.wide() != (i+1 < len(cells) && cells[i+1].tail()) || c.tail() && (i == 0 || !cells[i-1].wide()) {
				t.Fatalf("row %d: a wide character broken at %d", yy, i)
			}
			if int(c.sid) >= len(tm.tab.styles) || c.ch&chCluster != 0 && !c.tail() && int(c.ch&chValue) >= len(tm.tab.clusters) {
				t.Fatalf("row %d: cell %d points past a table", yy, i)
			}
		}
		_ = tm.RenderRow(yy, nil)
	}
	for i := range tm.ScrollbackLen() {
		_ = tm.ScrollbackRow(i)
	}
}

// snapshot is what a differential test compares: rows, cursor, styles.
func snapshot(tm *Terminal) []string {
	cols, rows := tm.Size()
	x, y, v := tm.Cursor()
	out := []string{string(rune('0'+x%10)) + string(rune('0'+y%10)), map[bool]string{true: "v"}[v]}
	for yy := range rows {
		out = append(out, string(tm.RenderRow(yy, nil)))
	}
	for i := range tm.ScrollbackLen() {
		out = append(out, tm.ScrollbackRow(i))
	}
	_ = cols
	return out
}

// FuzzTerminal: no stream panics the terminal or takes it past its bounds,
// and a stream split anywhere ends as the same screen as written whole.
func FuzzTerminal(f *testing.F) {
	for _, b := range recorded(f) {
		// Short seeds: the fuzzer minimizes every input it finds
		// interesting, for up to a minute each, and long ones take that.
		f.Add(b[:min(len(b), 512)], uint8(40), uint8(12), uint16(300))
	}
	for _, s := range []string{
		"\x1b[1;99r\x1bM\x1b[?69h\x1b[2;99s\x1b[@", "\x1b]0;✳ x\x07日本\x1b[2G\x1b[P",
		"\x1b[?1049h\x1b[5;5H\x1b7\x1b[?1049l\x1b8", "a\x1b[999999999b", "e\u0301\u0302👩\u200d💻❤\ufe0f🇯🇵",
		"\x1b[38;2;1;2;3;4:3;58:5:9m\x1b]8;;https://x.y\x07z\x1b]8;;\x07", "\x1b(0lqk\x0e\x1bNq\x1b[4hxy\x1b[2J\x1b[3J",
		"a\xe6b\xf0\x9f\x91\x1b[31m\xed\xa0\x80", "日\x1b[99b\x1b[?7l日本語\x1b[?1002h\x1b[?1003l",
	} {
		f.Add([]byte(s), uint8(10), uint8(4), uint16(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, c, r uint8, split uint16) {
		cols, rows := int(c%50)+1, int(r%20)+1
		whole := small(cols, rows)
		_, _ = whole.Write(data)
		whole.Flush()
		checkInvariants(t, whole)
		cut := int(split) % (len(data) + 1)
		parts := small(cols, rows)
		_, _ = parts.Write(data[:cut])
		_, _ = parts.Write(data[cut:])
		parts.Flush()
		if a, b := snapshot(whole), snapshot(parts); !slices.Equal(a, b) {
			t.Fatalf("split at %d differs:\n%q\n%q", cut, a, b)
		}
		parts.Resize(rows+3, cols/2+1)
		checkInvariants(t, parts)
		_, _ = parts.Write(data)
		parts.Flush()
		checkInvariants(t, parts)
	})
}
