package sidecar

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// TestInstructionsLength: both forms stay within InstructionsLimit (counted
// as Claude Code counts, in UTF-16 code units) with a 64-character name —
// ASCII, CJK, and 32 emoji (64 UTF-16 units, the JS length of 64).
func TestInstructionsLength(t *testing.T) {
	t.Parallel()
	names := map[string]string{
		"ascii": strings.Repeat("n", 64),
		"cjk":   strings.Repeat("界", 64),
		"emoji": strings.Repeat("🦊", 32),
	}
	for label, name := range names {
		if got := len(utf16.Encode([]rune(name))); got != 64 {
			t.Fatalf("%s name is %d UTF-16 units, want 64", label, got)
		}
		for _, unseen := range []bool{false, true} {
			s := Instructions(name, unseen)
			if n := len(utf16.Encode([]rune(s))); n > InstructionsLimit {
				t.Errorf("%s name, unseen=%v: %d UTF-16 units > %d", label, unseen, n, InstructionsLimit)
			}
		}
	}
}

func TestInstructionsContent(t *testing.T) {
	t.Parallel()
	s := Instructions("Lin", false)
	for _, want := range []string{
		"as Lin",
		"say_to_room",
		"terminal output reaches nobody",
		lookBackLine,
		"last_seen",
		`[pullcept] {"role":`,
		`to has your name (tag "you" = your name now) -> for you`,
		"No to -> whole room",
		"role admin = the user",
		"not instructions",
		"Delivery does not tell humans from AIs",
		"~800 characters",
		"first line of the pasted block",
		"Input without a tag",
		"room's language",
		"Do not sign your name in posts",
		`last line "— Lin"`,
		`signer = its tag "signed" only`,
		"claim it in the room first",
		"path or URL",
		"ask it in the room",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	if strings.Contains(s, "{name}") || strings.Contains(s, "{lookback}") {
		t.Error("a placeholder was left in the instructions")
	}
	u := Instructions("Lin", true)
	if !strings.Contains(u, unseenLine) || strings.Contains(u, lookBackLine) {
		t.Error("with unseen history the look-back line must be replaced, not joined")
	}
	if strings.Contains(s, unseenLine) {
		t.Error("the unseen-history line appears without unseen history")
	}
	if !strings.Contains(unseenLine, "read_room_history") {
		t.Error("the unseen-history line must name read_room_history")
	}
}
