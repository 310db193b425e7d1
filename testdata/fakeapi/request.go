package fakeapi

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// API names the wire format of a recorded request.
type API string

// The wire formats the Server tells apart (by path and headers).
const (
	// Anthropic is the Messages API Claude Code speaks (POST /v1/messages…).
	Anthropic API = "anthropic"
	// OpenAI is the Responses API Codex speaks (POST /v1/responses).
	OpenAI API = "openai"
	// Other is anything else: Claude's http hooks, HEAD /api/hello, proxy
	// escapes (Request.Escape), unknown paths. count_tokens and /v1/models
	// are recorded under the API that asked.
	Other API = "other"
)

// SayToRoom is the room tool's own name (docs/design.md §7). CLIs put their MCP
// namespace in front of it: Claude Code calls it
// "mcp__<.mcp.json key>__say_to_room"; Codex keeps "say_to_room" as the
// function name inside the namespace "mcp__<key with - → _>".
const SayToRoom = "say_to_room"

// Role values of Message.Role. Claude Code messages are user, assistant or
// system; Codex input items map to user, assistant, developer or tool.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	// RoleTool holds Codex's function_call_output / tool_search_output items
	// (Claude carries tool results inside a user message instead).
	RoleTool = "tool"
)

// Tool is one tool a request offers the model.
type Tool struct {
	// Name is the function name as the model must call it.
	Name string `json:"name"`
	// Namespace is Codex's tool namespace ("mcp__pullcept_room_x"); "" for
	// Claude Code and for plain functions.
	Namespace string `json:"namespace,omitempty"`
	// Deferred: the tool came through tool search (Claude defer_loading,
	// Codex tool_search_output) rather than being offered up front.
	Deferred bool `json:"deferred,omitempty"`
}

// FullName joins Namespace and Name with "__", the shape Claude Code uses
// itself ("mcp__k__say_to_room"), so one suffix test covers both CLIs.
func (t Tool) FullName() string {
	if t.Namespace == "" {
		return t.Name
	}
	return strings.TrimSuffix(t.Namespace, "__") + "__" + t.Name
}

// IsSayToRoom reports whether t is a room's say_to_room tool (its full name
// is "say_to_room" or ends in "__say_to_room").
func (t Tool) IsSayToRoom() bool {
	n := t.FullName()
	return n == SayToRoom || strings.HasSuffix(n, "__"+SayToRoom)
}

// ToolCall is a tool call the model made earlier in the conversation, or
// the one a Reply asks for.
type ToolCall struct {
	// ID is Claude's tool_use id or Codex's call_id; the Server makes one
	// ("toolu_N" / "call_N") when a Reply leaves it empty.
	ID string `json:"id,omitempty"`
	Tool
	// Search marks a tool-search step (Claude's ToolSearch tool, Codex's
	// tool_search_call item) instead of a function call.
	Search bool `json:"search,omitempty"`
	// Input is the arguments object as JSON ("{}" when none).
	Input json.RawMessage `json:"input,omitempty"`
}

// ToolResult is what the CLI sent back for a tool call.
type ToolResult struct {
	CallID string `json:"call_id"`
	// Call is the call this result answers, found by id among the
	// request's assistant messages; nil when the call is not in the request.
	Call *ToolCall `json:"call,omitempty"`
	// Text is every text part of the result joined with "\n".
	Text    string `json:"text"`
	IsError bool   `json:"is_error,omitempty"`
	// Loaded lists the tools a tool-search result made callable.
	Loaded []Tool `json:"loaded,omitempty"`
	// Images are the image blocks of the result (Claude's Read of an
	// image file answers with one), in order.
	Images []Image `json:"images,omitempty"`
}

// Image is an image content block as the CLI sent it to the model: its
// media type and its bytes, decoded from the block's base64 source.
type Image struct {
	MediaType string `json:"media_type"`
	Data      []byte `json:"-"`
}

// Message is one turn of the conversation in API-neutral form. Claude's
// messages map one to one; each Codex input item becomes one Message.
type Message struct {
	Role    string       `json:"role"`
	Texts   []string     `json:"texts,omitempty"`
	Calls   []ToolCall   `json:"calls,omitempty"`
	Results []ToolResult `json:"results,omitempty"`
	// Images are the message's own image blocks (Claude Code sends a
	// pasted image path's picture this way), in order.
	Images []Image `json:"images,omitempty"`
}

// Tag is the JSON of a [pullcept] tag line (docs/design.md §4).
type Tag struct {
	Role      string   `json:"role"`
	From      string   `json:"from"`
	MessageID string   `json:"message_id"`
	At        string   `json:"at,omitempty"`
	To        []string `json:"to,omitempty"`
	// You is what the room calls the seat the post was typed into; only
	// with To (docs/design.md §4).
	You string `json:"you,omitempty"`
}

// TaggedPost is a room post found in a user text block: a line that starts
// with "[pullcept] " (at the start of the block or after "\n", so also inside
// Claude's <pasted_content> wrapper and after its "The user sent a new message
// while you were working:" prefix) followed by the body.
type TaggedPost struct {
	Tag Tag `json:"tag"`
	// TagLine is the whole tag line, "[pullcept] {…}".
	TagLine string `json:"tag_line"`
	// Body is the text after the tag line up to the next tag line or the end
	// of the block, without Claude Code's pasted-content and busy wrappers.
	Body string `json:"body"`
	// Text is the whole text block the post was found in, as received.
	Text string `json:"text"`
	// Message is the index of the message in Request.Messages.
	Message int `json:"message"`
}

// FirstLine is the first line of the body, trimmed ("" for an empty body).
func (p TaggedPost) FirstLine() string {
	line, _, _ := strings.Cut(p.Body, "\n")
	return strings.TrimSpace(line)
}

// Request is one recorded HTTP request. The model view (Model … OutputSchema)
// is filled for model calls (API Anthropic or OpenAI on the messages /
// responses endpoints) and zero for everything else.
type Request struct {
	// Seq numbers requests in arrival order, from 1.
	Seq  int       `json:"seq"`
	Time time.Time `json:"time"`
	API  API       `json:"api"`
	// ModelCall is true for POST /v1/messages and POST /v1/responses.
	ModelCall bool   `json:"model_call"`
	Method    string `json:"method"`
	// Host is the Host header (host:port), or the CONNECT target.
	Host string `json:"host"`
	// Escape is true for a request that reached the fake as the CLI's
	// HTTP(S) proxy (a CONNECT, or an absolute-URL request): the CLI tried to
	// reach Host beyond this machine. The fake refused it with 403.
	Escape   bool        `json:"escape,omitempty"`
	Path     string      `json:"path"`
	RawQuery string      `json:"raw_query,omitempty"`
	Header   http.Header `json:"header"`
	// Body is the request body as received (gzip bodies decompressed).
	Body []byte `json:"-"`
	// ParseErr is set when a model call's body was not the JSON we expect;
	// the Server then answered 400.
	ParseErr string `json:"parse_err,omitempty"`

	Model  string `json:"model,omitempty"`
	Stream bool   `json:"stream,omitempty"`
	// Session routes requests of several seats sharing one Server: Claude's
	// X-Claude-Code-Session-Id header (its --session-id; fallback:
	// metadata.user_id's session_id); Codex's session-id header (the rollout
	// uuid; fallbacks: thread-id header, prompt_cache_key).
	Session string `json:"session,omitempty"`
	// System holds the system prompt texts (Claude's system blocks, Codex's
	// instructions).
	System   []string  `json:"system,omitempty"`
	Messages []Message `json:"messages,omitempty"`
	// Tools are the tools the model may call now: the request's tool list
	// plus tools a tool-search result in the input loaded (Codex).
	Tools []Tool `json:"tools,omitempty"`
	// ToolSearch: the request offers a tool-search tool (Claude "ToolSearch",
	// Codex {"type":"tool_search"}).
	ToolSearch bool `json:"tool_search,omitempty"`
	// Deferred lists deferred tools named in the conversation text: Claude's
	// "mcp__…" names from the deferred-tools notice, Codex's namespaces from
	// "Deferred tool namespaces".
	Deferred []string `json:"deferred,omitempty"`
	// OutputSchema is a structured-output JSON schema (Codex's title
	// generation side request, text.format json_schema); nil otherwise.
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

// NewInput returns the messages after the model's last turn: what the CLI
// added since the model last spoke (Claude: the last user message; Codex:
// every item after the last assistant item).
func (r *Request) NewInput() []Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == RoleAssistant {
			return r.Messages[i+1:]
		}
	}
	return r.Messages
}

// NewUserTexts returns the text blocks of user messages in NewInput, in order.
func (r *Request) NewUserTexts() []string {
	var out []string
	for _, m := range r.NewInput() {
		if m.Role == RoleUser {
			out = append(out, m.Texts...)
		}
	}
	return out
}

// NewPosts returns the tagged posts in NewInput's user messages, oldest
// first.
func (r *Request) NewPosts() []TaggedPost {
	first := len(r.Messages) - len(r.NewInput())
	var out []TaggedPost
	for i := first; i < len(r.Messages); i++ {
		out = append(out, messagePosts(r.Messages, i)...)
	}
	return out
}

// LatestPost returns the newest tagged post in any user message of the
// request, and false when there is none.
func (r *Request) LatestPost() (TaggedPost, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if ps := messagePosts(r.Messages, i); len(ps) > 0 {
			return ps[len(ps)-1], true
		}
	}
	return TaggedPost{}, false
}

// NewResults returns the tool results in NewInput, in order.
func (r *Request) NewResults() []ToolResult {
	var out []ToolResult
	for _, m := range r.NewInput() {
		out = append(out, m.Results...)
	}
	return out
}

// SayTool returns the callable say_to_room tool, if the request offers one.
func (r *Request) SayTool() (Tool, bool) {
	for _, t := range r.Tools {
		if t.IsSayToRoom() {
			return t, true
		}
	}
	return Tool{}, false
}

// DeferredSay returns the name of a deferred say_to_room tool that a Claude
// request mentions but does not offer yet (it must be loaded with
// ToolSearch first).
func (r *Request) DeferredSay() (string, bool) {
	for _, d := range r.Deferred {
		if strings.HasSuffix(d, "__"+SayToRoom) {
			return d, true
		}
	}
	return "", false
}

// SayCallsThisTurn counts the say_to_room calls the model made since the
// current turn began: the last user message that carries a tagged post, or
// text without tool results (Claude's "Tool loaded." note rides along with
// a tool result and does not start a turn).
func (r *Request) SayCallsThisTurn() int {
	start := 0
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != RoleUser || len(m.Texts) == 0 {
			continue
		}
		if len(m.Results) == 0 || len(messagePosts(r.Messages, i)) > 0 {
			start = i + 1
			break
		}
	}
	n := 0
	for _, m := range r.Messages[start:] {
		for _, c := range m.Calls {
			if !c.Search && c.IsSayToRoom() {
				n++
			}
		}
	}
	return n
}

// messagePosts returns the tagged posts in the user texts of msgs[i].
func messagePosts(msgs []Message, i int) []TaggedPost {
	if msgs[i].Role != RoleUser {
		return nil
	}
	var out []TaggedPost
	for _, text := range msgs[i].Texts {
		for _, p := range FindPosts(text) {
			p.Message = i
			out = append(out, p)
		}
	}
	return out
}

// tagStart finds a tag line: "[pullcept] " at the start of the text or of a
// line (the match rule of docs/clis.md §2.8), after any "[Image #N]"
// placeholders Claude Code puts where it took image paths out of a paste
// (docs/clis.md §2.16).
var tagStart = regexp.MustCompile(`(?:^|\n)(?:\[Image #\d+\] ?)*\[pullcept\] `)

// Wrappers Claude Code 2.1.328 puts around typed input
// (docs/clis.md §2.8): a post over 800 characters arrives as
// pasted content, a post typed while busy ends with an explanation sentence.
const (
	pastedClose = "</pasted_content"
	busySuffix  = "\n\nThis is how Claude Code surfaces messages"
)

// FindPosts returns the tagged posts in one text block, in order. A tag line
// whose JSON does not decode is not a post (the room always writes valid
// JSON, docs/design.md §4).
func FindPosts(text string) []TaggedPost {
	locs := tagStart.FindAllStringIndex(text, -1)
	var out []TaggedPost
	for k, loc := range locs {
		start := loc[0]
		if text[start] == '\n' {
			start++
		}
		end := len(text)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		chunk := text[start:end]
		chunk = chunk[strings.Index(chunk, "[pullcept] "):] // after the placeholders
		line, body, _ := strings.Cut(chunk, "\n")
		var tag Tag
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "[pullcept] ")), &tag); err != nil {
			continue
		}
		if i := strings.Index(body, pastedClose); i >= 0 {
			body = body[:i]
		}
		if i := strings.Index(body, busySuffix); i >= 0 {
			body = body[:i]
		}
		out = append(out, TaggedPost{
			Tag:     tag,
			TagLine: line,
			Body:    strings.TrimRight(body, "\n"),
			Text:    text,
		})
	}
	return out
}
