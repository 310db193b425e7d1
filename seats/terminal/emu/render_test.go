package emu

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// checkSafe returns why b, a rendered row, is not safe to write to the
// human's terminal: anything but printable characters, SGR sequences and
// OSC 8 links of printable ASCII.
func checkSafe(b []byte) error {
	for i := 0; i < len(b); {
		if b[i] == 0x1b {
			n, err := safeSequence(b[i:])
			if err != nil {
				return fmt.Errorf("at %d: %w in %q", i, err, b)
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("at %d: invalid UTF-8 in %q", i, b)
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return fmt.Errorf("at %d: control %U in %q", i, r, b)
		}
		i += n
	}
	return nil
}

func safeSequence(b []byte) (int, error) {
	if len(b) >= 2 && b[1] == '[' {
		for i := 2; i < len(b); i++ {
			switch c := b[i]; {
			case c >= '0' && c <= '9' || c == ';' || c == ':':
			case c == 'm':
				return i + 1, nil
			default:
				return 0, fmt.Errorf("CSI ending in %q", c)
			}
		}
		return 0, fmt.Errorf("unterminated CSI")
	}
	if len(b) >= 4 && string(b[1:4]) == "]8;" {
		for i := 4; i+1 < len(b); i++ {
			if b[i] == 0x1b {
				if b[i+1] != '\\' {
					return 0, fmt.Errorf("ESC inside OSC 8")
				}
				return i + 2, nil
			}
			if b[i] <= 0x20 || b[i] >= 0x7f {
				return 0, fmt.Errorf("byte %#x inside OSC 8", b[i])
			}
		}
		return 0, fmt.Errorf("unterminated OSC 8")
	}
	return 0, fmt.Errorf("escape %q", b[:min(len(b), 4)])
}

// FuzzRenderSafe: whatever a child prints, the rows a pane writes to the
// human's terminal (screen and scrollback) and the title carry only
// printable characters, SGR and OSC 8 links.
func FuzzRenderSafe(f *testing.F) {
	for _, s := range []string{
		"\xc2\x9b31mX", "a\xc2\x9bb\xc2\x9d0;x\x07", "\U0001F469\u200d\xc2\x9b", "\xff\xfe\xc0\xc1\xf5\x80",
		"\x1b]8;;https://a.b/\xc2\x9b\x1b\\x", "\x1b]8;id=\x1b;https://a.b\x07x", "\x1b]2;\xc2\x9b\x1b[31m\x07",
		"\x1bP\x1b[31m\x1b\\x", "e\u0301\u0302\u0303\u0304", "\x1b[38;2;255;0;0;4:5;58:2::1:2:3mX",
	} {
		f.Add([]byte(s), uint8(10), uint8(3))
	}
	for _, b := range recorded(f) {
		f.Add(b[:min(len(b), 512)], uint8(40), uint8(12))
	}
	f.Fuzz(func(t *testing.T, data []byte, c, r uint8) {
		tm := small(int(c%50)+1, int(r%20)+1)
		_, _ = tm.Write(data)
		tm.Flush()
		cols, rows := tm.Size()
		for y := range rows {
			row := tm.RenderRow(y, nil)
			if err := checkSafe(row); err != nil {
				t.Fatalf("row %d: %v", y, err)
			}
			if w := ansi.StringWidth(string(row)); w != cols {
				t.Fatalf("row %d %q is %d cells wide in the UI's measure, not %d", y, row, w, cols)
			}
		}
		for i := range tm.ScrollbackLen() {
			if err := checkSafe(tm.RenderScrollbackRow(i, nil)); err != nil {
				t.Fatalf("scrollback %d: %v", i, err)
			}
		}
		if err := checkSafe([]byte(tm.Title())); err != nil {
			t.Fatalf("title: %v", err)
		}
	})
}

// A rendered row is as wide as the screen in the UI's measure (x/ansi's
// grapheme widths), which lays panes side by side by it: characters a
// cursor move or a sequence put in cells side by side must not join into
// one cluster when drawn (half a ZWJ sequence and an emoji drew 👩‍💻, two
// cells short; two regional indicators a flag; Hangul jamo a syllable; a
// prepended mark its neighbour), and a mark cut from its base must not be
// drawn onto the cell before it. The cells keep their text (PlainRow).
func TestRowsAreAsWideAsTheScreen(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"👩\u200d\x1b[1;3H💻", "🇯\x1b[1;3H🇵", "\u1100\x1b[1;3H가", "\u0d4e\x1b[1;2Hx", "x\x1b[1;2H\u0903",
		"👍\x1b[C🏽", "\u093f\x1b[3b", "\u1100\x1b[1;3H\u1161",
	} {
		tm := New(10, 1, 0, nil)
		_, _ = tm.Write([]byte(in))
		tm.Flush()
		if row := tm.RenderRow(0, nil); ansi.StringWidth(string(row)) != 10 {
			t.Errorf("%q: row %q is %d wide", in, row, ansi.StringWidth(string(row)))
		}
		if strings.Contains(tm.PlainRow(0), "\u200c") {
			t.Errorf("%q: the text has the ZWNJ: %q", in, tm.PlainRow(0))
		}
	}
	if got := newFixture(10, 1).feed("👩\u200d\x1b[1;3H💻").PlainRow(0); got != "👩\u200d💻" {
		t.Errorf("the cells lost their text: %q", got)
	}
	// Random runes that join or attach, cursor moves and sequences.
	atoms := []string{"\u200d", "🇯", "🇵", "\u1100", "\u1161", "\u11a8", "가", "각", "\u0600", "\u0d4e", "\U000110bd",
		"\u0903", "\u093f", "\u0301", "👩", "💻", "🏽", "\ufe0f", "\u20e3", "\U000e0067", "🏴", "日", "a", "❤", "\u200c",
		"\u0e33", "\u0915", "\u094d", "\x1b[C", "\x1b[D", "\r", "\x1b[31m", " ", "\x1b[2;3H", "\x1b[4h", "\x1b[4l", "\x1b[3b"}
	r := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		cols := 1 + r.IntN(12)
		tm := New(cols, 3, 10, nil)
		_, _ = tm.Write([]byte(b.String()))
		tm.Flush()
		for y := range 3 {
			if row := tm.RenderRow(y, nil); ansi.StringWidth(string(row)) != cols {
				t.Fatalf("%q on %d columns: row %d %q is %d wide", b.String(), cols, y, row, ansi.StringWidth(string(row)))
			}
		}
	}
}
