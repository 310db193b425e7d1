package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// realRollout is a rollout Codex 0.169.0 wrote in the e2e test
// (testdata/README.md): weekly limit 40 % as primary, 5-hour 12.5 % as
// secondary, 29 100 tokens per request, effort high; then after a resume
// effort low and 130 100 tokens.
const realRollout = "testdata/codex-0.169.0-rollout.jsonl"

// Its figures.
var (
	realWeeklyResets   = time.Unix(1796471746, 0)
	realFiveHourResets = time.Unix(1796122546, 0)
)

// rolloutLines reads a recorded rollout's lines.
func rolloutLines(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	return lines
}

// realLine is the n-th line (from 0) of kind in the recorded rollout: the
// payload's type for event_msg and response_item lines, else the line's.
func realLine(t testing.TB, kind string, n int) []byte {
	t.Helper()
	for _, l := range rolloutLines(t, realRollout) {
		var v struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		if json.Unmarshal(l, &v) != nil {
			t.Fatalf("recorded line is not JSON: %.80s", l)
		}
		k := v.Type
		if k == "event_msg" || k == "response_item" {
			k = v.Payload.Type
		}
		if k == kind {
			if n == 0 {
				return l
			}
			n--
		}
	}
	t.Fatalf("no %s line #%d in %s", kind, n, realRollout)
	return nil
}

func pct(v float64) *float64 { return &v }

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// known is a report with every figure set, for lines that must keep them.
func known(now time.Time) codexReport {
	return codexReport{
		usage: cli.Usage{Model: "gpt-5.5", Effort: "high", Context: pct(30), FiveHour: pct(1), Weekly: pct(2),
			FiveHourResets: time.Unix(1796000000, 0), WeeklyResets: time.Unix(1797000000, 0), At: now.Add(-time.Minute),
			ContextAt: now.Add(-time.Minute), FiveHourAt: now.Add(-time.Minute), WeeklyAt: now.Add(-time.Minute)},
		activity: cli.Activity{Kind: cli.ActivityThinking, Since: now.Add(-time.Minute)},
	}
}

// TestApplyCodexLine: real lines of Codex 0.169.0 and synthetic edges move
// the report as docs/design.md §11 says; lines that are not read change
// nothing.
func TestApplyCodexLine(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	base := known(now)
	with := func(f func(*codexReport)) codexReport {
		r := base
		f(&r)
		return r
	}
	readNow := func(r *codexReport) { r.usage.At = now }
	other, err := os.ReadFile("testdata/codex-0.169.0-token-count-codex-other.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		line []byte
		from codexReport
		want codexReport
	}{
		{"turn_context high", realLine(t, "turn_context", 0), codexReport{},
			codexReport{usage: cli.Usage{Model: "gpt-5.5", Effort: "high", At: now}}},
		{"turn_context low keeps the figures", realLine(t, "turn_context", 1), base,
			with(func(r *codexReport) { r.usage.Effort = "low"; readNow(r) })},
		{"token_count: windows by length", realLine(t, "token_count", 0), codexReport{},
			codexReport{usage: cli.Usage{Context: pct(7), FiveHour: pct(12.5), Weekly: pct(40),
				FiveHourResets: realFiveHourResets, WeeklyResets: realWeeklyResets, At: now,
				ContextAt: now, FiveHourAt: now, WeeklyAt: now}}},
		{"token_count after the resume", realLine(t, "token_count", 3), base,
			with(func(r *codexReport) {
				r.usage.Context, r.usage.FiveHour, r.usage.Weekly = pct(48), pct(12.5), pct(40)
				r.usage.FiveHourResets, r.usage.WeeklyResets = realFiveHourResets, realWeeklyResets
				r.usage.ContextAt, r.usage.FiveHourAt, r.usage.WeeklyAt = now, now, now
				readNow(r)
			})},
		// Each figure has its own received time: the windows keep theirs.
		{"codex_other limits ignored, its context read", other, base,
			with(func(r *codexReport) { r.usage.Context, r.usage.ContextAt = pct(7), now; readNow(r) })},
		{"task_started", realLine(t, "task_started", 0), codexReport{},
			codexReport{activity: cli.Activity{Kind: cli.ActivityThinking, Since: ts("2026-12-01T07:55:48.808Z")}}},
		{"tool_search_call", realLine(t, "tool_search_call", 0), base,
			with(func(r *codexReport) {
				r.activity = cli.Activity{Kind: cli.ActivityTool, Tool: "tool_search", Since: ts("2026-12-01T07:55:48.940Z")}
			})},
		{"function_call names the MCP tool as Claude does", realLine(t, "function_call", 0), base,
			with(func(r *codexReport) {
				r.activity = cli.Activity{Kind: cli.ActivityTool, Tool: "mcp__pullcept_room_cody_417eb30e5c__say_to_room",
					Since: ts("2026-12-01T07:55:48.981Z")}
			})},
		{"function_call_output", realLine(t, "function_call_output", 0),
			codexReport{activity: cli.Activity{Kind: cli.ActivityTool, Tool: "x", Since: now}},
			codexReport{activity: cli.Activity{Kind: cli.ActivityThinking, Since: ts("2026-12-01T07:55:49.000Z")}}},
		{"task_complete", realLine(t, "task_complete", 0), base,
			with(func(r *codexReport) {
				r.activity = cli.Activity{Kind: cli.ActivityIdle, Since: ts("2026-12-01T07:55:49.069Z")}
			})},
		{"session_meta", realLine(t, "session_meta", 0), base, base},
		{"world_state", realLine(t, "world_state", 0), base, base},
		{"token_usage_record", realLine(t, "token_usage_record", 0), base, base},
		{"thread_settings_applied", realLine(t, "thread_settings_applied", 0), base, base},
		{"item_completed", realLine(t, "item_completed", 1), base, base},
		{"message", realLine(t, "message", 0), base, base},
		{"tool_search_output while thinking", realLine(t, "tool_search_output", 0), base, base},
	}
	cases = append(cases, syntheticCodexLines(now, base, with, readNow)...)
	for _, c := range cases {
		got, changed := applyCodexLine(c.from, c.line, now)
		if !sameReport(got, c.want) || !got.usage.At.Equal(c.want.usage.At) || !sameReceived(got.usage, c.want.usage) {
			t.Errorf("%s:\n got  %s\n want %s", c.name, showReport(got), showReport(c.want))
		}
		if changed != !sameReport(c.from, c.want) {
			t.Errorf("%s: changed = %v", c.name, changed)
		}
	}
}

// sameReceived compares the figures' own received times (cli.Usage).
func sameReceived(a, b cli.Usage) bool {
	return a.ContextAt.Equal(b.ContextAt) && a.FiveHourAt.Equal(b.FiveHourAt) && a.WeeklyAt.Equal(b.WeeklyAt)
}

// syntheticCodexLines are the edges the recorded rollout does not show.
func syntheticCodexLines(now time.Time, base codexReport, with func(func(*codexReport)) codexReport,
	readNow func(*codexReport)) []struct {
	name string
	line []byte
	from codexReport
	want codexReport
} {
	type c = struct {
		name string
		line []byte
		from codexReport
		want codexReport
	}
	tc := func(payload string) []byte {
		return []byte(`{"timestamp":"2026-12-01T08:00:00.000Z","type":"event_msg","payload":{"type":"token_count",` + payload + `}}`)
	}
	limits := `"rate_limits":{%s"primary":{"used_percent":55.5,"window_minutes":300,"resets_at":1796200000},"secondary":{"used_percent":66,"window_minutes":10080,"resets_at":1796900000}}`
	limitsWith := func(id string) string { return strings.Replace(limits, "%s", id, 1) }
	newLimits := func(r *codexReport) {
		r.usage.FiveHour, r.usage.Weekly = pct(55.5), pct(66)
		r.usage.FiveHourResets, r.usage.WeeklyResets = time.Unix(1796200000, 0), time.Unix(1796900000, 0)
		r.usage.FiveHourAt, r.usage.WeeklyAt = now, now // the context keeps its own
		readNow(r)
	}
	info := `"info":{"last_token_usage":{"total_tokens":29100},"model_context_window":258400}`
	return []c{
		{"not JSON", []byte("not json"), base, base},
		{"empty", nil, base, base},
		{"a JSON array", []byte(`[1,2]`), base, base},
		{"unknown type", []byte(`{"type":"future_thing","payload":{"model":"x"}}`), base, base},
		{"turn_context without effort: unknown", []byte(`{"type":"turn_context","payload":{"model":"gpt-6"}}`), base,
			with(func(r *codexReport) { r.usage.Model, r.usage.Effort = "gpt-6", ""; readNow(r) })},
		{"turn_context of a wrong shape", []byte(`{"type":"turn_context","payload":{"model":5}}`), base, base},
		{"only info", tc(info + `,"rate_limits":null`), base,
			with(func(r *codexReport) { r.usage.Context, r.usage.ContextAt = pct(7), now; readNow(r) })},
		{"only rate_limits", tc(`"info":null,` + limitsWith("")), base, with(newLimits)},
		{"limit_id codex", tc(limitsWith(`"limit_id":"codex",`)), base, with(newLimits)},
		{"limit_id other than codex", tc(limitsWith(`"limit_id":"codex_bengalfox",`)), base, base},
		{"limit_id null", tc(limitsWith(`"limit_id":null,`)), base, with(newLimits)},
		{"window of another length", tc(`"rate_limits":{"primary":{"used_percent":9,"window_minutes":60}}`), base, base},
		{"window without its length", tc(`"rate_limits":{"primary":{"used_percent":9}}`), base, base},
		{"window without reset time", tc(`"rate_limits":{"primary":{"used_percent":9,"window_minutes":300}}`), base,
			with(func(r *codexReport) {
				r.usage.FiveHour, r.usage.FiveHourResets, r.usage.FiveHourAt = pct(9), time.Time{}, now
				readNow(r)
			})},
		{"info without its window", tc(`"info":{"last_token_usage":{"total_tokens":29100}}`), base, base},
		{"info without last usage", tc(`"info":{"model_context_window":258400}`), base, base},
		{"used_percent not a number", tc(`"rate_limits":{"primary":{"used_percent":"9","window_minutes":300}}`), base, base},
		{"task_complete without a time", []byte(`{"type":"event_msg","payload":{"type":"task_complete"}}`), base,
			with(func(r *codexReport) { r.activity = cli.Activity{Kind: cli.ActivityIdle, Since: now} })},
		{"turn_aborted", []byte(`{"timestamp":"2026-12-01T08:00:00Z","type":"event_msg","payload":{"type":"turn_aborted"}}`), base,
			with(func(r *codexReport) {
				r.activity = cli.Activity{Kind: cli.ActivityIdle, Since: ts("2026-12-01T08:00:00Z")}
			})},
		{"custom tool", []byte(`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch\u001b[2J"}}`), base,
			with(func(r *codexReport) {
				r.activity = cli.Activity{Kind: cli.ActivityTool, Tool: "apply_patch[2J", Since: now}
			})},
		{"local shell", []byte(`{"type":"response_item","payload":{"type":"local_shell_call"}}`), base,
			with(func(r *codexReport) { r.activity = cli.Activity{Kind: cli.ActivityTool, Tool: "shell", Since: now} })},
		{"other event", []byte(`{"type":"event_msg","payload":{"type":"agent_message"}}`), base, base},
	}
}

func showReport(r codexReport) string {
	p := func(f *float64) string {
		if f == nil {
			return "—"
		}
		b, _ := json.Marshal(*f)
		return string(b)
	}
	u, a := r.usage, r.activity
	return u.Model + "/" + u.Effort + " ctx " + p(u.Context) + " 5h " + p(u.FiveHour) + "@" + u.FiveHourResets.UTC().Format(time.RFC3339) +
		" wk " + p(u.Weekly) + "@" + u.WeeklyResets.UTC().Format(time.RFC3339) + " at " + u.At.UTC().Format(time.RFC3339Nano) +
		" received ctx/5h/wk " + u.ContextAt.UTC().Format(time.RFC3339) + "/" + u.FiveHourAt.UTC().Format(time.RFC3339) + "/" + u.WeeklyAt.UTC().Format(time.RFC3339) +
		" | " + a.Kind.String() + " " + a.Tool + " since " + a.Since.UTC().Format(time.RFC3339Nano)
}

// TestApplyCodexRolloutReplay: the whole recorded rollout read in order
// ends as the panel must show it after the resumed turn; after the first
// run's lines, as after the first turn.
func TestApplyCodexRolloutReplay(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	var rep codexReport
	var afterFirst codexReport
	completes := 0
	for _, l := range rolloutLines(t, realRollout) {
		rep, _ = applyCodexLine(rep, l, now)
		if rep.activity.Kind == cli.ActivityIdle && completes == 0 {
			afterFirst, completes = rep, 1
		}
	}
	want := func(effort string, context float64, idle string) codexReport {
		return codexReport{usage: cli.Usage{Model: "gpt-5.5", Effort: effort, Context: pct(context), FiveHour: pct(12.5), Weekly: pct(40),
			FiveHourResets: realFiveHourResets, WeeklyResets: realWeeklyResets, At: now},
			activity: cli.Activity{Kind: cli.ActivityIdle, Since: ts(idle)}}
	}
	if w := want("high", 7, "2026-12-01T07:55:49.069Z"); !sameReport(afterFirst, w) {
		t.Errorf("after the first turn:\n got  %s\n want %s", showReport(afterFirst), showReport(w))
	}
	if w := want("low", 48, "2026-12-01T07:55:50.647Z"); !sameReport(rep, w) {
		t.Errorf("at the end:\n got  %s\n want %s", showReport(rep), showReport(w))
	}
}

// TestCodexContextUsed: Codex's /status formula (baseline 12 000 tokens),
// as the panel's used percentage.
func TestCodexContextUsed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		total, window int64
		want          float64
	}{
		{29100, 258400, 7}, // measured: /status "93% left (29.1K used / 258K)"; plain division 11
		{130100, 258400, 48},
		{12000, 12000, 100}, // a window no larger than the baseline: 0 % left
		{0, 8000, 100},
		{5000, 258400, 0}, // below the baseline: nothing of the user's yet
		{12000, 258400, 0},
		{258400, 258400, 100},
		{900000, 258400, 100}, // over the window: clamped
		{24320, 258400, 5},    // 95.004… % left rounds to 95
	} {
		if got := codexContextUsed(c.total, c.window); got != c.want {
			t.Errorf("codexContextUsed(%d, %d) = %v, want %v", c.total, c.window, got, c.want)
		}
	}
}

// BenchmarkCodexRolloutLine is the tail's cost per line: parse and apply
// one typical token_count line of Codex 0.169.0 (~840 bytes).
func BenchmarkCodexRolloutLine(b *testing.B) {
	line := realLine(b, "token_count", 0)
	now := time.Now()
	var rep codexReport
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		rep, _ = applyCodexLine(rep, line, now)
	}
	if rep.usage.Context == nil {
		b.Fatal("the line was not read")
	}
}

// BenchmarkCodexRolloutIdlePoll is what an idle Codex seat's tail costs per
// poll when nothing was appended: one stat. It polls every 1 s, then every
// 10 s after a minute idle (cli.TailEvery), so 8 idle seats cost 8 of
// these a second at most — no busy loop.
func BenchmarkCodexRolloutIdlePoll(b *testing.B) {
	path := filepath.Join(b.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(path, realLine(b, "token_count", 0), 0o600); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	tail := cli.NewTail(path, fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		if n, err := tail.Poll(func([]byte) {}); n != 0 || err != nil {
			b.Fatalf("idle poll: %d lines, %v", n, err)
		}
	}
}
