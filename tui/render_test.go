package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// fitLeft keeps whole characters within w cells: ansi.TruncateLeft alone
// left "…語/path" (8 cells) for 7, and the []rune copy it replaced cut a
// combining accent off its letter ("…\u0301é").
func TestFitLeft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"/home/u/path", 20, "/home/u/path"},
		{"/home/u/path", 6, "…/path"},
		{"/home/u/path", 1, "…"},
		{"/home/u/path", 0, "…"},
		{"/home/user/日本語/path", 7, "…/path"},
		{"/home/user/日本語/path", 8, "…語/path"},
		{"日本語日本語", 2, "…"},
		{"e\u0301e\u0301e\u0301", 2, "…e\u0301"},
		{"a👩\u200d💻b", 3, "…b"},
		{"🇯🇵🇯🇵x", 4, "…🇯🇵x"},
	} {
		got := fitLeft(c.s, c.w)
		if got != c.want {
			t.Errorf("fitLeft(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if c.w > 0 && ansi.StringWidth(got) > c.w || !strings.HasSuffix(c.s, strings.TrimPrefix(got, "…")) {
			t.Errorf("fitLeft(%q, %d) = %q: not the end of s within %d cells", c.s, c.w, got, c.w)
		}
	}
}
