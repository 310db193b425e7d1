package claude

import (
	"strings"
	"testing"
)

// claudeBoxScreen is Claude Code 2.1.328's screen with a post typed into
// its input box and not submitted (captured in a probe; the box's prompt
// mark is followed by a no-break space).
var claudeBoxScreen = []string{
	" ▐▛███▛█   Claude Code v2.1.328",
	"",
	"❯ [pullcept] {\"role\":\"admin\",\"message_id\":\"old\"}",
	"  answered long ago",
	"",
	"                                                   ctrl+g to edit in Vim",
	"────────────────────────────────────────────────────────────────",
	"❯\u00a0[pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"6a41\",\"to\":[\"Ada\"]}",
	"  composer check",
	"  second line of the body",
	"────────────────────────────────────────────────────────────────",
	"  pullcept · Opus 5.5 · ctx 0%",
	"  ⏵⏵ bypass permissions on (shift+tab to cycle)",
}

func TestComposerReadsTheBox(t *testing.T) {
	got, ok := (&Adapter{}).Composer(claudeBoxScreen, 0)
	want := "[pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"6a41\",\"to\":[\"Ada\"]}\ncomposer check\nsecond line of the body"
	if !ok || got != want {
		t.Fatalf("Composer = %q, %v; want %q", got, ok, want)
	}
	empty := append([]string{}, claudeBoxScreen[:7]...)
	empty = append(empty, "❯\u00a0", claudeBoxScreen[10], claudeBoxScreen[11])
	if got, ok := (&Adapter{}).Composer(empty, 0); !ok || strings.TrimSpace(got) != "" {
		t.Fatalf("empty box = %q, %v", got, ok)
	}
	if _, ok := (&Adapter{}).Composer(claudeBoxScreen[:5], 0); ok {
		t.Fatal("a screen without the box's rules read as a box")
	}
}
