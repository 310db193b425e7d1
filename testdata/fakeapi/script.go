package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
)

// Reply is the fake model's answer to one model call. Exactly one of Text,
// Call or Status is used, checked in the order Status, Call, Text.
type Reply struct {
	// Text is an assistant text that ends the turn (Claude stop_reason
	// end_turn, Codex an output_text message).
	Text string `json:"text,omitempty"`
	// Call is a tool call (stop_reason tool_use / a function_call item), or a
	// tool-search step when Call.Search is set. Use CallTool and SearchReply
	// to build one.
	Call *ToolCall `json:"call,omitempty"`
	// Usage is the token usage reported with the answer; zero fields get
	// DefaultUsage's values. Claude's status line derives context % from it.
	Usage Usage `json:"usage,omitempty"`
	// Status, when non-zero, answers with this HTTP status and an API error
	// body carrying Error instead of a stream (overload, rate-limit tests).
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// ErrorBody, when set with Status, is that answer's JSON body, sent as
	// is instead of the API's error shape around Error (CodexUsageLimit).
	ErrorBody json.RawMessage `json:"error_body,omitempty"`
	// Hold, when non-nil, delays the answer until it is closed, so a test
	// can keep the model "busy" deterministically. If the request is
	// cancelled or the Server closes first, nothing is answered.
	Hold <-chan struct{} `json:"-"`
	// Extra are more tool calls in the same answer, after Call (Anthropic
	// only): Claude Code runs some tools of one answer in parallel (Read).
	Extra []ToolCall `json:"-"`
	// Header is set on this answer's response, after Options.Headers and
	// the limit headers, replacing any header of the same name (a
	// ClaudeRateLimit refusal's "rejected" status wins over ClaudeLimits'
	// "allowed").
	Header http.Header `json:"-"`
}

// Usage is token usage in tokens.
type Usage struct {
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`
}

// DefaultUsage is reported when a Reply leaves Usage zero: a plausible first
// turn (system prompt + tool list ≈ 1200 tokens) so context % is non-zero.
var DefaultUsage = Usage{InputTokens: 1200, OutputTokens: 20}

// TextReply returns a Reply that ends the turn with text.
func TextReply(text string) Reply { return Reply{Text: text} }

// CallTool returns a Reply that calls tool with args (marshalled to JSON;
// nil becomes {}). It panics if args cannot be marshalled — a test bug.
func CallTool(tool Tool, args any) Reply {
	raw := json.RawMessage("{}")
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			panic(fmt.Sprintf("fakeapi: tool arguments: %v", err))
		}
		raw = b
	}
	return Reply{Call: &ToolCall{Tool: tool, Input: raw}}
}

// claudeToolSearch is Claude Code's deferred-tool loader (2.1.328).
const claudeToolSearch = "ToolSearch"

// SearchReply returns the tool-search step a real model takes to load a
// deferred tool: for Claude, a ToolSearch call {"query":"select:<name>",
// "max_results":5} (name is the full mcp__… name when known, else a keyword
// query); for Codex, a tool_search_call {"query":<name>,"limit":8}.
func SearchReply(api API, name string) Reply {
	if api == Anthropic {
		q := SayToRoom
		if name != "" {
			q = "select:" + name
		}
		r := CallTool(Tool{Name: claudeToolSearch}, map[string]any{"query": q, "max_results": 5})
		r.Call.Search = true
		return r
	}
	if name == "" {
		name = SayToRoom
	}
	r := CallTool(Tool{}, map[string]any{"query": name, "limit": 8})
	r.Call.Search = true
	return r
}

// SayArgs are say_to_room's arguments (docs/design.md §7). Empty fields are omitted:
// no Content means "send the kept draft".
type SayArgs struct {
	Content  string   `json:"content,omitempty"`
	To       []string `json:"to,omitempty"`
	LastSeen string   `json:"last_seen,omitempty"`
}

// Default matchers for the sidecar's say_to_room result text (docs/design.md §7).
var (
	// DefaultRejected matches a result saying the post was not delivered.
	DefaultRejected = regexp.MustCompile(`(?i)not delivered|rejected`)
	// DefaultMessageID captures message ids in a rejection's missed-post
	// list: the message_id of a tag line at the start of a line (the
	// sidecar lists each missed post as its tag line, body lines quoted
	// with "> " so a body cannot pass for a tag), or text "message_id: m-2".
	// The first non-empty group is the id.
	DefaultMessageID = regexp.MustCompile(`(?m)^\[pullcept\] \{.*?"message_id"\s*:\s*"([^"]+)"|message_id:\s*([^\s,;)"\]]+)`)
)

// defaultMaxResends bounds draft re-sends in one turn: enough for a floor
// that rejects twice in a row, small enough that a floor which never accepts
// cannot make a test loop forever.
const defaultMaxResends = 3

// Script is the default fake model: it behaves like a model that follows
// the room's instructions (docs/design.md §7) and nothing more. Its zero value is
// ready to use. Decide is stateless: each request is judged from its own
// body, so one Script serves any number of seats.
type Script struct {
	// Say builds say_to_room's arguments for a post. Nil: content
	// "reply to: <first body line>", last_seen = the post's message_id.
	Say func(p TaggedPost) SayArgs
	// Resend: when say_to_room's result matches Rejected, call say_to_room
	// again with no content (the sidecar re-sends its kept draft) and
	// last_seen = the newest message id in the result (the last match of
	// MessageID, since missed posts are listed oldest first).
	Resend bool
	// Rejected matches a rejection; nil means DefaultRejected.
	Rejected *regexp.Regexp
	// MessageID finds message ids in a rejection; nil means
	// DefaultMessageID. The first non-empty capture group (or the whole
	// match when there is none) is the id.
	MessageID *regexp.Regexp
	// MaxResends caps re-sends per turn; 0 means 3.
	MaxResends int
	// Final is the turn's closing text after say_to_room answered; "" means
	// "Posted to the room." (or a note that the post was not taken).
	Final string
}

// Texts the default Script ends turns with.
const (
	textPosted     = "Posted to the room."
	textNotTaken   = "The room did not take my post; I leave it there."
	textNoRoomTool = "I cannot answer the room: say_to_room is not available."
	textPlain      = "OK."
)

// Decide answers one model call:
//
//  1. a structured-output side request (title generation) → a JSON text
//     that fits the schema, never a tool call;
//  2. a tagged post in the new user input → say_to_room with Say(newest
//     post); when say_to_room is deferred, the tool-search step first; when
//     the request has no room tool at all, a plain text;
//  3. a tool-search result → say_to_room for the newest post in the request;
//  4. a say_to_room result → a re-send of the draft (Resend, rejected, under
//     MaxResends), else the closing text;
//  5. anything else → a short plain text.
func (s Script) Decide(r *Request) Reply {
	if len(r.OutputSchema) > 0 {
		return TextReply(exampleJSON(r.OutputSchema))
	}
	say, hasSay := r.SayTool()
	if posts := r.NewPosts(); len(posts) > 0 {
		p := posts[len(posts)-1]
		if hasSay {
			return CallTool(say, s.sayArgs(p))
		}
		if name, ok := r.DeferredSay(); ok && r.ToolSearch {
			return SearchReply(r.API, name)
		}
		if r.ToolSearch && r.API == OpenAI {
			// Codex lists deferred namespaces, not tool names: search for
			// the tool by name (docs/clis.md §3.5 rule 4).
			return SearchReply(r.API, SayToRoom)
		}
		return TextReply(textNoRoomTool)
	}
	results := r.NewResults()
	if len(results) == 0 {
		return TextReply(textPlain)
	}
	last := results[len(results)-1]
	switch {
	case last.Call != nil && last.Call.Search, len(last.Loaded) > 0:
		p, ok := r.LatestPost()
		if hasSay && ok {
			return CallTool(say, s.sayArgs(p))
		}
		return TextReply(textNoRoomTool)
	case last.Call != nil && last.Call.IsSayToRoom():
		if !s.rejected(last.Text) {
			return TextReply(s.final(textPosted))
		}
		if s.Resend && hasSay && r.SayCallsThisTurn() <= s.maxResends() {
			args := SayArgs{}
			if ids := s.messageIDs(last.Text); len(ids) > 0 {
				args.LastSeen = ids[len(ids)-1]
			}
			return CallTool(say, args)
		}
		return TextReply(s.final(textNotTaken))
	}
	return TextReply(textPlain)
}

func (s Script) sayArgs(p TaggedPost) SayArgs {
	if s.Say != nil {
		return s.Say(p)
	}
	return SayArgs{Content: "reply to: " + p.FirstLine(), LastSeen: p.Tag.MessageID}
}

func (s Script) rejected(text string) bool {
	re := s.Rejected
	if re == nil {
		re = DefaultRejected
	}
	return re.MatchString(text)
}

// messageIDs returns the ids MessageID finds in text, in order.
func (s Script) messageIDs(text string) []string {
	re := s.MessageID
	if re == nil {
		re = DefaultMessageID
	}
	var ids []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		id := m[0]
		for _, g := range m[1:] {
			if g != "" {
				id = g
				break
			}
		}
		ids = append(ids, id)
	}
	return ids
}

func (s Script) maxResends() int {
	if s.MaxResends > 0 {
		return s.MaxResends
	}
	return defaultMaxResends
}

func (s Script) final(def string) string {
	if s.Final != "" {
		return s.Final
	}
	return def
}

// exampleJSON returns a JSON value that satisfies a (simple) JSON schema:
// objects get every property (strings "Room chat", numbers 0, booleans
// false, arrays []), enums their first value. Enough for Codex's title
// schema ({"title": string}); unknown shapes give {}.
func exampleJSON(schema json.RawMessage) string {
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		return "{}"
	}
	b, err := json.Marshal(exampleValue(s, 0))
	if err != nil {
		return "{}"
	}
	return string(b)
}

// maxSchemaDepth stops exampleValue on self-referencing schemas.
const maxSchemaDepth = 8

func exampleValue(s map[string]any, depth int) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := s["type"].(string)
	if list, ok := s["type"].([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	switch typ {
	case "string":
		return "Room chat"
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	case "null":
		return nil
	}
	obj := map[string]any{}
	if depth >= maxSchemaDepth {
		return obj
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		if ps, ok := p.(map[string]any); ok {
			obj[name] = exampleValue(ps, depth+1)
		}
	}
	return obj
}
