package seats

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// What a seat is doing, as its CLI reports it (docs/design.md §11; spec
// «Claude Code の席は自分の様子を hook で知らせる», «走っているアカウントが何を
// しているか»). Claude Code seats report through http hooks, Codex seats
// through their rollout; the app never reads terminal output for it.

// ActivityKind is the stage of a seat's turn.
type ActivityKind int

// Activity kinds. ActivityUnknown is the state before any report: the panel
// says nothing it has not observed.
const (
	ActivityUnknown ActivityKind = iota
	// ActivityThinking: a turn runs and no tool is running.
	ActivityThinking
	// ActivityTool: a tool runs (Activity.Tool names it).
	ActivityTool
	// ActivityPermission: the CLI waits for the human to allow a tool
	// (Activity.Tool names it); room posts are held meanwhile.
	ActivityPermission
	// ActivityIdle: the turn ended (Activity.Since says when).
	ActivityIdle
)

// String names the kind for logs and tests.
func (k ActivityKind) String() string {
	switch k {
	case ActivityThinking:
		return "thinking"
	case ActivityTool:
		return "tool"
	case ActivityPermission:
		return "permission"
	case ActivityIdle:
		return "idle"
	}
	return "unknown"
}

// Activity is a seat's last reported activity. Since is when Kind began;
// Subagents counts the subagents running (Claude Code's Task tool).
type Activity struct {
	Kind      ActivityKind
	Tool      string
	Subagents int
	Since     time.Time
}

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
)

// The typing holds of a permission wait (docs/design.md §5). A post's "\r"
// typed into a permission dialog answers it (measured with Claude Code
// 2.1.328: it approved a Bash command), and text typed while the dialog
// closes is lost, so posts wait:
//
//   - HoldPermission from the PermissionRequest hook while the dialog is
//     open;
//   - HoldAnswered from the human's answering key in the pane until the
//     CLI's next hook (the tool's result, Stop, the next prompt). A key is
//     not proof: Claude Code ignores keys for a moment after the dialog
//     shows (an Enter pressed at once left it open), and a denial sends no
//     hook at all — its held posts then go after the human's next prompt,
//     which is what Claude asks for ("What should Claude do instead?").
const (
	HoldPermission = "permission"
	HoldAnswered   = "answered"
)

// maxToolName bounds a tool name kept from a hook body: names are short
// (Bash, mcp__server__tool); a longer one is cut, never stored whole.
const maxToolName = 96

// hookBody is the part of a hook body the activity reads; nothing else of
// the body (tool inputs, prompts, answers) is read or kept.
type hookBody struct {
	Event   string `json:"hook_event_name"`
	Tool    string `json:"tool_name"`
	AgentID string `json:"agent_id"`
}

// activityStep is what one hook changes: the new activity, and whether the
// permission hold starts or ends.
type activityStep struct {
	next        Activity
	changed     bool
	hold, clear bool
}

// applyHook computes the activity after the hook event (from the URL path)
// with body at now. A body that is not JSON, or whose hook_event_name is not
// the path's event, changes nothing: the path names the event, the body only
// adds the tool.
func applyHook(cur Activity, event string, body []byte, now time.Time) activityStep {
	var b hookBody
	if json.Unmarshal(body, &b) != nil || b.Event != event {
		return activityStep{next: cur}
	}
	next := cur
	step := activityStep{}
	switch event {
	case hookUserPromptSubmit:
		next = Activity{Kind: ActivityThinking, Subagents: cur.Subagents, Since: now}
		step.clear = true
	case hookPreToolUse:
		next.Kind, next.Tool = ActivityTool, toolName(b.Tool)
	case hookPostToolUse, hookPostToolUseFailure:
		next.Kind, next.Tool = ActivityThinking, ""
		step.clear = true
	case hookPermissionRequest:
		next.Kind, next.Tool = ActivityPermission, toolName(b.Tool)
		step.hold = true
	case hookSubagentStart:
		next.Subagents++
	case hookSubagentStop:
		next.Subagents = max(next.Subagents-1, 0)
	case hookStop:
		next = Activity{Kind: ActivityIdle, Since: now}
		step.clear = true
	default:
		return activityStep{next: cur}
	}
	if next.Kind != cur.Kind {
		next.Since = now
	}
	step.next = next
	step.changed = next != cur
	return step
}

// toolName keeps a tool name short and free of control characters: it is
// shown in the panel and in the pane's title.
func toolName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > maxToolName {
		s = string([]rune(s)[:maxToolName]) + "…"
	}
	return s
}

// answersDialog reports whether one write of the human's keys may answer a
// permission dialog: Enter, Esc, a digit (an option's number) or y/n.
func answersDialog(b []byte) bool {
	if len(b) != 1 {
		return false
	}
	switch c := b[0]; {
	case c == '\r', c == 0x1b, c >= '0' && c <= '9':
		return true
	case c == 'y', c == 'Y', c == 'n', c == 'N':
		return true
	}
	return false
}
