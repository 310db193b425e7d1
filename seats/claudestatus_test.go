package seats

import (
	"testing"
	"time"
)

// TestParseClaudeStatus reads the fields the panel shows from a status line
// JSON as Claude Code 2.1.328 sends it; absent percentages stay unknown.
func TestParseClaudeStatus(t *testing.T) {
	t.Parallel()
	body := `{"session_id":"s","model":{"id":"claude-opus-5","display_name":"Opus 5"},"effort":{"level":"high"},
		"context_window":{"used_percentage":12.5,"total_input_tokens":1},
		"rate_limits":{"five_hour":{"used_percentage":40,"resets_at":1},"seven_day":{"used_percentage":7}}}`
	st, ok := ParseClaudeStatus([]byte(body))
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
	st, ok = ParseClaudeStatus([]byte(`{"model":{"id":"claude-x"},"context_window":{}}`))
	if !ok || st.Model() != "claude-x" || st.Context != nil || st.FiveHour != nil || st.Weekly != nil {
		t.Fatalf("bare status = %+v, %v", st, ok)
	}
	if _, ok := ParseClaudeStatus([]byte("not json")); ok {
		t.Fatal("non-JSON status parsed")
	}
	// Reset times are Unix seconds; a value in milliseconds is no time.
	st, _ = ParseClaudeStatus([]byte(`{"rate_limits":{"five_hour":{"used_percentage":1,"resets_at":1796100000},"seven_day":{"resets_at":1796100000000}}}`))
	if !st.FiveHourResets.Equal(time.Unix(1796100000, 0)) || !st.WeeklyResets.IsZero() {
		t.Fatalf("resets = %v, %v", st.FiveHourResets, st.WeeklyResets)
	}
	// A field of an unexpected type is unknown; the others still count.
	st, ok = ParseClaudeStatus([]byte(`{"model":{"display_name":"Opus 4","id":7},"effort":"high",
		"context_window":{"used_percentage":42},"rate_limits":{"five_hour":"n/a","seven_day":{"used_percentage":"x"}}}`))
	if !ok || st.Model() != "Opus 4" || st.Effort != "" || st.Context == nil || *st.Context != 42 || st.FiveHour != nil || st.Weekly != nil {
		t.Fatalf("status with odd fields = %+v, %v", st, ok)
	}
}
