package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s           string
		n           int
		bytes, last string
		runes       string
	}{
		{"", 3, "", "", ""},
		{"abc", 3, "abc", "abc", "abc"},
		{"abc", 2, "ab", "bc", "ab"},
		{"abc", 0, "", "", ""},
		{"abc", -1, "", "", ""},
		{"aあい", 1, "a", "", "a"},
		{"aあい", 3, "a", "い", "aあい"},
		{"aあい", 4, "aあ", "い", "aあい"},
		{"aあい", 6, "aあ", "あい", "aあい"},
		{"あいう", 2, "", "", "あい"},
		{"😀x", 3, "", "x", "😀x"},
		{"x😀", 4, "x", "😀", "x😀"},
		{"é", 1, "", "", "é"},                   // U+00E9, 2 bytes
		{"e\u0301x", 2, "e", "x", "e\u0301"},    // a cluster cut between runes
		{"\xe3\x81", 1, "\xe3", "\x81", "\xe3"}, // invalid: each byte is one
		{"\x80\x80\x80\x80", 2, "\x80\x80", "\x80\x80", "\x80\x80"},
		{"\xe3\x81\x82\x80", 3, "あ", "\x80", "あ\x80"}, // a stray byte after あ
		{"a\xe3\x81\x82", 2, "a", "", "a\xe3\x81\x82"},
	} {
		if got := Bytes(c.s, c.n); got != c.bytes {
			t.Errorf("Bytes(%q, %d) = %q, want %q", c.s, c.n, got, c.bytes)
		}
		if got := LastBytes(c.s, c.n); got != c.last {
			t.Errorf("LastBytes(%q, %d) = %q, want %q", c.s, c.n, got, c.last)
		}
		if got := Runes(c.s, c.n); got != c.runes {
			t.Errorf("Runes(%q, %d) = %q, want %q", c.s, c.n, got, c.runes)
		}
	}
}

// boundaries are the byte offsets between s's characters as a decoder
// reading s from its start sees them, both ends included.
func boundaries(s string) []bool {
	b := make([]bool, len(s)+1)
	b[0] = true
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		b[i] = true
	}
	return b
}

// FuzzCut checks every cut against a decoder's walk over the whole input:
// Bytes is the longest prefix within n bytes ending on a boundary (so,
// for valid input, the longest valid prefix), LastBytes the longest such
// suffix, Runes the prefix of n characters.
func FuzzCut(f *testing.F) {
	for _, s := range []string{"", "abc", "aあい", "😀x", "e\u0301", "\xe3\x81", "\x80\x80\x80\x80\x80", "🇯🇵", "a\xf0\x9f\x98"} {
		for n := -1; n <= len(s)+1; n++ {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		bounds := boundaries(s)
		capped := min(max(n, 0), len(s))
		longest := capped
		for !bounds[longest] {
			longest--
		}
		head := Bytes(s, n)
		switch {
		case !strings.HasPrefix(s, head):
			t.Fatalf("Bytes(%q, %d) = %q: not a prefix", s, n, head)
		case len(head) > capped:
			t.Fatalf("Bytes(%q, %d) = %q: over the cap", s, n, head)
		case len(head) != longest:
			t.Fatalf("Bytes(%q, %d) = %q: want the first %d bytes", s, n, head, longest)
		}
		if utf8.ValidString(s) {
			if !utf8.ValidString(head) {
				t.Fatalf("Bytes(%q, %d) = %q: invalid UTF-8", s, n, head)
			}
			for k := len(head) + 1; k <= capped; k++ {
				if utf8.ValidString(s[:k]) {
					t.Fatalf("Bytes(%q, %d) = %q: %q is longer and valid", s, n, head, s[:k])
				}
			}
		}
		tail := LastBytes(s, n)
		if !strings.HasSuffix(s, tail) || len(tail) > capped || !bounds[len(s)-len(tail)] {
			t.Fatalf("LastBytes(%q, %d) = %q", s, n, tail)
		}
		for k := len(tail) + 1; k <= capped; k++ {
			if bounds[len(s)-k] {
				t.Fatalf("LastBytes(%q, %d) = %q: the last %d bytes start on a boundary", s, n, tail, k)
			}
		}
		runes := Runes(s, n)
		if want := min(max(n, 0), utf8.RuneCountInString(s)); !strings.HasPrefix(s, runes) || !bounds[len(runes)] ||
			utf8.RuneCountInString(runes) != want {
			t.Fatalf("Runes(%q, %d) = %q, want %d characters", s, n, runes, want)
		}
	})
}
