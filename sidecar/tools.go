package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/pullcept/pullcept/room"
)

// Tool descriptions carry the rules needed only when a tool is called (spec
// «部屋の作法» #273/#337): short English for AI readers.
const (
	sayDescription = "Post to the room: your only way to speak there, also to answer posts typed into your input (terminal output reaches nobody). " +
		"Your own posts never come back to you. Read the answers others already gave before deciding, and check again just before sending: " +
		"if it was already said, do not send; add only what is missing. Not sending is a valid choice. " +
		"Waits for the room: delivered -> returns the post's message_id (cite your post by it later); " +
		"rejected -> returns the newer posts you had not seen and keeps your draft."
	sayContentDescription = "The post's text. Omit it to re-send your kept draft (kept after a rejection, dropped by your next delivery); " +
		"a re-send is judged by last_seen like any post."
	sayToDescription = "Addressees: one name or a list of names; humans and AIs are named the same way. " +
		"An @name of a participant in content also addresses them and is taken out of the text. Omit = whole room " +
		"(when re-sending a draft, omit to keep the draft's addressees)."
	sayLastSeenDescription = "Pass it every time: the message_id of the newest post you have seen (from its tag). " +
		"If newer posts exist the room rejects the post and returns them: read them, decide again, and re-send or not with the newest id. " +
		"A rejection is the room's ordering, not a fault of yours."
	historyDescription = "Read this topic's earlier posts, oldest first. Reads only, never speaks; the posts were not addressed to you. " +
		"Call it only when you need them (e.g. you joined a topic that already had posts). Page back with before = the oldest message_id you got."
	historyLimitDescription  = "How many posts, 1-200 (default 50)."
	historyBeforeDescription = "A message_id: return the posts before it."
	usageDescription         = "Your own usage limits: 5-hour and weekly window used % with reset times, and when the room received them. " +
		"Use it to plan: before a limit, wrap up, push partial work, or ask the room to take over. " +
		"Only your own seat (ask others in the room for theirs). Figures arrive only while your seat works, so they may be old."
)

// sayToRoomSchema: `to` is a string or a list of strings (oneOf), which the
// builder API cannot express (docs/dependencies.md §4).
var sayToRoomSchema = mustSchema(map[string]any{
	"type": "object",
	"properties": map[string]any{
		"content": map[string]any{"type": "string", "description": sayContentDescription},
		"to": map[string]any{
			"description": sayToDescription,
			"oneOf": []any{
				map[string]any{"type": "string"},
				map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			},
		},
		"last_seen": map[string]any{"type": "string", "description": sayLastSeenDescription},
	},
	"additionalProperties": false,
})

var readRoomHistorySchema = mustSchema(map[string]any{
	"type": "object",
	"properties": map[string]any{
		"limit": map[string]any{
			"type": "integer", "minimum": 1, "maximum": room.HistoryMax, "default": room.HistoryDefault,
			"description": historyLimitDescription,
		},
		"before": map[string]any{"type": "string", "description": historyBeforeDescription},
	},
	"additionalProperties": false,
})

var myUsageSchema = mustSchema(map[string]any{
	"type":                 "object",
	"properties":           map[string]any{},
	"additionalProperties": false,
})

// mustSchema encodes a schema literal written in this file; it cannot fail.
func mustSchema(v map[string]any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("sidecar: schema literal: " + err.Error())
	}
	return b
}

// alwaysLoad asks Claude Code to put the tool straight into the model's tool
// list instead of behind ToolSearch (docs/clis.md §2.7
// search"); the .mcp.json entry's "alwaysLoad" does the same per server.
func alwaysLoad() *mcp.Meta {
	return &mcp.Meta{AdditionalFields: map[string]any{"anthropic/alwaysLoad": true}}
}

// draft is the one post the sidecar keeps after a rejection (docs/design.md §7,
// spec «床» #268): replaced by the next rejection, cleared by any delivery.
type draft struct {
	content string
	to      []string
}

// seat holds the tool handlers' state: the room client and the draft.
type seat struct {
	client *roomClient
	loc    *time.Location   // zone for tag "at" and usage times
	now    func() time.Time // clock for ts and "N min ago"

	mu    sync.Mutex
	draft *draft
}

// addTools registers the room tools on s (room.RoomTools).
func (st *seat) addTools(s *server.MCPServer) {
	f, t := false, true
	say := mcp.NewToolWithRawSchema(room.ToolSayToRoom, sayDescription, sayToRoomSchema)
	say.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &f, DestructiveHint: &f, IdempotentHint: &f, OpenWorldHint: &f}
	say.Meta = alwaysLoad()
	hist := mcp.NewToolWithRawSchema(room.ToolReadRoomHistory, historyDescription, readRoomHistorySchema)
	hist.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &t, OpenWorldHint: &f}
	hist.Meta = alwaysLoad()
	usage := mcp.NewToolWithRawSchema(room.ToolMyUsage, usageDescription, myUsageSchema)
	usage.Annotations = mcp.ToolAnnotation{ReadOnlyHint: &t, OpenWorldHint: &f}
	usage.Meta = alwaysLoad()
	s.AddTool(say, st.sayToRoom)
	s.AddTool(hist, st.withSelf(st.readRoomHistory))
	s.AddTool(usage, st.withSelf(st.myUsage))
	st.addSessionTools(s)
}

// selfText is the seat's self-information in a tool result (spec
// «ニックネームと元の名前» #383): the name the room calls it now and its full
// name, from the room's last identity frame — a seat renamed since its
// launch learns its new name here, not only from "you" on a post
// addressed to it.
func (st *seat) selfText() string {
	name, full := st.client.identity()
	if full == "" || full == name {
		return fmt.Sprintf("You = %q in this room now.", name)
	}
	return fmt.Sprintf("You = %q in this room now (full name %q).", name, full)
}

// withSelf adds the self-information to every result of h (addSelf).
func (st *seat) withSelf(h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		if err == nil {
			res = st.addSelf(res)
		}
		return res, err
	}
}

// addSelf adds the self-information to a result that is not an error, as
// a content item of its own after the result's.
func (st *seat) addSelf(res *mcp.CallToolResult) *mcp.CallToolResult {
	if res != nil && !res.IsError {
		res.Content = append(res.Content, mcp.NewTextContent("\n\n"+st.selfText()))
	}
	return res
}

// sayArgs are say_to_room's arguments; pointers and raw JSON tell an absent
// key from an empty one.
type sayArgs struct {
	Content  *string         `json:"content"`
	To       json.RawMessage `json:"to"`
	LastSeen *string         `json:"last_seen"`
}

// sayToRoom posts content (or the kept draft when content is absent or
// empty) and waits for post_result (docs/design.md §7). Delivered → the message_id;
// rejected → the missed posts, and the post becomes the draft; the room's
// error or an unreachable room → isError, draft untouched.
//
// A rejection is answered with isError false: the call did its job — the room
// judged the post and handed back what to read — and not sending afterwards is
// a valid choice (spec «床»). An error flag would read as "retry", and Claude
// Code shows error results as failures to the human.
func (st *seat) sayToRoom(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args sayArgs
	if err := req.BindArguments(&args); err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("Nothing sent: the arguments could not be read: %v", err)), nil
	}
	to, toGiven, err := parseTo(args.To)
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("Nothing sent: %v", err)), nil
	}
	content := ""
	if args.Content != nil {
		content = *args.Content
	}
	if strings.TrimSpace(content) == "" {
		d := st.currentDraft()
		if d == nil {
			return mcp.NewToolResultError("Nothing sent: no content was given and there is no kept draft to re-send " +
				"(a draft is kept only after a rejection, until your next delivery). Pass content to post."), nil
		}
		content = d.content
		if !toGiven {
			to = d.to
		}
	}
	lastSeen := ""
	if args.LastSeen != nil {
		lastSeen = strings.TrimSpace(*args.LastSeen)
	}
	id, err := uuid.NewRandom()
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("Nothing sent: could not make a message_id: %v", err)), nil
	}
	frame := room.PostFrame{
		Type:      room.FramePost,
		MessageID: id.String(),
		Content:   content,
		To:        room.ToList(to),
		TS:        st.now().UTC().Format(room.TimeLayout),
		LastSeen:  lastSeen,
	}
	raw, err := st.client.request(ctx, frame.MessageID, frame)
	if err != nil {
		return mcp.NewToolResultError(postFailure(err)), nil
	}
	var res room.PostResultFrame
	if err := json.Unmarshal(raw, &res); err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("The room's answer could not be read (%v): the post may or may not have been delivered; "+
			"check read_room_history before sending it again.", err)), nil
	}
	switch {
	case res.Error != "":
		return mcp.NewToolResultError(fmt.Sprintf("Not delivered: the room refused the post: %s. Nothing was posted.", res.Error)), nil
	case res.Delivered:
		st.setDraft(nil)
		// The self-information, then the time and usage (spec #385).
		return mcp.NewToolResultText(deliveredText(frame.MessageID) + "\n\n" + st.selfText() + "\n" + st.usageFeedback(ctx)), nil
	default:
		st.setDraft(&draft{content: content, to: to})
		return mcp.NewToolResultText(rejectedText(res.Missed, st.loc) + "\n\n" + st.selfText()), nil
	}
}

// parseTo reads say_to_room's `to` (a name or a list of names): each name
// trimmed, empty and repeated names dropped (docs/design.md §3); nil = whole room.
// given is false when the key was absent or null.
func parseTo(raw json.RawMessage) (names []string, given bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	var list room.ToList
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, true, fmt.Errorf("to must be a name or a list of names: %w", err)
	}
	seen := make(map[string]bool, len(list))
	for _, n := range list {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		names = append(names, n)
	}
	return names, true, nil
}

// postFailure explains a failed say_to_room request: whether anything went
// out, and what to do.
func postFailure(err error) string {
	switch {
	case errors.Is(err, ErrUnreachable), errors.Is(err, ErrClientClosed):
		return fmt.Sprintf("Not delivered: %v. Nothing was sent; try again later.", err)
	case errors.Is(err, ErrTooLong):
		return fmt.Sprintf("Not delivered: the post is %v. Nothing was sent; shorten it or split it into several posts.", err)
	case errors.Is(err, ErrConnectionLost), errors.Is(err, ErrNoAnswer):
		return fmt.Sprintf("Unknown outcome: %v. The post may or may not have been delivered; check read_room_history before sending it again.", err)
	default:
		return fmt.Sprintf("Not delivered: %v.", err)
	}
}

// readFailure explains a failed read (history, usage): nothing was changed.
func readFailure(what string, err error) string {
	return fmt.Sprintf("Could not read %s: %v. Try again later.", what, err)
}

func (st *seat) currentDraft() *draft {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.draft
}

func (st *seat) setDraft(d *draft) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.draft = d
}

// historyArgs are read_room_history's arguments.
type historyArgs struct {
	Limit  *int    `json:"limit"`
	Before *string `json:"before"`
}

// readRoomHistory asks the room for a page of the topic's log (docs/design.md §6
// history) and renders it oldest first; it never posts.
func (st *seat) readRoomHistory(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args historyArgs
	if err := req.BindArguments(&args); err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("The arguments could not be read: %v", err)), nil
	}
	limit := room.HistoryDefault
	if args.Limit != nil {
		limit = min(max(*args.Limit, 1), room.HistoryMax)
	}
	before := ""
	if args.Before != nil {
		before = strings.TrimSpace(*args.Before)
	}
	id, err := uuid.NewRandom()
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("Could not make a request_id: %v", err)), nil
	}
	frame := room.HistoryFrame{Type: room.FrameHistory, RequestID: id.String(), Limit: limit, Before: before}
	raw, err := st.client.request(ctx, frame.RequestID, frame)
	if err != nil {
		return mcp.NewToolResultError(readFailure("the room's history", err)), nil
	}
	var res room.HistoryResultFrame
	if err := json.Unmarshal(raw, &res); err != nil {
		return mcp.NewToolResultError(readFailure("the room's history", fmt.Errorf("unreadable answer: %w", err))), nil
	}
	if res.Error != "" {
		return mcp.NewToolResultError(fmt.Sprintf("Could not read the room's history: the room said: %s.", res.Error)), nil
	}
	return mcp.NewToolResultText(historyText(res, before, st.loc)), nil
}

// myUsage asks the room for this seat's own usage (docs/design.md §6 usage, §11).
func (st *seat) myUsage(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := st.readUsage(ctx)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(usageText(res, st.now(), st.loc)), nil
}

// usageFeedbackWait bounds how much longer a delivered say_to_room waits
// for the seat's usage (spec «投稿結果の利用量フィードバック»: at most 1.5 s).
const usageFeedbackWait = 1500 * time.Millisecond

// usageFeedback is what a delivered say_to_room adds after its message_id:
// the time now and the seat's own usage as last reported, or "unknown" when
// it could not be read — the post's outcome is unchanged either way.
func (st *seat) usageFeedback(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, usageFeedbackWait)
	defer cancel()
	now, loc := st.now(), st.loc
	if loc == nil {
		loc = time.Local
	}
	head := "Now: " + now.In(loc).Format(room.TagAtLayout) + "\n"
	res, err := st.readUsage(ctx)
	if err != nil {
		return head + "Your usage: unknown (" + err.Error() + ")"
	}
	return head + usageText(res, now, loc)
}

// readUsage sends a usage frame and reads the answer; its error says, in a
// sentence for the model, why the figures could not be read.
func (st *seat) readUsage(ctx context.Context) (room.UsageResultFrame, error) {
	id, err := uuid.NewRandom()
	if err != nil {
		return room.UsageResultFrame{}, fmt.Errorf("could not make a request_id: %w", err)
	}
	frame := room.UsageFrame{Type: room.FrameUsage, RequestID: id.String()}
	raw, err := st.client.request(ctx, frame.RequestID, frame)
	if err != nil {
		return room.UsageResultFrame{}, errors.New(readFailure("your usage", err))
	}
	var res room.UsageResultFrame
	if err := json.Unmarshal(raw, &res); err != nil {
		return room.UsageResultFrame{}, errors.New(readFailure("your usage", fmt.Errorf("unreadable answer: %w", err)))
	}
	if res.Error != "" {
		return room.UsageResultFrame{}, fmt.Errorf("the room could not give your usage: %s", res.Error)
	}
	return res, nil
}
