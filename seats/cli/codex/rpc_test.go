package codex

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// fakeCodexServer is a WebSocket server standing in for a seat's
// app-server: each connection's Authorization header and socket go to the
// test, which scripts the server's side.
type fakeCodexServer struct {
	srv   *httptest.Server
	auth  chan string
	conns chan *websocket.Conn
}

func newFakeCodexServer(t *testing.T) *fakeCodexServer {
	t.Helper()
	f := &fakeCodexServer{auth: make(chan string, 4), conns: make(chan *websocket.Conn, 4)}
	up := websocket.Upgrader{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.auth <- r.Header.Get("Authorization")
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		f.conns <- ws
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCodexServer) url() string { return "ws" + strings.TrimPrefix(f.srv.URL, "http") }

// dial connects a codexConn and returns it with the server's side.
func (f *fakeCodexServer) dial(t *testing.T, token string) (*codexConn, *fakeCodexPeer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Wait)
	defer cancel()
	c, err := dialCodex(ctx, f.url(), token)
	if err != nil {
		t.Fatalf("dialCodex: %v", err)
	}
	t.Cleanup(c.Close)
	select {
	case ws := <-f.conns:
		p := &fakeCodexPeer{t: t, ws: ws}
		t.Cleanup(func() { _ = ws.Close() })
		return c, p
	case <-time.After(testkit.Wait):
		t.Fatal("the server saw no connection")
	}
	return nil, nil
}

// fakeCodexPeer is the server's side of one connection.
type fakeCodexPeer struct {
	t  *testing.T
	mu sync.Mutex
	ws *websocket.Conn
}

func (p *fakeCodexPeer) send(v any) {
	p.t.Helper()
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			p.t.Error(err)
			return
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		p.t.Errorf("server write: %v", err)
	}
}

// note sends notification i of method "n".
func (p *fakeCodexPeer) note(i int) {
	p.t.Helper()
	p.send(map[string]any{"method": "n", "params": map[string]any{"i": i}})
}

type fakeCodexRequest struct {
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	JSONRPC *string         `json:"jsonrpc"`
}

// read reads one message the client sent.
func (p *fakeCodexPeer) read() fakeCodexRequest {
	p.t.Helper()
	_ = p.ws.SetReadDeadline(time.Now().Add(testkit.Wait))
	_, b, err := p.ws.ReadMessage()
	if err != nil {
		p.t.Fatalf("server read: %v", err)
	}
	var r fakeCodexRequest
	if err := json.Unmarshal(b, &r); err != nil {
		p.t.Fatalf("client sent %q: %v", b, err)
	}
	return r
}

// noteLog collects what a handler receives.
type noteLog struct {
	mu    sync.Mutex
	notes []codexNote
}

func (l *noteLog) add(n codexNote) {
	l.mu.Lock()
	l.notes = append(l.notes, n)
	l.mu.Unlock()
}

func (l *noteLog) get() []codexNote {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.notes)
}

func (l *noteLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.notes)
}

// noteIndex reads the "i" of a note sent by fakeCodexPeer.note.
func noteIndex(t *testing.T, n codexNote) int {
	t.Helper()
	var p struct{ I int }
	if err := json.Unmarshal(n.Params, &p); err != nil {
		t.Fatalf("note params %s: %v", n.Params, err)
	}
	return p.I
}

// TestCodexConnBearer: the connection carries the token as a bearer
// header; a refused handshake names the HTTP status.
func TestCodexConnBearer(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	f.dial(t, "tok-123")
	if got := <-f.auth; got != "Bearer tok-123" {
		t.Errorf("Authorization %q, want Bearer tok-123", got)
	}

	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer refuse.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Wait)
	defer cancel()
	c, err := dialCodex(ctx, "ws"+strings.TrimPrefix(refuse.URL, "http"), "wrong")
	if err == nil {
		c.Close()
		t.Fatal("a refused handshake connected")
	}
	if !strings.Contains(err.Error(), "HTTP 401") || strings.Contains(err.Error(), "wrong") {
		t.Errorf("refused handshake: %v", err)
	}
}

// TestCodexConnEarlyNotes: notes before a handler are kept and given to it
// first, in order, then later ones as they come; Seq counts them all.
func TestCodexConnEarlyNotes(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	for i := 1; i <= 5; i++ {
		p.note(i)
	}
	p.send(map[string]any{"id": "r1", "method": "item/commandExecution/requestApproval", "params": map[string]any{"i": 6}})
	testkit.Eventually(t, "the early notes read", func() bool { return c.seq() == 6 })
	var log noteLog
	c.setHandler(log.add)
	if got := log.count(); got != 6 {
		t.Fatalf("setHandler replayed %d notes, want 6", got)
	}
	for i := 7; i <= 9; i++ {
		p.note(i)
	}
	testkit.Eventually(t, "the later notes", func() bool { return log.count() == 9 })
	for i, n := range log.get() {
		if n.Seq != int64(i+1) || noteIndex(t, n) != i+1 {
			t.Fatalf("note %d: Seq %d params %s", i, n.Seq, n.Params)
		}
		wantID, wantMethod := "", "n"
		if i == 5 {
			wantID, wantMethod = "s:r1", "item/commandExecution/requestApproval"
		}
		if n.ID != wantID || n.Method != wantMethod {
			t.Fatalf("note %d: id %q method %q, want %q %q", i, n.ID, n.Method, wantID, wantMethod)
		}
	}
	if c.seq() != 9 {
		t.Errorf("seq %d, want 9", c.seq())
	}
}

// TestCodexConnEarlyNotesWhileSetting: notes arriving while setHandler
// replays the early ones still reach the handler once each, in order.
func TestCodexConnEarlyNotesWhileSetting(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	const n = 200 // under codexEarlyNotes: none dropped
	go func() {
		for i := 1; i <= n; i++ {
			p.note(i)
		}
	}()
	testkit.Eventually(t, "some early notes", func() bool { return c.seq() >= 20 })
	// The replay runs in this goroutine: its first note waits until more
	// notes came, so they pile up while the early ones are replayed.
	var log noteLog
	first := true
	c.setHandler(func(x codexNote) {
		if first {
			first = false
			testkit.Eventually(t, "notes during the replay", func() bool { return c.seq() >= 100 })
		}
		log.add(x)
	})
	testkit.Eventually(t, "every note", func() bool { return log.count() == n })
	for i, x := range log.get() {
		if x.Seq != int64(i+1) || noteIndex(t, x) != i+1 {
			t.Fatalf("note %d: Seq %d params %s", i, x.Seq, x.Params)
		}
	}
}

// TestCodexConnEarlyNotesCap: at most codexEarlyNotes are kept before a
// handler; the rest are dropped, later ones still counted.
func TestCodexConnEarlyNotesCap(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	const sent = codexEarlyNotes + 44
	for i := 1; i <= sent; i++ {
		p.note(i)
	}
	testkit.Eventually(t, "every early note read", func() bool { return c.seq() == sent })
	var log noteLog
	c.setHandler(log.add)
	if got := log.count(); got != codexEarlyNotes {
		t.Fatalf("replayed %d notes, want the cap %d", got, codexEarlyNotes)
	}
	c.mu.Lock()
	dropped := c.dropped
	c.mu.Unlock()
	if dropped != sent-codexEarlyNotes {
		t.Errorf("dropped %d, want %d", dropped, sent-codexEarlyNotes)
	}
	p.note(sent + 1)
	testkit.Eventually(t, "the later note", func() bool { return log.count() == codexEarlyNotes+1 })
	notes := log.get()
	for i, x := range notes[:codexEarlyNotes] {
		if x.Seq != int64(i+1) || noteIndex(t, x) != i+1 {
			t.Fatalf("kept note %d: Seq %d params %s", i, x.Seq, x.Params)
		}
	}
	if last := notes[codexEarlyNotes]; last.Seq != sent+1 || noteIndex(t, last) != sent+1 {
		t.Errorf("later note: Seq %d params %s, want Seq %d", last.Seq, last.Params, sent+1)
	}
}

// TestCodexConnCalls: requests carry an integer id and no "jsonrpc";
// answers reach their caller by id in any order; a string id of the same
// digits, an unknown id and non-objects are no answer; a server request
// among them goes to the handler.
func TestCodexConnCalls(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	var log noteLog
	c.setHandler(log.add)

	type result struct {
		Got string `json:"got"`
	}
	type done struct {
		res result
		err error
	}
	ctx := context.Background()
	first, second := make(chan done, 1), make(chan done, 1)
	go func() {
		var r result
		err := c.call(ctx, "first", map[string]any{"a": 1}, &r)
		first <- done{r, err}
	}()
	r1 := p.read()
	go func() {
		var r result
		err := c.call(ctx, "second", nil, &r)
		second <- done{r, err}
	}()
	r2 := p.read()
	if r1.Method != "first" || string(r1.Params) != `{"a":1}` || r1.JSONRPC != nil || r2.Method != "second" || r2.JSONRPC != nil {
		t.Fatalf("requests %+v %+v", r1, r2)
	}
	if rpcID(r1.ID) == "" || rpcID(r1.ID)[0] == 's' || rpcID(r1.ID) == rpcID(r2.ID) {
		t.Fatalf("request ids %s %s: want distinct integers", r1.ID, r2.ID)
	}

	p.send([]byte("not json"))
	p.send([]byte(`[1,2]`))
	p.send(map[string]any{"id": 999, "result": map[string]any{"got": "stray"}})
	p.send(map[string]any{"id": string(r1.ID), "result": map[string]any{"got": "string id"}})
	p.send(map[string]any{"id": "x", "method": "item/tool/requestUserInput", "params": map[string]any{"threadId": "T"}})
	p.send(map[string]any{"id": r2.ID, "result": map[string]any{"got": "second"}})
	select {
	case d := <-second:
		if d.err != nil || d.res.Got != "second" {
			t.Fatalf("second: %+v", d)
		}
	case <-time.After(testkit.Wait):
		t.Fatal("second got no answer")
	}
	// The reader routes in arrival order: by now the string id and the
	// stray were read, and neither took the first call's place.
	c.mu.Lock()
	_, waiting := c.pending[rpcID(r1.ID)]
	c.mu.Unlock()
	if !waiting {
		t.Fatal("the first call was answered by a string id or a stray")
	}
	select {
	case d := <-first:
		t.Fatalf("first answered by a string id or a stray: %+v", d)
	default:
	}
	p.send(map[string]any{"id": r1.ID, "result": map[string]any{"got": "first"}})
	select {
	case d := <-first:
		if d.err != nil || d.res.Got != "first" {
			t.Fatalf("first: %+v", d)
		}
	case <-time.After(testkit.Wait):
		t.Fatal("first got no answer")
	}
	if notes := log.get(); len(notes) != 1 || notes[0].ID != "s:x" || notes[0].Method != "item/tool/requestUserInput" {
		t.Fatalf("handler got %+v, want the one server request", notes)
	}

	// A nil result takes any answer; a result that does not fit is an error.
	go func() { second <- done{err: c.call(ctx, "third", nil, nil)} }()
	r3 := p.read()
	p.send(map[string]any{"id": r3.ID, "result": map[string]any{"anything": true}})
	if d := <-second; d.err != nil {
		t.Fatalf("third: %v", d.err)
	}
	go func() {
		var r result
		second <- done{err: c.call(ctx, "fourth", nil, &r)}
	}()
	r4 := p.read()
	p.send(map[string]any{"id": r4.ID, "result": "a string"})
	if d := <-second; d.err == nil || !strings.Contains(d.err.Error(), "fourth: unreadable answer") {
		t.Fatalf("fourth: %v", d.err)
	}
}

// TestCodexConnErrorAnswer: an error answer is a *codexRPCError naming the
// method.
func TestCodexConnErrorAnswer(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	errc := make(chan error, 1)
	go func() { errc <- c.call(context.Background(), "thread/start", map[string]any{}, nil) }()
	r := p.read()
	p.send(map[string]any{"id": r.ID, "error": map[string]any{"code": -32600, "message": "bad params"}})
	var err error
	select {
	case err = <-errc:
	case <-time.After(testkit.Wait):
		t.Fatal("no answer")
	}
	var re *codexRPCError
	if !errors.As(err, &re) || re.Method != "thread/start" || re.Code != -32600 || re.Message != "bad params" {
		t.Fatalf("err %#v, want a codexRPCError for thread/start", err)
	}
	if want := "codex app-server: thread/start: bad params (code -32600)"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

// TestCodexConnCallTimeout: a call ends with its context and is forgotten.
func TestCodexConnCallTimeout(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.call(ctx, "slow", nil, nil) }()
	r := p.read()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "slow") {
			t.Fatalf("err %v", err)
		}
	case <-time.After(testkit.Wait):
		t.Fatal("a cancelled call did not return")
	}
	c.mu.Lock()
	left := len(c.pending)
	c.mu.Unlock()
	if left != 0 {
		t.Errorf("%d calls still pending", left)
	}
	// Its late answer is nobody's and harms nothing.
	p.send(map[string]any{"id": r.ID, "result": map[string]any{}})
	go func() { errc <- c.call(context.Background(), "next", nil, nil) }()
	r = p.read()
	p.send(map[string]any{"id": r.ID, "result": map[string]any{}})
	if err := <-errc; err != nil {
		t.Fatalf("next: %v", err)
	}
}

// TestCodexConnServerCloses: a call waiting when the server goes away
// returns an error at once, and so does every later call.
func TestCodexConnServerCloses(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	errc := make(chan error, 1)
	go func() { errc <- c.call(context.Background(), "waiting", nil, nil) }()
	p.read()
	_ = p.ws.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, errCodexConnClosed) {
			t.Fatalf("pending call: %v, want errCodexConnClosed", err)
		}
	case <-time.After(testkit.Wait):
		t.Fatal("the pending call did not end with the connection")
	}
	select {
	case <-c.Done():
	case <-time.After(testkit.Wait):
		t.Fatal("Done not closed")
	}
	// At once: a call that waited for an answer would end with its own
	// timeout's error, not errCodexConnClosed (no timing: issue 28).
	if err := c.call(context.Background(), "after", nil, nil); !errors.Is(err, errCodexConnClosed) {
		t.Fatalf("call after close: %v", err)
	}
}

// TestCodexConnClose: Close ends the reader and waits for it; a second
// Close is harmless; calls after it fail.
func TestCodexConnClose(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, _ := f.dial(t, "tok")
	var log noteLog
	c.setHandler(log.add)
	c.Close()
	select {
	case <-c.Done():
	default:
		t.Fatal("Close returned before the reader ended")
	}
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	if err == nil {
		t.Error("the reader ended without a reason")
	}
	c.Close()
	if err := c.call(context.Background(), "after", nil, nil); !errors.Is(err, errCodexConnClosed) {
		t.Fatalf("call after Close: %v", err)
	}
	if err := c.notify("initialized"); err == nil {
		t.Error("notify after Close succeeded")
	}
}

// TestCodexConnNotify: a notification has a method and no id.
func TestCodexConnNotify(t *testing.T) {
	t.Parallel()
	f := newFakeCodexServer(t)
	c, p := f.dial(t, "tok")
	if err := c.notify("initialized"); err != nil {
		t.Fatal(err)
	}
	if r := p.read(); r.Method != "initialized" || r.ID != nil || r.JSONRPC != nil {
		t.Fatalf("notification %+v", r)
	}
}
