package codex

import (
	"encoding/json"
	"math"
	"os"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// A Codex seat reports its usage and activity through its rollout, the
// session's JSONL under $CODEX_HOME/sessions (docs/design.md §11; spec
// «Codex の席は自分の様子を rollout で知らせる»). The line shapes read here
// are Codex 0.169.0's (docs/clis.md §3.6; real lines in
// testdata/codex-0.169.0-rollout.jsonl).

// Codex's /status context formula (codex-rs TokenUsage::
// percent_of_context_window_remaining): the first 12 000 tokens (prompts,
// fixed tools, room to compact) are not the user's, so both the window and
// the usage are counted above them.
const codexBaselineTokens = 12000

// codexContextUsed is the used context percentage the panel shows: 100 minus
// Codex's own "N% left", so both agree (measured: 29.1K of 258K is "93%
// left", 7 % used; plain division said 11 %).
func codexContextUsed(total, window int64) float64 {
	if window <= codexBaselineTokens {
		return 100
	}
	effective := window - codexBaselineTokens
	used := max(total-codexBaselineTokens, 0)
	remaining := max(effective-used, 0)
	left := math.Round(min(max(float64(remaining)/float64(effective)*100, 0), 100))
	return 100 - left
}

// codexReport is what a rollout tells of a seat: its usage and activity;
// and, for its limiter (limits.go), the reset time of the window the last
// token_count showed used most, and what the line just read means for it
// (event.kind 0: nothing).
type codexReport struct {
	usage      cli.Usage
	activity   cli.Activity
	limitReset time.Time
	event      limits.Event
}

// codexLine is the part of a rollout line read here: the line's type and
// time, and the payload fields of turn_context, event_msg (task_started,
// token_count, task_complete, turn_aborted) and response_item (tool calls
// and their outputs).
type codexLine struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type       string           `json:"type"`
		Model      *string          `json:"model"`
		Effort     *string          `json:"effort"`
		Name       string           `json:"name"`
		Namespace  string           `json:"namespace"`
		Info       *codexTokenInfo  `json:"info"`
		RateLimits *codexRateLimits `json:"rate_limits"`
		// Error ends a turn that failed; codex_error_info is
		// "usage_limit_exceeded" for the plan's limit (docs/clis.md §3.6).
		Error *struct {
			Info json.RawMessage `json:"codex_error_info"`
		} `json:"error"`
	} `json:"payload"`
}

type codexTokenInfo struct {
	Last *struct {
		Total *float64 `json:"total_tokens"`
	} `json:"last_token_usage"`
	Window *float64 `json:"model_context_window"`
}

type codexRateLimits struct {
	LimitID   *string      `json:"limit_id"`
	Primary   *codexWindow `json:"primary"`
	Secondary *codexWindow `json:"secondary"`
}

type codexWindow struct {
	UsedPercent *float64 `json:"used_percent"`
	Minutes     *float64 `json:"window_minutes"`
	ResetsAt    *float64 `json:"resets_at"`
}

// The rate-limit windows told apart by length, never by position (the
// primary/secondary order is the server's; docs/clis.md §3.6).
const (
	codexFiveHourMinutes = 300
	codexWeeklyMinutes   = 10080
	codexPlanLimitID     = "codex"
)

// applyCodexLine computes the report after one complete rollout line read
// at now. A line that is not JSON, of a type not read here, or missing the
// fields it needs changes nothing; changed says whether anything shown
// changed (Usage.At alone is not a change).
func applyCodexLine(cur codexReport, line []byte, now time.Time) (next codexReport, changed bool) {
	var l codexLine
	if json.Unmarshal(line, &l) != nil {
		return cur, false
	}
	next = cur
	next.event = limits.Event{}
	p := &l.Payload
	if l.Type == "event_msg" {
		next.event = codexLimitEvent(p.Type, p.Error != nil, p.Error != nil && string(p.Error.Info) == `"usage_limit_exceeded"`, cur.limitReset)
	}
	switch {
	case l.Type == "turn_context":
		// A new turn's settings replace both; one it does not name is unknown.
		next.usage.Model, next.usage.Effort = deref(p.Model), deref(p.Effort)
		next.usage.At = now
	case l.Type == "event_msg" && p.Type == "token_count":
		next.limitReset = maxUsedReset(p.RateLimits, cur.limitReset)
		if !applyTokenCount(&next.usage, p.Info, p.RateLimits, now) {
			return next, false
		}
		next.usage.At = now
	case l.Type == "event_msg":
		next.activity = turnActivity(cur.activity, p.Type, lineTime(l.Timestamp, now))
	case l.Type == "response_item":
		next.activity = toolActivity(cur.activity, p.Type, p.Namespace, p.Name, lineTime(l.Timestamp, now))
	default:
		return cur, false
	}
	return next, !sameReport(cur, next)
}

// applyTokenCount takes the context and the plan's limits a token_count
// carries, read at now (each figure read gets now as its received time).
// Either half may be missing (Codex writes info-only and limits-only
// token_counts); the other stays as it was, with its own received time. It
// reports whether anything was read.
func applyTokenCount(u *cli.Usage, info *codexTokenInfo, rl *codexRateLimits, now time.Time) bool {
	read := false
	if info != nil && info.Last != nil && info.Last.Total != nil && info.Window != nil && *info.Window > 0 {
		c := codexContextUsed(int64(*info.Last.Total), int64(*info.Window))
		u.Context, u.ContextAt = &c, now
		read = true
	}
	// A set of another limit (a model's own metered limit) is not the plan's.
	if rl == nil || rl.LimitID != nil && *rl.LimitID != codexPlanLimitID {
		return read
	}
	for _, w := range []*codexWindow{rl.Primary, rl.Secondary} {
		if w == nil || w.Minutes == nil || w.UsedPercent == nil {
			continue
		}
		used := cli.PlausiblePercent(*w.UsedPercent)
		if used == nil {
			continue
		}
		var resets time.Time
		if w.ResetsAt != nil {
			resets = cli.EpochTime(*w.ResetsAt)
		}
		switch *w.Minutes {
		case codexFiveHourMinutes:
			u.FiveHour, u.FiveHourResets, u.FiveHourAt, read = used, resets, now, true
		case codexWeeklyMinutes:
			u.Weekly, u.WeeklyResets, u.WeeklyAt, read = used, resets, now, true
		}
	}
	return read
}

// codexLimitEvent is what a turn's event means for the seat's limiter: a
// turn began; one ended on the plan's limit (a stop, reset at the window
// the last token_count showed used most); one ended without error (a
// normal turn). A turn that failed otherwise is neither.
func codexLimitEvent(event string, failed, usageLimit bool, reset time.Time) limits.Event {
	switch {
	case event == "task_started":
		return limits.Event{Kind: limits.TurnStarted}
	case event != "task_complete":
		return limits.Event{}
	case usageLimit:
		return limits.Event{Kind: limits.Stop, ResetsAt: reset}
	case !failed:
		return limits.Event{Kind: limits.Normal}
	}
	return limits.Event{}
}

// maxUsedReset is the reset time of the window a token_count shows used
// most (the later one on a tie; spec #294), or cur when it names none.
func maxUsedReset(rl *codexRateLimits, cur time.Time) time.Time {
	if rl == nil || rl.LimitID != nil && *rl.LimitID != codexPlanLimitID {
		return cur
	}
	best, out := -1.0, time.Time{}
	for _, w := range []*codexWindow{rl.Primary, rl.Secondary} {
		if w == nil || w.UsedPercent == nil || w.ResetsAt == nil {
			continue
		}
		at := cli.EpochTime(*w.ResetsAt)
		if at.IsZero() {
			continue
		}
		if *w.UsedPercent > best || (*w.UsedPercent == best && at.After(out)) {
			best, out = *w.UsedPercent, at
		}
	}
	if out.IsZero() {
		return cur
	}
	return out
}

// turnActivity moves the activity on a turn's event: task_started →
// thinking, task_complete or turn_aborted → idle since then.
func turnActivity(cur cli.Activity, event string, at time.Time) cli.Activity {
	switch event {
	case "task_started":
		return cli.Activity{Kind: cli.ActivityThinking, Since: at}
	case "task_complete", "turn_aborted":
		return cli.Activity{Kind: cli.ActivityIdle, Since: at}
	}
	return cur
}

// toolActivity moves the activity on a response item: a tool call → the
// tool runs, its output → thinking again. An MCP tool is named as Claude
// Code names it, mcp__<server>__<tool> (Codex's namespace is mcp__<server>).
func toolActivity(cur cli.Activity, item, namespace, name string, at time.Time) cli.Activity {
	next := cur
	switch item {
	case "function_call", "custom_tool_call":
		if namespace != "" {
			name = namespace + "__" + name
		}
		next.Kind, next.Tool = cli.ActivityTool, cli.ToolName(name)
	case "local_shell_call":
		next.Kind, next.Tool = cli.ActivityTool, "shell"
	case "tool_search_call":
		next.Kind, next.Tool = cli.ActivityTool, "tool_search"
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		next.Kind, next.Tool = cli.ActivityThinking, ""
	default:
		return cur
	}
	if next.Kind != cur.Kind {
		next.Since = at
	}
	return next
}

// lineTime is when a rollout line says it happened, else now.
func lineTime(ts string, now time.Time) time.Time {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t
	}
	return now
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// sameReport compares what is shown: the figures by value, not Usage.At.
func sameReport(a, b codexReport) bool {
	x, y := a.usage, b.usage
	return a.activity == b.activity && x.Model == y.Model && x.Effort == y.Effort &&
		samePercent(x.Context, y.Context) && samePercent(x.FiveHour, y.FiveHour) &&
		samePercent(x.Weekly, y.Weekly) && x.FiveHourResets.Equal(y.FiveHourResets) &&
		x.WeeklyResets.Equal(y.WeeklyResets)
}

func samePercent(a, b *float64) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// codexRolloutSize is a resumed seat's starting offset: the rollout's length
// when the seat starts, so the previous run's lines are never read as this
// run's (0 when there is none).
func codexRolloutSize(home, sessionID string) (string, int64) {
	path, ok := Rollout(home, sessionID)
	if !ok {
		return "", 0
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", 0
	}
	return path, fi.Size()
}
