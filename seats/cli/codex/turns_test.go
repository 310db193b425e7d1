package codex

import (
	"encoding/json"
	"testing"
)

// codexBoxScreen is Codex 0.169.0's screen with a post typed into its
// composer and not submitted (captured in a probe); the cursor is in the
// box, on row 7.
var codexBoxScreen = []string{
	"› [pullcept] {\"role\":\"admin\",\"message_id\":\"old\"}",
	"  answered long ago",
	"",
	"• Posted to the room.",
	"",
	"",
	"› [pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"4f0d\",\"to\":[\"Cody\"]}",
	"  composer check",
	"  second line of the body",
	"",
	"  GPT-5.5 default · /tmp/cody",
	"                                  ⚠ 1 warning · f2 to view",
}

func TestComposerFollowsTheCursor(t *testing.T) {
	got, ok := (&Adapter{}).Composer(codexBoxScreen, 8)
	want := "[pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"4f0d\",\"to\":[\"Cody\"]}\ncomposer check\nsecond line of the body"
	if !ok || got != want {
		t.Fatalf("Composer = %q, %v; want %q", got, ok, want)
	}
	if _, ok := (&Adapter{}).Composer(codexBoxScreen, 4); ok {
		t.Fatal("a cursor on a blank row read as a box")
	}
	if _, ok := (&Adapter{}).Composer(codexBoxScreen, 99); ok {
		t.Fatal("a cursor off the screen read as a box")
	}
}

func TestUserMessageNote(t *testing.T) {
	params := json.RawMessage(`{"item":{"type":"userMessage","id":"i","content":[{"type":"text","text":"[pullcept] {\"message_id\":\"m1\"}\nhello","text_elements":[]}]},"threadId":"T","turnId":"u"}`)
	if got, ok := userMessageNote(codexNote{Method: noteItemStarted, Params: params}, "T"); !ok || got != "[pullcept] {\"message_id\":\"m1\"}\nhello" {
		t.Fatalf("userMessageNote = %q, %v", got, ok)
	}
	if _, ok := userMessageNote(codexNote{Method: noteItemStarted, Params: params}, "other"); ok {
		t.Fatal("another thread's user message read as the seat's")
	}
	if _, ok := userMessageNote(codexNote{Method: noteItemCompleted, Params: params}, "T"); ok {
		t.Fatal("item/completed read (item/started confirms)")
	}
}

func TestRolloutUserText(t *testing.T) {
	line := []byte(`{"timestamp":"t","ordinal":7,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"[pullcept] {\"message_id\":\"m1\"}\nhello"}]}}`)
	if got, ok := rolloutUserText(line); !ok || got != "[pullcept] {\"message_id\":\"m1\"}\nhello" {
		t.Fatalf("rolloutUserText = %q, %v", got, ok)
	}
	if _, ok := rolloutUserText([]byte(`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[]}}`)); ok {
		t.Fatal("an assistant message read as a submit")
	}
}
