package claude

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// TestParseClaudeStatus reads the fields the panel shows from a status line
// JSON as Claude Code 2.1.328 sends it; absent percentages stay unknown.
func TestParseClaudeStatus(t *testing.T) {
	t.Parallel()
	body := `{"session_id":"s","model":{"id":"claude-opus-5","display_name":"Opus 5"},"effort":{"level":"high"},
		"context_window":{"used_percentage":12.5,"total_input_tokens":1},
		"rate_limits":{"five_hour":{"used_percentage":40,"resets_at":1},"seven_day":{"used_percentage":7}}}`
	st, ok := ParseStatus([]byte(body))
	if !ok || st.Model() != "Opus 5" || st.Effort != "high" {
		t.Fatalf("status = %+v, %v", st, ok)
	}
	for name, p := range map[string]struct {
		got  *float64
		want float64
	}{"context": {st.Context, 12.5}, "5h": {st.FiveHour, 40}, "7d": {st.Weekly, 7}} {
		if p.got == nil || *p.got != p.want {
			t.Errorf("%s = %v, want %v", name, p.got, p.want)
		}
	}
	// An API-key session has no rate limits; a model without a display
	// name shows its id.
	st, ok = ParseStatus([]byte(`{"model":{"id":"claude-x"},"context_window":{}}`))
	if !ok || st.Model() != "claude-x" || st.Context != nil || st.FiveHour != nil || st.Weekly != nil {
		t.Fatalf("bare status = %+v, %v", st, ok)
	}
	// A figure that is no percentage is unknown, not a 300-digit number.
	st, _ = ParseStatus([]byte(`{"context_window":{"used_percentage":1e300},"rate_limits":{"five_hour":{"used_percentage":-3},"seven_day":{"used_percentage":104}}}`))
	if st.Context != nil || st.FiveHour != nil || st.Weekly == nil || *st.Weekly != 104 {
		t.Fatalf("implausible percentages = %v %v %v", st.Context, st.FiveHour, st.Weekly)
	}
	if _, ok := ParseStatus([]byte("not json")); ok {
		t.Fatal("non-JSON status parsed")
	}
	// Reset times are Unix seconds; a value in milliseconds is no time.
	st, _ = ParseStatus([]byte(`{"rate_limits":{"five_hour":{"used_percentage":1,"resets_at":1796100000},"seven_day":{"resets_at":1796100000000}}}`))
	if !st.FiveHourResets.Equal(time.Unix(1796100000, 0)) || !st.WeeklyResets.IsZero() {
		t.Fatalf("resets = %v, %v", st.FiveHourResets, st.WeeklyResets)
	}
	// A field of an unexpected type is unknown; the others still count.
	st, ok = ParseStatus([]byte(`{"model":{"display_name":"Opus 4","id":7},"effort":"high",
		"context_window":{"used_percentage":42},"rate_limits":{"five_hour":"n/a","seven_day":{"used_percentage":"x"}}}`))
	if !ok || st.Model() != "Opus 4" || st.Effort != "" || st.Context == nil || *st.Context != 42 || st.FiveHour != nil || st.Weekly != nil {
		t.Fatalf("status with odd fields = %+v, %v", st, ok)
	}
}

// claudeCapture reads a status line or hook body the real Claude Code
// 2.1.328 sent in an e2e test (seats/cli/claude/testdata/README.md).
func claudeCapture(t *testing.T, test, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.328", test, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseClaudeStatusCaptured reads the status lines the real CLI sent:
// with a gateway credential and the fake's rate-limit headers it carries
// rate_limits (23 % and 41 % as sent, resets in Unix seconds); without,
// the plan windows stay unknown while model, effort and context are read.
func TestParseClaudeStatusCaptured(t *testing.T) {
	t.Parallel()
	st, ok := ParseStatus(claudeCapture(t, "TestE2EClaudeRoundTrip", "statusline.json"))
	if !ok || st.Model() != "Opus 5.5" || st.ModelID != "claude-opus-5-5" || st.Effort != "medium" {
		t.Fatalf("status = %+v, %v", st, ok)
	}
	if st.Context == nil || *st.Context != 0 || st.FiveHour == nil || *st.FiveHour != 23 || st.Weekly == nil || *st.Weekly != 41 {
		t.Fatalf("context %v, 5h %v, week %v; want 0, 23, 41", st.Context, st.FiveHour, st.Weekly)
	}
	if !st.FiveHourResets.Equal(time.Unix(1796127526, 0)) || !st.WeeklyResets.Equal(time.Unix(1796476126, 0)) {
		t.Fatalf("resets %v, %v", st.FiveHourResets, st.WeeklyResets)
	}
	st, ok = ParseStatus(claudeCapture(t, "TestE2EClaudePermissionHold", "statusline.json"))
	if !ok || st.Model() != "Opus 5.5" || st.Context == nil || st.FiveHour != nil || st.Weekly != nil || !st.FiveHourResets.IsZero() {
		t.Fatalf("API-key status = %+v, %v", st, ok)
	}
}

// TestApplyHookCaptured walks the hooks the real CLI sent for a Bash call
// it asked permission for: the activity words and the hold follow them.
func TestApplyHookCaptured(t *testing.T) {
	t.Parallel()
	const test = "TestE2EClaudePermissionHold"
	now := time.Unix(1796100000, 0)
	cur, wait := cli.Activity{}, cli.PermWait{}
	for _, want := range []struct {
		event string
		kind  cli.ActivityKind
		tool  string
		held  bool
	}{
		{hookUserPromptSubmit, cli.ActivityThinking, "", false},
		{hookPreToolUse, cli.ActivityTool, "Bash", false},
		{hookPermissionRequest, cli.ActivityPermission, "Bash", true},
		{hookPostToolUse, cli.ActivityThinking, "", false}, // its own result: tool and input match
		{hookStop, cli.ActivityIdle, "", false},
	} {
		now = now.Add(time.Second)
		step := applyHook(cur, wait, want.event, claudeCapture(t, test, "hook-"+want.event+".json"), now)
		if p, _ := step.Wait.Holds(); !step.Changed || step.Next.Kind != want.kind || step.Next.Tool != want.tool || p != want.held {
			t.Fatalf("%s: step %+v, want %v %q held %v", want.event, step, want.kind, want.tool, want.held)
		}
		cur, wait = step.Next, step.Wait
	}
}
