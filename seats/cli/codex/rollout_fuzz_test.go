package codex

import (
	"math"
	"testing"
	"time"
)

// FuzzCodexRolloutLine: a rollout line is a file any process of the seat can
// write, so every byte string must be read without a panic, the same way
// twice (a re-read line changes nothing more), and never yield a percentage
// that is not a finite number (docs/design.md §11).
func FuzzCodexRolloutLine(f *testing.F) {
	f.Add([]byte(`{"timestamp":"2026-10-01T10:00:00Z","type":"turn_context","payload":{"model":"gpt-5","effort":"high"}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":10},"model_context_window":100},"rate_limits":{"primary":{"used_percent":12.5,"window_minutes":300,"resets_at":1790000000}}}}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","name":"shell","namespace":"x"}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"task_started"}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":1e309}}}}`))
	f.Add([]byte("\x00\xff{"))
	now := time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line []byte) {
		next, changed := applyCodexLine(codexReport{}, line, now)
		again, changed2 := applyCodexLine(codexReport{}, line, now)
		if changed != changed2 || !sameReport(next, again) {
			t.Fatalf("the same line read twice differs: %+v / %+v", next, again)
		}
		if !changed && !sameReport(next, codexReport{}) {
			t.Fatalf("unchanged, yet the report moved: %+v", next)
		}
		if _, moved := applyCodexLine(next, line, now); moved && next.activity == (codexReport{}).activity {
			// Usage fields are absolute: reading the line again sets the same.
			t.Fatalf("re-reading a usage line changed the report again")
		}
		u := next.usage
		for _, p := range []*float64{u.Context, u.FiveHour, u.Weekly} {
			if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
				t.Fatalf("percentage %v from %q", *p, line)
			}
		}
	})
}
