package fakeapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The fixtures in testdata/*.json are real requests the pinned CLIs sent to
// the fake in the e2e tests (recorded with FAKEAPI_RECORD_DIR), with long
// prompt texts cut to their first line (lines naming mcp__ tools kept),
// tool schemas cut to {"type":"object"} and temp paths replaced. They pin
// the request shapes the fake parses: Claude Code 2.1.328 with alwaysLoad
// and with ToolSearch, Codex 0.169.0 with tool_search.

// fixture is one recorded request.
type fixture struct {
	Path    string            `json:"path"` // "POST /v1/messages?beta=true"
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
}

func loadFixture(t *testing.T, name string) fixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return f
}

// send replays f against srv and returns the HTTP response.
func (f fixture) send(t *testing.T, srv http.Handler) *http.Response {
	t.Helper()
	method, target, _ := strings.Cut(f.Path, " ")
	req := httptest.NewRequest(method, target, bytes.NewReader(f.Body))
	for k, v := range f.Headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec.Result()
}

// sseEvent is one server-sent event.
type sseEvent struct {
	Name string
	Data json.RawMessage
}

// readSSE parses a text/event-stream body into events, failing t on any
// malformed block (every data line must be JSON).
func readSSE(t *testing.T, body io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data = json.RawMessage(strings.TrimPrefix(line, "data: "))
			if !json.Valid(cur.Data) {
				t.Fatalf("event %s: data is not JSON: %s", cur.Name, cur.Data)
			}
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if cur.Name != "" {
		t.Fatalf("stream ended inside event %s", cur.Name)
	}
	return out
}

// anthropicAnswer is what a Messages stream says, reassembled.
type anthropicAnswer struct {
	Events     []string
	Stop       string
	Text       string
	ToolName   string
	ToolID     string
	ToolInput  json.RawMessage
	InputUsage int
}

func readAnthropic(t *testing.T, resp *http.Response) anthropicAnswer {
	t.Helper()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	var a anthropicAnswer
	var partial strings.Builder
	for _, ev := range readSSE(t, resp.Body) {
		a.Events = append(a.Events, ev.Name)
		var d struct {
			Type    string `json:"type"`
			Message struct {
				Usage struct {
					InputTokens int `json:"input_tokens"`
				} `json:"usage"`
			} `json:"message"`
			ContentBlock struct {
				Type string `json:"type"`
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatalf("event %s: %v", ev.Name, err)
		}
		if d.Type != ev.Name {
			t.Errorf("event %s carries type %s", ev.Name, d.Type)
		}
		switch ev.Name {
		case "message_start":
			a.InputUsage = d.Message.Usage.InputTokens
		case "content_block_start":
			if d.ContentBlock.Type == "tool_use" {
				a.ToolName, a.ToolID = d.ContentBlock.Name, d.ContentBlock.ID
			}
		case "content_block_delta":
			a.Text += d.Delta.Text
			partial.WriteString(d.Delta.PartialJSON)
		case "message_delta":
			a.Stop = d.Delta.StopReason
		}
	}
	if partial.Len() > 0 {
		a.ToolInput = json.RawMessage(partial.String())
	}
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if strings.Join(a.Events, ",") != strings.Join(want, ",") {
		t.Errorf("events = %v, want %v", a.Events, want)
	}
	return a
}

// openaiAnswer is what a Responses stream says: the done item and the
// completed response.
type openaiAnswer struct {
	Events     []string
	Item       map[string]any
	ResponseID string
	Delta      string
}

func readOpenAI(t *testing.T, resp *http.Response) openaiAnswer {
	t.Helper()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	var a openaiAnswer
	for _, ev := range readSSE(t, resp.Body) {
		a.Events = append(a.Events, ev.Name)
		var d struct {
			Type     string         `json:"type"`
			Item     map[string]any `json:"item"`
			Delta    string         `json:"delta"`
			Response struct {
				ID    string `json:"id"`
				Usage struct {
					TotalTokens int `json:"total_tokens"`
				} `json:"usage"`
			} `json:"response"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatalf("event %s: %v", ev.Name, err)
		}
		if d.Type != ev.Name {
			t.Errorf("event %s carries type %s", ev.Name, d.Type)
		}
		switch ev.Name {
		case "response.output_item.done":
			a.Item = d.Item
		case "response.output_text.delta":
			a.Delta += d.Delta
		case "response.completed":
			a.ResponseID = d.Response.ID
			if d.Response.Usage.TotalTokens == 0 {
				t.Errorf("response.completed without usage")
			}
		}
	}
	if n := len(a.Events); n == 0 || a.Events[n-1] != "response.completed" || a.ResponseID == "" {
		t.Errorf("events = %v (response id %q), want to end with response.completed carrying an id", a.Events, a.ResponseID)
	}
	return a
}

func jsonEq(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("not JSON: %s", got)
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %s", want)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return bytes.Equal(gb, wb)
}

const fixtureSayClaude = "mcp__pullcept-room-test-1a2b3c__say_to_room"

// TestClaudeFixtures replays Claude Code's recorded requests and checks the
// reply a room-aware model gives at each step (docs/design.md §7): post → say;
// rejection → draft re-send (or the closing text without Resend);
// delivery → closing text; deferred tool → ToolSearch, then say.
func TestClaudeFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture string
		resend  bool
		tool    string
		input   string
		text    string
	}{
		{"claude_alwaysload_post", true, fixtureSayClaude, `{"content":"reply to: hello","last_seen":"m-1"}`, ""},
		{"claude_alwaysload_rejected", true, fixtureSayClaude, `{"last_seen":"m-2"}`, ""},
		{"claude_alwaysload_rejected", false, "", "", textNotTaken},
		{"claude_alwaysload_delivered", true, "", "", textPosted},
		{"claude_toolsearch_post", true, "ToolSearch", `{"query":"select:` + fixtureSayClaude + `","max_results":5}`, ""},
		{"claude_toolsearch_loaded", true, fixtureSayClaude, `{"content":"reply to: hello","last_seen":"m-1"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			f := loadFixture(t, tt.fixture)
			srv, err := New(Options{Script: Script{Resend: tt.resend}})
			if err != nil {
				t.Fatal(err)
			}
			a := readAnthropic(t, f.send(t, srv))
			exs := srv.Exchanges()
			if len(exs) != 1 {
				t.Fatalf("recorded %d exchanges, want 1", len(exs))
			}
			r := exs[0].Request
			if r.API != Anthropic || !r.ModelCall || r.ParseErr != "" {
				t.Fatalf("request api=%s model=%v parse=%q", r.API, r.ModelCall, r.ParseErr)
			}
			if r.Session != f.Headers["X-Claude-Code-Session-Id"] || r.Session == "" {
				t.Errorf("session = %q, want the header's %q", r.Session, f.Headers["X-Claude-Code-Session-Id"])
			}
			if tt.tool != "" {
				if a.Stop != "tool_use" || a.ToolName != tt.tool || !strings.HasPrefix(a.ToolID, "toolu_") || !jsonEq(t, a.ToolInput, tt.input) {
					t.Errorf("answer = stop %s tool %s(%s) id %s, want tool_use %s(%s)", a.Stop, a.ToolName, a.ToolInput, a.ToolID, tt.tool, tt.input)
				}
			} else if a.Stop != "end_turn" || a.Text != tt.text || a.ToolName != "" {
				t.Errorf("answer = stop %s text %q tool %s, want end_turn %q", a.Stop, a.Text, a.ToolName, tt.text)
			}
			if a.InputUsage != DefaultUsage.InputTokens {
				t.Errorf("input usage = %d, want %d", a.InputUsage, DefaultUsage.InputTokens)
			}
		})
	}
}

// TestClaudeFixtureParse checks the neutral view of Claude's requests:
// the post is one user text block, the system-role message, the deferred
// tool name, the ToolSearch result's loaded tool.
func TestClaudeFixtureParse(t *testing.T) {
	t.Parallel()
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude_toolsearch_post", "claude_toolsearch_loaded", "claude_alwaysload_delivered"} {
		loadFixture(t, name).send(t, srv).Body.Close()
	}
	exs := srv.Exchanges()
	post, loaded, delivered := exs[0].Request, exs[1].Request, exs[2].Request

	posts := post.NewPosts()
	if len(posts) != 1 || !reflect.DeepEqual(posts[0].Tag, Tag{Role: "admin", From: "Alice", MessageID: "m-1", At: "2026-11-29T10:00+09:00"}) ||
		posts[0].Body != "hello" || posts[0].Text != posts[0].TagLine+"\nhello" {
		t.Errorf("posts = %+v", posts)
	}
	if _, ok := post.SayTool(); ok {
		t.Errorf("say_to_room offered before ToolSearch")
	}
	if name, ok := post.DeferredSay(); !ok || name != fixtureSayClaude || !post.ToolSearch {
		t.Errorf("deferred say = %q %v, tool search %v", name, ok, post.ToolSearch)
	}
	var roles []string
	for _, m := range post.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,system" {
		t.Errorf("roles = %v, want user,system", roles)
	}

	res := loaded.NewResults()
	if len(res) != 1 || res[0].Call == nil || !res[0].Call.Search || len(res[0].Loaded) != 1 || res[0].Loaded[0].Name != fixtureSayClaude {
		t.Errorf("ToolSearch result = %+v", res)
	}
	if say, ok := loaded.SayTool(); !ok || !say.Deferred || say.FullName() != fixtureSayClaude {
		t.Errorf("say tool after loading = %+v %v", say, ok)
	}
	if len(loaded.NewPosts()) != 0 {
		t.Errorf("new posts after ToolSearch = %+v, want none (the post is older input)", loaded.NewPosts())
	}
	if p, ok := loaded.LatestPost(); !ok || p.Tag.MessageID != "m-1" {
		t.Errorf("latest post = %+v %v", p, ok)
	}

	if n := delivered.SayCallsThisTurn(); n != 2 {
		t.Errorf("say calls this turn = %d, want 2 (first try + re-send)", n)
	}
	res = delivered.NewResults()
	if len(res) != 1 || !strings.HasPrefix(res[0].Text, "Delivered to the room.") || res[0].Call == nil || res[0].Call.FullName() != fixtureSayClaude {
		t.Errorf("delivered result = %+v", res)
	}
}

const fixtureNamespace = "mcp__pullcept_room_test_1a2b3c"

// TestCodexFixtures replays Codex's recorded requests: post → tool_search
// (the MCP namespace is deferred for the catalogue model), search output →
// say_to_room in its namespace, rejection → re-send, delivery → text.
func TestCodexFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture string
		resend  bool
		typ     string // done item type
		args    string // function_call arguments / tool_search_call arguments
		text    string
	}{
		{"codex_post", true, "tool_search_call", `{"query":"say_to_room","limit":8}`, ""},
		{"codex_search_output", true, "function_call", `{"content":"reply to: hello","last_seen":"m-1"}`, ""},
		{"codex_rejected", true, "function_call", `{"last_seen":"m-2"}`, ""},
		{"codex_rejected", false, "message", "", textNotTaken},
		{"codex_delivered", true, "message", "", textPosted},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			f := loadFixture(t, tt.fixture)
			srv, err := New(Options{Script: Script{Resend: tt.resend}})
			if err != nil {
				t.Fatal(err)
			}
			a := readOpenAI(t, f.send(t, srv))
			r := srv.Exchanges()[0].Request
			if r.API != OpenAI || r.ParseErr != "" || r.Session != f.Headers["Session-Id"] || r.Session == "" {
				t.Fatalf("request api=%s parse=%q session=%q", r.API, r.ParseErr, r.Session)
			}
			if a.Item["type"] != tt.typ {
				t.Fatalf("item = %v, want type %s", a.Item, tt.typ)
			}
			switch tt.typ {
			case "tool_search_call":
				args, _ := json.Marshal(a.Item["arguments"])
				if !jsonEq(t, args, tt.args) || a.Item["execution"] != "client" || a.Item["call_id"] == "" {
					t.Errorf("tool search = %v", a.Item)
				}
			case "function_call":
				args, _ := a.Item["arguments"].(string)
				if a.Item["namespace"] != fixtureNamespace || a.Item["name"] != SayToRoom || !jsonEq(t, json.RawMessage(args), tt.args) {
					t.Errorf("function call = %v, want %s.say_to_room(%s)", a.Item, fixtureNamespace, tt.args)
				}
			case "message":
				if a.Delta != tt.text {
					t.Errorf("text = %q, want %q", a.Delta, tt.text)
				}
			}
		})
	}
}

// TestCodexFixtureParse checks the neutral view of Codex's requests: the
// environment context and the post are separate user messages, the
// deferred namespace, the tool_search_output's loaded tool, the
// function_call_output's text.
func TestCodexFixtureParse(t *testing.T) {
	t.Parallel()
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"codex_post", "codex_search_output", "codex_delivered"} {
		loadFixture(t, name).send(t, srv).Body.Close()
	}
	exs := srv.Exchanges()
	post, searched, delivered := exs[0].Request, exs[1].Request, exs[2].Request

	texts := post.NewUserTexts()
	if len(texts) != 2 || !strings.HasPrefix(texts[0], "<environment_context>") {
		t.Errorf("new user texts = %q, want the environment context and the post", texts)
	}
	posts := post.NewPosts()
	if len(posts) != 1 || posts[0].Text != posts[0].TagLine+"\nhello" || posts[0].Tag.MessageID != "m-1" {
		t.Errorf("posts = %+v", posts)
	}
	if !post.ToolSearch || strings.Join(post.Deferred, ",") != "mcp__codex_tui,"+fixtureNamespace {
		t.Errorf("tool search %v, deferred %v", post.ToolSearch, post.Deferred)
	}
	if _, ok := post.SayTool(); ok {
		t.Errorf("say_to_room offered before tool_search")
	}
	say, ok := searched.SayTool()
	if !ok || say.Namespace != fixtureNamespace || say.Name != SayToRoom || !say.Deferred {
		t.Errorf("say tool after search = %+v %v", say, ok)
	}
	res := delivered.NewResults()
	if len(res) != 1 || !strings.Contains(res[0].Text, "Delivered to the room.") || res[0].Call == nil || !res[0].Call.IsSayToRoom() {
		t.Errorf("delivered result = %+v", res)
	}
	if n := delivered.SayCallsThisTurn(); n != 2 {
		t.Errorf("say calls this turn = %d, want 2", n)
	}
}
