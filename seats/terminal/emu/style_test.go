package emu

import (
	"strings"
	"testing"
)

func TestSGR(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want Style
	}{
		{"1;3;7", Style{Attrs: AttrBold | AttrItalic | AttrReverse}},
		{"1;2;22", Style{}},
		{"5;6;25", Style{}},
		{"8;9;53", Style{Attrs: AttrConceal | AttrStrikethrough | AttrOverline}},
		{"31;42", Style{Fg: IndexedColor(1), Bg: IndexedColor(2)}},
		{"91;102", Style{Fg: IndexedColor(9), Bg: IndexedColor(10)}},
		{"38;5;208", Style{Fg: IndexedColor(208)}},
		{"48;5;17", Style{Bg: IndexedColor(17)}},
		{"38;2;0;0;5", Style{Fg: RGBColor(0, 0, 5)}},
		{"38:2::1:2:3", Style{Fg: RGBColor(1, 2, 3)}},
		{"38:2:1:2:3", Style{Fg: RGBColor(1, 2, 3)}},
		{"48:5:99", Style{Bg: IndexedColor(99)}},
		{"38;5;300", Style{}},
		{"38;2;1;2", Style{}},
		{"38;5;208;1", Style{Fg: IndexedColor(208), Attrs: AttrBold}},
		{"38;2;1;2;3;4", Style{Fg: RGBColor(1, 2, 3), Underline: UnderlineSingle}},
		{"4", Style{Underline: UnderlineSingle}},
		{"4:3", Style{Underline: UnderlineCurly}},
		{"4:5", Style{Underline: UnderlineDashed}},
		{"4:3;24", Style{}},
		{"21", Style{Underline: UnderlineDouble}},
		{"58;5;1", Style{Ul: IndexedColor(1)}},
		{"58:2::9:8:7", Style{Ul: RGBColor(9, 8, 7)}},
		{"58;5;1;59", Style{}},
		{"31;39;41;49", Style{}},
		{"1;31;0", Style{}},
		{"", Style{}},
	}
	for _, c := range cases {
		tm := newFixture(10, 1).feed("\x1b[1;4;35;45m\x1b[0m\x1b[" + c.in + "mx")
		if got := tm.StyleAt(0, 0); got != c.want {
			t.Errorf("SGR %q: %+v, want %+v", c.in, got, c.want)
		}
	}
}

// RenderRow draws every cell with the SGR of its style where the style
// changes, and resets at the end.
func TestRenderRow(t *testing.T) {
	t.Parallel()
	tm := newFixture(8, 2).feed("a\x1b[1;31mb\x1b[38;2;1;2;3;48;5;200;4:3mc\x1b[mde日")
	got := string(tm.RenderRow(0, nil))
	want := "a\x1b[0;1;31mb\x1b[0;1;4:3;38;2;1;2;3;48;5;200mc\x1b[mde日 "
	if got != want {
		t.Errorf("RenderRow:\n%q\nwant\n%q", got, want)
	}
	tm = newFixture(4, 1).feed("\x1b[44mab\x1b[K")
	if got, want := string(tm.RenderRow(0, nil)), "\x1b[0;44mab  \x1b[m"; got != want {
		t.Errorf("RenderRow %q, want %q", got, want)
	}
	if got := string(tm.RenderRow(0, []byte("pre"))); !strings.HasPrefix(got, "pre\x1b[0;44m") {
		t.Errorf("RenderRow does not append: %q", got)
	}
}

// What RenderRow draws, fed to another terminal, gives every cell the same
// character, style and link: the recorded CLI streams.
func TestRenderRoundTrip(t *testing.T) {
	t.Parallel()
	for name, data := range recorded(t) {
		tm := New(160, 50, 100, nil)
		_, _ = tm.Write(data)
		tm.Flush()
		for y := range 50 {
			again := New(160, 1, 0, nil)
			_, _ = again.Write(tm.RenderRow(y, nil))
			again.Flush()
			if again.PlainRow(0) != tm.PlainRow(y) {
				t.Fatalf("%s row %d: %q, rendered and read back %q", name, y, tm.PlainRow(y), again.PlainRow(0))
			}
			for x := range 160 {
				if a, b := tm.StyleAt(x, y), again.StyleAt(x, 0); a != b || tm.LinkAt(x, y) != again.LinkAt(x, 0) {
					t.Fatalf("%s cell %d,%d: %+v, rendered and read back %+v", name, x, y, a, b)
				}
			}
		}
		for i := range tm.ScrollbackLen() {
			again := New(160, 1, 0, nil)
			_, _ = again.Write(tm.RenderScrollbackRow(i, nil))
			again.Flush()
			if again.PlainRow(0) != tm.ScrollbackRow(i) {
				t.Fatalf("%s scrollback %d: %q, rendered and read back %q", name, i, tm.ScrollbackRow(i), again.PlainRow(0))
			}
		}
	}
}
