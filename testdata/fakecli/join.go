package fakecli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// protocol is the MCP revision the fake CLI pins in initialize: the one
// Codex 0.169.0 speaks, so the sidecar sees the classic handshake
// (initialize, initialized, tools/list) the real CLIs use (docs/clis.md).
const protocol = "2025-06-18"

// joinWait bounds the MCP handshake with the sidecar: the sidecar answers
// at once; a -race binary on a loaded 2-core box needs a few seconds to
// start (scaled: testkit.Slow).
var joinWait = testkit.Slow(60 * time.Second)

// mcpServer is one mcpServers entry of .mcp.json.
type mcpServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// JoinRoom starts the sidecar registered for this seat in ./.mcp.json (the
// pullcept-room entry whose account and room match this launch's
// PULLCEPT_LAUNCHED_AS and PULLCEPT_ROOM_ID) the way a CLI does, with
// mcp-go's stdio client, and lists its tools: the sidecar then joins the
// room and reports ready (docs/design.md §7). Close the client to leave.
func JoinRoom(ctx context.Context) (*client.Client, error) {
	key, e, err := roomServer(".mcp.json", os.Getenv(room.EnvLaunchedAs), os.Getenv(room.EnvRoomID))
	if err != nil {
		return nil, err
	}
	return dial(ctx, key, e)
}

// roomServer finds the room entry of (account, topic) in the .mcp.json at
// path.
func roomServer(path, account, topic string) (string, mcpServer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", mcpServer{}, err
	}
	var doc struct {
		MCPServers map[string]mcpServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return "", mcpServer{}, fmt.Errorf(".mcp.json: %w", err)
	}
	for key, e := range doc.MCPServers {
		if strings.HasPrefix(key, "pullcept-room") && e.Env[room.EnvAccountID] == account && e.Env[room.EnvRoomID] == topic {
			return key, e, nil
		}
	}
	return "", mcpServer{}, errors.New("no room entry for this seat in .mcp.json")
}

// dial starts server key and runs the handshake a CLI runs.
func dial(ctx context.Context, key string, e mcpServer) (*client.Client, error) {
	env := make([]string, 0, len(e.Env))
	for k, v := range e.Env {
		env = append(env, k+"="+v)
	}
	c, err := client.NewStdioMCPClient(e.Command, env, e.Args...)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", key, err)
	}
	ctx, cancel := context.WithTimeout(ctx, joinWait)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = protocol
	req.Params.ClientInfo = mcp.Implementation{Name: "pullcept-fake-cli", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("initialize %s: %w", key, err)
	}
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("tools/list %s: %w", key, err)
	}
	return c, nil
}

// sayWait bounds one say_to_room call (the sidecar answers within 30 s,
// docs/design.md §7; scaled).
var sayWait = testkit.Slow(40 * time.Second)

// Answered is the line -echo prints after answering post messageID;
// delivered is whether the room took the answer (a floor rejection is not).
func Answered(messageID string, delivered bool) string {
	if delivered {
		return "answered " + messageID + ": delivered"
	}
	return "answered " + messageID + ": not delivered"
}

// answerPost answers line when it is a post's tag line (-echo): one
// say_to_room "re <message_id>" (addressed to "@to" when to is not empty)
// with last_seen that id, then Answered's line on out. Other lines (a
// post's body, the human's typing) get none.
func answerPost(ctx context.Context, c *client.Client, line, to string, out io.Writer) {
	id, ok := taggedID(line)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, sayWait)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = room.ToolSayToRoom
	content := "re " + id
	if to != "" {
		content += " @" + to
	}
	req.Params.Arguments = map[string]any{"content": content, "last_seen": id}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		fmt.Fprintf(out, "say_to_room: %v\n", err)
		return
	}
	fmt.Fprintln(out, Answered(id, !res.IsError && strings.HasPrefix(resultText(res), "Delivered")))
}

// resultText is the text of a tool's result.
func resultText(res *mcp.CallToolResult) string {
	text := ""
	for _, part := range res.Content {
		if tc, ok := mcp.AsTextContent(part); ok {
			text += tc.Text
		}
	}
	return text
}

// OpAsked is the line -ops prints once the room answered its request to
// start account's seat: accepted (the operation runs; its outcome is the
// room's notice) or not.
func OpAsked(account string, accepted bool) string {
	if accepted {
		return "asked to start " + account + ": accepted"
	}
	return "asked to start " + account + ": refused"
}

// askStart asks the room, when line is "start ACCOUNT" (-ops), to start
// ACCOUNT's seat in this seat's topic,
// resuming its conversation (control_account_session, docs/design.md §15),
// then prints OpAsked's line and the answer on out.
func askStart(ctx context.Context, c *client.Client, line string, out io.Writer) {
	words := strings.Fields(line)
	if len(words) != 2 || words[0] != "start" {
		return
	}
	account := words[1]
	ctx, cancel := context.WithTimeout(ctx, sayWait)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = room.ToolControlSession
	req.Params.Arguments = map[string]any{"operation_id": fmt.Sprintf("start-%s-%d", account, time.Now().UnixNano()),
		"action": room.ActionStart, "mode": room.ModeResume, "account_id": account, "topic_id": os.Getenv(room.EnvRoomID)}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		fmt.Fprintf(out, "%s: %v\n", room.ToolControlSession, err)
		return
	}
	fmt.Fprintln(out, OpAsked(account, !res.IsError))
	fmt.Fprintln(out, strings.Join(strings.Fields(resultText(res)), " "))
}

// taggedID returns the message_id of a tag line (room.TagPrefix, then the
// tag's JSON; docs/design.md §4).
func taggedID(line string) (string, bool) {
	js, ok := strings.CutPrefix(line, room.TagPrefix)
	if !ok {
		return "", false
	}
	var tag struct {
		MessageID string `json:"message_id"`
	}
	if err := json.Unmarshal([]byte(js), &tag); err != nil || tag.MessageID == "" {
		return "", false
	}
	return tag.MessageID, true
}

// addressedToMe reports whether line is a post's tag line whose "to"
// names the seat it was typed into (its "you").
func addressedToMe(line string) bool {
	js, ok := strings.CutPrefix(line, room.TagPrefix)
	if !ok {
		return false
	}
	var tag struct {
		To  []string `json:"to"`
		You string   `json:"you"`
	}
	return json.Unmarshal([]byte(js), &tag) == nil && tag.You != "" && slices.Contains(tag.To, tag.You)
}
