package fakeapi

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/room"
)

// testRules is a small script with one rule of each kind and a fallback.
const testRules = `{
  "silent": "quiet: {from}",
  "failed": "failed: {result}",
  "final": "all done",
  "rules": [
    {"name": "run", "match": ["run"], "steps": [
      {"tool": {"anthropic": {"name": "Bash", "input": {"command": "./greet.sh"}},
                "openai": {"name": "exec_command", "input": {"cmd": "./greet.sh"}}}},
      {"say": "ran: {result}", "if_failed": "did not run: {result}"}]},
    {"name": "claude only", "match": ["peek"], "steps": [
      {"tool": {"anthropic": {"name": "Read", "input": {"file_path": "/x"}}}},
      {"say": "peeked{result}"}]},
    {"name": "restart", "match": ["restart"], "steps": [
      {"say": "restarting"},
      {"session": "restart"}]},
    {"steps": [{"say": "hi {from}, {me} here"}]}
  ]
}`

func mustRules(t *testing.T, text string) Rules {
	t.Helper()
	rs, err := ParseRules([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// roomPost is a user message holding one tagged post as the room types it
// into a seat: you is set only with to (docs/design.md §4).
func roomPost(role, from, id string, to []string, you, body string) Message {
	tag := struct {
		Role      string   `json:"role"`
		From      string   `json:"from"`
		MessageID string   `json:"message_id"`
		To        []string `json:"to,omitempty"`
		You       string   `json:"you,omitempty"`
	}{role, from, id, to, you}
	b, _ := json.Marshal(tag)
	return userText("[pullcept] " + string(b) + "\n" + body)
}

func call(id string, tool Tool, input string) Message {
	return Message{Role: RoleAssistant, Calls: []ToolCall{{ID: id, Tool: tool, Input: json.RawMessage(input)}}}
}

func result(id string, tool Tool, text string, isErr bool) Message {
	c := ToolCall{ID: id, Tool: tool}
	return Message{Role: RoleUser, Results: []ToolResult{{CallID: id, Call: &c, Text: text, IsError: isErr}}}
}

var (
	bash       = Tool{Name: "Bash"}
	execCmd    = Tool{Name: "exec_command"}
	claudeList = Tool{Name: "mcp__pullcept-room-k__" + room.ToolListSessions}
	claudeCtl  = Tool{Name: "mcp__pullcept-room-k__" + room.ToolControlSession}
	claudeAll  = []Tool{bash, {Name: "Read"}, claudeSay, claudeList, claudeCtl}
)

// wantSay fails unless r is a say_to_room call to `to` whose content
// holds content, and returns its arguments.
func wantSay(t *testing.T, r Reply, to, content string) SayArgs {
	t.Helper()
	if r.Call == nil || !r.Call.IsSayToRoom() || r.Call.Search {
		t.Fatalf("reply = text %q call %+v, want say_to_room", r.Text, r.Call)
	}
	a := callArgs(t, r)
	if !slices.Equal(a.To, []string{to}) || !strings.Contains(a.Content, content) {
		t.Fatalf("say_to_room %+v, want to [%s] with %q", a, to, content)
	}
	return a
}

func wantText(t *testing.T, r Reply, text string) {
	t.Helper()
	if r.Call != nil || r.Text != text {
		t.Fatalf("reply = text %q call %+v, want only the text %q", r.Text, r.Call, text)
	}
}

// TestRulesAnswerOnlyWhatIsForThem: a seat answers a post naming it and
// the human's post to the whole room; it stays silent — no tool call — on
// another seat's small talk, a post to someone else and a notice.
func TestRulesAnswerOnlyWhatIsForThem(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	tests := []struct {
		name string
		post Message
		to   string // "" = silent
	}{
		{"the human to the whole room", roomPost("admin", "Alice", "m-1", nil, "", "hello all"), "Alice"},
		{"the human to this seat", roomPost("admin", "Alice", "m-1", []string{"Claude"}, "Claude", "hello"), "Alice"},
		{"the human to this seat and another", roomPost("admin", "Alice", "m-1", []string{"Codex", "claude"}, "Claude", "hi"), "Alice"},
		{"another seat to this seat", roomPost("codex_cli", "Codex", "m-1", []string{"Claude"}, "Claude", "over to you"), "Codex"},
		{"the human to another seat", roomPost("admin", "Alice", "m-1", []string{"Codex"}, "Claude", "hello"), ""},
		{"another seat's small talk to the room", roomPost("codex_cli", "Codex", "m-1", nil, "", "hi everyone"), ""},
		{"another seat answering the human", roomPost("codex_cli", "Codex", "m-1", []string{"Alice"}, "Claude", "done"), ""},
		{"a notice", roomPost("app", "Pullcept", "m-1", nil, "", "Claude restarted itself (succeeded)."), ""},
		{"a local MCP server's notice", roomPost("mcp", "github", "m-1", nil, "", "PR opened"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: []Message{tt.post}})
			if tt.to == "" {
				p, _ := (&Request{Messages: []Message{tt.post}}).LatestPost()
				wantText(t, r, "quiet: "+p.Tag.From)
				return
			}
			wantSay(t, r, tt.to, "hi "+tt.to)
		})
	}
}

// TestRulesName: {me} is the tag's "you", else the name the room's
// instructions give the seat (a post to the whole room has no "you").
func TestRulesName(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	r := rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: []Message{
		roomPost("admin", "Alice", "m-1", []string{"Claude"}, "Claude", "hello")}})
	wantSay(t, r, "Alice", "hi Alice, Claude here")
	r = rs.Decide(&Request{API: OpenAI, Tools: []Tool{codexSay},
		Messages: []Message{{Role: RoleDeveloper, Texts: []string{"You are in a Pullcept chat room as Codex, with a human user"}},
			roomPost("admin", "Alice", "m-1", nil, "", "hello")}})
	wantSay(t, r, "Alice", "hi Alice, Codex here")
}

// TestRulesToolStep: a matching word asks for the rule's tool (per wire
// format); its output fills the next say, or the failure text does when
// the tool failed (a denial on the card, a non-zero exit in Codex's
// header); a step without a call for the asking CLI is left out.
func TestRulesToolStep(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	ask := roomPost("admin", "Alice", "m-1", []string{"Claude"}, "Claude", "please run greet.sh")

	r := rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: []Message{ask}})
	if r.Call == nil || r.Call.Name != "Bash" || !jsonEq(t, r.Call.Input, `{"command":"./greet.sh"}`) {
		t.Fatalf("reply = %+v, want the Bash call", r.Call)
	}
	ran := []Message{ask, call("b1", bash, `{}`), result("b1", bash, "Hello, Pullcept!\n", false)}
	wantSay(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: ran}), "Alice", "ran: Hello, Pullcept!")
	denied := []Message{ask, call("b1", bash, `{}`), result("b1", bash, "Permission denied by hook: not now", true)}
	wantSay(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: denied}), "Alice", "did not run: Permission denied by hook: not now")
	done := append(slices.Clone(ran), call("s1", claudeSay, `{}`), result("s1", claudeSay, "Delivered. message_id: m-2", false))
	wantText(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: done}), "all done")

	// Codex: its own tool, and the header exec_command puts above the output left out.
	cask := roomPost("admin", "Alice", "m-1", []string{"Codex"}, "Codex", "run it")
	r = rs.Decide(&Request{API: OpenAI, Tools: []Tool{execCmd, codexSay}, Messages: []Message{cask}})
	if r.Call == nil || r.Call.Name != "exec_command" || !jsonEq(t, r.Call.Input, `{"cmd":"./greet.sh"}`) {
		t.Fatalf("Codex reply = %+v, want exec_command", r.Call)
	}
	out := "Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\nHello, Pullcept!\n"
	a := wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: []Tool{execCmd, codexSay},
		Messages: []Message{cask, call("c1", execCmd, `{}`), {Role: RoleTool, Results: []ToolResult{{CallID: "c1", Call: &ToolCall{ID: "c1", Tool: execCmd}, Text: out}}}}}),
		"Alice", "ran: Hello, Pullcept!")
	if strings.Contains(a.Content, "Chunk") {
		t.Errorf("the post quotes Codex's header: %q", a.Content)
	}
	// Codex marks a failed command only by its exit line: the failure text
	// is said (bwrap missing its helper, measured in the demo).
	failed := "Chunk ID: 2\nWall time: 0.0 seconds\nProcess exited with code 1\nOutput:\nbwrap: execvp codex-linux-sandbox: No such file or directory\n"
	wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: []Tool{execCmd, codexSay},
		Messages: []Message{cask, call("c1", execCmd, `{}`), {Role: RoleTool, Results: []ToolResult{{CallID: "c1", Call: &ToolCall{ID: "c1", Tool: execCmd}, Text: failed}}}}}),
		"Alice", "did not run: bwrap: execvp")
	// A tool step only for Claude: Codex goes straight to the say.
	peek := roomPost("admin", "Alice", "m-1", []string{"Codex"}, "Codex", "peek")
	wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: []Tool{execCmd, codexSay}, Messages: []Message{peek}}), "Alice", "peeked")
	// A tool the CLI does not offer: a plain answer, no call.
	r = rs.Decide(&Request{API: Anthropic, Tools: []Tool{claudeSay}, Messages: []Message{ask}})
	if r.Call != nil || !strings.Contains(r.Text, "does not offer") {
		t.Errorf("reply without Bash = %+v", r)
	}
}

// claudeSessions is list_account_sessions' answer with Claude and Codex
// running in one topic.
var claudeSessions = func() string {
	b, _ := json.Marshal(room.SessionList{Rule: "topic",
		Accounts: []room.SessionAccount{{AccountID: "codex", Name: "Codex", Kind: "codex_cli"}, {AccountID: "claude", Name: "Claude", Kind: "claude_code"}},
		Topics:   []room.SessionTopic{{TopicID: "t-1", Name: "demo"}},
		Seats: []room.SessionSeat{{AccountID: "codex", TopicID: "t-1", PtyID: "pty-000000000001", State: "running"},
			{AccountID: "claude", TopicID: "t-2", PtyID: "pty-000000000002", State: "exited"},
			{AccountID: "claude", TopicID: "t-1", PtyID: "pty-000000000003", State: "running"}}})
	return string(b)
}()

// TestRulesRestart: "restart" says so, lists the sessions, and asks to
// restart this seat's running launch by its own account; the operation id
// comes from the post; a refusal is said in the room.
func TestRulesRestart(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	ask := roomPost("admin", "Alice", "m-7", []string{"Claude"}, "Claude", "restart please")
	msgs := []Message{ask}
	wantSay(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: msgs}), "Alice", "restarting")
	msgs = append(msgs, call("s1", claudeSay, `{}`), result("s1", claudeSay, "Delivered. message_id: m-8", false))
	r := rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: msgs})
	if r.Call == nil || r.Call.Name != claudeList.Name {
		t.Fatalf("after the say: %+v, want list_account_sessions", r.Call)
	}
	msgs = append(msgs, call("l1", claudeList, `{}`), result("l1", claudeList, claudeSessions, false))
	r = rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: msgs})
	if r.Call == nil || r.Call.Name != claudeCtl.Name {
		t.Fatalf("after the list: %+v, want control_account_session", r.Call)
	}
	var op room.SessionOperation
	if err := json.Unmarshal(r.Call.Input, &op); err != nil {
		t.Fatal(err)
	}
	want := room.SessionOperation{OperationID: "demo-restart-m-7", Action: room.ActionRestart, AccountID: "claude",
		TopicID: "t-1", ExpectedPtyID: "pty-000000000003"}
	if op != want {
		t.Errorf("operation = %+v, want %+v", op, want)
	}
	accepted := append(slices.Clone(msgs), call("c1", claudeCtl, `{}`), result("c1", claudeCtl, `{"operation_id":"demo-restart-m-7","state":"accepted"}`, false))
	wantText(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: accepted}), "all done")
	refused := append(slices.Clone(msgs), call("c1", claudeCtl, `{}`), result("c1", claudeCtl, "Refused: session operations are off.", true))
	wantSay(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: refused}), "Alice", "failed: Refused: session operations are off.")
	said := append(refused, call("s2", claudeSay, `{}`), result("s2", claudeSay, "Delivered.", false))
	wantText(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: said}), "all done")

	// A seat the list does not name: no operation; the room is told.
	r = rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: []Message{
		roomPost("admin", "Alice", "m-7", []string{"Lin"}, "Lin", "restart"), call("s1", claudeSay, `{}`), result("s1", claudeSay, "Delivered.", false),
		call("l1", claudeList, `{}`), result("l1", claudeList, claudeSessions, false)}})
	wantSay(t, r, "Alice", "failed: the session list names no running seat of mine (Lin)")
}

// TestRulesRestartFailsAloud: Codex 0.169.0 gives the model no error
// mark on an MCP tool's refusal, only its text after its own header: a
// refused list, and a control answer that is not the operation's record,
// are said in the room, never left in the seat's terminal alone.
func TestRulesRestartFailsAloud(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	codexList := Tool{Namespace: "mcp__pullcept_room_k", Name: room.ToolListSessions}
	codexCtl := Tool{Namespace: "mcp__pullcept_room_k", Name: room.ToolControlSession}
	tools := []Tool{codexSay, codexList, codexCtl}
	said := []Message{roomPost("admin", "Alice", "m-7", []string{"Codex"}, "Codex", "restart"),
		call("s1", codexSay, `{}`), result("s1", codexSay, "Wall time: 0.0038 seconds\nOutput:\nDelivered to the room. message_id: m-8", false)}
	refusal := "Wall time: 0.0043 seconds\nOutput:\nRefused: the human turned session operations off."
	listRefused := append(slices.Clone(said), call("l1", codexList, `{}`), result("l1", codexList, refusal, false))
	a := wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: tools, Messages: listRefused}), "Alice",
		"failed: Refused: the human turned session operations off.")
	if strings.Contains(a.Content, "Wall time") {
		t.Errorf("the post quotes Codex's header: %q", a.Content)
	}
	done := append(listRefused, call("s2", codexSay, `{}`), result("s2", codexSay, "Delivered.", false))
	wantText(t, rs.Decide(&Request{API: OpenAI, Tools: tools, Messages: done}), "all done")

	listed := append(slices.Clone(said), call("l1", codexList, `{}`), result("l1", codexList, "Wall time: 0.0027 seconds\nOutput:\n"+claudeSessions, false))
	r := rs.Decide(&Request{API: OpenAI, Tools: tools, Messages: listed})
	if r.Call == nil || r.Call.FullName() != codexCtl.FullName() {
		t.Fatalf("after the list: %+v, want control_account_session", r)
	}
	ctlRefused := append(slices.Clone(listed), call("c1", codexCtl, `{}`), result("c1", codexCtl, refusal, false))
	wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: tools, Messages: ctlRefused}), "Alice", "failed: Refused: the human turned")
	accepted := append(slices.Clone(listed), call("c1", codexCtl, `{}`),
		result("c1", codexCtl, "Wall time: 0.0148 seconds\nOutput:\n{\"operation_id\":\"demo-restart-m-7\",\"state\":\"accepted\"}", false))
	wantText(t, rs.Decide(&Request{API: OpenAI, Tools: tools, Messages: accepted}), "all done")
	// Resumed after its own restart, Codex has "aborted" for the call the
	// restart cut short, and the notice arrives with it: no failure said.
	resumed := append(slices.Clone(listed), call("c1", codexCtl, `{}`), result("c1", codexCtl, "aborted", false),
		roomPost("app", "Pullcept", "m-9", nil, "", "Codex restarted itself (succeeded). (no reply needed)"))
	wantText(t, rs.Decide(&Request{API: OpenAI, Tools: tools, Messages: resumed}), "all done")
}

// TestRulesSearchAndResend: a room tool the CLI defers is loaded first
// (Codex by name, Claude by its full name), then called; a floor rejection
// re-sends the kept draft with the newest missed id, up to the cap.
func TestRulesSearchAndResend(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	ask := roomPost("admin", "Alice", "m-1", []string{"Codex"}, "Codex", "hello")
	r := rs.Decide(&Request{API: OpenAI, ToolSearch: true, Deferred: []string{"mcp__pullcept_room_k"}, Messages: []Message{ask}})
	if r.Call == nil || !r.Call.Search || !jsonEq(t, r.Call.Input, `{"query":"say_to_room","limit":8}`) {
		t.Fatalf("Codex with say deferred: %+v, want a tool search", r.Call)
	}
	searched := []Message{ask, {Role: RoleAssistant, Calls: []ToolCall{{ID: "ts", Search: true}}},
		{Role: RoleTool, Results: []ToolResult{{CallID: "ts", Call: &ToolCall{ID: "ts", Search: true}, Loaded: []Tool{codexSay}}}}}
	wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: []Tool{codexSay}, Messages: searched}), "Alice", "hi Alice")

	restart := roomPost("admin", "Alice", "m-1", []string{"Claude"}, "Claude", "restart")
	deferredList := "mcp__pullcept-room-k__" + room.ToolListSessions
	r = rs.Decide(&Request{API: Anthropic, Tools: []Tool{claudeSay}, ToolSearch: true, Deferred: []string{deferredList},
		Messages: []Message{restart, call("s1", claudeSay, `{}`), result("s1", claudeSay, "Delivered.", false)}})
	if r.Call == nil || !r.Call.Search || !jsonEq(t, r.Call.Input, `{"query":"select:`+deferredList+`","max_results":5}`) {
		t.Fatalf("Claude with the list deferred: %+v, want ToolSearch select:", r.Call)
	}

	hello := roomPost("admin", "Alice", "m-1", []string{"Claude"}, "Claude", "hello")
	msgs := []Message{hello, call("s1", claudeSay, `{"content":"x"}`), result("s1", claudeSay, rejection, false)}
	a := callArgs(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: msgs}))
	if a.Content != "" || a.LastSeen != "m-3" {
		t.Errorf("re-send = %+v, want the kept draft with last_seen m-3", a)
	}
	for i := range defaultMaxResends {
		id := string(rune('a' + i))
		msgs = append(msgs, call(id, claudeSay, `{}`), result(id, claudeSay, rejection, false))
	}
	wantText(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: msgs}), textNotTaken)
	// Delivered after one re-send: the rule's last step is done.
	ok := []Message{hello, call("s1", claudeSay, `{}`), result("s1", claudeSay, rejection, false),
		call("s2", claudeSay, `{}`), result("s2", claudeSay, "Delivered.", false)}
	wantText(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: ok}), "all done")
}

// TestRulesNothingNew: a request with no new post and no tool result
// (the human typing in the pane), and a title request, are not turns of
// a rule.
func TestRulesNothingNew(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	old := []Message{roomPost("admin", "Alice", "m-1", nil, "", "run"), {Role: RoleAssistant, Texts: []string{"ok"}}, userText("typed in the pane")}
	wantText(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: old}), textPlain)
	schema := json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`)
	wantText(t, rs.Decide(&Request{API: OpenAI, OutputSchema: schema, Messages: []Message{roomPost("admin", "Alice", "m-1", nil, "", "run")}}),
		`{"title":"Room chat"}`)
}

// TestParseRulesRefuses: what would silently change the model's behaviour
// is refused with the reason.
func TestParseRulesRefuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, text, want string }{
		{"unknown key", `{"rules":[{"steps":[{"say":"x"}]}],"silence":"x"}`, "unknown field"},
		{"no rule", `{"rules":[]}`, "no rule"},
		{"no steps", `{"rules":[{"name":"a"}]}`, "no steps"},
		{"two actions in a step", `{"rules":[{"steps":[{"say":"x","session":"restart"}]}]}`, "exactly one"},
		{"empty step", `{"rules":[{"steps":[{}]}]}`, "exactly one"},
		{"another session", `{"rules":[{"steps":[{"session":"stop"}]}]}`, "only \"restart\""},
		{"if_failed without say", `{"rules":[{"steps":[{"session":"restart","if_failed":"x"}]}]}`, "if_failed goes with say"},
		{"upper-case word", `{"rules":[{"match":["Run"],"steps":[{"say":"x"}]}]}`, "lower-case"},
		{"two words", `{"rules":[{"match":["run it"],"steps":[{"say":"x"}]}]}`, "lower-case"},
		{"a tool for another API", `{"rules":[{"steps":[{"tool":{"gemini":{"name":"x"}}}]}]}`, "want"},
		{"a tool without a name", `{"rules":[{"steps":[{"tool":{"anthropic":{"input":{}}}}]}]}`, "without a name"},
		{"arguments not an object", `{"rules":[{"steps":[{"tool":{"anthropic":{"name":"Bash","input":[1]}}}]}]}`, "not an object"},
		{"two values", `{"rules":[{"steps":[{"say":"x"}]}]} {}`, "more than one"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRules([]byte(tt.text))
			if !errors.Is(err, ErrBadOptions) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrBadOptions saying %q", err, tt.want)
			}
		})
	}
}

// TestDemoScript: the script `make demo` ships (testdata/demo/script.json)
// loads and does what the README says to try: "run greet.sh" asks for
// Bash (a card in Claude Code's default mode), "restart" restarts the seat,
// anything else gets an answer naming the seat, and small talk none.
func TestDemoScript(t *testing.T) {
	t.Parallel()
	rs, err := LoadRules("../demo/script.json")
	if err != nil {
		t.Fatal(err)
	}
	decide := func(body string, to ...string) Reply {
		you := ""
		if len(to) > 0 {
			you = "Claude"
		}
		return rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: []Message{roomPost("admin", "You", "m-1", to, you, body)}})
	}
	if r := decide("run greet.sh", "Claude"); r.Call == nil || r.Call.Name != "Bash" || !strings.Contains(string(r.Call.Input), "greet.sh") {
		t.Errorf("run greet.sh: %+v, want a Bash call running greet.sh", r)
	}
	if r := decide("list the files", "Claude"); r.Call == nil || r.Call.Name != "Bash" {
		t.Errorf("list the files: %+v, want a Bash call", r)
	}
	wantSay(t, decide("restart", "Claude"), "You", "Restarting")
	wantSay(t, decide("hello", "Claude"), "You", "Claude here")
	if r := decide("hello", "Codex"); r.Call != nil {
		t.Errorf("a post to Codex: %+v, want no call", r.Call)
	}
	if _, err := LoadRules("../demo/missing.json"); err == nil {
		t.Error("a missing file loaded")
	}
}

// TestRulesTurnPost: of several new posts the newest for this seat is
// answered, whatever came after it; small talk folded into a tool result
// does not end the running turn.
func TestRulesTurnPost(t *testing.T) {
	t.Parallel()
	rs := mustRules(t, testRules)
	human := roomPost("admin", "Alice", "m-1", nil, "", "hello all")
	talk := roomPost("claude_code", "Claude", "m-2", []string{"Alice"}, "Codex", "hi Alice")
	a := wantSay(t, rs.Decide(&Request{API: OpenAI, Tools: []Tool{codexSay}, Messages: []Message{human, talk}}), "Alice", "hi Alice")
	if a.LastSeen != "m-1" {
		t.Errorf("answered %+v, want the human's post m-1", a)
	}
	ask := roomPost("admin", "Alice", "m-1", []string{"Claude"}, "Claude", "run it")
	busy := result("b1", bash, "Hello!", false)
	busy.Texts = talk.Texts
	wantSay(t, rs.Decide(&Request{API: Anthropic, Tools: claudeAll, Messages: []Message{ask, call("b1", bash, `{}`), busy}}), "Alice", "ran: Hello!")
}

// TestRulesRestartCodexFixture: the demo's restart step reads the session
// list as the pinned Codex sends it (testdata/codex_session_list.json,
// recorded from `@Codex restart` in the demo: the list's JSON comes after
// Codex's own "Wall time: … seconds\nOutput:" part) and asks to restart
// Codex's running launch in its namespace.
func TestRulesRestartCodexFixture(t *testing.T) {
	t.Parallel()
	rs, err := LoadRules("../demo/script.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Respond: rs.Decide})
	if err != nil {
		t.Fatal(err)
	}
	a := readOpenAI(t, loadFixture(t, "codex_session_list").send(t, srv))
	args, _ := a.Item["arguments"].(string)
	if a.Item["type"] != "function_call" || a.Item["name"] != room.ToolControlSession ||
		a.Item["namespace"] != "mcp__pullcept_room_codex_7ba17e5e82" {
		t.Fatalf("answer = %v (text %q), want control_account_session", a.Item, a.Delta)
	}
	var op room.SessionOperation
	if err := json.Unmarshal([]byte(args), &op); err != nil {
		t.Fatal(err)
	}
	want := room.SessionOperation{OperationID: "demo-restart-8b28a0ea-94e1-4658-81ef-8a5ff70264ca", Action: room.ActionRestart,
		AccountID: "codex", TopicID: "01a24f24-c61d-7b5d-b95f-9c7d3af193d2", ExpectedPtyID: "pty-e445e82aefa1"}
	if op != want {
		t.Errorf("operation = %+v, want %+v", op, want)
	}
}

// TestToolOutput: Codex's headers above a tool's output go, Claude's plain
// text stays whole, even with an "Output:" line of its own.
func TestToolOutput(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"Wall time: 0.0027 seconds\nOutput:\n{\"rule\":\"topic\"}", `{"rule":"topic"}`},
		{"Wall time: 0.0027 seconds\nOutput:", ""},
		{"Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\nHello\n", "Hello\n"},
		{"Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nHello", "Hello"},
		{`{"rule":"topic"}`, `{"rule":"topic"}`},
		{"make: done\nOutput:\nbuilt", "make: done\nOutput:\nbuilt"},
	} {
		if got := toolOutput(tt.in); got != tt.want {
			t.Errorf("toolOutput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
