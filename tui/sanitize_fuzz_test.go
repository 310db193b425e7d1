package tui

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzSanitize: whatever a post or a seat's text holds, what is drawn has
// no control character but line feeds, and no bidi control.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "a\r\nb\tc", "\x1b[31mred\x1b]52;c;ZXZpbA==\x07", "x\u202ey\u2066z\u2069", "\u009b1;1H", "\xff\xfe", "日本語 👍"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{sanitize(s), oneLine(s)} {
			for _, r := range out {
				if (unicode.IsControl(r) && r != '\n') || unicode.Is(unicode.Bidi_Control, r) {
					t.Fatalf("sanitize(%q) kept %U: %q", s, r, out)
				}
			}
		}
		if strings.Contains(oneLine(s), "\n") {
			t.Fatalf("oneLine(%q) has a line break", s)
		}
	})
}
