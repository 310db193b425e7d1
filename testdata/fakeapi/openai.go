package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// The OpenAI Responses API as Codex 0.169.0 uses it (docs/clis.md §3
// §5): POST /v1/responses, stream:true, `input` items, MCP tools as
// {"type":"namespace","name":"mcp__<key>","tools":[{"type":"function",…}]}
// or deferred behind {"type":"tool_search"} for catalogue models.

// openaiBody is the part of a Responses request the fake reads.
type openaiBody struct {
	Model          string          `json:"model"`
	Stream         bool            `json:"stream"`
	Instructions   string          `json:"instructions"`
	Input          json.RawMessage `json:"input"`
	Tools          []openaiTool    `json:"tools"`
	PromptCacheKey string          `json:"prompt_cache_key"`
	Text           struct {
		Format *jsonSchemaFormat `json:"format"`
	} `json:"text"`
}

// openaiTool is a tool spec: a function, a namespace of functions, the
// tool_search tool, or a built-in (local_shell, web_search, custom …).
type openaiTool struct {
	Type         string       `json:"type"`
	Name         string       `json:"name"`
	DeferLoading bool         `json:"defer_loading"`
	Tools        []openaiTool `json:"tools"`
}

// openaiItem is any input item; only the fields of its type are set.
type openaiItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	CallID    string          `json:"call_id"`
	Arguments json.RawMessage `json:"arguments"`
	Output    json.RawMessage `json:"output"`
	Tools     []openaiTool    `json:"tools"`
}

// deferredNamespace finds Codex's deferred MCP namespaces in its developer
// message ("Deferred tool namespaces:\n- mcp__pullcept_room_x").
var deferredNamespace = regexp.MustCompile(`(?m)^\s*-\s*(mcp__[A-Za-z0-9_]+)`)

// openaiSearchTool is the tool spec type that enables client tool search.
const openaiSearchTool = "tool_search"

// parseOpenAI fills req's model view from a Responses request body.
func parseOpenAI(req *Request) error {
	var b openaiBody
	if err := json.Unmarshal(req.Body, &b); err != nil {
		return fmt.Errorf("responses body: %w", err)
	}
	req.Model, req.Stream = b.Model, b.Stream
	for _, h := range []string{"session-id", "session_id", "thread-id"} {
		if req.Session = req.Header.Get(h); req.Session != "" {
			break
		}
	}
	if req.Session == "" {
		req.Session = b.PromptCacheKey
	}
	if b.Instructions != "" {
		req.System = []string{b.Instructions}
	}
	for _, t := range b.Tools {
		if t.Type == openaiSearchTool {
			req.ToolSearch = true
		}
		req.Tools = append(req.Tools, openaiTools(t, false)...)
	}
	if f := b.Text.Format; f != nil && f.Type == "json_schema" && len(f.Schema) > 0 {
		req.OutputSchema = f.Schema
	}
	items, err := openaiItems(b.Input)
	if err != nil {
		return err
	}
	calls := map[string]ToolCall{}
	seen := map[string]bool{}
	for i, it := range items {
		msg, err := parseOpenAIItem(it, calls)
		if err != nil {
			return fmt.Errorf("input %d: %w", i, err)
		}
		for _, res := range msg.Results {
			req.Tools = append(req.Tools, res.Loaded...)
		}
		if msg.Role == RoleDeveloper || msg.Role == RoleSystem || msg.Role == RoleUser {
			for _, text := range msg.Texts {
				if !strings.Contains(text, "Deferred tool namespaces") {
					continue
				}
				for _, m := range deferredNamespace.FindAllStringSubmatch(text, -1) {
					if !seen[m[1]] {
						seen[m[1]] = true
						req.Deferred = append(req.Deferred, m[1])
					}
				}
			}
		}
		req.Messages = append(req.Messages, msg)
	}
	return nil
}

// openaiTools flattens a tool spec into callable tools: a function is one
// tool, a namespace gives its functions with the namespace set, built-ins
// (tool_search, local_shell, web_search …) give none.
func openaiTools(t openaiTool, deferred bool) []Tool {
	switch t.Type {
	case "function":
		return []Tool{{Name: t.Name, Deferred: deferred || t.DeferLoading}}
	case "namespace":
		var out []Tool
		for _, sub := range t.Tools {
			if sub.Type == "function" || sub.Type == "" {
				out = append(out, Tool{Name: sub.Name, Namespace: t.Name, Deferred: deferred || sub.DeferLoading})
			}
		}
		return out
	}
	return nil
}

// openaiItems reads `input`: a plain string (one user message) or a list.
func openaiItems(raw json.RawMessage) ([]openaiItem, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		content, _ := json.Marshal(s)
		return []openaiItem{{Type: "message", Role: RoleUser, Content: content}}, nil
	}
	var items []openaiItem
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	return items, nil
}

// openaiParts returns the texts of a content / output field: a string, or a
// list of parts (input_text, output_text, text).
func openaiParts(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return []string{s}, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	var out []string
	for _, p := range parts {
		switch p.Type {
		case "input_text", "output_text", "text":
			out = append(out, p.Text)
		}
	}
	return out, nil
}

// callArguments returns a call's arguments as a JSON object: Responses
// function calls carry a JSON string, tool_search_call an object.
func callArguments(raw json.RawMessage) json.RawMessage {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		b, _ := json.Marshal(map[string]string{"raw": s})
		return b
	}
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// parseOpenAIItem converts one input item. calls maps call ids seen so far
// to their call, so an output can name the call it answers.
func parseOpenAIItem(it openaiItem, calls map[string]ToolCall) (Message, error) {
	typ := it.Type
	if typ == "" && it.Role != "" {
		typ = "message"
	}
	switch typ {
	case "message":
		texts, err := openaiParts(it.Content)
		if err != nil {
			return Message{}, err
		}
		return Message{Role: it.Role, Texts: texts}, nil
	case "function_call", "custom_tool_call":
		c := ToolCall{ID: it.CallID, Tool: Tool{Name: it.Name, Namespace: it.Namespace}, Input: callArguments(it.Arguments)}
		calls[c.ID] = c
		return Message{Role: RoleAssistant, Calls: []ToolCall{c}}, nil
	case "tool_search_call":
		c := ToolCall{ID: it.CallID, Search: true, Input: callArguments(it.Arguments)}
		calls[c.ID] = c
		return Message{Role: RoleAssistant, Calls: []ToolCall{c}}, nil
	case "function_call_output", "custom_tool_call_output":
		texts, err := openaiParts(it.Output)
		if err != nil {
			return Message{}, fmt.Errorf("output of %s: %w", it.CallID, err)
		}
		res := ToolResult{CallID: it.CallID, Text: strings.Join(texts, "\n")}
		if c, ok := calls[it.CallID]; ok {
			res.Call = &c
		}
		return Message{Role: RoleTool, Results: []ToolResult{res}}, nil
	case "tool_search_output":
		res := ToolResult{CallID: it.CallID}
		for _, t := range it.Tools {
			res.Loaded = append(res.Loaded, openaiTools(t, true)...)
		}
		if c, ok := calls[it.CallID]; ok {
			res.Call = &c
		}
		return Message{Role: RoleTool, Results: []ToolResult{res}}, nil
	default:
		// reasoning, local_shell_call, web_search_call …: model output the
		// fake never produces itself; it still ends "new input".
		return Message{Role: RoleAssistant}, nil
	}
}

// writeOpenAI writes reply as a Responses stream: response.created, the
// output item (text deltas for a message), response.output_item.done and
// response.completed with its id and usage — the events Codex's parser
// needs (codex-rs/codex-api/src/sse/responses.rs, docs/clis.md §3.5).
func writeOpenAI(s *Server, w http.ResponseWriter, req *Request, reply Reply) error {
	usage := reply.Usage
	if usage.InputTokens == 0 {
		usage.InputTokens = DefaultUsage.InputTokens
	}
	if usage.OutputTokens == 0 {
		usage.OutputTokens = DefaultUsage.OutputTokens
	}
	respID := fmt.Sprintf("resp_%d", s.nextID())
	var item map[string]any
	switch c := reply.Call; {
	case c != nil && c.Search:
		var args any = map[string]any{}
		if len(c.Input) > 0 {
			args = c.Input
		}
		item = map[string]any{"type": "tool_search_call", "id": c.ID, "call_id": c.ID,
			"execution": "client", "status": "completed", "arguments": args}
	case c != nil:
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", s.nextID()),
			"call_id": c.ID, "name": c.Name, "arguments": string(c.Input), "status": "completed"}
		if c.Namespace != "" {
			item["namespace"] = c.Namespace
		}
	default:
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", s.nextID()), "role": "assistant",
			"status": "completed", "content": []any{map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}}}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": respID, "object": "response", "status": "completed",
			"model": req.Model, "output": []any{item}, "usage": openaiUsage(usage)})
		return nil
	}
	e := newSSE(w)
	e.event("response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": respID, "object": "response", "status": "in_progress", "model": req.Model, "output": []any{}}})
	if reply.Call == nil {
		added := map[string]any{"type": "message", "id": item["id"], "role": "assistant", "status": "in_progress", "content": []any{}}
		e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": added})
		e.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": reply.Text})
	}
	e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	e.event("response.completed", map[string]any{"type": "response.completed",
		"response": map[string]any{"id": respID, "object": "response", "status": "completed", "usage": openaiUsage(usage)}})
	return e.err
}

func openaiUsage(u Usage) map[string]any {
	return map[string]any{
		"input_tokens":          u.InputTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": 0},
		"output_tokens":         u.OutputTokens,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens":          u.InputTokens + u.OutputTokens,
	}
}
