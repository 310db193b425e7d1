package claude

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// TestApplyHook: each hook event moves the activity as the panel tells it;
// a body that is not JSON, or names another event than its path, moves
// nothing; tool names are cut and stripped of control characters.
func TestApplyHook(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	cur, wait := cli.Activity{}, cli.PermWait{}
	steps := []struct {
		event, tool string
		want        cli.Activity
		permission  bool // HoldPermission after the step
	}{
		{hookUserPromptSubmit, "", cli.Activity{Kind: cli.ActivityThinking, Since: at(0)}, false},
		{hookPreToolUse, "Bash", cli.Activity{Kind: cli.ActivityTool, Tool: "Bash", Since: at(1)}, false},
		{hookPermissionRequest, "Bash", cli.Activity{Kind: cli.ActivityPermission, Tool: "Bash", Since: at(2)}, true},
		{hookPostToolUse, "Bash", cli.Activity{Kind: cli.ActivityThinking, Since: at(3)}, false},
		{hookSubagentStart, "", cli.Activity{Kind: cli.ActivityThinking, Subagents: 1, Since: at(3)}, false},
		{hookSubagentStart, "", cli.Activity{Kind: cli.ActivityThinking, Subagents: 2, Since: at(3)}, false},
		{hookPreToolUse, "mcp__s__read", cli.Activity{Kind: cli.ActivityTool, Tool: "mcp__s__read", Subagents: 2, Since: at(6)}, false},
		{hookPostToolUseFailure, "mcp__s__read", cli.Activity{Kind: cli.ActivityThinking, Subagents: 2, Since: at(7)}, false},
		{hookSubagentStop, "", cli.Activity{Kind: cli.ActivityThinking, Subagents: 1, Since: at(7)}, false},
		{hookStop, "", cli.Activity{Kind: cli.ActivityIdle, Since: at(9)}, false},
	}
	for i, s := range steps {
		step := applyHook(cur, wait, s.event, hookBody(s.event, s.tool, `"same input"`), at(i))
		if permission, _ := step.Wait.Holds(); step.Next != s.want || permission != s.permission {
			t.Fatalf("step %d %s: %+v wait %+v, want %+v permission %v", i, s.event, step.Next, step.Wait, s.want, s.permission)
		}
		cur, wait = step.Next, step.Wait
	}
	for _, bad := range []struct{ event, body string }{
		{hookStop, "not json"},
		{hookStop, `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`},
		{"Unregistered", `{"hook_event_name":"Unregistered"}`},
	} {
		if step := applyHook(cur, wait, bad.event, []byte(bad.body), at(20)); step.Changed || step.Next != cur || !step.Wait.Equal(wait) {
			t.Errorf("%s %q moved the activity: %+v", bad.event, bad.body, step)
		}
	}
	step := applyHook(cur, wait, hookPreToolUse, hookBody(hookPreToolUse, "Ba\x1b[31msh\n"+strings.Repeat("x", 200), "{}"), at(30))
	if tool := step.Next.Tool; strings.ContainsAny(tool, "\x1b\n") || len([]rune(tool)) != cli.MaxToolName+1 || !strings.HasPrefix(tool, "Ba[31msh") {
		t.Fatalf("tool name kept as %q", tool)
	}
}

// TestPermissionWaitPerRequest: a request ends only with its own tool's
// result (found by the breaker review with the real CLI: a parallel Read's
// PostToolUse released the hold while another Read's dialog was open, and
// a post's "\r" approved it). Two dialogs asked at once: answering the
// first leaves the second open. Keys are matched by tool and input.
func TestPermissionWaitPerRequest(t *testing.T) {
	t.Parallel()
	now := time.Unix(1796100000, 0)
	cur, wait := cli.Activity{}, cli.PermWait{}
	apply := func(event, tool, input string) {
		t.Helper()
		step := applyHook(cur, wait, event, hookBody(event, tool, input), now)
		cur, wait = step.Next, step.Wait
	}
	holds := func() (bool, bool) { return wait.Holds() }
	outside, inside := `{"file_path":"/elsewhere/a.txt"}`, `{"file_path": "/work/inside.txt"}`
	apply(hookPreToolUse, "Read", inside)
	apply(hookPreToolUse, "Read", outside)
	apply(hookPermissionRequest, "Read", outside)
	apply(hookPostToolUse, "Read", inside) // the other, parallel Read
	if p, _ := holds(); !p || cur.Kind != cli.ActivityPermission {
		t.Fatalf("another tool's result ended the wait: %+v %+v", cur, wait)
	}
	apply(hookPostToolUse, "Read", `{ "file_path" : "/elsewhere/a.txt" }`) // same input, other spacing
	if p, a := holds(); p || a || cur.Kind != cli.ActivityThinking {
		t.Fatalf("its own tool's result did not end the wait: %+v %+v", cur, wait)
	}

	// Two dialogs: "1 of 2", "2 of 2".
	apply(hookPermissionRequest, "Read", outside)
	apply(hookPermissionRequest, "Write", `{"file_path":"/elsewhere/b.txt"}`)
	step := cli.AnswerDialog(cur, wait, []byte("1"), now)
	cur, wait = step.Next, step.Wait
	if p, _ := holds(); !p || cur.Kind != cli.ActivityPermission || cur.Tool != "Write" {
		t.Fatalf("after one answer of two: %+v %+v", cur, wait)
	}
	apply(hookPostToolUse, "Read", outside)
	if p, _ := holds(); !p {
		t.Fatalf("the first tool's result ended the second dialog's wait: %+v", wait)
	}
	step = cli.AnswerDialog(cur, wait, []byte("\r"), now)
	cur, wait = step.Next, step.Wait
	if p, a := holds(); p || !a || cur.Kind != cli.ActivityThinking {
		t.Fatalf("both answered, one result to come: %+v %+v", cur, wait)
	}
	apply(hookPostToolUseFailure, "Write", `{"file_path":"/elsewhere/b.txt"}`)
	if p, a := holds(); p || a {
		t.Fatalf("all results in, still held: %+v", wait)
	}

	// A request whose body cannot be read still holds; only the turn's
	// end releases it.
	for _, body := range []string{`{"hook_event_name":"PermissionRequest","tool_name":"Bash","agent_id":7,"tool_input":5}`, "{", `{"hook_event_name":"Stop"}`} {
		step := applyHook(cli.Activity{}, cli.PermWait{}, hookPermissionRequest, []byte(body), now)
		if p, _ := step.Wait.Holds(); !p || step.Next.Kind != cli.ActivityPermission {
			t.Errorf("PermissionRequest %q did not hold: %+v", body, step)
		}
		after := applyHook(step.Next, step.Wait, hookPostToolUse, hookBody(hookPostToolUse, "", "{}"), now)
		if p, _ := after.Wait.Holds(); !p {
			t.Errorf("an unmatched result released %q", body)
		}
		if end := applyHook(after.Next, after.Wait, hookStop, hookBody(hookStop, "", "{}"), now); len(end.Wait.Pending) != 0 {
			t.Errorf("Stop left %+v", end.Wait)
		}
	}
}

// TestBarePermissionRequestHolds: the room hands an oversize hook on as its
// bare event; a bare PermissionRequest still starts the hold, tool unknown.
func TestBarePermissionRequestHolds(t *testing.T) {
	t.Parallel()
	step := applyHook(cli.Activity{}, cli.PermWait{}, "PermissionRequest", []byte(`{"hook_event_name":"PermissionRequest"}`), time.Unix(1796100000, 0))
	if p, _ := step.Wait.Holds(); !p || step.Next.Kind != cli.ActivityPermission || step.Next.Tool != "" {
		t.Fatalf("step = %+v", step)
	}
}

// hookBody is a hook body as Claude Code sends it: the event, the tool and

// its input (raw JSON).

func hookBody(event, tool, input string) []byte {

	b, _ := json.Marshal(map[string]any{"hook_event_name": event, "tool_name": tool, "tool_input": json.RawMessage(input)})

	return b

}
