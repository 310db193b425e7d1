package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// waitLong bounds every wait in these tests: far above any healthy run on a
// loaded 2-core box, so a timeout means a hang, never slowness (scaled:
// testkit.Slow).
var waitLong = testkit.Slow(20 * time.Second)

// testToken is the fake room's bearer token.
const testToken = "test-token-5f0c2a9e"

// frameRec is one frame the fake room received.
type frameRec struct {
	conn int // connection number, 1 for the first
	typ  string
	raw  []byte
}

// responder answers one received frame; nil = no answer.
type responder func(f frameRec) any

// fakeRoom is a WebSocket room speaking the docs/design.md §6 frames, written for
// these tests: it checks the bearer token, records every frame, and answers
// through a swappable responder. stop/start restart it on the same port.
type fakeRoom struct {
	t    *testing.T
	addr string
	got  chan frameRec
	gone chan int // connection numbers whose reader ended

	mu      sync.Mutex
	wmu     sync.Mutex // one writer at a time on every connection
	srv     *httptest.Server
	conns   map[*websocket.Conn]bool
	nconns  int
	respond responder
}

// defaultRespond: posts delivered, history empty, usage not recorded.
func defaultRespond(f frameRec) any {
	switch f.typ {
	case room.FramePost:
		var p room.PostFrame
		_ = json.Unmarshal(f.raw, &p)
		return room.PostResultFrame{Type: room.FramePostResult, MessageID: p.MessageID, Delivered: true}
	case room.FrameHistory:
		var h room.HistoryFrame
		_ = json.Unmarshal(f.raw, &h)
		return room.HistoryResultFrame{Type: room.FrameHistoryResult, RequestID: h.RequestID, Posts: []room.Post{}}
	case room.FrameUsage:
		var u room.UsageFrame
		_ = json.Unmarshal(f.raw, &u)
		return room.UsageResultFrame{Type: room.FrameUsageResult, RequestID: u.RequestID, Error: "usage is not recorded yet"}
	}
	return nil
}

func newFakeRoom(t *testing.T) *fakeRoom {
	t.Helper()
	r := &fakeRoom{t: t, got: make(chan frameRec, 256), gone: make(chan int, 64), conns: map[*websocket.Conn]bool{}, respond: defaultRespond}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	r.addr = ln.Addr().String()
	r.serveOn(ln)
	t.Cleanup(r.stop)
	return r
}

func (r *fakeRoom) url() string { return "ws://" + r.addr + "/room" }

func (r *fakeRoom) setResponder(f responder) {
	r.mu.Lock()
	r.respond = f
	r.mu.Unlock()
}

func (r *fakeRoom) serveOn(ln net.Listener) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(r.handle))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	r.mu.Lock()
	r.srv = srv
	r.mu.Unlock()
}

// stop closes the listener and every connection (the room "goes away").
func (r *fakeRoom) stop() {
	r.mu.Lock()
	srv := r.srv
	r.srv = nil
	for c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// start listens again on the same address (the room "restarts").
func (r *fakeRoom) start() {
	r.t.Helper()
	var ln net.Listener
	testkit.Eventually(r.t, "the fake room to listen on "+r.addr+" again", func() bool {
		var err error
		ln, err = net.Listen("tcp", r.addr)
		return err == nil
	})
	r.serveOn(ln)
}

func (r *fakeRoom) handle(w http.ResponseWriter, req *http.Request) {
	if req.Header.Get("Authorization") != "Bearer "+testToken {
		http.Error(w, "bad token", http.StatusUnauthorized)
		return
	}
	up := websocket.Upgrader{CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == "" }}
	conn, err := up.Upgrade(w, req, nil)
	if err != nil {
		return
	}
	r.mu.Lock()
	r.nconns++
	n := r.nconns
	r.conns[conn] = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.conns, conn)
		r.mu.Unlock()
		conn.Close()
		r.gone <- n
	}()
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			return
		}
		var env room.Envelope
		if err := json.Unmarshal(data, &env); err != nil {
			r.t.Errorf("fake room: unreadable frame %q: %v", data, err)
			return
		}
		f := frameRec{conn: n, typ: env.Type, raw: data}
		r.got <- f
		r.mu.Lock()
		respond := r.respond
		r.mu.Unlock()
		if reply := respond(f); reply != nil {
			r.wmu.Lock()
			err := conn.WriteJSON(reply)
			r.wmu.Unlock()
			if err != nil {
				return
			}
		}
	}
}

// push writes v to every open connection, unasked (an identity frame).
func (r *fakeRoom) push(t *testing.T, v any) {
	t.Helper()
	r.mu.Lock()
	conns := make([]*websocket.Conn, 0, len(r.conns))
	for c := range r.conns {
		conns = append(conns, c)
	}
	r.mu.Unlock()
	if len(conns) == 0 {
		t.Fatal("fake room: no connection to push to")
	}
	r.wmu.Lock()
	defer r.wmu.Unlock()
	for _, c := range conns {
		if err := c.WriteJSON(v); err != nil {
			t.Fatalf("fake room: push: %v", err)
		}
	}
}

func (r *fakeRoom) connCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.nconns
}

// next returns the next received frame, failing the test after waitLong.
func (r *fakeRoom) next(t *testing.T) frameRec {
	t.Helper()
	select {
	case f := <-r.got:
		return f
	case <-time.After(waitLong):
		t.Fatalf("fake room: no frame within %s", waitLong)
		return frameRec{}
	}
}

// expect returns the next frame and fails unless it has type typ.
func (r *fakeRoom) expect(t *testing.T, typ string) frameRec {
	t.Helper()
	f := r.next(t)
	for typ != room.FrameUsage && f.typ == room.FrameUsage {
		// A delivered say_to_room reads the seat's usage after its post
		// (spec «投稿結果の利用量フィードバック»): not what this test waits for.
		f = r.next(t)
	}
	if f.typ != typ {
		t.Fatalf("fake room: got frame %s, want %s: %s", f.typ, typ, f.raw)
	}
	return f
}

// expectHello checks the next frame is the hello the test env declares.
func (r *fakeRoom) expectHello(t *testing.T) room.HelloFrame {
	t.Helper()
	f := r.expect(t, room.FrameHello)
	var h room.HelloFrame
	if err := json.Unmarshal(f.raw, &h); err != nil {
		t.Fatalf("hello: %v", err)
	}
	return h
}

// testEnv is a complete, admitted sidecar environment for room url.
func testEnv(url string) map[string]string {
	return map[string]string{
		room.EnvRoomURL:    url,
		room.EnvRoomToken:  testToken,
		room.EnvAgentName:  "Lin",
		room.EnvAccountID:  "acct-lin",
		room.EnvLaunchedAs: "acct-lin",
		room.EnvRoomID:     "topic-1",
		room.EnvHue:        "200",
	}
}

// testTuning keeps outages short in tests; the shape is the default's.
func testTuning() tuning {
	t := defaultTuning()
	t.backoffMin = 10 * time.Millisecond
	t.backoffMax = 200 * time.Millisecond
	t.reconnectWait = 500 * time.Millisecond
	return t
}

// sidecarHarness runs the sidecar in-process over pipes (the real stdio
// path) and drives it with mcp-go's client.
type sidecarHarness struct {
	c      *client.Client
	init   *mcp.InitializeResult
	stderr *testkit.Buffer
	stdinW *io.PipeWriter
	runErr chan error
	closed bool
	t      *testing.T
}

// startSidecar starts run with env and completes the MCP handshake: the
// classic initialize at the newest version that still has it, as Claude
// Code and the Inspector do, or with modern=true mcp-go's server/discover
// at the newest version. The version is pinned on the client because
// mcp-go picks the handshake from it and falls back from server/discover
// to initialize silently; the test fails when the other one was used.
func startSidecar(t *testing.T, env map[string]string, tune tuning, modern bool) *sidecarHarness {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	h := &sidecarHarness{stderr: &testkit.Buffer{}, stdinW: stdinW, runErr: make(chan error, 1), t: t}
	getenv := func(k string) string { return env[k] }
	go func() {
		err := run(context.Background(), getenv, stdinR, stdoutW, h.stderr, tune)
		stdoutW.Close()
		h.runErr <- err
	}()
	version := mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if modern {
		version = mcp.LATEST_PROTOCOL_VERSION
	}
	h.c = client.NewClient(transport.NewIO(stdoutR, nopCloser{stdinW}, nil), client.WithProtocolVersion(version))
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := h.c.Start(ctx); err != nil {
		t.Fatalf("client start: %v", err)
	}
	res, err := h.c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "sidecar-test", Version: "1"},
	}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ProtocolVersion != version {
		t.Fatalf("handshake negotiated protocol %q, want %q", res.ProtocolVersion, version)
	}
	h.init = res
	t.Cleanup(func() { h.close() })
	return h
}

// nopCloser keeps the client transport from closing the sidecar's stdin:
// the harness closes it itself, in order (see close).
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// close ends stdin (EOF), waits for run to return while the client still
// drains stdout, then closes the client. It returns run's error.
func (h *sidecarHarness) close() error {
	if h.closed {
		return nil
	}
	h.closed = true
	h.stdinW.Close()
	var err error
	select {
	case err = <-h.runErr:
	case <-time.After(waitLong):
		h.t.Errorf("sidecar did not return within %s of stdin EOF", waitLong)
	}
	h.c.Close()
	return err
}

// listTools lists the tools.
func (h *sidecarHarness) listTools(t *testing.T) []mcp.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	res, err := h.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return res.Tools
}

// call calls a tool with args and returns its result text and isError. A
// call that does not finish within waitLong fails the test (it hung).
func (h *sidecarHarness) call(t *testing.T, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	res, err := h.c.CallTool(ctx, callReq(name, args))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("tools/call %s hung for %s", name, waitLong)
		}
		t.Fatalf("tools/call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// callReq builds a tools/call request.
func callReq(name string, args map[string]any) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	return req
}
