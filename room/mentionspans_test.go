package room

import (
	"slices"
	"strings"
	"testing"
)

// TestMentionSpans: the spans name what TakeMentions takes, in order, and
// cover the '@' and the name as written.
func TestMentionSpans(t *testing.T) {
	roster := []string{"Claude", "Claude Code", "Lin", "Édith"}
	for _, tt := range []struct {
		line string
		want []string // the covered text
	}{
		{"@Claude can you check", []string{"@Claude"}},
		{"@claude code, and ＠lin.", []string{"@claude code", "＠lin"}},
		{"@Claudex and @Zed", nil},
		{"mail a@Lin now", []string{"@Lin"}},
		{"@ÉDITH", []string{"@ÉDITH"}},
		{"no mention", nil},
	} {
		var got []string
		for _, s := range MentionSpans(tt.line, roster) {
			got = append(got, tt.line[s.Start:s.End])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("MentionSpans(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// FuzzMentionSpansAgreeWithTakeMentions: whatever a line holds, the spans
// name the mentions TakeMentions takes (the UI and the room never
// disagree).
func FuzzMentionSpansAgreeWithTakeMentions(f *testing.F) {
	for _, s := range []string{"@Claude hi", "@Claude Code, @lin", "x@Lin.", "@Zed @", "＠LIN！"} {
		f.Add(s)
	}
	roster := []string{"Claude", "Claude Code", "Lin", "K"}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "\n", " ")
		_, took := TakeMentions(line, roster)
		var found []string
		for _, s := range MentionSpans(line, roster) {
			found = addName(found, s.Name)
		}
		if !slices.Equal(found, took) {
			t.Fatalf("MentionSpans(%q) names %q, TakeMentions took %q", line, found, took)
		}
	})
}
