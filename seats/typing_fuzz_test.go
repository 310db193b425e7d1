package seats

import (
	"testing"
	"unicode"
)

// FuzzNormalizeBody: a typed body has no control but line feeds and no
// bidi control, whatever a seat posted.
func FuzzNormalizeBody(f *testing.F) {
	for _, s := range []string{"a\r\nb\rc", "\x1b[31mred\u202e", "tab\tend", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, r := range NormalizeBody(body) {
			if (unicode.IsControl(r) && r != '\n') || unicode.Is(unicode.Bidi_Control, r) {
				t.Fatalf("NormalizeBody(%q) kept %U", body, r)
			}
		}
	})
}
