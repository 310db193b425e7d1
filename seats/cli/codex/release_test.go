package codex

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// TestCodexLimitEventsReal: the real Codex 0.169.0's rollout of a normal
// turn and a turn refused on the plan's limit (seats/cli/codex/testdata/README.md)
// gives: a turn began, a normal end, a turn began, a stop whose reset is
// the window the last token_count showed used most (the 5-hour one at
// 100 %).
func TestCodexLimitEventsReal(t *testing.T) {
	b, err := os.ReadFile("testdata/codex-0.169.0-usage-limit.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var rep codexReport
	var got []limits.Event
	var lastReset time.Time
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte{'\n'}) {
		rep, _ = applyCodexLine(rep, line, time.Now())
		if rep.event.Kind != 0 {
			got = append(got, rep.event)
		}
		lastReset = rep.limitReset
	}
	want := []limits.EventKind{limits.TurnStarted, limits.Normal, limits.TurnStarted, limits.Stop}
	if len(got) != len(want) {
		t.Fatalf("events %+v, want kinds %v", got, want)
	}
	for i, k := range want {
		if got[i].Kind != k {
			t.Fatalf("event %d = %+v, want kind %d", i, got[i], k)
		}
	}
	if stop := got[3]; stop.ResetsAt.IsZero() || !stop.ResetsAt.Equal(lastReset) || stop.ResetsAt.Unix() == 1796497200 {
		t.Errorf("stop reset %v (weekly 1796497200 is not the window used most)", stop.ResetsAt)
	}
}

// TestCodexLimitEventShapes: another failure is neither a stop nor a
// normal end; a reset names the window used most, the later one on a tie;
// another limit's set is not the plan's.
func TestCodexLimitEventShapes(t *testing.T) {
	line := func(s string) codexReport {
		r, _ := applyCodexLine(codexReport{}, []byte(s), time.Now())
		return r
	}
	if e := line(`{"type":"event_msg","payload":{"type":"task_complete","error":{"message":"x","codex_error_info":{"response_too_many_failed_attempts":{"http_status_code":429}}}}}`).event; e.Kind != 0 {
		t.Errorf("another failure: %+v", e)
	}
	if e := line(`{"type":"event_msg","payload":{"type":"task_complete","error":{"codex_error_info":"usage_limit_exceeded"}}}`).event; e.Kind != limits.Stop || !e.ResetsAt.IsZero() {
		t.Errorf("a stop with no token_count before: %+v", e)
	}
	tie := line(`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"limit_id":"codex","primary":{"used_percent":100,"window_minutes":10080,"resets_at":1796497200},"secondary":{"used_percent":100,"window_minutes":300,"resets_at":1796162400}}}}`)
	if tie.limitReset.Unix() != 1796497200 {
		t.Errorf("a tie: reset %v, want the later", tie.limitReset)
	}
	other := line(`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"limit_id":"codex_other","primary":{"used_percent":100,"window_minutes":300,"resets_at":1796162400}}}}`)
	if !other.limitReset.IsZero() {
		t.Errorf("another limit's set gave reset %v", other.limitReset)
	}
	bad := line(`{"type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":100,"window_minutes":300,"resets_at":"soon"}}}}`)
	if !bad.limitReset.IsZero() {
		t.Errorf("a reset that is not a number: %v", bad.limitReset)
	}
}

// TestCodexLimitAfterHugeLine: a 10 MB rollout line (a tool's output) is
// skipped unread and the stop after it is still seen.
func TestCodexLimitAfterHugeLine(t *testing.T) {
	path := t.TempDir() + "/rollout.jsonl"
	huge := `{"type":"response_item","payload":{"type":"function_call_output","output":"` + string(bytes.Repeat([]byte("x"), 10<<20)) + `"}}`
	stop := `{"type":"event_msg","payload":{"type":"task_complete","error":{"codex_error_info":"usage_limit_exceeded"}}}`
	if err := os.WriteFile(path, []byte(huge+"\n"+stop+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tail := cli.NewTail(path, 0)
	var rep codexReport
	var got []limits.Event
	for range 3 { // at most codexPollMax per poll
		if _, err := tail.Poll(func(line []byte) {
			if len(line) > cli.DefaultLineMax {
				t.Fatalf("a %d-byte line was handed on", len(line))
			}
			rep, _ = applyCodexLine(rep, line, time.Now())
			if rep.event.Kind != 0 {
				got = append(got, rep.event)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 || got[0].Kind != limits.Stop {
		t.Fatalf("events after a 10 MB line: %+v", got)
	}
}
