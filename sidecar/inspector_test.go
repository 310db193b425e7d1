package sidecar

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// End to end with clients no one here wrote (docs/design.md §13): the pullcept binary
// built from this module, a real room (room.NewHub + room.NewServer), and the
// MCP Inspector CLI (npm @modelcontextprotocol/inspector-cli, pinned in
// testdata/clis) as the MCP client.
//
// Each Inspector invocation is one process, so one sidecar, so a fresh empty
// draft: the Inspector proves the delivered post, the stale-last_seen
// rejection with the missed post, and the empty call's "no draft" error. The
// draft re-send needs two calls in one session, which the Inspector cannot
// make, so TestRealRoomDraftResend proves it with mcp-go's client over the
// sidecar's stdio against the same real room.

// inspectorRun bounds one Inspector invocation (two node start-ups and the
// sidecar) on a loaded 2-core box.
var inspectorRun = testkit.Slow(3 * time.Minute)

const e2eTopic = "topic-e2e"

// roomKinds is the Accounts the real room uses: the seat is a Claude Code
// account, so its posts carry role claude_code.
type roomKinds map[string]string

func (k roomKinds) AccountKind(id string) (string, bool) {
	kind, ok := k[id]
	return kind, ok
}

// gateTerminals records SidecarReady calls and, while hold is set, keeps the
// ready frame's connection waiting in SidecarReady: the room handles one
// connection's frames in order, so the sidecar's next frame is judged only
// after the test has acted (docs/design.md §7 ready; room/conn.go Ready).
type gateTerminals struct {
	ready chan string // "topic/account" per SidecarReady

	mu   sync.Mutex
	hold chan struct{} // nil: do not wait
}

func (g *gateTerminals) Enqueue(string, string, room.Post) bool          { return false }
func (g *gateTerminals) SidecarJoined(string, string)                    {}
func (g *gateTerminals) Reported(string, string, room.Report) bool       { return false }
func (g *gateTerminals) PermissionAnswered(string, string, uint64, bool) {}
func (g *gateTerminals) Usage(string, string) (room.SeatUsage, bool)     { return room.SeatUsage{}, false }

func (g *gateTerminals) SidecarReady(topic, account string) {
	g.mu.Lock()
	hold := g.hold
	g.mu.Unlock()
	g.ready <- topic + "/" + account
	if hold != nil {
		select {
		case <-hold:
		case <-time.After(inspectorRun):
		}
	}
}

func (g *gateTerminals) setHold(h chan struct{}) {
	g.mu.Lock()
	g.hold = h
	g.mu.Unlock()
}

// realRoom is a running hub + loopback server with the admin "Alice" seated
// in e2eTopic and a subscription to its events.
type realRoom struct {
	hub   *room.Hub
	srv   *room.Server
	sub   *room.Subscription
	terms *gateTerminals
}

func startRealRoom(t *testing.T) *realRoom {
	t.Helper()
	terms := &gateTerminals{ready: make(chan string, 64)}
	hub, err := room.NewHub(room.HubOptions{Terminals: terms, Accounts: roomKinds{"acct-lin": "claude_code"}})
	if err != nil {
		t.Fatalf("NewHub: %v", err)
	}
	if err := hub.OpenRoom(e2eTopic); err != nil {
		t.Fatalf("OpenRoom: %v", err)
	}
	hub.SetAdmin(room.Hello{Name: "Alice"})
	sub := hub.Subscribe()
	srv, err := room.NewServer(hub, room.ServerOptions{})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	t.Cleanup(func() {
		terms.setHold(nil)
		srv.Close()
		sub.Close()
		hub.Close()
	})
	return &realRoom{hub: hub, srv: srv, sub: sub, terms: terms}
}

// env is the sidecar's environment for this room (admitted, hue 200).
func (r *realRoom) env() map[string]string {
	e := testEnv(r.srv.URL())
	e[room.EnvRoomToken] = r.srv.Token()
	e[room.EnvRoomID] = e2eTopic
	return e
}

// nextPost returns the next delivered post in e2eTopic, skipping other events.
func (r *realRoom) nextPost(t *testing.T) room.Post {
	t.Helper()
	deadline := time.After(inspectorRun)
	for {
		select {
		case ev, ok := <-r.sub.C():
			if !ok {
				t.Fatal("room subscription closed")
			}
			if pd, ok := ev.(room.PostDelivered); ok && pd.Topic == e2eTopic {
				return pd.Post
			}
		case <-deadline:
			t.Fatal("no post delivered in the room")
		}
	}
}

// waitReady waits for the sidecar's ready frame to reach the room.
func (r *realRoom) waitReady(t *testing.T) {
	t.Helper()
	select {
	case got := <-r.terms.ready:
		if got != e2eTopic+"/acct-lin" {
			t.Fatalf("ready for %q, want %s/acct-lin", got, e2eTopic)
		}
	case <-time.After(inspectorRun):
		t.Fatal("the sidecar's ready never reached the room")
	}
}

// drainReady forgets recorded ready calls. Call it after waitSeatLeft: the
// room handles a connection's frames before it leaves the roster, so every
// ready of the sidecars before is recorded by then.
func (r *realRoom) drainReady() {
	for {
		select {
		case <-r.terms.ready:
		default:
			return
		}
	}
}

// waitSeatLeft waits until no sidecar connection sits in the room: the
// sidecar ended with its client (it must not outlive its CLI).
func (r *realRoom) waitSeatLeft(t *testing.T) {
	t.Helper()
	testkit.EventuallyWithin(t, inspectorRun, "the sidecar to leave the room after its client exited", func() bool {
		members, err := r.hub.Roster(e2eTopic)
		if err != nil {
			t.Fatalf("Roster: %v", err)
		}
		return len(members) == 1 && members[0].Role == room.RoleAdmin
	})
}

// lastPost is the newest post of e2eTopic.
func (r *realRoom) lastPost(t *testing.T) room.Post {
	t.Helper()
	posts, _, err := r.hub.History(e2eTopic, "", 1)
	if err != nil || len(posts) != 1 {
		t.Fatalf("History: %v %v", posts, err)
	}
	return posts[0]
}

// inspectorCLI returns the Inspector's cli.js, failing (never skipping) when
// it is not installed.
func inspectorCLI(t *testing.T) string {
	t.Helper()
	link, err := filepath.Abs(filepath.Join("..", "testdata", "clis", "node_modules", ".bin", "mcp-inspector-cli"))
	if err != nil {
		t.Fatal(err)
	}
	cli, err := filepath.EvalSymlinks(link)
	if err != nil {
		t.Fatalf("the MCP Inspector CLI is not installed at %s (%v): run `make clis`", link, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH (%v): the MCP Inspector CLI needs it; install Node.js and run `make clis`", err)
	}
	return cli
}

// buildPullcept builds this module's binary (main.go dispatches `sidecar`).
func buildPullcept(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "pullcept")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/pullcept/pullcept")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build github.com/pullcept/pullcept: %v\n%s", err, out)
	}
	return bin
}

// runInspector runs one Inspector CLI invocation against `bin sidecar` with
// env (passed through the process environment: the token never goes in argv)
// and returns its JSON output decoded.
func runInspector(cli, bin string, env map[string]string, args ...string) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), inspectorRun)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, append([]string{"--cli", bin, "sidecar"}, args...)...)
	// index.js imports its package.json as "../package.json" after checking
	// that path relative to the working directory: run it from its own
	// build directory.
	cmd.Dir = filepath.Dir(cli)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PULLCEPT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mcp-inspector-cli %v: %w\nstdout:\n%s\nstderr:\n%s", args, err, stdout.String(), stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("mcp-inspector-cli %v: output is not JSON (%w):\n%s\nstderr:\n%s", args, err, stdout.String(), stderr.String())
	}
	return out, nil
}

// inspector is runInspector that fails the test on error.
func inspector(t *testing.T, cli, bin string, env map[string]string, args ...string) map[string]any {
	t.Helper()
	out, err := runInspector(cli, bin, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// toolResult joins a tools/call result's text content and reads isError.
func toolResult(res map[string]any) (text string, isErr bool, err error) {
	content, ok := res["content"].([]any)
	if !ok {
		return "", false, fmt.Errorf("tools/call result has no content: %v", res)
	}
	var b strings.Builder
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			s, _ := m["text"].(string)
			b.WriteString(s)
		}
	}
	isErr, _ = res["isError"].(bool)
	return b.String(), isErr, nil
}

// toolText is toolResult that fails the test on error.
func toolText(t *testing.T, res map[string]any) (string, bool) {
	t.Helper()
	text, isErr, err := toolResult(res)
	if err != nil {
		t.Fatal(err)
	}
	return text, isErr
}

var deliveredRE = regexp.MustCompile(`^Delivered to the room\. message_id: ([0-9a-f-]{36})\n`)

// TestInspectorEndToEnd: the MCP Inspector CLI, one process (so one
// sidecar) per step, against the real room: the tool list and schemas, a
// delivered post, a stale last_seen rejected with the missed post, and an
// empty call refused for want of a draft.
func TestInspectorEndToEnd(t *testing.T) {
	testkit.SkipUnderWine(t, "the MCP Inspector CLI is an npm package and needs node.exe; the Wine prefix has no Node.js")
	e := &inspectorE2E{cli: inspectorCLI(t), bin: buildPullcept(t), r: startRealRoom(t)}
	e.env = e.r.env()

	e.toolsList(t)
	firstID := e.sayDelivered(t)
	adminID := e.staleLastSeenRejected(t, firstID)
	e.emptyCallRefused(t, adminID)
}

// inspectorE2E is what every step of TestInspectorEndToEnd runs with: the
// Inspector's cli.js, the pullcept binary, the real room and the
// sidecar's environment for it.
type inspectorE2E struct {
	cli, bin string
	r        *realRoom
	env      map[string]string
}

// run is one Inspector invocation; it fails the test on error.
func (e *inspectorE2E) run(t *testing.T, args ...string) map[string]any {
	t.Helper()
	return inspector(t, e.cli, e.bin, e.env, args...)
}

// seatLeft waits for the step's sidecar to leave the room and forgets its
// ready calls, so the next step starts from an empty seat.
func (e *inspectorE2E) seatLeft(t *testing.T) {
	t.Helper()
	e.r.waitSeatLeft(t)
	e.r.drainReady()
}

// toolsList: the three tools and their schemas, as a third-party client
// reads them. (Whether ready reaches the room here depends on whether the
// socket was up before the Inspector closed stdin; the calls of the later
// steps wait for the room, so there it must.)
func (e *inspectorE2E) toolsList(t *testing.T) {
	t.Helper()
	list := e.run(t, "--method", "tools/list")
	e.seatLeft(t)
	tools, _ := list["tools"].([]any)
	schemas := map[string]map[string]any{}
	for _, tl := range tools {
		m, _ := tl.(map[string]any)
		name, _ := m["name"].(string)
		schema, _ := m["inputSchema"].(map[string]any)
		schemas[name] = schema
	}
	if len(schemas) != len(room.RoomTools) {
		t.Fatalf("tools/list = %v", list)
	}
	for _, name := range room.RoomTools {
		if schemas[name] == nil {
			t.Fatalf("tools/list lacks %s: %v", name, list)
		}
	}
	if req, _ := schemas[room.ToolControlSession]["required"].([]any); len(req) != 4 {
		t.Fatalf("control_account_session required = %v", schemas[room.ToolControlSession])
	}
	props := func(tool string) map[string]any {
		p, _ := schemas[tool]["properties"].(map[string]any)
		return p
	}
	to, _ := props(room.ToolSayToRoom)["to"].(map[string]any)
	wantOneOf := []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}
	if !reflect.DeepEqual(to["oneOf"], wantOneOf) {
		t.Fatalf("say_to_room to = %v", to)
	}
	for _, p := range []string{"content", "last_seen"} {
		if prop, _ := props(room.ToolSayToRoom)[p].(map[string]any); prop["type"] != "string" {
			t.Fatalf("say_to_room %s = %v", p, props(room.ToolSayToRoom)[p])
		}
	}
	if limit, _ := props(room.ToolReadRoomHistory)["limit"].(map[string]any); limit["type"] != "integer" || limit["maximum"] != float64(200) {
		t.Fatalf("read_room_history limit = %v", limit)
	}
	if len(props(room.ToolMyUsage)) != 0 {
		t.Fatalf("my_usage properties = %v", props(room.ToolMyUsage))
	}
}

// sayDelivered: say_to_room delivers, `to` given as a JSON array on the
// command line; it returns the delivered post's id.
func (e *inspectorE2E) sayDelivered(t *testing.T) string {
	t.Helper()
	res := e.run(t, "--method", "tools/call", "--tool-name", room.ToolSayToRoom,
		"--tool-arg", "content=hello from Lin", "--tool-arg", `to=["Alice"]`)
	text, isErr := toolText(t, res)
	m := deliveredRE.FindStringSubmatch(text)
	if isErr || m == nil {
		t.Fatalf("say_to_room = %v %q", isErr, text)
	}
	p := e.r.nextPost(t)
	if p.MessageID != m[1] || p.Speaker != "Lin" || p.Role != room.RoleClaudeCode || p.Content != "hello from Lin" ||
		!reflect.DeepEqual(p.To, []string{"Alice"}) {
		t.Fatalf("the room delivered %+v, want Lin's post %s", p, m[1])
	}
	e.r.waitReady(t) // the Inspector listed the tools before calling
	e.seatLeft(t)
	return p.MessageID
}

// inspectorResult is one Inspector tool call's outcome, reported from the
// goroutine that ran it.
type inspectorResult struct {
	text  string
	isErr bool
	err   error
}

// staleLastSeenRejected: Alice speaks after the sidecar took its seat and
// before its post is judged (held at ready), so the room rejects the post
// (last_seen firstID) and the result shows Alice's post. It returns the id
// of Alice's post, the room's newest.
func (e *inspectorE2E) staleLastSeenRejected(t *testing.T, firstID string) string {
	t.Helper()
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release) // before the room's cleanup: never leave a socket held
	e.r.terms.setHold(hold)
	done := make(chan inspectorResult, 1)
	go func() {
		// Only the test goroutine may fail the test: report through done.
		out, err := runInspector(e.cli, e.bin, e.env, "--method", "tools/call", "--tool-name", room.ToolSayToRoom,
			"--tool-arg", "content=late answer", "--tool-arg", "last_seen="+firstID)
		if err != nil {
			done <- inspectorResult{err: err}
			return
		}
		text, isErr, err := toolResult(out)
		done <- inspectorResult{text: text, isErr: isErr, err: err}
	}()
	e.r.waitReady(t)
	e.r.terms.setHold(nil)
	// Alice has seen Lin's post: hers is judged by the floor too.
	admin, err := e.r.hub.Post(e2eTopic, room.Draft{Content: "newer from Alice", LastSeen: firstID})
	if err != nil || !admin.Delivered {
		t.Fatalf("admin post: %+v %v", admin, err)
	}
	release()
	if got := e.r.nextPost(t); got.MessageID != admin.Post.MessageID {
		t.Fatalf("room delivered %+v, want Alice's post", got)
	}
	var rej inspectorResult
	select {
	case rej = <-done:
	case <-time.After(inspectorRun):
		t.Fatal("the Inspector did not finish")
	}
	if rej.err != nil {
		t.Fatal(rej.err)
	}
	for _, want := range []string{
		"Not delivered: 1 newer post",
		room.Tag(admin.Post, time.Local) + "\n> newer from Alice",
		`"from":"Alice","message_id":"` + admin.Post.MessageID + `"`,
		"draft (content and to) is kept",
	} {
		if rej.isErr || !strings.Contains(rej.text, want) {
			t.Fatalf("stale last_seen → isError %v, text lacks %q:\n%s", rej.isErr, want, rej.text)
		}
	}
	if last := e.r.lastPost(t); last.MessageID != admin.Post.MessageID {
		t.Fatalf("the rejected post reached the room: %+v", last)
	}
	e.seatLeft(t)
	return admin.Post.MessageID
}

// emptyCallRefused: an empty call in a fresh sidecar has no draft: a clear
// error, and nothing sent (newest stays the room's newest post).
func (e *inspectorE2E) emptyCallRefused(t *testing.T, newest string) {
	t.Helper()
	res := e.run(t, "--method", "tools/call", "--tool-name", room.ToolSayToRoom, "--tool-arg", "last_seen="+newest)
	text, isErr := toolText(t, res)
	if !isErr || !strings.Contains(text, "no kept draft") {
		t.Fatalf("empty call → %v %q", isErr, text)
	}
	if last := e.r.lastPost(t); last.MessageID != newest {
		t.Fatalf("the empty call posted %+v", last)
	}
	e.r.waitSeatLeft(t)
}

// TestRealRoomDraftResend: the draft re-send against the real room, driven by
// mcp-go's client over the sidecar's stdio (one session, so one draft).
func TestRealRoomDraftResend(t *testing.T) {
	r := startRealRoom(t)
	h := startSidecar(t, r.env(), testTuning(), false)
	h.listTools(t)
	r.waitReady(t) // seated (hello precedes ready on the connection)

	q, err := r.hub.Post(e2eTopic, room.Draft{Content: "who takes the release notes?"})
	if err != nil || !q.Delivered {
		t.Fatalf("admin post: %+v %v", q, err)
	}
	r.nextPost(t)

	text, isErr := h.call(t, room.ToolSayToRoom, map[string]any{"content": "I will write them", "to": "Alice"})
	if isErr || !strings.Contains(text, "Not delivered: 1 newer post") ||
		!strings.Contains(text, room.Tag(q.Post, time.Local)+"\n> who takes the release notes?") {
		t.Fatalf("post without last_seen after Alice spoke → %v %q", isErr, text)
	}
	if last := r.lastPost(t); last.MessageID != q.Post.MessageID {
		t.Fatalf("the rejected post reached the room: %+v", last)
	}

	text, isErr = h.call(t, room.ToolSayToRoom, map[string]any{"last_seen": q.Post.MessageID})
	m := deliveredRE.FindStringSubmatch(text)
	if isErr || m == nil {
		t.Fatalf("draft re-send → %v %q", isErr, text)
	}
	checkUUIDv4(t, m[1])
	p := r.nextPost(t)
	if p.MessageID != m[1] || p.Speaker != "Lin" || p.Role != room.RoleClaudeCode || p.Content != "I will write them" ||
		!reflect.DeepEqual(p.To, []string{"Alice"}) {
		t.Fatalf("the room delivered %+v, want the draft as %s", p, m[1])
	}

	text, isErr = h.call(t, room.ToolSayToRoom, map[string]any{"last_seen": p.MessageID})
	if !isErr || !strings.Contains(text, "no kept draft") {
		t.Fatalf("empty call after the delivery → %v %q", isErr, text)
	}
	if last := r.lastPost(t); last.MessageID != p.MessageID {
		t.Fatalf("the empty call posted %+v", last)
	}

	// read_room_history against the real room: oldest first, both posts.
	text, isErr = h.call(t, room.ToolReadRoomHistory, map[string]any{"limit": 5})
	if isErr || !strings.Contains(text, "2 posts") || strings.Index(text, q.Post.MessageID) > strings.Index(text, p.MessageID) {
		t.Fatalf("history → %v %q", isErr, text)
	}
}
