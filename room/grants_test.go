package room

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestSeatTokens: a seat's token sits only as its own account in its own
// room and reports hooks for that seat only; it can never be the admin or
// another seat, or join another topic. Revoked, it opens nothing and its
// socket is closed. (Before: one token per run, so any process a seat
// started could wear another seat, join any room, and post as the admin's
// account.)
func TestSeatTokens(t *testing.T) {
	terms := newFakeTerms("t/cc", "t/cc2", "u/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	mustOpen(t, h, "u")
	s := newTestServer(t, h, ServerOptions{})
	token, revoke, err := s.Grant("cc", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	auth := http.Header{"Authorization": {"Bearer " + token}}

	// Its own seat works.
	own := dialRoom(t, s, auth)
	own.hello("Lin", "t", "cc")
	if fr := own.post("m-own", "hello", ""); !fr.Delivered {
		t.Fatalf("own post: %+v", fr)
	}
	// Another account, the admin's, or another room: the socket is closed
	// and nothing joins.
	for _, hl := range [][3]string{{"Kai", "t", "cc2"}, {"Master", "t", "me"}, {"Lin", "u", "cc"}} {
		c := dialRoom(t, s, auth)
		c.hello(hl[0], hl[1], hl[2])
		if !closedByServer(c) {
			t.Errorf("hello %v with another seat's token: the socket stayed open", hl)
		}
	}
	for _, topic := range []string{"t", "u"} {
		r, _ := h.Roster(topic)
		for _, m := range r {
			if m.AccountID != "cc" || topic != "t" {
				t.Errorf("room %s has %+v from a refused hello", topic, m)
			}
		}
	}
	// Hooks: its own seat only.
	hook := func(path string) int {
		req, _ := http.NewRequest("POST", s.HooksURL()+path, strings.NewReader(`{"hook_event_name":"Stop"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if code := hook("/hooks/activity/Stop/t/cc"); code != 200 {
		t.Errorf("own hook: %d", code)
	}
	for _, p := range []string{"/hooks/activity/Stop/t/cc2", "/hooks/activity/Stop/u/cc", "/hooks/status/t/cc2"} {
		if code := hook(p); code != http.StatusForbidden {
			t.Errorf("hook %s with another seat's token: %d, want 403", p, code)
		}
	}
	if _, ok := terms.lastReport("t", "cc2", ReportActivity); ok {
		t.Error("a hook for another seat was kept")
	}

	// Revoked: its socket is closed, and the token opens nothing more.
	revoke()
	revoke() // idempotent
	if !closedByServer(own) {
		t.Error("the revoked token's socket stayed open")
	}
	if code := dialStatus(t, s.URL(), auth); code != http.StatusUnauthorized {
		t.Errorf("dial with a revoked token: %d, want 401", code)
	}
	if code := hook("/hooks/activity/Stop/t/cc"); code != http.StatusUnauthorized {
		t.Errorf("hook with a revoked token: %d, want 401", code)
	}
	if _, _, err := s.Grant("", "t", ""); err == nil {
		t.Error("a token for no account was granted")
	}
	http.DefaultClient.CloseIdleConnections()
}

// closedByServer reads c until it ends and reports whether the server
// closed it (not a read timeout).
func closedByServer(c *client) bool {
	_ = c.ws.SetReadDeadline(time.Now().Add(waitFor))
	for {
		_, _, err := c.ws.ReadMessage()
		if err == nil {
			continue
		}
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
}

// TestUnauthorizedIsClosed: a request without the token gets 401 and its
// connection closed, so it cannot be kept alive and reused to hold a file
// descriptor.
func TestUnauthorizedIsClosed(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	s := newTestServer(t, h, ServerOptions{})
	u, err := url.Parse(s.HooksURL())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "POST /hooks/status/t/cc HTTP/1.1\r\nHost: " + u.Host + "\r\nAuthorization: Bearer nope\r\nContent-Length: 2\r\n\r\n{}"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(waitFor))
	b, err := io.ReadAll(conn) // ends only when the server closes
	if err != nil {
		t.Fatalf("the connection stayed open after 401: %v", err)
	}
	if !strings.HasPrefix(string(b), "HTTP/1.1 401") {
		t.Fatalf("answer %q", b)
	}
}

// TestSendQueueBoundedByBytes: a socket that asks for history and never
// reads its answers is closed once its queued answers pass the byte bound
// (8 sockets doing so held 3 GB before); one answer is always sent.
func TestSendQueueBoundedByBytes(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	poster := seat(t, h, "t", "Kai", "cc2")
	last := ""
	for i := range 100 {
		last = say(t, poster, fmt.Sprintf("%d %s", i, strings.Repeat("x", 8<<10)), last).MessageID
	}
	// A long write wait: the server must give up on the peer by the queue's
	// bound, not because a write timed out.
	s := newTestServer(t, h, ServerOptions{SendQueueBytes: 64 << 10, WriteWait: 5 * time.Minute})
	// The peer's own receive buffer is small and fixed: Linux grows a
	// socket's up to tcp_rmem's max (32 MiB on the CI box), and a loaded
	// run gave it the time to take all 64 answers without the server ever
	// queuing one (issue 28), which proves nothing about the bound.
	c := dialRoomSmallBuffer(t, s, bearer(s), 64<<10)
	c.hello("Lin", "t", "cc")
	for i := range 64 {
		b, _ := json.Marshal(HistoryFrame{Type: FrameHistory, RequestID: fmt.Sprint("h", i), Limit: 200})
		if c.ws.WriteMessage(websocket.TextMessage, b) != nil {
			break // already closed by the server
		}
	}
	// The peer reads nothing until the server has given up on it.
	testkit.EventuallyWithin(t, testkit.Slow(30*time.Second), "the server closed the socket that does not read", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sockets) == 0
	})
	answers := 0
	_ = c.ws.SetReadDeadline(time.Now().Add(waitFor))
	for {
		_, m, err := c.nextMessage()
		if err != nil {
			break
		}
		// Each answer must be the ~800 KiB history this test is about; a
		// small refusal instead would let all 64 through and say nothing
		// of the bound.
		var res HistoryResultFrame
		if err := json.Unmarshal(m, &res); err != nil || res.Error != "" || len(res.Posts) == 0 {
			t.Fatalf("answer %d is not a history of the posts (%d bytes, %v): %.200s", answers, len(m), err, m)
		}
		answers++
	}
	// What the kernel's socket buffers took went out; the queue beyond
	// them stayed under the bound, and the socket was closed long before
	// its 64 answers.
	if answers >= 64 {
		t.Fatalf("%d answers of ~800 KiB went out with a 64 KiB queue bound", answers)
	}
	t.Logf("%d answers went out before the close", answers)
}

// TestSocketsPerSeatAreBounded: one seat token holds at most
// maxSocketsPerSeat sockets, so one seat cannot take every socket and lock
// other seats' sidecars out; another seat still connects.
func TestSocketsPerSeatAreBounded(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{MaxConns: 8})
	token, _, err := s.Grant("cc", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	auth := http.Header{"Authorization": {"Bearer " + token}}
	for range maxSocketsPerSeat {
		dialRoom(t, s, auth)
	}
	testkit.Eventually(t, "the seat's sockets registered", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sockets) == maxSocketsPerSeat
	})
	if code := dialStatus(t, s.URL(), auth); code != http.StatusServiceUnavailable {
		t.Fatalf("a seat token's socket beyond its share: %d, want 503", code)
	}
	other, _, err := s.Grant("cc2", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	c := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + other}})
	c.hello("Kai", "t", "cc2")
	if fr := c.post("m-kai", "still room for me", ""); !fr.Delivered {
		t.Fatalf("another seat's post: %+v", fr)
	}
}

// TestRefusedPostHasNoDelivered: a post the room refuses (here: from a
// connection without a room) is answered with an error and no "delivered"
// key at all — "delivered": false is the floor's judgement, and with no
// missed posts it would read as "you missed nothing".
func TestRefusedPostHasNoDelivered(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	s := newTestServer(t, h, ServerOptions{})
	c := dialRoom(t, s, bearer(s))
	c.send(PostFrame{Type: FramePost, MessageID: "m-1", Content: "hello"})
	raw := string(c.read())
	if strings.Contains(raw, `"delivered"`) || !strings.Contains(raw, `"error"`) || !strings.Contains(raw, ErrNoRoom.Error()) {
		t.Fatalf("refused post answered %s", raw)
	}
}

// dialRoomSmallBuffer is dialRoom with the client's socket receive buffer
// set to size bytes (SO_RCVBUF, which also stops the kernel growing it).
func dialRoomSmallBuffer(t *testing.T, s *Server, hdr http.Header, size int) *client {
	t.Helper()
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if tc, ok := c.(*net.TCPConn); ok {
			if err := tc.SetReadBuffer(size); err != nil {
				c.Close()
				return nil, err
			}
		}
		return c, nil
	}}
	ws, _, err := d.Dial(s.URL(), hdr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}
}
