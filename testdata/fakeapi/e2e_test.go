//go:build linux || darwin

package fakeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// These tests prove the fakes with the real, pinned CLIs (docs/design.md §13): each
// starts the CLI in a PTY against the fake model API, with a stdio MCP
// server (mcproom_test.go) registered the way Pullcept registers its
// sidecar, types one room post the way the room types it, and checks what
// the fake received, what the MCP tool received, and that the turn ended.
// The MCP tool first rejects the post with one missed post, so the fake's
// draft re-send (Script.Resend) is proven through the real CLIs too.

// stepWait bounds each wait on the CLI: a healthy run takes a few seconds
// per step on the 2-core CI box; 60 s leaves room for a loaded machine
// (scaled: testkit.Slow).
var stepWait = testkit.Slow(60 * time.Second)

// The post typed into the CLI, and the missed post the first say_to_room
// call is rejected with.
const (
	postTag    = `[pullcept] {"role":"admin","from":"Alice","message_id":"m-1","at":"2026-11-29T10:00+09:00"}`
	postBody   = "hello"
	missedTag  = `[pullcept] {"role":"codex_cli","from":"Bob","message_id":"m-2","at":"2026-11-29T10:01+09:00"}`
	deliveredA = "Delivered to the room. message_id: 7f1c2d8e-0000-4000-8000-000000000001"
)

// rejectOnce answers the first say_to_room call with a floor rejection
// (wording as docs/design.md §7 describes the sidecar's) and later calls with a
// delivery.
func rejectOnce(n int, c roomCall) mcpAnswer {
	if n == 1 {
		return mcpAnswer{Text: "Not delivered: the room rejected your post because you had not seen 1 newer post:\n" +
			missedTag + "\nwait, I am on it\n\nYour draft is kept. Call say_to_room with no content to send it, with last_seen set."}
	}
	return mcpAnswer{Text: deliveredA}
}

// enterRetry is how long a test waits for the model call after typing a
// post before pressing Enter once more. Under heavy load (load average 11
// on the 2-core box) Codex 0.169.0 once read the text and the "\r" typed
// 200 ms later in one burst and took the Enter as a newline of the paste
// (its paste-burst detection); a second Enter on a submitted, empty
// composer does nothing in either CLI, so pressing again is safe.
const enterRetry = 5 * time.Second

// submitPost types the test post and waits until the fake saw a model
// call carrying it, pressing Enter again (logged) when the first was lost.
func submitPost(t *testing.T, ctx context.Context, cli *cliTTY, fake *Server) {
	t.Helper()
	cli.typePost(ctx, postTag, postBody)
	carries := func(exs []Exchange) bool {
		for _, ex := range exs {
			for _, p := range ex.Request.NewPosts() {
				if p.Tag.MessageID == "m-1" {
					return true
				}
			}
		}
		return false
	}
	for enter := 1; ; enter++ {
		wctx, cancel := context.WithTimeout(ctx, enterRetry)
		_, err := fake.Wait(wctx, carries)
		cancel()
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("%s: the post never reached the fake: %v", cli.name, ctx.Err())
		}
		t.Logf("%s: no model call %v after Enter %d (screen below); pressing Enter again\n%s", cli.name, enterRetry, enter, cli.screen())
		cli.write("\r")
	}
}

// startFake starts a fake with a re-sending Script and closes it at
// cleanup.
func startFake(t *testing.T) (*Server, string) {
	t.Helper()
	srv, err := New(Options{Script: Script{Resend: true}, Logf: t.Logf})
	if err != nil {
		t.Fatalf("new fake: %v", err)
	}
	base, err := srv.Start()
	if err != nil {
		t.Fatalf("start fake: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close fake: %v", err)
		}
	})
	return srv, base
}

// checkRoomFlow asserts what both CLIs must have done for the typed post.
func checkRoomFlow(t *testing.T, exs []Exchange, room *roomMCP, api API) {
	t.Helper()
	var model []Exchange
	for _, ex := range exs {
		if ex.Request.ModelCall && ex.Request.API == api {
			model = append(model, ex)
		}
	}
	if len(model) == 0 {
		t.Fatalf("the fake saw no %s model call", api)
	}
	// One user message carries the post: tag line, then "\nhello".
	last := model[len(model)-1].Request
	var carrying []string
	for _, m := range last.Messages {
		if m.Role != RoleUser {
			continue
		}
		for _, text := range m.Texts {
			if strings.Contains(text, postTag) {
				carrying = append(carrying, text)
			}
		}
	}
	if len(carrying) != 1 {
		t.Fatalf("user texts carrying the tag = %d, want 1: %q", len(carrying), carrying)
	}
	if !strings.Contains(carrying[0], postTag+"\n"+postBody) {
		t.Errorf("post text = %q, want the tag line then %q", carrying[0], "\n"+postBody)
	}
	posts := FindPosts(carrying[0])
	if len(posts) != 1 || posts[0].Tag.MessageID != "m-1" || posts[0].Tag.From != "Alice" || posts[0].Body != postBody {
		t.Errorf("parsed posts = %+v, want one from Alice, m-1, body %q", posts, postBody)
	}
	// The MCP server got: the reply derived from the body, then the draft
	// re-send after the rejection.
	calls := room.snapshot()
	if len(calls) != 2 {
		t.Fatalf("say_to_room calls = %d (%+v), want 2", len(calls), calls)
	}
	if want := (SayArgs{Content: "reply to: hello", LastSeen: "m-1"}); calls[0].Name != SayToRoom || !sameArgs(calls[0].Args, want) {
		t.Errorf("first call = %s %s, want say_to_room %+v", calls[0].Name, calls[0].Raw, want)
	}
	if want := (SayArgs{LastSeen: "m-2"}); !sameArgs(calls[1].Args, want) {
		t.Errorf("re-send = %s, want no content and last_seen m-2", calls[1].Raw)
	}
	// The turn ended with text after the delivered result.
	final := model[len(model)-1]
	if final.Reply.Call != nil || final.Reply.Text != textPosted {
		t.Errorf("last reply = %+v, want the closing text %q", final.Reply, textPosted)
	}
	res := final.Request.NewResults()
	if len(res) != 1 || !strings.Contains(res[0].Text, deliveredA) || res[0].Call == nil || !res[0].Call.IsSayToRoom() {
		t.Errorf("last request's tool results = %+v, want say_to_room's delivery", res)
	}
}

// TestClaudeCodeRealCLI drives Claude Code 2.1.328 with the room's MCP
// server registered as Pullcept does (.mcp.json, --settings
// enabledMcpjsonServers, bypass mode) and a Stop http hook on the fake that
// marks the end of the turn: once with "alwaysLoad": true (docs/design.md §7, the
// tool is offered up front) and once without, where the fake must load the
// deferred tool with ToolSearch first.
func TestClaudeCodeRealCLI(t *testing.T) {
	t.Run("alwaysLoad", func(t *testing.T) { runClaude(t, true) })
	t.Run("toolSearch", func(t *testing.T) { runClaude(t, false) })
}

func runClaude(t *testing.T, alwaysLoad bool) {
	start := time.Now()
	claude := CLIPath(t, CLIClaude)
	fake, base := startFake(t)
	root := t.TempDir()
	seat := filepath.Join(root, "seat")
	if err := os.Mkdir(seat, 0o755); err != nil {
		t.Fatal(err)
	}
	// One trust entry for the seats' parent covers every seat below it.
	env, setup := ClaudeEnv(t, base, root)
	room := startRoomMCP(t, rejectOnce)
	command, mcpEnv := room.serverEntry(t)
	const key = "pullcept-room-test-1a2b3c"
	writeJSONFile(t, filepath.Join(seat, ".mcp.json"), map[string]any{"mcpServers": map[string]any{
		key: map[string]any{"type": "stdio", "command": command, "args": []string{}, "env": mcpEnv, "alwaysLoad": alwaysLoad},
	}})
	settings, err := json.Marshal(map[string]any{
		"enabledMcpjsonServers":  []string{key},
		"disabledMcpjsonServers": []string{},
		"hooks": map[string]any{"Stop": []any{map[string]any{
			"hooks": []any{map[string]any{"type": "http", "url": base + "/hooks/activity/Stop", "timeout": 5}},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	session := uuid.NewString()
	argv := []string{claude, "--session-id", session, "--dangerously-skip-permissions",
		"--settings", string(settings),
		"--append-system-prompt", "Answer room posts with mcp__" + key + "__say_to_room; terminal output reaches nobody."}
	ctx, cancel := context.WithTimeout(t.Context(), 4*stepWait)
	defer cancel()
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, stepWait) }

	cli := startTTY(t, "claude", argv, env, seat)
	sctx, scancel := step()
	room.wait(sctx, "tools/list", func() bool { return room.listed > 0 })
	cli.waitScreen(sctx, "bypass permissions on")
	// Claude Code takes the tools/list answer in asynchronously: a prompt
	// submitted at once was sent to the model without the room tool in 4 of
	// 6 runs (measured 2026-12-01; after 100 ms of quiet, 0 of 12). The room
	// types a post only after the seat's ready frame and 200 ms of PTY quiet
	// (docs/design.md §5, §7); wait the same way.
	cli.waitQuiet(sctx, typingGap)
	scancel()
	t.Logf("claude ready after %v; MCP methods %v", time.Since(start).Round(time.Millisecond), room.calledMethods())

	sctx, scancel = step()
	submitPost(t, sctx, cli, fake)
	exs, err := fake.Wait(sctx, func(exs []Exchange) bool {
		for _, ex := range exs {
			if ex.Request.Path == "/hooks/activity/Stop" {
				return true
			}
		}
		return false
	})
	scancel()
	if err != nil {
		t.Fatalf("waiting for the Stop hook: %v", err)
	}
	t.Logf("claude turn ended after %v", time.Since(start).Round(time.Millisecond))
	recordExchanges(t, fake.Exchanges())
	checkRoomFlow(t, exs, room, Anthropic)
	var searched bool
	for _, ex := range exs {
		if c := ex.Reply.Call; c != nil && c.Search {
			searched = true
		}
	}
	if searched == alwaysLoad {
		t.Errorf("ToolSearch step taken = %v with alwaysLoad %v; want it only without alwaysLoad", searched, alwaysLoad)
	}
	for _, ex := range exs {
		if r := ex.Request; r.ModelCall && r.Session != session {
			t.Errorf("request #%d session = %q, want --session-id %q", r.Seq, r.Session, session)
		}
		if r := ex.Request; r.API == Other && r.Path != "/hooks/activity/Stop" {
			t.Errorf("unexpected side request %s %s%s (escape %v)", r.Method, r.Host, r.Path, r.Escape)
		}
	}

	sctx, scancel = step()
	cli.waitIdle(sctx, textPosted)
	err = cli.quit(sctx, "Press Ctrl-C again to exit")
	scancel()
	if err != nil {
		t.Errorf("claude exit: %v", err)
	}
	// The transcript: <config>/projects/<cwd with non-alphanumerics → '->/<session>.jsonl.
	slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(seat, "-")
	transcript := filepath.Join(setup.ConfigDir, "projects", slug, session+".jsonl")
	if _, err := os.Stat(transcript); err != nil {
		t.Errorf("transcript: %v", err)
	}
	t.Logf("claude test took %v", time.Since(start).Round(time.Millisecond))
}

// TestCodexRealCLI drives Codex 0.169.0 with the room's MCP server passed
// on the command line as Pullcept does (-c mcp_servers.<key>={…,
// default_tools_approval_mode="approve"}, --no-alt-screen) and the
// catalogue model gpt-5.5, so the fake must take the tool_search step.
func TestCodexRealCLI(t *testing.T) {
	start := time.Now()
	codex := CLIPath(t, CLICodex)
	fake, base := startFake(t)
	work := filepath.Join(t.TempDir(), "seat")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	env, setup := CodexEnv(t, base, work)
	room := startRoomMCP(t, rejectOnce)
	command, mcpEnv := room.serverEntry(t)
	const key = "pullcept-room-test-1a2b3c"
	server := "mcp_servers." + key + "={command=" + tomlString(command) + ", args=[], env={" +
		mcpControlEnv + "=" + tomlString(mcpEnv[mcpControlEnv]) + `}, enabled=true, default_tools_approval_mode="approve"}`
	argv := []string{codex, "-c", server, "--no-alt-screen"}
	ctx, cancel := context.WithTimeout(t.Context(), 4*stepWait)
	defer cancel()
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, stepWait) }

	cli := startTTY(t, "codex", argv, env, work)
	sctx, scancel := step()
	room.wait(sctx, "tools/list", func() bool { return room.listed > 0 })
	cli.waitScreen(sctx, "Ask Codex to do anything", "? for shortcuts")
	scancel()
	t.Logf("codex ready after %v; MCP methods %v", time.Since(start).Round(time.Millisecond), room.calledMethods())

	sctx, scancel = step()
	submitPost(t, sctx, cli, fake)
	rollout := waitRollout(t, sctx, setup.Home)
	scancel()
	t.Logf("codex turn ended after %v (rollout %s)", time.Since(start).Round(time.Millisecond), rollout)
	exs := fake.Exchanges()
	recordExchanges(t, exs)
	checkRoomFlow(t, exs, room, OpenAI)

	// The tool_search step happened, and MCP tools are namespaced.
	var searched, namespaced bool
	for _, ex := range exs {
		if c := ex.Reply.Call; c != nil && c.Search {
			searched = true
		}
		for _, tool := range ex.Request.Tools {
			if tool.IsSayToRoom() && tool.Namespace == "mcp__"+strings.ReplaceAll(key, "-", "_") {
				namespaced = true
			}
		}
	}
	if !searched || !namespaced {
		t.Errorf("tool search step = %v, say_to_room in namespace mcp__%s = %v; want both", searched, strings.ReplaceAll(key, "-", "_"), namespaced)
	}
	// The session id: rollout-<time>-<uuid>.jsonl, session-id header.
	id := strings.TrimSuffix(filepath.Base(rollout), ".jsonl")
	id = id[len(id)-36:]
	for _, ex := range exs {
		if r := ex.Request; r.ModelCall && r.Session != id {
			t.Errorf("request #%d session = %q, want the rollout's %q", r.Seq, r.Session, id)
		}
		if r := ex.Request; !r.ModelCall && !(r.Escape && r.Host == codexAnnouncementHost) {
			t.Errorf("unexpected side request %s %s%s (escape %v)", r.Method, r.Host, r.Path, r.Escape)
		}
	}

	sctx, scancel = step()
	cli.waitIdle(sctx, "Worked for")
	err := cli.quit(sctx, "again to quit")
	scancel()
	if err != nil {
		t.Errorf("codex exit: %v", err)
	}
	if !strings.Contains(squash(cli.screen()), squash("codex resume "+id)) {
		t.Logf("codex exit screen has no resume hint:\n%s", cli.screen())
	}
	t.Logf("codex test took %v", time.Since(start).Round(time.Millisecond))
}

// codexAnnouncementHost is the one host Codex 0.169.0 reaches for on every
// start with no setting to stop it (its announcement tip); the proxy fence
// sends it to the fake, which refuses it.
const codexAnnouncementHost = "raw.githubusercontent.com:443"

// waitRollout polls CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl until
// one holds a task_complete event (the turn ended) and returns its path.
// Polling (every 50 ms, under ctx's deadline) because the file is created
// lazily at the first message.
func waitRollout(t *testing.T, ctx context.Context, home string) string {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		files, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
		for _, f := range files {
			if rolloutHas(f, "task_complete") {
				return f
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("waiting for a rollout with task_complete in %s: %v (files %v)", home, ctx.Err(), files)
		}
	}
}

// rolloutHas reports whether a rollout has an event_msg of type typ.
func rolloutHas(path, typ string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "event_msg" && line.Payload.Type == typ {
			return true
		}
	}
	return false
}

// recordDirEnv names a directory where the e2e tests write every request
// they saw, one JSON file each in the fixture shape ({"path", "headers",
// "body"}): how testdata/*.json were recorded (then trimmed) and how to
// re-record them for a new CLI version.
const recordDirEnv = "FAKEAPI_RECORD_DIR"

func recordExchanges(t *testing.T, exs []Exchange) {
	t.Helper()
	dir := os.Getenv(recordDirEnv)
	if dir == "" {
		return
	}
	name := strings.NewReplacer("/", "-").Replace(t.Name())
	for _, ex := range exs {
		r := ex.Request
		f := fixture{Path: r.Method + " " + r.Path, Headers: map[string]string{}}
		if r.RawQuery != "" {
			f.Path += "?" + r.RawQuery
		}
		for k := range r.Header {
			f.Headers[k] = r.Header.Get(k)
		}
		if json.Valid(r.Body) {
			f.Body = r.Body
		}
		writeJSONFile(t, filepath.Join(dir, fmt.Sprintf("%s-%02d-%s.json", name, r.Seq, r.API)), f)
	}
}

// tomlString quotes s as a TOML basic string (JSON's escapes are a subset
// TOML accepts for the paths and addresses used here).
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
