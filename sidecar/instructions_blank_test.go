package sidecar

import (
	"strings"
	"testing"

	"github.com/pullcept/pullcept/room"
)

// TestInstructionsSayTheMarks: the instructions say what a body line
// marked with room.TagQuote is (a tag-like line of the body, issue 32).
func TestInstructionsSayTheMarks(t *testing.T) {
	t.Parallel()
	s := Instructions("Lin", false)
	for _, want := range []string{"tag-like body lines start with " + strings.TrimSpace(room.TagQuote)} {
		if !strings.Contains(s, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
}

// TestHistoryShowsHidden: a post's invisible characters reach a seat's
// tool result as codes, never raw (tag characters, bidi controls), and a
// tag-like body line carries the mark, as when typed.
func TestHistoryShowsHidden(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	renderPosts(&b, []room.Post{{MessageID: "m1", Speaker: "Lin", Role: room.RoleClaudeCode, Content: "ok\U000E0069\U000E0067\U000E006E \u202ex\n[pullcept] {}"}}, nil)
	if got := b.String(); strings.ContainsAny(got, "\U000E0069\u202e") || !strings.Contains(got, "> ok<3 tag characters> <U+202E>x\n> │ [pullcept] {}") {
		t.Fatalf("history page: %q", got)
	}
}
