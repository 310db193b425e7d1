package room

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestHostileConnectionFlood: a local user without the token opens far
// more connections than the server keeps idle — some silent, some stopped
// halfway through their request line, some kept alive after a 401 — and
// holds them (19 990 such connections exhausted Pullcept's file
// descriptors: a post was typed but not logged and seats could not start).
// The server holds at most MaxIdleConns of them, closing the oldest; while
// the flood is held a new seat connects, posts and reports a hook, and
// every post the participant got delivered is in the log.
func TestHostileConnectionFlood(t *testing.T) {
	// Header timeout far beyond the test: only the cap may close the flood.
	r := newHostileRigWith(t, ServerOptions{ReadHeaderTimeout: time.Minute, HookReadTimeout: time.Minute})
	const flood = 3000
	limit := r.s.opts.MaxIdleConns
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	r.poster.during(t, fmt.Sprintf("%d connections held without the token", flood), func() {
		for i := range flood {
			c, err := net.Dial("tcp", "127.0.0.1:"+r.port)
			if err != nil {
				t.Fatalf("dial %d: %v", i, err)
			}
			conns = append(conns, c)
			switch i % 3 {
			case 1: // stopped halfway through its request line
				_, _ = io.WriteString(c, "GET /room HTT")
			case 2: // keeps asking without the token
				_, _ = io.WriteString(c, "POST /hooks/status/t/cc HTTP/1.1\r\nHost: 127.0.0.1:"+r.port+"\r\nContent-Length: 2\r\n\r\n{}")
			}
		}
		if held := r.s.guard.held(); held > limit {
			t.Fatalf("the server holds %d idle connections, cap %d", held, limit)
		}

		// A new seat is not locked out: its socket and its hook get through.
		token, _, err := r.s.Grant("cc2", "t", "")
		if err != nil {
			t.Fatal(err)
		}
		auth := http.Header{"Authorization": {"Bearer " + token}}
		c := dialRoom(t, r.s, auth)
		c.hello("Kai", "t", "cc2")
		if fr := c.post("m-kai", "through the flood", ""); !fr.Delivered && len(fr.Missed) == 0 {
			t.Fatalf("the new seat's post: %+v", fr)
		}
		req, err := http.NewRequest(http.MethodPost, r.s.HooksURL()+"/hooks/activity/Stop/t/cc2", strings.NewReader(`{"hook_event_name":"Stop"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = auth
		req.Close = true
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("the new seat's hook: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotFound {
			// 404: no running seat takes the report in this rig; it passed auth.
			t.Fatalf("the new seat's hook: %d", resp.StatusCode)
		}
	})

	// The flood was closed by the server, all but at most the cap.
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer reportPanic(t)
			// How long a connection the server closed may take to read as
			// closed (scaled: the server's closing goroutine may lag).
			_ = c.SetReadDeadline(time.Now().Add(testkit.Slow(300 * time.Millisecond)))
			_, err := io.ReadAll(c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("connection flood: %d held by the attacker, %d left open by the server (cap %d), %d closed to stay under it",
		flood, open, limit, r.s.guard.evicted.Load())
	if open > limit {
		t.Fatalf("%d of the flood's connections were left open, cap %d", open, limit)
	}
	logged := len(r.h.log.(*memLog).ids("t"))
	if d := int(r.poster.delivered.Load()); logged < d {
		t.Fatalf("%d posts delivered, %d logged", d, logged)
	}
}

// held is how many idle connections are open now.
func (g *connGuard) held() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.idle.Len()
}

// TestHostileUnreadBodies: requests that send their headers and a
// Content-Length but never the body — without the token, with a foreign
// Host, with a seat token for another seat's hook, to an unknown path —
// are answered and their connections closed at once. Before, net/http
// kept each open to drain the body until the read timeout; such a
// connection is active, not idle, so the idle cap never counted it, and
// 2 000 of them held 1 900 fds for 10 s (from a breaker review).
func TestHostileUnreadBodies(t *testing.T) {
	// "At once": each connection is read until closed for 2 s, far below
	// the read timeouts of a minute; both are scaled alike.
	r := newHostileRigWith(t, ServerOptions{ReadHeaderTimeout: testkit.Slow(time.Minute), HookReadTimeout: testkit.Slow(time.Minute)})
	unreadBodyWait := testkit.Slow(2 * time.Second)
	token, _, err := r.s.Grant("cc2", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{
		"POST /hooks/status/t/cc HTTP/1.1\r\nHost: 127.0.0.1:" + r.port + "\r\n",
		"POST /hooks/status/t/cc HTTP/1.1\r\nHost: evil.example:" + r.port + "\r\nAuthorization: Bearer " + token + "\r\n",
		"POST /hooks/status/t/cc HTTP/1.1\r\nHost: 127.0.0.1:" + r.port + "\r\nAuthorization: Bearer " + token + "\r\n",
		"POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1:" + r.port + "\r\nAuthorization: Bearer " + token + "\r\n",
	}
	const n = 2000
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	r.poster.during(t, fmt.Sprintf("%d requests whose body never comes", n), func() {
		for i := range n {
			c, err := net.Dial("tcp", "127.0.0.1:"+r.port)
			if err != nil {
				t.Fatalf("dial %d: %v", i, err)
			}
			conns = append(conns, c)
			_, _ = io.WriteString(c, kinds[i%len(kinds)]+"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
		}
	})
	var open atomic.Int64
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer reportPanic(t)
			_ = c.SetReadDeadline(time.Now().Add(unreadBodyWait))
			_, err := io.ReadAll(c) // the answer, then EOF when closed
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				open.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("unread bodies: %d of %d connections still open %v after their answer", open.Load(), n, unreadBodyWait)
	if open.Load() > 0 {
		t.Fatalf("%d connections kept open waiting for a body", open.Load())
	}
}
