package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// The Anthropic Messages API as Claude Code 2.1.328 uses it (docs/clis.md
// §2.14): POST /v1/messages
// (with ?beta=true), always stream:true, tool_use / tool_result blocks,
// MCP tools deferred behind ToolSearch unless the server is alwaysLoad.

// anthropicBody is the part of a Messages request the fake reads.
type anthropicBody struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name         string `json:"name"`
		Type         string `json:"type"`
		DeferLoading bool   `json:"defer_loading"`
	} `json:"tools"`
	Metadata struct {
		UserID string `json:"user_id"`
	} `json:"metadata"`
	OutputFormat *jsonSchemaFormat `json:"output_format"`
	OutputConfig struct {
		Format *jsonSchemaFormat `json:"format"`
	} `json:"output_config"`
}

// jsonSchemaFormat is a structured-output request ({"type":"json_schema",
// "schema":{…}}); OpenAI nests the same under text.format.
type jsonSchemaFormat struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

// anthropicBlock is any content block; only the fields of its type are set.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	ToolName  string          `json:"tool_name"`
	Source    struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// deferredName finds MCP tool names in Claude's deferred-tools notice
// ("The following deferred tools are now available via ToolSearch …").
var deferredName = regexp.MustCompile(`mcp__[A-Za-z0-9_-]+__` + SayToRoom)

// parseAnthropic fills req's model view from a Messages request body.
func parseAnthropic(req *Request) error {
	var b anthropicBody
	if err := json.Unmarshal(req.Body, &b); err != nil {
		return fmt.Errorf("messages body: %w", err)
	}
	req.Model, req.Stream = b.Model, b.Stream
	req.Session = req.Header.Get("X-Claude-Code-Session-Id")
	if req.Session == "" && b.Metadata.UserID != "" {
		var uid struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(b.Metadata.UserID), &uid) == nil {
			req.Session = uid.SessionID
		}
	}
	system, err := anthropicTexts(b.System)
	if err != nil {
		return fmt.Errorf("system: %w", err)
	}
	req.System = system
	calls := map[string]*ToolCall{}
	for i, m := range b.Messages {
		msg, err := parseAnthropicMessage(m.Role, m.Content, calls)
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range b.Tools {
		if t.Name == claudeToolSearch {
			req.ToolSearch = true
		}
		if t.Name != "" {
			req.Tools = append(req.Tools, Tool{Name: t.Name, Deferred: t.DeferLoading})
		}
	}
	seen := map[string]bool{}
	scan := func(texts []string) {
		for _, text := range texts {
			for _, name := range deferredName.FindAllString(text, -1) {
				if !seen[name] {
					seen[name] = true
					req.Deferred = append(req.Deferred, name)
				}
			}
		}
	}
	scan(req.System)
	for _, m := range req.Messages {
		if m.Role != RoleAssistant {
			scan(m.Texts)
		}
	}
	for _, f := range []*jsonSchemaFormat{b.OutputFormat, b.OutputConfig.Format} {
		if f != nil && f.Type == "json_schema" && len(f.Schema) > 0 {
			req.OutputSchema = f.Schema
		}
	}
	return nil
}

// anthropicTexts reads a string-or-blocks field and returns its texts.
func anthropicTexts(raw json.RawMessage) ([]string, error) {
	blocks, err := anthropicBlocks(raw)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, bl := range blocks {
		if bl.Type == "text" {
			out = append(out, bl.Text)
		}
	}
	return out, nil
}

// anthropicBlocks reads content that is either a string (one text block) or
// a list of blocks; null or absent gives none.
func anthropicBlocks(raw json.RawMessage) ([]anthropicBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return []anthropicBlock{{Type: "text", Text: s}}, nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	return blocks, nil
}

// parseAnthropicMessage converts one message; calls maps tool_use ids seen
// so far to their call, so a tool_result can name the call it answers.
func parseAnthropicMessage(role string, content json.RawMessage, calls map[string]*ToolCall) (Message, error) {
	blocks, err := anthropicBlocks(content)
	if err != nil {
		return Message{}, err
	}
	msg := Message{Role: role}
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			msg.Texts = append(msg.Texts, bl.Text)
		case "image":
			img, err := anthropicImage(bl)
			if err != nil {
				return Message{}, err
			}
			msg.Images = append(msg.Images, img)
		case "tool_use":
			c := ToolCall{ID: bl.ID, Tool: Tool{Name: bl.Name}, Search: bl.Name == claudeToolSearch, Input: bl.Input}
			msg.Calls = append(msg.Calls, c)
		case "tool_result":
			res := ToolResult{CallID: bl.ToolUseID, IsError: bl.IsError}
			inner, err := anthropicBlocks(bl.Content)
			if err != nil {
				return Message{}, fmt.Errorf("tool_result %s: %w", bl.ToolUseID, err)
			}
			var texts []string
			for _, in := range inner {
				switch in.Type {
				case "text":
					texts = append(texts, in.Text)
				case "tool_reference":
					res.Loaded = append(res.Loaded, Tool{Name: in.ToolName, Deferred: true})
				case "image":
					img, err := anthropicImage(in)
					if err != nil {
						return Message{}, fmt.Errorf("tool_result %s: %w", bl.ToolUseID, err)
					}
					res.Images = append(res.Images, img)
				}
			}
			res.Text = strings.Join(texts, "\n")
			msg.Results = append(msg.Results, res)
		}
	}
	// Register after the loop: taking addresses while msg.Calls grows would
	// keep pointers into a reallocated array.
	for i := range msg.Calls {
		calls[msg.Calls[i].ID] = &msg.Calls[i]
	}
	for i := range msg.Results {
		if c, ok := calls[msg.Results[i].CallID]; ok {
			cc := *c
			msg.Results[i].Call = &cc
		}
	}
	return msg, nil
}

// anthropicImage decodes an image block's base64 source ({"type":
// "base64", "media_type": …, "data": …}), the only kind Claude Code sends.
func anthropicImage(bl anthropicBlock) (Image, error) {
	if bl.Source.Type != "base64" {
		return Image{}, fmt.Errorf("image source of type %q", bl.Source.Type)
	}
	data, err := base64.StdEncoding.DecodeString(bl.Source.Data)
	if err != nil {
		return Image{}, fmt.Errorf("image data: %w", err)
	}
	return Image{MediaType: bl.Source.MediaType, Data: data}, nil
}

// writeAnthropic writes reply as a Messages answer: the minimal SSE sequence
// Claude Code accepts (message_start, one content block, message_delta,
// message_stop) or, for stream:false, one JSON Message.
func writeAnthropic(s *Server, w http.ResponseWriter, req *Request, reply Reply) error {
	usage := reply.Usage
	if usage.InputTokens == 0 {
		usage.InputTokens = DefaultUsage.InputTokens
	}
	if usage.OutputTokens == 0 {
		usage.OutputTokens = DefaultUsage.OutputTokens
	}
	model := req.Model
	if model == "" {
		model = "claude-opus-5-5"
	}
	id := fmt.Sprintf("msg_%d", s.nextID())
	stop := "end_turn"
	var block map[string]any
	if c := reply.Call; c != nil {
		stop = "tool_use"
		block = map[string]any{"type": "tool_use", "id": c.ID, "name": c.FullName(), "input": c.Input}
	} else {
		block = map[string]any{"type": "text", "text": reply.Text}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{
				"input_tokens": usage.InputTokens, "output_tokens": usage.OutputTokens,
				"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
			},
		})
		return nil
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens": usage.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
		},
	}})
	if c := reply.Call; c != nil {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": c.ID, "name": c.FullName(), "input": map[string]any{}}})
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(c.Input)}})
	} else {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": reply.Text}})
	}
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	for i, c := range reply.Extra {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i + 1,
			"content_block": map[string]any{"type": "tool_use", "id": c.ID, "name": c.FullName(), "input": map[string]any{}}})
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i + 1,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(c.Input)}})
		e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i + 1})
	}
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": usage.OutputTokens}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
	return e.err
}
