package codex

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// A Codex app-server seat's activity, read from its server's notifications
// (spec «Codex の席は自分の様子を app-server の知らせで知らせる（#326）»;
// docs/design.md §11). The names are Codex 0.169.0's generated schema
// (`codex app-server generate-json-schema`, docs/clis.md §3.7). Only the
// seat's own thread counts: a subagent's thread carries another threadId.

// Notifications and server requests read here.
const (
	noteThreadStatus  = "thread/status/changed"
	noteThreadClosed  = "thread/closed"
	noteTurnStarted   = "turn/started"
	noteTurnCompleted = "turn/completed"
	noteItemStarted   = "item/started"
	noteItemCompleted = "item/completed"
	noteReqResolved   = "serverRequest/resolved"
)

// codexAsks are the server requests that wait on the human (approvals and
// questions) and the tool each names when its item does not.
var codexAsks = map[string]string{
	"item/commandExecution/requestApproval": "shell",
	"item/fileChange/requestApproval":       "apply_patch",
	"item/permissions/requestApproval":      "permissions",
	"item/tool/requestUserInput":            "question",
	"mcpServer/elicitation/request":         "mcp",
	// The older names, with conversationId instead of threadId.
	"execCommandApproval": "shell",
	"applyPatchApproval":  "apply_patch",
}

// maxCodexAsks bounds the open requests kept (a hostile server only holds
// its own seat's posts).
const maxCodexAsks = 64

// codexActivity is what the notifications told so far.
type codexActivity struct {
	thread  string
	act     cli.Activity
	waiting bool              // the thread's status says it waits on approval or input
	asks    map[string]string // open server requests of the thread → tool
	tool    string            // the tool of the item running now ("" none)
}

func newCodexActivity(thread string) *codexActivity {
	return &codexActivity{thread: thread, asks: map[string]string{}}
}

// codexNoteBody is the part of a notification's params read here.
type codexNoteBody struct {
	ThreadID       string          `json:"threadId"`
	ConversationID string          `json:"conversationId"` // v1 approval requests
	RequestID      json.RawMessage `json:"requestId"`
	Status         *struct {
		Type        string   `json:"type"`
		ActiveFlags []string `json:"activeFlags"`
	} `json:"status"`
	Item *struct {
		Type   string `json:"type"`
		Tool   string `json:"tool"`
		Server string `json:"server"`
	} `json:"item"`
}

// itemTool names the tool a thread item runs; "" for items that are no tool
// (messages, reasoning, plans).
func itemTool(typ, tool string) string {
	switch typ {
	case "commandExecution":
		return "shell"
	case "fileChange":
		return "apply_patch"
	case "webSearch":
		return "web_search"
	case "imageView":
		return "view_image"
	case "imageGeneration":
		return "image_generation"
	case "mcpToolCall", "dynamicToolCall", "collabAgentToolCall":
		if tool == "" {
			return typ
		}
		return tool
	}
	return ""
}

// apply reads one note at now and reports whether the activity shown moved.
func (a *codexActivity) apply(n codexNote, now time.Time) bool {
	var b codexNoteBody
	if len(n.Params) == 0 || json.Unmarshal(n.Params, &b) != nil {
		return false
	}
	thread := b.ThreadID
	if thread == "" {
		thread = b.ConversationID
	}
	if thread != a.thread {
		return false
	}
	before := a.act
	if n.ID != "" {
		tool, asks := codexAsks[n.Method]
		if !asks {
			return false
		}
		if a.tool != "" {
			tool = a.tool
		}
		if len(a.asks) < maxCodexAsks {
			a.asks[n.ID] = cli.ToolName(tool)
		}
		return a.settle(before, now)
	}
	switch n.Method {
	case noteThreadStatus:
		if b.Status == nil {
			return false
		}
		switch b.Status.Type {
		case "idle", "systemError":
			a.idle()
		case "active":
			a.waiting = slices.Contains(b.Status.ActiveFlags, "waitingOnApproval") ||
				slices.Contains(b.Status.ActiveFlags, "waitingOnUserInput")
			if a.act.Kind == cli.ActivityIdle || a.act.Kind == cli.ActivityUnknown {
				a.act = cli.Activity{Kind: cli.ActivityThinking}
			}
		case "notLoaded":
			a.idle()
			a.act = cli.Activity{}
		}
	case noteThreadClosed:
		a.idle()
		a.act = cli.Activity{}
	case noteTurnStarted:
		a.act, a.tool, a.waiting = cli.Activity{Kind: cli.ActivityThinking}, "", false
		clear(a.asks)
	case noteTurnCompleted:
		a.idle()
	case noteItemStarted, noteItemCompleted:
		if b.Item == nil {
			return false
		}
		tool := itemTool(b.Item.Type, b.Item.Tool)
		if tool == "" {
			return false
		}
		if n.Method == noteItemStarted {
			a.tool = cli.ToolName(tool)
			a.act.Kind, a.act.Tool = cli.ActivityTool, a.tool
		} else {
			a.tool = ""
			a.act.Kind, a.act.Tool = cli.ActivityThinking, ""
		}
	case noteReqResolved:
		delete(a.asks, rpcID(b.RequestID))
	default:
		return false
	}
	return a.settle(before, now)
}

// idle ends the turn: nothing runs, nothing waits.
func (a *codexActivity) idle() {
	a.act, a.tool, a.waiting = cli.Activity{Kind: cli.ActivityIdle}, "", false
	clear(a.asks)
}

// asking reports whether the seat waits on the human (a dialog in its TUI).
func (a *codexActivity) asking() bool { return a.waiting || len(a.asks) > 0 }

// settle makes the activity show a wait on the human, dates a changed kind
// and reports whether anything shown moved.
func (a *codexActivity) settle(before cli.Activity, now time.Time) bool {
	if a.asking() {
		tool := a.tool
		for _, t := range a.asks {
			tool = t
			break
		}
		a.act.Kind, a.act.Tool = cli.ActivityPermission, tool
	} else if a.act.Kind == cli.ActivityPermission {
		a.act.Kind, a.act.Tool = cli.ActivityThinking, ""
		if a.tool != "" {
			a.act.Kind, a.act.Tool = cli.ActivityTool, a.tool
		}
	}
	a.act.Since = before.Since
	if a.act.Kind != before.Kind || before.Since.IsZero() {
		a.act.Since = now
	}
	return a.act != before
}

// perm is the seat's permission wait (the typing holds, cli.PermWait) as the
// server tells it: one open request while the thread waits on the human,
// keeping an answer the human's keys gave in the pane until the server
// says the wait ended.
func (a *codexActivity) perm(old cli.PermWait) cli.PermWait {
	if !a.asking() {
		return cli.PermWait{}
	}
	answered := old.Keys > 0 || slices.ContainsFunc(old.Pending, func(r cli.PermRequest) bool { return r.Answered })
	return cli.PermWait{Pending: []cli.PermRequest{{Tool: a.act.Tool, Key: "codex", Answered: answered}}}
}
