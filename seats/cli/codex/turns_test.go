package codex

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
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
	got, ok := (&Adapter{}).Composer(codexBoxScreen, 25, 8)
	want := "[pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"4f0d\",\"to\":[\"Cody\"]}\ncomposer check\nsecond line of the body"
	if !ok || got != want {
		t.Fatalf("Composer = %q, %v; want %q", got, ok, want)
	}
	if _, ok := (&Adapter{}).Composer(codexBoxScreen, 0, 4); ok {
		t.Fatal("a cursor on a blank row read as a box")
	}
	if _, ok := (&Adapter{}).Composer(codexBoxScreen, 0, 99); ok {
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

// TestLongLine: the head of a rollout line too long to keep still tells a
// turn's end and a user message's first line (issue 30: an answer over
// 64 KiB left the seat in its turn for ever).
func TestLongLine(t *testing.T) {
	end := `{"timestamp":"2026-12-06T10:00:00.000Z","ordinal":9,"type":"event_msg","payload":{"type":"task_complete","root_turn_id":"r","last_agent_message":"` + strings.Repeat("long ", 900)
	line, ok := longLine([]byte(end))
	if !ok {
		t.Fatal("task_complete head not read")
	}
	rep, _ := applyCodexLine(codexReport{activity: cli.Activity{Kind: cli.ActivityThinking}}, line, time.Now())
	if rep.activity.Kind != cli.ActivityIdle {
		t.Fatalf("activity after the long turn end = %v, want idle (line %s)", rep.activity.Kind, line)
	}
	user := `{"timestamp":"2026-12-06T10:00:00.000Z","ordinal":7,"type":"response_item","payload":{"type":"message","id":"msg_1","role":"user","content":[{"type":"input_text","text":"[pullcept] {\"role\":\"admin\",\"message_id\":\"m1\"}\n` + strings.Repeat(`\"`, 2000)
	line, ok = longLine([]byte(user[:4096]))
	if !ok {
		t.Fatal("user message head not read")
	}
	text, ok := rolloutUserText(line)
	if !ok || !strings.HasPrefix(text, `[pullcept] {"role":"admin","message_id":"m1"}`+"\n\"") {
		t.Fatalf("user text from the head = %.80q, %v", text, ok)
	}
	if _, ok := longLine([]byte(`{"timestamp":"x","type":"response_item","payload":{"type":"function_call_output"`)); ok {
		t.Fatal("a tool output's head read as something")
	}
}

// TestComposerPlaceholderIsEmpty: the empty composer's placeholder, with
// the cursor right after the mark, reads as an empty box.
func TestComposerPlaceholderIsEmpty(t *testing.T) {
	screen := []string{"• Posted to the room.", "", "› Ask Codex to do anything", "", "  GPT-5.5 default · /tmp/cody"}
	if got, ok := (&Adapter{}).Composer(screen, 2, 2); !ok || got != "" {
		t.Fatalf("placeholder = %q, %v; want an empty box", got, ok)
	}
	if got, ok := (&Adapter{}).Composer(screen, 27, 2); !ok || got != "Ask Codex to do anything" {
		t.Fatalf("typed text = %q, %v", got, ok)
	}
}
