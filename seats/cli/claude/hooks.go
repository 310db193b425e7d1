package claude

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// Hook events Pullcept registers for Claude Code seats (the http hooks in
// the launch line, HookEvents) and what each means for the activity.
const (
	hookUserPromptSubmit   = "UserPromptSubmit"
	hookPreToolUse         = "PreToolUse"
	hookPostToolUse        = "PostToolUse"
	hookPostToolUseFailure = "PostToolUseFailure"
	hookPermissionRequest  = "PermissionRequest"
	hookSubagentStart      = "SubagentStart"
	hookSubagentStop       = "SubagentStop"
	hookStop               = "Stop"
	// hookStopFailure ends a turn an API error ended (a usage limit, an
	// overload): no Stop fires then, and the seat would read "thinking"
	// with its posts held for the turn's end (docs/design.md §5).
	hookStopFailure = "StopFailure"
)

// permKey is what ties a PermissionRequest to its tool's result: the tool
// name and a digest of its input (compacted; both hooks send the same
// input, measured with Claude Code 2.1.328). "" when the body has neither.
func permKey(top jsonObject) string {
	name := top.str("tool_name")
	input, ok := top["tool_input"]
	if name == "" || !ok {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, input) != nil {
		return ""
	}
	sum := sha256.Sum256(buf.Bytes())
	return name + "\x00" + hex.EncodeToString(sum[:])
}

// applyHookAsk computes the activity and the permission wait after the hook
// event (from the URL path) with body at now. The path names the event,
// the body only adds the tool. A body that is not a JSON object, or whose
// hook_event_name is not the path's event, changes nothing — except a
// PermissionRequest, which holds even then (its tool unknown, released only
// by the turn's end): an unreadable request must not let a post's "\r"
// into its dialog. ask names a PermissionRequest's card in the room
// (room.Report.Ask): its request keeps it. A hook the CLI sent (its body
// read) also ends the requests denied on their cards.
func applyHookAsk(cur cli.Activity, wait cli.PermWait, event string, body []byte, ask uint64, now time.Time) cli.Step {
	var top jsonObject
	if json.Unmarshal(body, &top) != nil || top.str("hook_event_name") != event {
		if event != hookPermissionRequest {
			return cli.Step{Next: cur, Wait: wait}
		}
		top = nil
	}
	next, nextWait := cur, wait.DropDenied()
	switch event {
	case hookUserPromptSubmit:
		next = cli.Activity{Kind: cli.ActivityThinking, Subagents: cur.Subagents}
		nextWait = cli.PermWait{}
	case hookPreToolUse:
		next.Kind, next.Tool = cli.ActivityTool, cli.ToolName(top.str("tool_name"))
	case hookPostToolUse, hookPostToolUseFailure:
		next.Kind, next.Tool = cli.ActivityThinking, ""
		nextWait = nextWait.Done(permKey(top))
	case hookPermissionRequest:
		if len(nextWait.Pending) < cli.MaxPermWait {
			nextWait.Pending = append(slices.Clone(nextWait.Pending), cli.PermRequest{Tool: cli.ToolName(top.str("tool_name")), Key: permKey(top), Ask: ask})
		}
	case hookSubagentStart:
		next.Subagents++
	case hookSubagentStop:
		next.Subagents = max(next.Subagents-1, 0)
	case hookStop, hookStopFailure:
		next = cli.Activity{Kind: cli.ActivityIdle}
		nextWait = cli.PermWait{}
	default:
		return cli.Step{Next: cur, Wait: wait}
	}
	if nextWait.DialogOpen() {
		next.Kind, next.Tool = cli.ActivityPermission, nextWait.OpenTool()
	}
	next.Since = cur.Since
	if next.Kind != cur.Kind || event == hookUserPromptSubmit || event == hookStop || event == hookStopFailure {
		next.Since = now
	}
	return cli.Step{Next: next, Wait: nextWait, Changed: next != cur || !nextWait.Equal(wait)}
}
