package sidecar

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/pullcept/pullcept/room"
)

// The session tools (docs/design.md §15): their descriptions carry the
// rules and one example, for the AI that calls them.
const (
	listSessionsDescription = "List what you may start, stop or restart: the accounts that run as seats (account_id, name), " +
		"the open topics (topic_id, name) and each seat's current launch (pty_id, state). Never commands or environment. " +
		"Call it before control_account_session and take the ids from it."
	controlSessionDescription = "Start, stop or restart a seat (yours or another account's) without asking the human each time. " +
		"Rules: choose your own unique operation_id and reuse it to retry (a retry never runs twice; the same id for another request is refused). " +
		`start needs mode "fresh" (a new conversation; your own account only, another's needs the human) or "resume" (its recorded one); stop needs nothing more; ` +
		"restart needs expected_pty_id = the seat's current pty_id and no mode, and always resumes the same conversation (if it cannot, nothing is stopped). " +
		"The answer only says the operation was accepted: check the outcome with account_session_status and the same operation_id; " +
		"a notice in your room reports the result. Restarting yourself ends this call's process: ask account_session_status from your next launch. " +
		`Example: {"operation_id":"restart-lay-01","action":"restart","account_id":"<account_id>","topic_id":"<topic_id>","expected_pty_id":"<pty_id>"}`
	sessionStatusDescription = "Read a session operation's record by its operation_id: state (accepted, running, process_started, stopped, failed, interrupted), " +
		"the error when it failed, the new launch's pty_id, and whether that launch's process runs (process_running) and its sidecar joined the room (room_connected). " +
		"Any seat may read any operation. interrupted means Pullcept ended before it finished; it is never run again."
)

var listSessionsSchema = mustSchema(map[string]any{
	"type": "object", "properties": map[string]any{}, "additionalProperties": false,
})

var controlSessionSchema = mustSchema(map[string]any{
	"type": "object",
	"properties": map[string]any{
		"operation_id":    map[string]any{"type": "string", "description": "Your own unique id for this operation (letters, digits, . _ : -, at most 128); reuse it only to retry."},
		"action":          map[string]any{"type": "string", "enum": []string{room.ActionStart, room.ActionStop, room.ActionRestart}},
		"account_id":      map[string]any{"type": "string", "description": "The target seat's account_id from list_account_sessions."},
		"topic_id":        map[string]any{"type": "string", "description": "The target seat's topic_id from list_account_sessions."},
		"mode":            map[string]any{"type": "string", "enum": []string{room.ModeFresh, room.ModeResume}, "description": "start only."},
		"expected_pty_id": map[string]any{"type": "string", "description": "restart (required) and stop (optional): the seat's current pty_id."},
	},
	"required":             []string{"operation_id", "action", "account_id", "topic_id"},
	"additionalProperties": false,
})

var sessionStatusSchema = mustSchema(map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"operation_id": map[string]any{"type": "string"}},
	"required":             []string{"operation_id"},
	"additionalProperties": false,
})

// addSessionTools registers the three session tools on s.
func (st *seat) addSessionTools(s *server.MCPServer) {
	f, t := false, true
	list := mcp.NewToolWithRawSchema(room.ToolListSessions, listSessionsDescription, listSessionsSchema)
	list.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &t, OpenWorldHint: &f}
	ctl := mcp.NewToolWithRawSchema(room.ToolControlSession, controlSessionDescription, controlSessionSchema)
	ctl.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &f, DestructiveHint: &t, IdempotentHint: &t, OpenWorldHint: &f}
	status := mcp.NewToolWithRawSchema(room.ToolSessionStatus, sessionStatusDescription, sessionStatusSchema)
	status.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &t, OpenWorldHint: &f}
	list.Meta, ctl.Meta, status.Meta = alwaysLoad(), alwaysLoad(), alwaysLoad()
	s.AddTool(list, func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return st.sessionCall(ctx, "the session list", func(id string) any {
			return room.SessionListFrame{Type: room.FrameSessionList, RequestID: id}
		})
	})
	s.AddTool(ctl, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var op room.SessionOperation
		if err := req.BindArguments(&op); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("Nothing was asked: the arguments could not be read: %v", err)), nil
		}
		return st.sessionCall(ctx, "the operation's answer", func(id string) any {
			return room.SessionControlFrame{Type: room.FrameSessionControl, RequestID: id, Operation: op}
		})
	})
	s.AddTool(status, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			OperationID string `json:"operation_id"`
		}
		if err := req.BindArguments(&args); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("The arguments could not be read: %v", err)), nil
		}
		return st.sessionCall(ctx, "the operation's record", func(id string) any {
			return room.SessionStatusFrame{Type: room.FrameSessionStatus, RequestID: id, OperationID: args.OperationID}
		})
	})
}

// sessionCall sends one session frame and renders session_result: the
// result as indented JSON, or the room's refusal as an error. A lost
// answer is "unknown": the operation may have been recorded, so the
// caller asks again with the same operation_id.
func (st *seat) sessionCall(ctx context.Context, what string, frame func(requestID string) any) (*mcp.CallToolResult, error) {
	id, err := uuid.NewRandom()
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("Could not make a request_id: %v", err)), nil
	}
	raw, err := st.client.request(ctx, id.String(), frame(id.String()))
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("No answer for %s: %v. If you asked for an operation it may or may not have been recorded: "+
			"ask account_session_status, or retry with the same operation_id.", what, err)), nil
	}
	var res room.SessionResultFrame
	if err := json.Unmarshal(raw, &res); err != nil {
		return mcp.NewToolResultError(readFailure(what, fmt.Errorf("unreadable answer: %w", err))), nil
	}
	if res.Error != "" {
		return mcp.NewToolResultError("Refused: " + res.Error + "."), nil
	}
	var v any
	if err := json.Unmarshal(res.Result, &v); err != nil {
		return mcp.NewToolResultError(readFailure(what, fmt.Errorf("unreadable result: %w", err))), nil
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return mcp.NewToolResultText(string(b)), nil
}
