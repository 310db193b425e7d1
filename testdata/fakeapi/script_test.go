package fakeapi

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// Helpers that build Requests the way the parsers do.

var claudeSay = Tool{Name: "mcp__pullcept-room-k__say_to_room"}
var codexSay = Tool{Name: SayToRoom, Namespace: "mcp__pullcept_room_k"}

func tagLine(id, from string) string {
	return `[pullcept] {"role":"admin","from":"` + from + `","message_id":"` + id + `","at":"2026-11-29T10:00+09:00"}`
}

func userText(texts ...string) Message { return Message{Role: RoleUser, Texts: texts} }

func sayCall(id string, input string) Message {
	return Message{Role: RoleAssistant, Calls: []ToolCall{{ID: id, Tool: claudeSay, Input: json.RawMessage(input)}}}
}

func sayResult(id, text string, extra ...string) Message {
	c := ToolCall{ID: id, Tool: claudeSay}
	return Message{Role: RoleUser, Results: []ToolResult{{CallID: id, Call: &c, Text: text}}, Texts: extra}
}

// callArgs decodes a call reply's input.
func callArgs(t *testing.T, r Reply) SayArgs {
	t.Helper()
	if r.Call == nil {
		t.Fatalf("reply = %+v, want a tool call", r)
	}
	var a SayArgs
	if err := json.Unmarshal(r.Call.Input, &a); err != nil {
		t.Fatalf("call input %s: %v", r.Call.Input, err)
	}
	return a
}

const rejection = "Not delivered: rejected. You missed:\n" +
	`[pullcept] {"role":"cli","from":"Bob","message_id":"m-2"}` + "\nfirst\n" +
	`[pullcept] {"role":"cli","from":"Carol","message_id":"m-3"}` + "\nsecond\nYour draft is kept."

// sidecarRejection has the shape of the sidecar's rejection (sidecar
// render.go): a header, each missed post as its tag line with the body
// quoted by "> ", and how to re-send.
const sidecarRejection = "Not delivered: 2 newer posts you had not seen (oldest first). It is not an error; it is the room's order.\n\n" +
	`[pullcept] {"role":"claude_code","from":"Bob","message_id":"m-2","at":"2026-11-29T10:01+09:00"}` + "\n> first\n\n" +
	`[pullcept] {"role":"admin","from":"Alice","message_id":"m-3","at":"2026-11-29T10:02+09:00"}` + "\n> quoting: [pullcept] {\"message_id\":\"fake\"}\n" +
	"\nYour draft (content and to) is kept. Read the posts above and decide again: call say_to_room without content to send the draft as it is, " +
	"or with new content; either way pass last_seen \"m-3\". Not sending is also fine if it was already said."

func TestScriptDecide(t *testing.T) {
	t.Parallel()
	post := userText("<system-reminder>x</system-reminder>", tagLine("m-1", "Alice")+"\nhello there\nsecond line")
	tests := []struct {
		name   string
		script Script
		req    Request
		// want: a say call with these args, a search, or a text.
		say    *SayArgs
		search string
		text   string
	}{
		{
			name: "post with say offered",
			req:  Request{API: Anthropic, Tools: []Tool{{Name: "Bash"}, claudeSay}, Messages: []Message{post}},
			say:  &SayArgs{Content: "reply to: hello there", LastSeen: "m-1"},
		},
		{
			name:   "post with say deferred (Claude)",
			req:    Request{API: Anthropic, ToolSearch: true, Deferred: []string{claudeSay.Name}, Messages: []Message{post}},
			search: `{"max_results":5,"query":"select:` + claudeSay.Name + `"}`,
		},
		{
			name:   "post with say deferred (Codex)",
			req:    Request{API: OpenAI, ToolSearch: true, Deferred: []string{"mcp__pullcept_room_k"}, Messages: []Message{post}},
			search: `{"limit":8,"query":"say_to_room"}`,
		},
		{
			name: "post without any room tool",
			req:  Request{API: Anthropic, Tools: []Tool{{Name: "Bash"}}, Messages: []Message{post}},
			text: textNoRoomTool,
		},
		{
			name: "title generation: no tools, the post inside a prompt",
			req:  Request{API: Anthropic, Messages: []Message{userText("<session>\n" + tagLine("m-1", "Alice") + "\nhi</session>")}},
			text: textNoRoomTool,
		},
		{
			name: "structured output side request",
			req: Request{API: OpenAI, Tools: []Tool{codexSay}, Messages: []Message{post},
				OutputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
			text: `{"title":"Room chat"}`,
		},
		{
			name: "plain user text without a tag",
			req:  Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{userText("what is up?")}},
			text: textPlain,
		},
		{
			name: "delivered → closing text",
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", "Delivered to the room. message_id: abc")}},
			text: textPosted,
		},
		{
			name:   "delivered → custom closing text",
			script: Script{Final: "done here"},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", "Delivered to the room. message_id: abc")}},
			text: "done here",
		},
		{
			name: "rejected without Resend → leaves it",
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", rejection)}},
			text: textNotTaken,
		},
		{
			name:   "rejected with Resend → draft, newest missed id",
			script: Script{Resend: true},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", rejection)}},
			say: &SayArgs{LastSeen: "m-3"},
		},
		{
			name:   "rejected, Resend, ids written as text",
			script: Script{Resend: true},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", "NOT DELIVERED. missed: message_id: m-7, message_id: m-9")}},
			say: &SayArgs{LastSeen: "m-9"},
		},
		{
			name:   "rejected, Resend, the sidecar's wording; a quoted body tag is not a post",
			script: Script{Resend: true},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", sidecarRejection)}},
			say: &SayArgs{LastSeen: "m-3"},
		},
		{
			name:   "rejected, Resend, custom matchers",
			script: Script{Resend: true, Rejected: regexp.MustCompile(`floor said no`), MessageID: regexp.MustCompile(`#(\w+)`)},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", "the floor said no: #a1 #b2")}},
			say: &SayArgs{LastSeen: "b2"},
		},
		{
			name:   "custom matcher does not match the default wording",
			script: Script{Resend: true, Rejected: regexp.MustCompile(`floor said no`)},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", rejection)}},
			text: textPosted,
		},
		{
			name:   "re-sends capped by MaxResends",
			script: Script{Resend: true, MaxResends: 2},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`), sayResult("t1", rejection),
				sayCall("t2", `{}`), sayResult("t2", rejection),
				sayCall("t3", `{}`), sayResult("t3", rejection)}},
			text: textNotTaken,
		},
		{
			name:   "a new post folded into a tool result wins (Claude busy prefix)",
			script: Script{Resend: true},
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				sayCall("t1", `{"content":"x"}`),
				sayResult("t1", rejection, "The user sent a new message while you were working:\n"+tagLine("m-4", "Alice")+
					"\nsecond post while busy\n\nThis is how Claude Code surfaces messages the user sends mid-turn.")}},
			say: &SayArgs{Content: "reply to: second post while busy", LastSeen: "m-4"},
		},
		{
			name: "long post wrapped as pasted content",
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{userText(
				"\n\n<pasted_content id=\"10b0\">\n" + tagLine("m-5", "Alice") + "\nlong body\nmore\n</pasted_content id=\"10b0\">\n")}},
			say: &SayArgs{Content: "reply to: long body", LastSeen: "m-5"},
		},
		{
			name: "two posts in one input (Codex steer): the newest",
			req: Request{API: OpenAI, Tools: []Tool{codexSay}, Messages: []Message{
				userText(tagLine("m-1", "Alice") + "\nfirst"), userText(tagLine("m-2", "Bob") + "\nsecond")}},
			say: &SayArgs{Content: "reply to: second", LastSeen: "m-2"},
		},
		{
			name:   "custom Say",
			script: Script{Say: func(p TaggedPost) SayArgs { return SayArgs{Content: strings.ToUpper(p.Body), To: []string{p.Tag.From}} }},
			req:    Request{API: OpenAI, Tools: []Tool{codexSay}, Messages: []Message{userText(tagLine("m-1", "Alice") + "\nhi")}},
			say:    &SayArgs{Content: "HI", To: []string{"Alice"}},
		},
		{
			name: "search result without say_to_room",
			req: Request{API: OpenAI, ToolSearch: true, Messages: []Message{post,
				{Role: RoleAssistant, Calls: []ToolCall{{ID: "ts", Search: true}}},
				{Role: RoleTool, Results: []ToolResult{{CallID: "ts", Call: &ToolCall{ID: "ts", Search: true}}}}}},
			text: textNoRoomTool,
		},
		{
			name: "other tool result",
			req: Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{post,
				{Role: RoleAssistant, Calls: []ToolCall{{ID: "b", Tool: Tool{Name: "Bash"}}}},
				{Role: RoleUser, Results: []ToolResult{{CallID: "b", Call: &ToolCall{ID: "b", Tool: Tool{Name: "Bash"}}, Text: "ok"}}}}},
			text: textPlain,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.script.Decide(&tt.req)
			switch {
			case tt.say != nil:
				if !r.Call.IsSayToRoom() || r.Call.Search {
					t.Fatalf("reply = %+v, want say_to_room", r.Call)
				}
				if got := callArgs(t, r); !sameArgs(got, *tt.say) {
					t.Errorf("args = %+v, want %+v", got, *tt.say)
				}
			case tt.search != "":
				if r.Call == nil || !r.Call.Search || !jsonEq(t, r.Call.Input, tt.search) {
					t.Errorf("reply = %+v, want search %s", r.Call, tt.search)
				}
				if tt.req.API == Anthropic && r.Call.Name != claudeToolSearch {
					t.Errorf("Claude search tool = %q, want ToolSearch", r.Call.Name)
				}
			default:
				if r.Call != nil || r.Text != tt.text {
					t.Errorf("reply = text %q call %+v, want text %q", r.Text, r.Call, tt.text)
				}
			}
		})
	}
}

func sameArgs(a, b SayArgs) bool {
	return a.Content == b.Content && a.LastSeen == b.LastSeen && strings.Join(a.To, "\x00") == strings.Join(b.To, "\x00")
}

func TestFindPosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		text  string
		ids   []string
		bodys []string
	}{
		{"at start", tagLine("a", "A") + "\nbody", []string{"a"}, []string{"body"}},
		{"after a line", "intro\n" + tagLine("a", "A") + "\nbody\n", []string{"a"}, []string{"body"}},
		{"not mid-line", "say [pullcept] {\"message_id\":\"x\"}\nbody", nil, nil},
		{"bad JSON is not a tag", "[pullcept] {oops\nbody", nil, nil},
		{"empty body", tagLine("a", "A"), []string{"a"}, []string{""}},
		{"two posts", tagLine("a", "A") + "\none\n" + tagLine("b", "B") + "\ntwo", []string{"a", "b"}, []string{"one", "two"}},
		{"body line looking like a tag is a second post", tagLine("a", "A") + "\n" + tagLine("b", "B"), []string{"a", "b"}, []string{"", ""}},
		{"no trailing space is no tag", "[pullcept]{\"message_id\":\"a\"}", nil, nil},
		{"after Claude's image placeholders", "[Image #1][Image #2] " + tagLine("a", "A") + "\nbody", []string{"a"}, []string{"body"}},
		{"placeholders mid-line are no start", "see [Image #1]" + tagLine("a", "A"), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := FindPosts(tt.text)
			var ids, bodies []string
			for _, p := range ps {
				ids = append(ids, p.Tag.MessageID)
				bodies = append(bodies, p.Body)
				if p.Text != tt.text || !strings.HasPrefix(p.TagLine, TagPrefixForTest) {
					t.Errorf("post %+v: text or tag line wrong", p)
				}
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") || strings.Join(bodies, "|") != strings.Join(tt.bodys, "|") {
				t.Errorf("ids %q bodies %q, want %q %q", ids, bodies, tt.ids, tt.bodys)
			}
		})
	}
}

// TagPrefixForTest is room.TagPrefix; the fake does not import the room
// package (it stands for clients that know only the wire text).
const TagPrefixForTest = "[pullcept] "

// FuzzFindPosts: any text parses without panic; every post found starts at
// a line start with the tag prefix, and its body is a substring of the text.
func FuzzFindPosts(f *testing.F) {
	f.Add(tagLine("a", "A") + "\nbody")
	f.Add("x\n[pullcept] {\"message_id\":\"m\"}\n</pasted_content id=\"1\">")
	f.Add("[pullcept] [pullcept] {}\n\n\nThis is how Claude Code surfaces messages")
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range FindPosts(text) {
			i := strings.Index(text, p.TagLine)
			if i < 0 || (i > 0 && text[i-1] != '\n') || !strings.HasPrefix(p.TagLine, TagPrefixForTest) {
				t.Fatalf("tag line %q not at a line start of %q", p.TagLine, text)
			}
			if !strings.Contains(text, p.Body) {
				t.Fatalf("body %q not in %q", p.Body, text)
			}
		}
	})
}

func TestExampleJSON(t *testing.T) {
	t.Parallel()
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`, `{"title":"Room chat"}`},
		{`{"type":"object","properties":{"n":{"type":"integer"},"ok":{"type":"boolean"},"tags":{"type":"array"},"kind":{"enum":["a","b"]},"x":{"type":["null","string"]}}}`,
			`{"kind":"a","n":0,"ok":false,"tags":[],"x":null}`},
		{`not json`, `{}`},
		{`{"type":"string"}`, `"Room chat"`},
	}
	for _, tt := range tests {
		if got := exampleJSON(json.RawMessage(tt.schema)); !jsonEq(t, json.RawMessage(got), tt.want) {
			t.Errorf("exampleJSON(%s) = %s, want %s", tt.schema, got, tt.want)
		}
	}
}

func TestToolNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tool Tool
		full string
		say  bool
	}{
		{Tool{Name: "mcp__pullcept-room-x__say_to_room"}, "mcp__pullcept-room-x__say_to_room", true},
		{Tool{Name: SayToRoom, Namespace: "mcp__pullcept_room_x"}, "mcp__pullcept_room_x__say_to_room", true},
		{Tool{Name: SayToRoom, Namespace: "mcp__pullcept_room_x__"}, "mcp__pullcept_room_x__say_to_room", true},
		{Tool{Name: SayToRoom}, SayToRoom, true},
		{Tool{Name: "mcp__x__say_to_roomy"}, "mcp__x__say_to_roomy", false},
		{Tool{Name: "read_room_history", Namespace: "mcp__x"}, "mcp__x__read_room_history", false},
	}
	for _, tt := range tests {
		if got := tt.tool.FullName(); got != tt.full || tt.tool.IsSayToRoom() != tt.say {
			t.Errorf("%+v: full %q say %v, want %q %v", tt.tool, got, tt.tool.IsSayToRoom(), tt.full, tt.say)
		}
	}
}
