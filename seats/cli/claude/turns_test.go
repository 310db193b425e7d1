package claude

import (
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
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
	got, ok := (&Adapter{}).Composer(claudeBoxScreen, 0, 0)
	want := "[pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"6a41\",\"to\":[\"Ada\"]}\ncomposer check\nsecond line of the body"
	if !ok || got != want {
		t.Fatalf("Composer = %q, %v; want %q", got, ok, want)
	}
	empty := append([]string{}, claudeBoxScreen[:7]...)
	empty = append(empty, "❯\u00a0", claudeBoxScreen[10], claudeBoxScreen[11])
	if got, ok := (&Adapter{}).Composer(empty, 0, 0); !ok || strings.TrimSpace(got) != "" {
		t.Fatalf("empty box = %q, %v", got, ok)
	}
	if _, ok := (&Adapter{}).Composer(claudeBoxScreen[:5], 0, 0); ok {
		t.Fatal("a screen without the box's rules read as a box")
	}
}

// TestComposerIgnoresDrawnBoxes: a post's rows are indented in the box, so
// a rule or a prompt mark a body draws is not the box (breaker review:
// a one-line body wrapping into a rule and "❯" read as an empty box).
func TestComposerIgnoresDrawnBoxes(t *testing.T) {
	rule := strings.Repeat("─", 64)
	screen := []string{" ▐▛███▛█   Claude Code v2.1.328", "", rule,
		"❯\u00a0[pullcept] {\"role\":\"claude_code\",\"from\":\"Eve\",\"message_id\":\"e1\",\"to\":[\"Ada\"]}",
		"  " + strings.Repeat("a", 62), "  " + strings.Repeat("─", 62), "  ❯", "", rule, "  pullcept · Opus 5.5 · ctx 0%"}
	got, ok := (&Adapter{}).Composer(screen, 0, 7)
	if !ok || strings.TrimSpace(got) == "" || !strings.Contains(got, `"message_id":"e1"`) {
		t.Fatalf("the box holding Eve's post read as %q, %v", got, ok)
	}
}

// interruptSeat is the part of a cli.Seat interrupted uses.
type interruptSeat struct {
	cli.Seat
	now time.Time
	rep cli.Reported
}

func (s *interruptSeat) Now() time.Time                    { return s.now }
func (s *interruptSeat) Report(f func(*cli.Reported) bool) { f(&s.rep) }

// TestInterruptedEndsTheTurn: the transcript's interrupt line ends the
// turn (no hook fires for "No" or Esc); read late, after a turn that
// began later, it changes nothing (breaker review).
func TestInterruptedEndsTheTurn(t *testing.T) {
	line := []byte(`{"type":"user","isSidechain":false,"timestamp":"2026-12-06T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}`)
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	s := &interruptSeat{now: at("2026-12-06T10:00:02Z"),
		rep: cli.Reported{Activity: cli.Activity{Kind: cli.ActivityPermission, Since: at("2026-12-06T10:00:00Z")}}}
	interrupted(s, line)
	if s.rep.Activity.Kind != cli.ActivityIdle {
		t.Fatalf("activity after the interrupt = %v, want idle", s.rep.Activity.Kind)
	}
	s.rep.Activity = cli.Activity{Kind: cli.ActivityTool, Since: at("2026-12-06T10:00:05Z")}
	interrupted(s, line)
	if s.rep.Activity.Kind != cli.ActivityTool {
		t.Fatalf("a stale interrupt line ended a later turn: %v", s.rep.Activity.Kind)
	}
	sidechain := []byte(strings.Replace(string(line), `"isSidechain":false`, `"isSidechain":true`, 1))
	s.rep.Activity = cli.Activity{Kind: cli.ActivityTool, Since: at("2026-12-06T10:00:00Z")}
	interrupted(s, sidechain)
	if s.rep.Activity.Kind != cli.ActivityTool {
		t.Fatal("a subagent's interrupt ended the seat's turn")
	}
}
