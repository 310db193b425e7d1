package localmcp

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// bridgeEnv names the real github-webhook-mcp bridge's server/index.js
// (its repository's mcp-server folder, after `npm ci --omit=dev` there).
// The test is opt-in: the npm registry this project's machines reach
// answers 404 for github-webhook-mcp, so testdata/clis cannot pin it and
// CI cannot install it. Measured with 0.11.2 (its source at HEAD).
const bridgeEnv = "PULLCEPT_WEBHOOK_BRIDGE"

// fakeWorker is the bridge's Cloudflare Worker on loopback: the WebSocket
// at /events that broadcasts {event_id, type, summary} and the MCP
// endpoint at /mcp that the bridge proxies tool calls to.
type fakeWorker struct {
	t      *testing.T
	srv    *httptest.Server
	events map[string]json.RawMessage // id → stored event (get_event's answer)
	mu     sync.Mutex
	conns  []*websocket.Conn
	calls  []string // "tools/call <name> <event_id>" and unexpected paths
}

const workerToken = "test-token"

func newFakeWorker(t *testing.T) *fakeWorker {
	w := &fakeWorker{t: t, events: map[string]json.RawMessage{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: w}}
	w.srv.Start()
	t.Cleanup(w.close)
	return w
}

func (w *fakeWorker) close() {
	w.mu.Lock()
	for _, c := range w.conns {
		_ = c.Close()
	}
	w.mu.Unlock()
	w.srv.Close()
}

func (w *fakeWorker) record(s string) {
	w.mu.Lock()
	w.calls = append(w.calls, s)
	w.mu.Unlock()
}

func (w *fakeWorker) recorded() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.calls...)
}

func (w *fakeWorker) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+workerToken {
		w.record("unauthorized " + r.URL.Path)
		http.Error(rw, "unauthorized", http.StatusUnauthorized)
		return
	}
	switch r.URL.Path {
	case "/events":
		w.serveEvents(rw, r)
	case "/mcp":
		w.mcp(rw, r)
	default:
		w.record("unexpected " + r.Method + " " + r.URL.Path)
		http.NotFound(rw, r)
	}
}

// serveEvents accepts the bridge's WebSocket and says connected, as the
// Worker's store does.
func (w *fakeWorker) serveEvents(rw http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	c, err := up.Upgrade(rw, r, nil)
	if err != nil {
		return
	}
	_ = c.WriteMessage(websocket.TextMessage, []byte(`{"status":"connected"}`))
	w.mu.Lock()
	w.conns = append(w.conns, c)
	w.mu.Unlock()
	for { // read the bridge's keepalive pings until it goes
		if _, _, err := c.ReadMessage(); err != nil {
			return
		}
	}
}

// broadcast sends one ingested event to every connected bridge.
func (w *fakeWorker) broadcast(id, typ string, summary map[string]any, payload any) {
	p, _ := json.Marshal(payload)
	stored, _ := json.MarshalIndent(map[string]any{"id": id, "type": typ, "received_at": summary["received_at"],
		"processed": false, "trigger_status": nil, "last_triggered_at": nil, "payload": json.RawMessage(p)}, "", "  ")
	msg, _ := json.Marshal(map[string]any{"event_id": id, "type": typ, "summary": summary})
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events[id] = stored
	for _, c := range w.conns {
		_ = c.WriteMessage(websocket.TextMessage, msg)
	}
}

func (w *fakeWorker) connected() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.conns) > 0
}

// mcp answers the bridge's Streamable HTTP calls: initialize (the session
// id header) and tools/call get_event from the stored events.
func (w *fakeWorker) mcp(rw http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string            `json:"name"`
			Arguments map[string]string `json:"arguments"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	var result any
	switch req.Method {
	case "initialize":
		rw.Header().Set("Mcp-Session-Id", "session-1")
		result = map[string]any{"protocolVersion": "2024-11-05", "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "github-webhook-mcp", "version": "1.0.0"}}
	case "tools/call":
		id := req.Params.Arguments["event_id"]
		w.record("tools/call " + req.Params.Name + " " + id)
		w.mu.Lock()
		stored, ok := w.events[id]
		w.mu.Unlock()
		text, isError := string(stored), false
		if req.Params.Name != "get_event" || !ok {
			text, isError = "Event "+id+" not found", true
		}
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError}
	default:
		w.record("mcp " + req.Method)
	}
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

// TestRealBridgeNotices runs the real github-webhook-mcp bridge against a
// fake Worker on loopback: the bridge connects its WebSocket with the
// token file in a temporary home, turns two broadcasts into channel
// pushes, and answers get_event through the fake; the notices come out
// in order, the first signed. The bridge ignores its stdin closing, so
// Close kills it after the grace.
func TestRealBridgeNotices(t *testing.T) {
	bridge := os.Getenv(bridgeEnv)
	if bridge == "" {
		t.Skipf("%s is not set (the real github-webhook-mcp's server/index.js)", bridgeEnv)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	worker := newFakeWorker(t)
	home := t.TempDir()
	tokens := filepath.Join(home, ".github-webhook-mcp", "oauth-tokens.json")
	if err := os.MkdirAll(filepath.Dir(tokens), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tokens, []byte(`{"flow":"web","access_token":"`+workerToken+`","refresh_token":"r"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var notes sink
	// The signature wait is scaled: the bridge's answer to get_event must
	// beat it on a loaded box.
	s := NewSupervisor(Options{OnNotice: notes.add, Grace: 500 * time.Millisecond, SignatureWait: testkit.Slow(DefaultSignatureWait)})
	spec := Spec{Command: "node", Args: []string{bridge},
		Env: []string{"HOME=" + home, "USERPROFILE=" + home, "WEBHOOK_WORKER_URL=" + worker.srv.URL}}
	if err := s.Start("github-webhook-mcp", spec); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "github-webhook-mcp", Running)
	testkit.Eventually(t, "the bridge's WebSocket", worker.connected)
	now := time.Now().UTC().Format(time.RFC3339)
	url := "https://github.com/o/r/issues/1"
	worker.broadcast("ev-1", "issue_comment", map[string]any{"id": "ev-1", "type": "issue_comment", "received_at": now,
		"processed": false, "action": "created", "repo": "o/r", "sender": "octocat", "number": 1, "title": "A bug", "url": url},
		map[string]any{"action": "created", "comment": map[string]any{"body": "Fixed in #2.\r\n\r\n\u2014 Lin"}})
	worker.broadcast("ev-2", "push", map[string]any{"id": "ev-2", "type": "push", "received_at": now, "processed": false,
		"action": nil, "repo": "o/r", "sender": "octocat", "number": nil, "title": nil, "url": nil},
		map[string]any{"ref": "refs/heads/main"})
	testkit.Eventually(t, "two notices", func() bool { return len(notes.all()) == 2 })
	want := []string{
		"(signed Lin)\n[issue_comment] o/r\naction: created\n#1 A bug\nby octocat\n" + ProcessedLine + "ev-1\n" + url,
		"[push] o/r\nby octocat\n" + ProcessedLine + "ev-2",
	}
	if got := notes.all(); strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	if got := worker.recorded(); strings.Join(got, "|") != "tools/call get_event ev-1" {
		t.Errorf("the worker saw %q", got)
	}
	s.Close()
	log := logText(s, "github-webhook-mcp")
	t.Logf("the bridge's log:\n%s", log)
	if !strings.Contains(log, "killed its process tree") {
		t.Errorf("log:\n%s", log)
	}
}
