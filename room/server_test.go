package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// newTestServer starts a server on h, closed at cleanup.
func newTestServer(t testing.TB, h *Hub, opts ServerOptions) *Server {
	t.Helper()
	s, err := NewServer(h, opts)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("server close: %v", err)
		}
	})
	return s
}

func bearer(s *Server) http.Header {
	return http.Header{"Authorization": {"Bearer " + s.Token()}}
}

// client is a gorilla WebSocket client speaking the room frames. The
// identity frames the room sends unasked are kept aside (idents), in
// order, so read returns the answers.
type client struct {
	t      testing.TB
	ws     *websocket.Conn
	idents []IdentityFrame
}

func dialRoom(t testing.TB, s *Server, hdr http.Header) *client {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(s.URL(), hdr)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial: %v (status %d)", err, status)
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}
}

// dialStatus dials and returns the HTTP status of a refused handshake.
func dialStatus(t *testing.T, rawURL string, hdr http.Header) int {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(rawURL, hdr)
	if err == nil {
		ws.Close()
		return http.StatusSwitchingProtocols
	}
	if resp == nil {
		t.Fatalf("dial %s: %v without a response", rawURL, err)
	}
	return resp.StatusCode
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(b)
}

func (c *client) sendRaw(b []byte) {
	c.t.Helper()
	if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) hello(name, room, account string) {
	c.t.Helper()
	c.send(HelloFrame{Type: FrameHello, Hello: Hello{Protocol: Protocol, Name: name, Room: room, AccountID: account}})
}

// read returns the next frame's bytes but identity frames (kept in
// idents) or fails at the deadline.
func (c *client) read() []byte {
	c.t.Helper()
	for {
		b := c.readAny()
		var id IdentityFrame
		if json.Unmarshal(b, &id) == nil && id.Type == FrameIdentity {
			c.idents = append(c.idents, id)
			continue
		}
		return b
	}
}

// readJSON decodes the next frame but identity frames into v.
func (c *client) readJSON(v any) error {
	_, b, err := c.nextMessage()
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// nextMessage is the socket's next message that is not an identity frame
// (kept in idents), or the read's error, at whatever deadline is set.
func (c *client) nextMessage() (int, []byte, error) {
	for {
		kind, b, err := c.ws.ReadMessage()
		if err != nil {
			return kind, b, err
		}
		var id IdentityFrame
		if json.Unmarshal(b, &id) == nil && id.Type == FrameIdentity {
			c.idents = append(c.idents, id)
			continue
		}
		return kind, b, nil
	}
}

// readAny returns the next frame's bytes, whatever its type, or fails at
// the deadline.
func (c *client) readAny() []byte {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(waitFor))
	_, b, err := c.ws.ReadMessage()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return b
}

// post sends a post frame and returns its post_result.
func (c *client) post(id, content, lastSeen string) PostResultFrame {
	c.t.Helper()
	c.send(PostFrame{Type: FramePost, MessageID: id, Content: content, LastSeen: lastSeen, TS: "2026-10-01T00:00:00Z"})
	return c.postResult(id)
}

func (c *client) postResult(id string) PostResultFrame {
	c.t.Helper()
	for {
		b := c.read()
		var fr PostResultFrame
		if err := json.Unmarshal(b, &fr); err != nil {
			c.t.Fatalf("frame %s: %v", b, err)
		}
		if fr.Type == FramePostResult && fr.MessageID == id {
			return fr
		}
		c.t.Fatalf("unexpected frame %s while waiting for post_result %s", b, id)
	}
}

func (c *client) history(id, before string, limit int) HistoryResultFrame {
	c.t.Helper()
	c.send(HistoryFrame{Type: FrameHistory, RequestID: id, Before: before, Limit: limit})
	var fr HistoryResultFrame
	if b := c.read(); json.Unmarshal(b, &fr) != nil || fr.Type != FrameHistoryResult || fr.RequestID != id {
		c.t.Fatalf("want history_result %s, got %s", id, b)
	}
	return fr
}

// waitRoster waits until topic's roster has n members.
func waitRoster(t testing.TB, h *Hub, topic string, n int) []Member {
	t.Helper()
	var r []Member
	testkit.Eventually(t, fmt.Sprintf("%d members in the roster of %s", n, topic), func() bool {
		var err error
		r, err = h.Roster(topic)
		return err == nil && len(r) == n
	})
	return r
}

func TestServerAuth(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	s := newTestServer(t, h, ServerOptions{})
	port := strings.TrimPrefix(s.HooksURL(), "http://127.0.0.1:")
	if !strings.HasPrefix(s.URL(), "ws://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/room") {
		t.Fatalf("URL %q", s.URL())
	}
	if len(s.Token()) < 32 {
		t.Fatalf("token %q shorter than 128 bits of hex", s.Token())
	}
	with := func(kv ...string) http.Header {
		hd := bearer(s)
		for i := 0; i < len(kv); i += 2 {
			hd.Set(kv[i], kv[i+1])
		}
		return hd
	}
	tests := []struct {
		name string
		url  string
		hdr  http.Header
		want int
	}{
		{"good", s.URL(), bearer(s), http.StatusSwitchingProtocols},
		{"localhost host", s.URL(), with("Host", "localhost:"+port), http.StatusSwitchingProtocols},
		{"ipv6 loopback host", s.URL(), with("Host", "[::1]:"+port), http.StatusSwitchingProtocols},
		{"no token", s.URL(), nil, http.StatusUnauthorized},
		{"bad token", s.URL(), http.Header{"Authorization": {"Bearer nope"}}, http.StatusUnauthorized},
		{"other scheme", s.URL(), http.Header{"Authorization": {"Basic " + s.Token()}}, http.StatusUnauthorized},
		{"token only in query", s.URL() + "?token=" + url.QueryEscape(s.Token()), nil, http.StatusUnauthorized},
		{"token in query and bad header", s.URL() + "?access_token=" + s.Token(), http.Header{"Authorization": {"Bearer x"}}, http.StatusUnauthorized},
		{"foreign origin", s.URL(), with("Origin", "http://evil.example"), http.StatusForbidden},
		{"same-host origin", s.URL(), with("Origin", "http://127.0.0.1:"+port), http.StatusForbidden},
		{"rebinding host", s.URL(), with("Host", "evil.example:"+port), http.StatusForbidden},
		{"other port", s.URL(), with("Host", "127.0.0.1:1"), http.StatusForbidden},
		{"other path", strings.TrimSuffix(s.URL(), "/room") + "/ws", bearer(s), http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dialStatus(t, tt.url, tt.hdr); got != tt.want {
				t.Fatalf("status %d, want %d", got, tt.want)
			}
		})
	}

	// Plain GET /room without an upgrade is not a route.
	req, _ := http.NewRequest(http.MethodGet, s.HooksURL()+"/room", nil)
	req.Header = bearer(s)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET /room without upgrade: %d", resp.StatusCode)
	}
}

// TestServerFrames: every frame type over a real socket, step by step on
// one room with two sockets: Lin (a claude_code account) and an impostor
// whose hello names an unknown account.
func TestServerFrames(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms()
	h := newTestHub(t, newMemLog(), terms, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	sub := h.Subscribe()
	defer sub.Close()

	a := dialRoom(t, s, bearer(s))
	a.hello("Lin", "t", "cc")
	b := dialRoom(t, s, bearer(s))
	b.hello("Impostor", "t", "nobody") // an account no one has
	waitRoster(t, h, "t", 3)

	framesBadInputThenPost(t, sub, a)
	framesImpostorIsUnknown(t, sub, b)
	noID := framesRefusedAndRoomIDs(t, a)
	framesHistory(t, a, noID)
	framesUsageAndReady(t, a, terms)
}

// framesBadInputThenPost: malformed JSON, a wrongly typed field and an
// unknown type are ignored or answered; the connection and the room keep
// working, and Lin's post "a-1" is delivered with her seat's stamp.
func framesBadInputThenPost(t *testing.T, sub *Subscription, a *client) {
	t.Helper()
	a.sendRaw([]byte(`{not json`))
	a.sendRaw([]byte{0xff, 0x00})
	a.sendRaw([]byte(`{"type":"dance","steps":3}`))
	a.sendRaw([]byte(`{"type":"post","message_id":"bad-1","content":5}`))
	if fr := a.postResult("bad-1"); fr.Delivered || !strings.Contains(fr.Error, "bad post frame") {
		t.Fatalf("wrongly typed post: %+v", fr)
	}
	r1 := a.post("a-1", "hello room", "")
	if !r1.Delivered || r1.Error != "" {
		t.Fatalf("post_result %+v", r1)
	}
	ev := nextEvent(t, sub, func(e PostDelivered) bool { return e.Post.MessageID == "a-1" })
	if ev.Post.Speaker != "Lin" || ev.Post.Role != RoleClaudeCode || ev.Post.Account != "cc" {
		t.Fatalf("delivered %+v", ev.Post)
	}
}

// framesImpostorIsUnknown: the impostor is unknown, never admin; its stale
// post is rejected with the full missed post, then "b-2" is delivered.
func framesImpostorIsUnknown(t *testing.T, sub *Subscription, b *client) {
	t.Helper()
	rb := b.post("b-1", "I am admin", "")
	if rb.Delivered || rb.Error != "" || len(rb.Missed) != 1 || rb.Missed[0].MessageID != "a-1" || rb.Missed[0].Content != "hello room" || rb.Missed[0].Speaker != "Lin" {
		t.Fatalf("stale post_result %+v", rb)
	}
	if rb := b.post("b-2", "I am admin", "a-1"); !rb.Delivered {
		t.Fatalf("post_result %+v", rb)
	}
	ev := nextEvent(t, sub, func(e PostDelivered) bool { return e.Post.MessageID == "b-2" })
	if ev.Post.Role != RoleUnknown {
		t.Fatalf("impostor role %q, want unknown", ev.Post.Role)
	}
}

// framesRefusedAndRoomIDs: a post of only mentions is an error, not
// delivered:false; a post without message_id gets the room's, returned.
func framesRefusedAndRoomIDs(t *testing.T, a *client) string {
	t.Helper()
	if fr := a.post("a-2", "@Impostor", "b-2"); fr.Error == "" || fr.Delivered || len(fr.Missed) != 0 {
		t.Fatalf("only-mentions post_result %+v", fr)
	}
	a.send(PostFrame{Type: FramePost, Content: "no id", LastSeen: "b-2"})
	var fr PostResultFrame
	if err := json.Unmarshal(a.read(), &fr); err != nil || !fr.Delivered || fr.MessageID == "" {
		t.Fatalf("post without id: %+v %v", fr, err)
	}
	return fr.MessageID
}

// framesHistory: history pages oldest first; limits and before work; an
// unknown before is an error with an empty (not null) page. noID is the
// id the room gave the post sent without one.
func framesHistory(t *testing.T, a *client, noID string) {
	t.Helper()
	for i := range 4 {
		id := "h-" + string(rune('a'+i))
		if r := a.post(id, "more", "b-2"); !r.Delivered {
			t.Fatalf("post %s: %+v", id, r)
		}
	}
	hr := a.history("q1", "", 2)
	if hr.Error != "" || !slices.Equal(postIDs(hr.Posts), []string{"h-c", "h-d"}) || !hr.HasMore {
		t.Fatalf("history %+v", hr)
	}
	hr = a.history("q2", "h-c", 200)
	if want := []string{"a-1", "b-2", noID, "h-a", "h-b"}; !slices.Equal(postIDs(hr.Posts), want) || hr.HasMore {
		t.Fatalf("history before h-c: %q more %v, want %q", postIDs(hr.Posts), hr.HasMore, want)
	}
	if hr := a.history("q3", "missing", 5); hr.Error == "" || hr.Posts == nil {
		t.Fatalf("history with unknown before: %+v", hr)
	}
}

// framesUsageAndReady: usage answers with nothing before the seat reported
// and with its own figures after (a window not reported is left out); ready
// reaches the seats; both sockets' hellos reached them as joins.
func framesUsageAndReady(t *testing.T, a *client, terms *fakeTerms) {
	t.Helper()
	a.send(UsageFrame{Type: FrameUsage, RequestID: "u1"})
	var ur UsageResultFrame
	if err := json.Unmarshal(a.read(), &ur); err != nil || ur.RequestID != "u1" || ur.Error != "" ||
		ur.FiveHour != nil || ur.SevenDay != nil || ur.Context != nil || ur.ReceivedAt != "" {
		t.Fatalf("usage_result before any report %+v %v", ur, err)
	}
	ctx := 12.5
	terms.mu.Lock()
	// Each figure with when it arrived (issue 34 item 16).
	terms.usage = map[string]SeatUsage{"t/cc": {FiveHour: &UsageWindow{UsedPercentage: 85, ResetsAt: time.Unix(1796100000, 0),
		ReceivedAt: time.Date(2026, 12, 1, 8, 30, 0, 0, time.UTC)},
		Context: &ctx, ContextAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), ReceivedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}}
	terms.mu.Unlock()
	a.send(UsageFrame{Type: FrameUsage, RequestID: "u2"})
	ur = UsageResultFrame{}
	if err := json.Unmarshal(a.read(), &ur); err != nil || ur.RequestID != "u2" || ur.Error != "" ||
		string(ur.FiveHour) != `{"used_percentage":85,"resets_at":1796100000,"received_at":"2026-12-01T08:30:00.000Z"}` || ur.SevenDay != nil ||
		string(ur.Context) != `{"used_percentage":12.5,"received_at":"2026-12-01T09:00:00.000Z"}` || ur.ReceivedAt != "2026-12-01T09:00:00.000Z" {
		t.Fatalf("usage_result after a report %+v %v", ur, err)
	}
	a.send(map[string]string{"type": FrameReady})
	testkit.Eventually(t, "SidecarReady for t/cc", func() bool {
		_, ready := terms.snapshot()
		return slices.Equal(ready, []string{"t/cc"})
	})
	// The two sockets' hellos race each other: compare as a set.
	if joined, _ := terms.snapshot(); !slices.Equal(slices.Sorted(slices.Values(joined)), []string{"t/cc", "t/nobody"}) {
		t.Fatalf("SidecarJoined %q", joined)
	}
}

// TestServerNoRoom: a connection without a room gets errors, never
// delivered:false (docs/design.md §6).
func TestServerNoRoom(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	c := dialRoom(t, s, bearer(s))
	check := func(when string) {
		t.Helper()
		if fr := c.post("p-"+when, "hi", ""); fr.Error == "" || fr.Delivered {
			t.Fatalf("%s: post_result %+v", when, fr)
		}
		if hr := c.history("h-"+when, "", 5); hr.Error == "" || len(hr.Posts) != 0 {
			t.Fatalf("%s: history_result %+v", when, hr)
		}
		c.send(UsageFrame{Type: FrameUsage, RequestID: "u-" + when})
		var ur UsageResultFrame
		if err := json.Unmarshal(c.read(), &ur); err != nil || !strings.Contains(ur.Error, ErrNoRoom.Error()) {
			t.Fatalf("%s: usage_result %+v %v", when, ur, err)
		}
	}
	check("before hello")
	c.hello("Lin", "elsewhere", "cc")
	check("after hello to an unknown room")
	c.hello("Lin", "t", "cc")
	waitRoster(t, h, "t", 1)
	if fr := c.post("ok", "hi", ""); !fr.Delivered {
		t.Fatalf("after a good hello: %+v", fr)
	}
	h.CloseRoom("t")
	check("after the room closed")
}

// TestServerOversizeFrame: a frame over the limit closes the socket with
// 1009 and takes the connection out of the roster.
func TestServerOversizeFrame(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{MaxFrameBytes: 512})
	c := dialRoom(t, s, bearer(s))
	c.hello("Lin", "t", "cc")
	waitRoster(t, h, "t", 1)
	c.sendRaw([]byte(`{"type":"post","message_id":"big","content":"` + strings.Repeat("x", 1024) + `"}`))
	_ = c.ws.SetReadDeadline(time.Now().Add(waitFor))
	_, _, err := c.nextMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("read after oversize frame: %v, want close 1009", err)
	}
	waitRoster(t, h, "t", 0)
	// The room keeps working for others.
	d := dialRoom(t, s, bearer(s))
	d.hello("Kai", "t", "cx")
	if fr := d.post("k", "still here", ""); !fr.Delivered {
		t.Fatalf("post after another socket's oversize frame: %+v", fr)
	}
}

func TestServerHooks(t *testing.T) {
	terms := newFakeTerms("t/cc", "a/b/acc%t")
	h := newTestHub(t, nil, terms, testAccounts)
	s := newTestServer(t, h, ServerOptions{MaxHookBytes: 64})
	do := func(method, path, body string, hdr http.Header) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, s.HooksURL()+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range hdr {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	status := `{"model":{"display_name":"Opus"}}`
	if code, body := do("POST", "/hooks/status/t/cc", status, bearer(s)); code != 200 || body != "{}" {
		t.Fatalf("status hook: %d %q", code, body)
	}
	if r, ok := terms.lastReport("t", "cc", ReportStatus); !ok || string(r.Body) != status {
		t.Fatalf("the seat got %+v %v", r, ok)
	}
	// Percent-encoded segments are decoded.
	if code, _ := do("POST", "/hooks/activity/PreToolUse/a%2Fb/acc%25t", `{"x":1}`, bearer(s)); code != 200 {
		t.Fatalf("activity hook: %d", code)
	}
	if r, ok := terms.lastReport("a/b", "acc%t", ReportActivity); !ok || r.Event != "PreToolUse" {
		t.Fatalf("the seat got %+v %v", r, ok)
	}
	tests := []struct {
		name, method, path, body string
		hdr                      http.Header
		want                     int
	}{
		{"no token", "POST", "/hooks/status/t/cc", status, nil, 401},
		{"bad token", "POST", "/hooks/status/t/cc", status, http.Header{"Authorization": {"Bearer " + strings.Repeat("0", 64)}}, 401},
		{"token in query", "POST", "/hooks/status/t/cc?token=" + s.Token(), status, nil, 401},
		{"origin", "POST", "/hooks/status/t/cc", status, http.Header{"Authorization": {"Bearer " + s.Token()}, "Origin": {"http://evil.example"}}, 403},
		{"get", "GET", "/hooks/status/t/cc", "", bearer(s), 404},
		{"short path", "POST", "/hooks/status/t", status, bearer(s), 404},
		{"long path", "POST", "/hooks/status/t/cc/x", status, bearer(s), 404},
		{"empty segment", "POST", "/hooks/status//cc", status, bearer(s), 404},
		{"unknown hook", "POST", "/hooks/limited/t/cc", status, bearer(s), 404},
		{"activity without event", "POST", "/hooks/activity/t/cc", status, bearer(s), 404},
		{"unregistered event", "POST", "/hooks/activity/Pre%20Tool/t/cc", status, bearer(s), 404},
		{"no running seat", "POST", "/hooks/status/t/cx", status, bearer(s), 404},
		{"not json", "POST", "/hooks/status/t/cc", "model=opus", bearer(s), 400},
		{"oversize", "POST", "/hooks/status/t/cc", `{"pad":"` + strings.Repeat("x", 100) + `"}`, bearer(s), 413},
		{"root", "GET", "/", "", bearer(s), 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, body := do(tt.method, tt.path, tt.body, tt.hdr); code != tt.want {
				t.Fatalf("status %d (%q), want %d", code, body, tt.want)
			}
		})
	}
	if r, _ := terms.lastReport("t", "cc", ReportStatus); string(r.Body) != status {
		t.Fatalf("a refused hook reached the seat: %s", r.Body)
	}
	if _, ok := terms.lastReport("t", "cx", ReportStatus); ok {
		t.Fatal("a hook for no running seat was kept")
	}
	http.DefaultClient.CloseIdleConnections()
}

// TestServerKeepalive: a peer that answers pings stays; one that does not is
// dropped after PongWait.
func TestServerKeepalive(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	// The server's pong wait, scaled: the live peer's answers must beat it
	// on a loaded box.
	pongWait := testkit.Slow(400 * time.Millisecond)
	s := newTestServer(t, h, ServerOptions{PongWait: pongWait})

	live := dialRoom(t, s, bearer(s))
	pings := make(chan struct{}, 16)
	live.ws.SetPingHandler(func(data string) error {
		select {
		case pings <- struct{}{}:
		default:
		}
		return live.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(waitFor))
	})
	live.hello("Lin", "t", "cc")

	mute := dialRoom(t, s, bearer(s))
	mute.ws.SetPingHandler(func(string) error { return nil }) // never answers
	mute.hello("Kai", "t", "cx")
	waitRoster(t, h, "t", 2)

	// The mute peer is dropped: its read ends.
	muteDone := make(chan error, 1)
	go func() {
		_ = mute.ws.SetReadDeadline(time.Now().Add(waitFor))
		_, _, err := mute.nextMessage()
		muteDone <- err
	}()
	// The live peer reads (control frames are handled inside reads) until it
	// has answered three pings, i.e. lived through several pong waits.
	liveDone := make(chan error, 1)
	go func() {
		_ = live.ws.SetReadDeadline(time.Now().Add(waitFor))
		_, _, err := live.nextMessage()
		liveDone <- err
	}()
	for i := range 3 {
		select {
		case <-pings:
		case <-time.After(waitFor):
			t.Fatalf("ping %d never came", i+1)
		}
	}
	select {
	case err := <-muteDone:
		if err == nil {
			t.Fatal("mute peer got a frame")
		}
	case <-time.After(waitFor):
		t.Fatal("mute peer was never dropped")
	}
	waitRoster(t, h, "t", 1)
	live.send(PostFrame{Type: FramePost, MessageID: "alive", Content: "still here"})
	if err := <-liveDone; err != nil {
		t.Fatalf("live peer dropped: %v", err)
	}
}

// TestServerLimitsAndClose: connections beyond MaxConns get 503; Close
// closes every socket, empties the rosters and waits for its goroutines.
func TestServerLimitsAndClose(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	base := runtime.NumGoroutine()
	s, err := NewServer(h, ServerOptions{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	a := dialRoom(t, s, bearer(s))
	a.hello("A", "t", "")
	b := dialRoom(t, s, bearer(s))
	b.hello("B", "t", "")
	waitRoster(t, h, "t", 2)
	if got := dialStatus(t, s.URL(), bearer(s)); got != http.StatusServiceUnavailable {
		t.Fatalf("third socket: %d, want 503", got)
	}
	b.ws.Close()
	waitRoster(t, h, "t", 1)
	testkit.Eventually(t, "the closed socket's slot to be free", func() bool {
		return dialStatus(t, s.URL(), bearer(s)) == http.StatusSwitchingProtocols
	})

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_ = a.ws.SetReadDeadline(time.Now().Add(waitFor))
	_, _, err = a.nextMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Fatalf("read after server close: %v, want 1001", err)
	}
	waitRoster(t, h, "t", 0)
	if err := s.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, _, err := websocket.DefaultDialer.Dial(s.URL(), bearer(s)); err == nil {
		t.Fatal("dial after close succeeded")
	}
	a.ws.Close()
	waitGoroutines(t, base)
}

// TestNewServerNilHub: a clear error.
func TestNewServerNilHub(t *testing.T) {
	t.Parallel()
	if _, err := NewServer(nil, ServerOptions{}); err == nil {
		t.Fatal("NewServer(nil) succeeded")
	}
}

// TestServerHookOverMiB: with the default limit a hook body over 1 MiB is
// refused with 413 and never read whole. A status report is dropped; an
// activity hook still reaches the seat as its event alone, so a
// PermissionRequest carrying a large file still holds the seat's posts.
func TestServerHookOverMiB(t *testing.T) {
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	s := newTestServer(t, h, ServerOptions{})
	big := `{"hook_event_name":"PermissionRequest","tool_name":"Write","tool_input":{"content":"` +
		strings.Repeat("x", 1<<20) + `"}}`
	for _, path := range []string{"/hooks/status/t/cc", "/hooks/activity/PermissionRequest/t/cc"} {
		req, err := http.NewRequest("POST", s.HooksURL()+path, strings.NewReader(big))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+s.Token())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("%s: status %d, want 413", path, resp.StatusCode)
		}
	}
	if _, ok := terms.lastReport("t", "cc", ReportStatus); ok {
		t.Fatal("an oversize status report reached the seat")
	}
	r, ok := terms.lastReport("t", "cc", ReportActivity)
	if !ok || r.Event != "PermissionRequest" || string(r.Body) != `{"hook_event_name":"PermissionRequest"}` {
		t.Fatalf("the seat got %+v %v, want the bare PermissionRequest", r, ok)
	}
	http.DefaultClient.CloseIdleConnections()
}
