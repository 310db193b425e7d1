package codex

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// openScript answers a scripted server's requests: a result, or an error
// message.
type openScript func(method string, params json.RawMessage) (result any, fail string)

// openCall is one request the client sent.
type openCall struct {
	Method string
	Params map[string]any
}

// openWith runs cs.open(o) against a fake app-server answering by script,
// and returns the requests it saw (notifications included) in order.
func openWith(t *testing.T, o codexOpen, script openScript) (*codexServer, []openCall, error) {
	t.Helper()
	f := newFakeCodexServer(t)
	u, err := url.Parse(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []openCall
	served := make(chan struct{})
	go func() {
		defer close(served)
		ws := <-f.conns
		defer ws.Close()
		for {
			_, b, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var r fakeCodexRequest
			if err := json.Unmarshal(b, &r); err != nil {
				t.Errorf("client sent %q: %v", b, err)
				return
			}
			c := openCall{Method: r.Method}
			_ = json.Unmarshal(r.Params, &c.Params)
			mu.Lock()
			calls = append(calls, c)
			mu.Unlock()
			if len(r.ID) == 0 {
				continue
			}
			answer := map[string]any{"id": r.ID}
			if res, fail := script(r.Method, r.Params); fail != "" {
				answer["error"] = map[string]any{"code": -32601, "message": fail}
			} else {
				answer["result"] = res
			}
			b, _ = json.Marshal(answer)
			if err := ws.WriteMessage(websocket.TextMessage, b); err != nil {
				return
			}
		}
	}()
	cs := &codexServer{port: u.Port(), token: "tok"}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Wait)
	defer cancel()
	err = cs.open(ctx, o)
	if cs.conn != nil {
		cs.conn.Close()
	}
	<-served
	mu.Lock()
	defer mu.Unlock()
	return cs, calls, err
}

// recordedHooks is a recorded hooks/list answer as the script sends it.
func recordedHooks(t *testing.T, name string) any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// serverScript is a Codex 0.169.0 that answers config/read with user
// instructions (nil: none), hooks/list of the seat's directory with the
// recorded list and of the conversation with thread (a file's name).
func serverScript(t *testing.T, user *string, thread string) openScript {
	server := recordedHooks(t, "hooks-list-0.169.0.json")
	conv := recordedHooks(t, thread)
	return func(method string, params json.RawMessage) (any, string) {
		switch method {
		case "initialize", "thread/inject_items":
			return map[string]any{}, ""
		case "config/read":
			return map[string]any{"config": map[string]any{"developer_instructions": user}}, ""
		case "hooks/list":
			if strings.Contains(string(params), "threadId") {
				return conv, ""
			}
			return server, ""
		case "thread/start", "thread/resume":
			return map[string]any{"model": "gpt-5.5", "thread": map[string]any{"id": "T1", "path": "/r.jsonl"}}, ""
		}
		return nil, "unknown method " + method
	}
}

func methods(calls []openCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Method)
	}
	return out
}

func callOf(calls []openCall, method string) (openCall, bool) {
	i := slices.IndexFunc(calls, func(c openCall) bool { return c.Method == method })
	if i < 0 {
		return openCall{}, false
	}
	return calls[i], true
}

// TestOpenTurnsStyleHookOff: a seat that sends its character turns Li+'s
// output-style hook off in the conversation it opens (the thread's config
// overrides, the plan's own kept), checks the conversation's hooks/list
// before it records anything in it, and refuses when the hook still runs.
func TestOpenTurnsStyleHookOff(t *testing.T) {
	t.Parallel()
	user := "USER RULES"
	plan := &ServerPlan{Config: map[string]any{"model_reasoning_effort": "high"}, Character: Character{Name: "luna"}}
	o := codexOpen{cwd: "/home/u/proj", plan: plan, key: "pullcept-room-k", readBody: func() (string, error) { return "LUNA BODY", nil }}
	_, calls, err := openWith(t, o, serverScript(t, &user, "hooks-list-thread-0.169.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"initialize", "initialized", "config/read", "hooks/list", "thread/start", "hooks/list", "thread/inject_items"}
	if got := methods(calls); !slices.Equal(got, want) {
		t.Fatalf("calls %q\nwant %q", got, want)
	}
	if got := calls[3].Params; !reflect.DeepEqual(got, map[string]any{"cwds": []any{"/home/u/proj"}}) {
		t.Errorf("hooks/list before the start: %v", got)
	}
	if got := calls[5].Params; !reflect.DeepEqual(got, map[string]any{"threadId": "T1"}) {
		t.Errorf("hooks/list after the start: %v", got)
	}
	start := calls[4].Params
	wantCfg := map[string]any{"model_reasoning_effort": "high",
		"hooks.state": map[string]any{recordedStyleKey: map[string]any{"enabled": false}}}
	if !reflect.DeepEqual(start["config"], wantCfg) {
		t.Errorf("thread/start config %v\nwant %v", start["config"], wantCfg)
	}
	if got, want := start["developerInstructions"], "USER RULES\n\nLUNA BODY\n\n"+launch.RoomPrompt("pullcept-room-k"); got != want {
		t.Errorf("developer instructions %q\nwant %q", got, want)
	}
	if len(plan.Config) != 1 {
		t.Errorf("the plan's config was changed: %v", plan.Config)
	}

	// The conversation still runs the hook: refused before anything is
	// recorded in it (the start's undo deletes it: created).
	cs, calls, err := openWith(t, o, serverScript(t, &user, "hooks-list-0.169.0.json"))
	if !errors.Is(err, ErrStyleHook) || !cs.created {
		t.Errorf("the hook still on: %v, created %v", err, cs.created)
	}
	if _, ok := callOf(calls, "thread/inject_items"); ok {
		t.Error("an item was recorded in a conversation whose hook still runs")
	}

	// A resume turns it off the same way.
	o.resume = "T1"
	_, calls, err = openWith(t, o, serverScript(t, &user, "hooks-list-thread-0.169.0.json"))
	resume, _ := callOf(calls, "thread/resume")
	if err != nil || !reflect.DeepEqual(resume.Params["config"], wantCfg) {
		t.Errorf("resume: %v, config %v", err, resume.Params["config"])
	}
}

// TestOpenStyleHookRefusals: a server that cannot list its hooks is not
// asked for a conversation; a seat without a character lists none and
// changes no hook (Li+ then delivers the project's default itself).
func TestOpenStyleHookRefusals(t *testing.T) {
	t.Parallel()
	o := codexOpen{cwd: "/w", plan: &ServerPlan{Character: Character{Name: "luna"}}, key: "k", readBody: func() (string, error) { return "B", nil }}
	base := serverScript(t, nil, "hooks-list-thread-0.169.0.json")
	noList := func(m string, p json.RawMessage) (any, string) {
		if m == "hooks/list" {
			return nil, "method not found"
		}
		return base(m, p)
	}
	_, calls, err := openWith(t, o, noList)
	if !errors.Is(err, ErrStyleHook) || !strings.Contains(err.Error(), "method not found") {
		t.Errorf("hooks/list refused: %v", err)
	}
	if _, ok := callOf(calls, "thread/start"); ok {
		t.Error("a conversation was started without its hook list")
	}

	o = codexOpen{cwd: "/w", plan: &ServerPlan{}, key: "k"}
	_, calls, err = openWith(t, o, base)
	start, _ := callOf(calls, "thread/start")
	if err != nil || slices.Contains(methods(calls), "hooks/list") || start.Params["config"] != nil {
		t.Errorf("no character: %v, calls %q, config %v", err, methods(calls), start.Params["config"])
	}
	if start.Params["developerInstructions"] != launch.RoomPrompt("k") {
		t.Errorf("no character, no user instructions: %q", start.Params["developerInstructions"])
	}
}

// TestOpenInlineCharacter: an inline character (#276) is the user's own
// instructions with the other characters' blocks removed, then the room
// sentence — no body added; its hook is turned off too. An unknown name
// refuses before any conversation.
func TestOpenInlineCharacter(t *testing.T) {
	t.Parallel()
	defs := "COMMON\r\n# character_Lin\r\nLin の本文\r\n# character_Lay\r\nLay body\r\n# Shared\r\nTAIL\r\n"
	plan := &ServerPlan{Character: Character{Name: "character_Lin", Inline: true}}
	o := codexOpen{cwd: "/home/u/proj", plan: plan, key: "k"}
	_, calls, err := openWith(t, o, serverScript(t, &defs, "hooks-list-thread-0.169.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	start, _ := callOf(calls, "thread/start")
	want := "COMMON\r\n# character_Lin\r\nLin の本文\r\n# Shared\r\nTAIL\r\n\n\n" + launch.RoomPrompt("k")
	if got := start.Params["developerInstructions"]; got != want {
		t.Errorf("developer instructions %q\nwant %q", got, want)
	}
	if _, ok := start.Params["config"].(map[string]any)["hooks.state"]; !ok {
		t.Errorf("the style hook is not turned off: %v", start.Params["config"])
	}

	for _, tc := range []struct {
		name string
		user *string
	}{{"character_Lux", &defs}, {"character_Lin", nil}} {
		plan.Character.Name = tc.name
		_, calls, err = openWith(t, o, serverScript(t, tc.user, "hooks-list-thread-0.169.0.json"))
		if !errors.Is(err, character.ErrInline) || slices.Contains(methods(calls), "thread/start") {
			t.Errorf("%s (instructions %v): %v, calls %q", tc.name, tc.user != nil, err, methods(calls))
		}
	}
}
