package codex

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// codexTestNote is a notification as the reader delivers it.
func codexTestNote(t *testing.T, method string, params any) codexNote {
	t.Helper()
	b, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	return codexNote{Method: method, Params: b}
}

// codexTestRequest is a server request as the reader delivers it: rawID is
// the id as JSON (7 or "abc").
func codexTestRequest(t *testing.T, rawID, method string, params any) codexNote {
	t.Helper()
	n := codexTestNote(t, method, params)
	n.ID = rpcID(json.RawMessage(rawID))
	if n.ID == "" {
		t.Fatalf("id %s reads as none", rawID)
	}
	return n
}

func codexStatus(thread, typ string, flags ...string) map[string]any {
	st := map[string]any{"type": typ}
	if typ == "active" {
		if flags == nil {
			flags = []string{}
		}
		st["activeFlags"] = flags
	}
	return map[string]any{"threadId": thread, "status": st}
}

func codexTurn(thread string) map[string]any {
	return map[string]any{"threadId": thread, "turn": map[string]any{"id": "u", "items": []any{}, "status": "inProgress"}}
}

func codexItem(thread string, item map[string]any) map[string]any {
	return map[string]any{"threadId": thread, "turnId": "u", "startedAtMs": 1, "item": item}
}

func codexApproval(thread string) map[string]any {
	return map[string]any{"threadId": thread, "turnId": "u", "itemId": "i", "startedAtMs": 1}
}

func codexResolved(thread string, rawID string) map[string]any {
	return map[string]any{"threadId": thread, "requestId": json.RawMessage(rawID)}
}

// codexStep applies n and checks the result.
type codexStepper struct {
	t   *testing.T
	a   *codexActivity
	now time.Time
}

func (s *codexStepper) step(n codexNote, changed bool, kind cli.ActivityKind, tool string) {
	s.t.Helper()
	s.now = s.now.Add(time.Second)
	before := s.a.act
	got := s.a.apply(n, s.now)
	if got != changed || s.a.act.Kind != kind || s.a.act.Tool != tool {
		s.t.Fatalf("%s %s: changed %v activity %v %q, want %v %v %q", n.Method, n.Params, got, s.a.act.Kind, s.a.act.Tool, changed, kind, tool)
	}
	switch {
	case kind != before.Kind || before.Since.IsZero():
		if !s.a.act.Since.Equal(s.now) {
			s.t.Fatalf("%s: a new kind dated %v, want %v", n.Method, s.a.act.Since, s.now)
		}
	default:
		if !s.a.act.Since.Equal(before.Since) {
			s.t.Fatalf("%s: the same kind redated %v → %v", n.Method, before.Since, s.a.act.Since)
		}
	}
}

func newCodexStepper(t *testing.T) *codexStepper {
	return &codexStepper{t: t, a: newCodexActivity("T"), now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// TestCodexActivityTurn: a turn's notes move the activity through
// thinking, tools and idle, dated when the kind changes.
func TestCodexActivityTurn(t *testing.T) {
	t.Parallel()
	s := newCodexStepper(t)
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "reasoning", "id": "r"})), false, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "commandExecution", "id": "i", "command": "ls"})), true, cli.ActivityTool, "shell")
	s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "mcpToolCall", "id": "j", "server": "pullcept-room-x", "tool": "say_to_room"})), true, cli.ActivityTool, "say_to_room")
	s.step(codexTestNote(t, noteItemCompleted, codexItem("T", map[string]any{"type": "mcpToolCall", "id": "j", "server": "pullcept-room-x", "tool": "say_to_room"})), true, cli.ActivityThinking, "")
	// A repeated note moves nothing shown.
	s.step(codexTestNote(t, noteItemCompleted, codexItem("T", map[string]any{"type": "mcpToolCall", "id": "j", "tool": "say_to_room"})), false, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), false, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteItemCompleted, codexItem("T", map[string]any{"type": "agentMessage", "id": "m", "text": "hi"})), false, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteTurnCompleted, codexTurn("T")), true, cli.ActivityIdle, "")
	s.step(codexTestNote(t, noteTurnCompleted, codexTurn("T")), false, cli.ActivityIdle, "")
	// The thread's status: active from idle is thinking; idle and
	// systemError end it; notLoaded and closed are unknown.
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), true, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "idle")), true, cli.ActivityIdle, "")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), true, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "systemError")), true, cli.ActivityIdle, "")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "notLoaded")), true, cli.ActivityUnknown, "")
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteThreadClosed, map[string]any{"threadId": "T"}), true, cli.ActivityUnknown, "")
}

// TestCodexActivityActiveKeepsTool: an active status while a tool runs
// keeps the tool.
func TestCodexActivityActiveKeepsTool(t *testing.T) {
	t.Parallel()
	s := newCodexStepper(t)
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "fileChange", "id": "f"})), true, cli.ActivityTool, "apply_patch")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), false, cli.ActivityTool, "apply_patch")
}

// TestCodexItemTools: the tool each item type names.
func TestCodexItemTools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		item map[string]any
		tool string
	}{
		{map[string]any{"type": "commandExecution"}, "shell"},
		{map[string]any{"type": "fileChange"}, "apply_patch"},
		{map[string]any{"type": "webSearch"}, "web_search"},
		{map[string]any{"type": "imageView"}, "view_image"},
		{map[string]any{"type": "imageGeneration"}, "image_generation"},
		{map[string]any{"type": "mcpToolCall", "server": "s", "tool": "lookup"}, "lookup"},
		{map[string]any{"type": "mcpToolCall", "server": "s"}, "mcpToolCall"},
		{map[string]any{"type": "dynamicToolCall", "tool": "dyn"}, "dyn"},
		{map[string]any{"type": "dynamicToolCall"}, "dynamicToolCall"},
		{map[string]any{"type": "collabAgentToolCall", "tool": "spawn_agent"}, "spawn_agent"},
		{map[string]any{"type": "mcpToolCall", "tool": "bad\x1b[2Jname\x07"}, "bad[2Jname"},
		{map[string]any{"type": "agentMessage"}, ""},
		{map[string]any{"type": "reasoning"}, ""},
		{map[string]any{"type": "plan"}, ""},
		{map[string]any{"type": "userMessage"}, ""},
	} {
		a := newCodexActivity("T")
		changed := a.apply(codexTestNote(t, noteItemStarted, codexItem("T", tc.item)), time.Now())
		if tc.tool == "" {
			if changed || a.act.Kind != cli.ActivityUnknown {
				t.Errorf("%v: no tool, but changed %v to %v %q", tc.item, changed, a.act.Kind, a.act.Tool)
			}
			continue
		}
		if !changed || a.act.Kind != cli.ActivityTool || a.act.Tool != tc.tool {
			t.Errorf("%v: changed %v activity %v %q, want tool %q", tc.item, changed, a.act.Kind, a.act.Tool, tc.tool)
		}
	}
}

// TestCodexActivityOtherThreads: notes and requests of another thread (a
// subagent's) and unreadable notes change nothing.
func TestCodexActivityOtherThreads(t *testing.T) {
	t.Parallel()
	s := newCodexStepper(t)
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
	for _, n := range []codexNote{
		codexTestNote(t, noteTurnCompleted, codexTurn("sub")),
		codexTestNote(t, noteThreadStatus, codexStatus("sub", "active", "waitingOnApproval")),
		codexTestNote(t, noteThreadStatus, codexStatus("sub", "idle")),
		codexTestNote(t, noteItemStarted, codexItem("sub", map[string]any{"type": "commandExecution"})),
		codexTestNote(t, noteThreadClosed, map[string]any{"threadId": "sub"}),
		codexTestRequest(t, "1", "item/commandExecution/requestApproval", codexApproval("sub")),
		codexTestNote(t, noteTurnCompleted, map[string]any{"turn": map[string]any{}}), // no thread
		{Method: noteTurnCompleted},                                 // no params
		{Method: noteTurnCompleted, Params: json.RawMessage(`[1]`)}, // not an object
		{Method: noteTurnCompleted, Params: json.RawMessage(`{"threadId":`)},
		codexTestNote(t, "thread/tokenUsage/updated", map[string]any{"threadId": "T"}),
		codexTestNote(t, noteThreadStatus, map[string]any{"threadId": "T"}), // no status
		codexTestNote(t, noteItemStarted, map[string]any{"threadId": "T"}),  // no item
		codexTestRequest(t, "2", "item/tool/call", codexApproval("T")),      // a request that asks nobody
	} {
		s.step(n, false, cli.ActivityThinking, "")
		if s.a.asking() {
			t.Fatalf("%s %s: asking", n.Method, n.Params)
		}
	}
}

// TestCodexActivityStatusWait: the thread's status flags make a wait on the
// human, naming the tool running; active without them ends it.
func TestCodexActivityStatusWait(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"waitingOnApproval", "waitingOnUserInput"} {
		s := newCodexStepper(t)
		s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active", flag)), true, cli.ActivityPermission, "")
		if w := s.a.perm(cli.PermWait{}); len(w.Pending) != 1 || w.Pending[0] != (cli.PermRequest{Tool: "", Key: "codex"}) {
			t.Fatalf("%s: perm %+v", flag, w)
		}
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), true, cli.ActivityThinking, "")
		if s.a.asking() || !s.a.perm(cli.PermWait{Pending: []cli.PermRequest{{Key: "codex", Answered: true}}}).Equal(cli.PermWait{}) {
			t.Fatalf("%s: the wait did not end", flag)
		}
		s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "commandExecution"})), true, cli.ActivityTool, "shell")
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active", "waitingOnApproval", flag)), true, cli.ActivityPermission, "shell")
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), true, cli.ActivityTool, "shell")
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active", flag)), true, cli.ActivityPermission, "shell")
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "idle")), true, cli.ActivityIdle, "")
		if s.a.asking() {
			t.Fatalf("%s: idle still asking", flag)
		}
	}
}

// TestCodexActivityRequests: each approval or question request makes a
// wait naming its tool (or the tool running); serverRequest/resolved of
// the same id, string or number, releases it.
func TestCodexActivityRequests(t *testing.T) {
	t.Parallel()
	for method, tool := range codexAsks {
		for _, rawID := range []string{"7", `"req-7"`, "0"} {
			s := newCodexStepper(t)
			s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
			s.step(codexTestRequest(t, rawID, method, codexApproval("T")), true, cli.ActivityPermission, tool)
			// The same id in the other type is another request.
			other := `"7"`
			if rawID != "7" {
				other = "7"
			}
			s.step(codexTestNote(t, noteReqResolved, codexResolved("T", other)), false, cli.ActivityPermission, tool)
			s.step(codexTestNote(t, noteReqResolved, codexResolved("sub", rawID)), false, cli.ActivityPermission, tool)
			s.step(codexTestNote(t, noteReqResolved, codexResolved("T", rawID)), true, cli.ActivityThinking, "")
			if s.a.asking() {
				t.Fatalf("%s %s: still asking after resolved", method, rawID)
			}
		}
	}
	// A request while a tool runs names that tool, and its release goes
	// back to it.
	s := newCodexStepper(t)
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
	s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "mcpToolCall", "server": "gh", "tool": "create_issue"})), true, cli.ActivityTool, "create_issue")
	s.step(codexTestRequest(t, "3", "mcpServer/elicitation/request", map[string]any{"threadId": "T", "turnId": "u", "serverName": "gh"}), true, cli.ActivityPermission, "create_issue")
	s.step(codexTestNote(t, noteReqResolved, codexResolved("T", "3")), true, cli.ActivityTool, "create_issue")
}

// TestCodexActivityRequestsAndStatus: the wait lasts while any open
// request or the status flags say so.
func TestCodexActivityRequestsAndStatus(t *testing.T) {
	t.Parallel()
	s := newCodexStepper(t)
	s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
	s.step(codexTestRequest(t, "1", "item/commandExecution/requestApproval", codexApproval("T")), true, cli.ActivityPermission, "shell")
	s.step(codexTestRequest(t, "2", "item/commandExecution/requestApproval", codexApproval("T")), false, cli.ActivityPermission, "shell")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active", "waitingOnApproval")), false, cli.ActivityPermission, "shell")
	s.step(codexTestNote(t, noteReqResolved, codexResolved("T", "1")), false, cli.ActivityPermission, "shell")
	// With no request open the flags' wait names the tool running (none).
	s.step(codexTestNote(t, noteReqResolved, codexResolved("T", "2")), true, cli.ActivityPermission, "")
	if !s.a.asking() {
		t.Fatal("the status flag no longer holds the wait")
	}
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), true, cli.ActivityThinking, "")

	// A request still open holds after the flags cleared.
	s.step(codexTestRequest(t, "3", "item/fileChange/requestApproval", codexApproval("T")), true, cli.ActivityPermission, "apply_patch")
	s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active")), false, cli.ActivityPermission, "apply_patch")
	s.step(codexTestNote(t, noteReqResolved, codexResolved("T", "3")), true, cli.ActivityThinking, "")
}

// TestCodexActivityTurnEndsWaits: turn/completed, turn/started and idle
// statuses drop every open request.
func TestCodexActivityTurnEndsWaits(t *testing.T) {
	t.Parallel()
	for _, end := range []struct {
		n    codexNote
		kind cli.ActivityKind
	}{
		{codexTestNote(t, noteTurnCompleted, codexTurn("T")), cli.ActivityIdle},
		{codexTestNote(t, noteTurnStarted, codexTurn("T")), cli.ActivityThinking},
		{codexTestNote(t, noteThreadStatus, codexStatus("T", "idle")), cli.ActivityIdle},
		{codexTestNote(t, noteThreadClosed, map[string]any{"threadId": "T"}), cli.ActivityUnknown},
	} {
		s := newCodexStepper(t)
		s.step(codexTestNote(t, noteTurnStarted, codexTurn("T")), true, cli.ActivityThinking, "")
		s.step(codexTestNote(t, noteItemStarted, codexItem("T", map[string]any{"type": "commandExecution"})), true, cli.ActivityTool, "shell")
		s.step(codexTestRequest(t, "1", "item/commandExecution/requestApproval", codexApproval("T")), true, cli.ActivityPermission, "shell")
		s.step(codexTestRequest(t, `"q"`, "item/tool/requestUserInput", codexApproval("T")), false, cli.ActivityPermission, "shell")
		s.step(codexTestNote(t, noteThreadStatus, codexStatus("T", "active", "waitingOnUserInput")), false, cli.ActivityPermission, "shell")
		s.step(end.n, true, end.kind, "")
		if s.a.asking() || len(s.a.asks) != 0 || s.a.tool != "" {
			t.Fatalf("%s: asks %v tool %q after the end", end.n.Method, s.a.asks, s.a.tool)
		}
		if w := s.a.perm(cli.PermWait{Pending: []cli.PermRequest{{Key: "codex", Answered: true}}}); !w.Equal(cli.PermWait{}) {
			t.Fatalf("%s: perm %+v after the end", end.n.Method, w)
		}
	}
}

// TestCodexActivityPerm: the wait is one request naming the tool shown;
// an answer the human gave is kept while the wait lasts.
func TestCodexActivityPerm(t *testing.T) {
	t.Parallel()
	a := newCodexActivity("T")
	if w := a.perm(cli.PermWait{Pending: []cli.PermRequest{{Tool: "x", Key: "codex", Answered: true}}}); !w.Equal(cli.PermWait{}) {
		t.Fatalf("no wait: perm %+v", w)
	}
	now := time.Now()
	a.apply(codexTestNote(t, noteTurnStarted, codexTurn("T")), now)
	a.apply(codexTestRequest(t, "5", "item/permissions/requestApproval", codexApproval("T")), now)
	want := cli.PermWait{Pending: []cli.PermRequest{{Tool: "permissions", Key: "codex"}}}
	for _, tc := range []struct {
		old      cli.PermWait
		answered bool
	}{
		{cli.PermWait{}, false},
		{cli.PermWait{Pending: []cli.PermRequest{{Tool: "permissions", Key: "codex"}}}, false},
		{cli.PermWait{Pending: []cli.PermRequest{{Tool: "permissions", Key: "codex", Answered: true}}}, true},
		{cli.PermWait{Pending: []cli.PermRequest{{Key: "a", Answered: true}, {Key: "b", Answered: true}, {Key: "c", Answered: true}}}, true},
		{cli.PermWait{Pending: []cli.PermRequest{{Key: "a"}, {Key: "b"}}, Keys: 1}, true},
	} {
		want.Pending[0].Answered = tc.answered
		w := a.perm(tc.old)
		if !w.Equal(want) {
			t.Errorf("perm(%+v) = %+v, want %+v", tc.old, w, want)
		}
		if perm, answered := w.Holds(); perm == tc.answered || answered != tc.answered {
			t.Errorf("perm(%+v) holds permission %v answered %v", tc.old, perm, answered)
		}
	}
	a.apply(codexTestNote(t, noteReqResolved, codexResolved("T", "5")), now)
	if w := a.perm(cli.PermWait{Pending: []cli.PermRequest{{Tool: "permissions", Key: "codex", Answered: true}}}); !w.Equal(cli.PermWait{}) {
		t.Fatalf("after resolved: perm %+v", w)
	}
}

// TestCodexActivityAsksCap: at most maxCodexAsks open requests are kept;
// the ones past the cap still make the wait, and the kept ones' releases
// end it.
func TestCodexActivityAsksCap(t *testing.T) {
	t.Parallel()
	a := newCodexActivity("T")
	now := time.Now()
	a.apply(codexTestNote(t, noteTurnStarted, codexTurn("T")), now)
	const n = maxCodexAsks + 36
	for i := 1; i <= n; i++ {
		a.apply(codexTestRequest(t, strconv.Itoa(i), "item/commandExecution/requestApproval", codexApproval("T")), now)
		if !a.asking() || a.act.Kind != cli.ActivityPermission {
			t.Fatalf("request %d: not asking (%v)", i, a.act.Kind)
		}
	}
	if len(a.asks) != maxCodexAsks {
		t.Fatalf("%d open requests kept, want the cap %d", len(a.asks), maxCodexAsks)
	}
	for i := 1; i <= maxCodexAsks; i++ {
		if _, ok := a.asks[strconv.Itoa(i)]; !ok {
			t.Fatalf("request %d (within the cap) not kept", i)
		}
	}
	for i := 1; i <= maxCodexAsks; i++ {
		a.apply(codexTestNote(t, noteReqResolved, codexResolved("T", strconv.Itoa(i))), now)
	}
	if a.asking() || a.act.Kind != cli.ActivityThinking {
		t.Fatalf("after the kept requests resolved: asking %v, %v", a.asking(), a.act.Kind)
	}
	// A resolved id past the cap is nothing to release.
	if a.apply(codexTestNote(t, noteReqResolved, codexResolved("T", fmt.Sprint(n))), now) {
		t.Fatal("releasing a request never kept moved the activity")
	}
}

// TestRPCID: request ids as strings and integers, never confused.
func TestRPCID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ raw, want string }{
		{`7`, "7"},
		{`0`, "0"},
		{`-3`, "-3"},
		{`9223372036854775807`, "9223372036854775807"},
		{`"7"`, "s:7"},
		{`"abc"`, "s:abc"},
		{`""`, "s:"},
		{``, ""},
		{`null`, ""},
		{`1.5`, ""},
		{`{}`, ""},
		{`[1]`, ""},
		{`true`, ""},
	} {
		if got := rpcID(json.RawMessage(tc.raw)); got != tc.want {
			t.Errorf("rpcID(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}
