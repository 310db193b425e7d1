package emu

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Wide characters and grapheme clusters take the width x/ansi gives them
// (what the UI's renderer gives the same text).
func TestWidths(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		x    int
		want string
	}{
		{"日本語ab", 8, "日本語ab"},
		{"👍x", 3, "👍x"},
		{"👩\u200d💻x", 3, "👩\u200d💻x"},
		{"e\u0301x", 2, "e\u0301x"},
		{"❤\ufe0fx", 3, "❤\ufe0fx"},
		{"🇯🇵x", 3, "🇯🇵x"},
		{"한국어", 6, "한국어"},
		{"ｱｲｳ", 3, "ｱｲｳ"}, // halfwidth katakana
		{"±·", 2, "±·"},   // ambiguous width: narrow, as x/ansi has it
		{"a\u200bb", 2, "ab"},
	}
	for _, c := range cases {
		tm := newFixture(20, 2).feed(c.in)
		if x, _, _ := tm.Cursor(); x != c.x || tm.PlainRow(0) != c.want {
			t.Errorf("%q: row %q cursor %d, want %q at %d", c.in, tm.PlainRow(0), x, c.want, c.x)
		}
		// The widths agree with what the UI measures.
		if w := ansi.StringWidth(c.want); w != c.x {
			t.Errorf("%q: x/ansi gives width %d", c.want, w)
		}
	}
}

// A wide character that does not fit before the right margin wraps (xterm,
// tmux); one that exactly fills the row leaves a pending wrap, so the next
// character starts the next row instead of overwriting its right half
// (x/vt got both wrong, docs/dependencies.md §2.3).
func TestWideAtTheMargin(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 3).feed("abcdefghi日Z")
	tm.check(t, 3, 1, "abcdefghi", "日Z", "")
	tm = newFixture(10, 3).feed("abcdefgh日Z")
	tm.check(t, 1, 1, "abcdefgh日", "Z", "")
	tm = newFixture(10, 3).feed("abcdefgh日")
	tm.check(t, 9, 0, "abcdefgh日", "", "")
	// Without autowrap one that does not fit is dropped (tmux, x/vt); one
	// that fits exactly is drawn.
	tm = newFixture(10, 3).feed("\x1b[?7labcdefghi日")
	tm.check(t, 9, 0, "abcdefghi", "", "")
	tm = newFixture(10, 3).feed("\x1b[?7labcdefgh日本")
	tm.check(t, 9, 0, "abcdefgh日", "", "")
	// A screen one column wide cannot show it at all.
	tm = newFixture(1, 2).feed("日a")
	tm.check(t, 0, 0, "a", "")
}

// Writing over half of a wide character blanks the other half (xterm; tmux
// keeps the wide character).
func TestOverwriteHalfAWideCharacter(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 2).feed("日本語\x1b[1Gx")
	tm.check(t, 1, 0, "x 本語", "")
	tm = newFixture(10, 2).feed("日本語\x1b[2Gx")
	tm.check(t, 2, 0, " x本語", "")
	tm = newFixture(10, 2).feed("日本語\x1b[2G日")
	tm.check(t, 3, 0, " 日 語", "")
	tm = newFixture(10, 2).feed("日本語\x1b[2G\x1b[K")
	tm.check(t, 1, 0, "", "")
	tm = newFixture(10, 2).feed("日本語\x1b[2G\x1b[P")
	tm.check(t, 1, 0, " 本語", "")
	tm = newFixture(10, 2).feed("日本語\x1b[3G\x1b[@")
	tm.check(t, 2, 0, "日 本語", "")
}

// A UTF-8 character cut short by a byte that cannot continue it shows as
// U+FFFD and the byte is read on its own (xterm, tmux; x/ansi's parser
// would take it into the character), in whatever writes it arrives.
func TestInvalidUTF8(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"a\xe6b", "a\ufffdb"},
		{"a\xe6\x9cb", "a\ufffdb"},
		{"a\xf0\x9f\x91b", "a\ufffdb"},
		{"a\xe6\x1b[31mb", "a\ufffdb"},
		{"a\xe6\r\nb", "a\ufffd"},
		{"a\xe6\xe6\x9c\xacb", "a\ufffd本b"},
	}
	for _, c := range cases {
		for cut := 0; cut <= len(c.in); cut++ {
			tm := newFixture(10, 2)
			_, _ = tm.Write([]byte(c.in[:cut]))
			_, _ = tm.Write([]byte(c.in[cut:]))
			tm.Flush()
			if got := tm.PlainRow(0); got != c.want {
				t.Errorf("%q split at %d: %q, want %q", c.in, cut, got, c.want)
			}
		}
	}
}

// A cluster split across writes is placed whole: the screen never depends
// on where the child's writes were split.
func TestClusterSplitAcrossWrites(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"e\u0301x", "👩\u200d💻x", "❤\ufe0fx", "🇯🇵x", "日本e\u0301\u0302z", "a\r\nb\x1b[31mc"} {
		whole := newFixture(10, 2).feed(s)
		for cut := 1; cut < len(s); cut++ {
			tm := newFixture(10, 2)
			_, _ = tm.Write([]byte(s[:cut]))
			_, _ = tm.Write([]byte(s[cut:]))
			tm.Flush()
			wx, wy, _ := whole.Cursor()
			tm.check(t, wx, wy, whole.rows()...)
		}
	}
	// Held until the next write or Flush.
	tm := newFixture(10, 2)
	_, _ = tm.Write([]byte("e"))
	if x, _, _ := tm.Cursor(); x != 0 {
		t.Errorf("the held e moved the cursor to %d", x)
	}
	_, _ = tm.Write([]byte("\u0301"))
	tm.Flush()
	tm.check(t, 1, 0, "e\u0301", "")
}

// A cluster grows to maxClusterBytes at most; the runes that would extend
// it further are dropped.
func TestClusterCap(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 2).feed("e" + strings.Repeat("\u0301", 1000) + "x")
	got := tm.PlainRow(0)
	first, _ := utf8.DecodeRuneInString(got)
	if first != 'e' || !strings.HasSuffix(got, "x") || len(got) > maxClusterBytes+1 || len(got) < maxClusterBytes-1 {
		t.Errorf("row %q (%d bytes)", got, len(got))
	}
	if x, _, _ := tm.Cursor(); x != 2 {
		t.Errorf("cursor %d", x)
	}
}

// DEC special graphics (ESC ( 0) draws lines; SO/SI switch to G1 and back;
// SS2 takes one character from G2.
func TestCharsets(t *testing.T) {
	t.Parallel()
	tm := newFixture(10, 2).feed("\x1b(0lqqk\x1b(Bq")
	tm.check(t, 5, 0, "┌──┐q", "")
	tm = newFixture(10, 2).feed("\x1b)0a\x0eq\x0fq")
	tm.check(t, 3, 0, "a─q", "")
	tm = newFixture(10, 2).feed("\x1b*0\x1bNqq")
	tm.check(t, 2, 0, "─q", "")
	tm = newFixture(10, 2).feed("\x1b(A#")
	tm.check(t, 1, 0, "£", "")
}

// plainRune's shortcut must give what x/ansi gives: every plain rune,
// followed by a sample of plain runes and by nothing.
func TestPlainRunesMatchXAnsi(t *testing.T) {
	t.Parallel()
	var plain, sample []rune
	for r := rune(0); r < 0x10000; r++ {
		if isPlain(r) {
			plain = append(plain, r)
			if !isPlain(r-1) || !isPlain(r+1) || r%997 == 0 {
				sample = append(sample, r)
			}
		}
	}
	check := func(b []byte) {
		got, gw := firstCluster(b)
		want, ww := ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
		if string(got) != string(want) || gw != ww {
			t.Fatalf("%q: firstCluster %q width %d, x/ansi %q width %d", b, got, gw, want, ww)
		}
	}
	for _, r := range plain {
		b := utf8.AppendRune(nil, r)
		check(b)
		for _, s := range sample {
			check(utf8.AppendRune(slices.Clip(b), s))
		}
	}
}
