package room

// Hostile input on the loopback server (docs/design.md §13, socket attacks): every
// attack is refused or timed out while a legitimate participant keeps
// posting, and the attack's effect on that participant is measured.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// hostileTimeouts are the server's header and hook timeouts in the hostile
// tests. The production defaults (5 s, 10 s) make each timed-out attack last
// as long; `make test` proves the same mechanism with 1 s and 2 s, and
// `make soak` (PULLCEPT_SOAK set) runs it with the defaults.
func hostileTimeouts() ServerOptions {
	if os.Getenv("PULLCEPT_SOAK") != "" {
		return ServerOptions{}
	}
	return ServerOptions{ReadHeaderTimeout: time.Second, HookReadTimeout: 2 * time.Second}
}

// steadyPoster is the legitimate participant: one socket posting every
// posterEvery and recording when each post_result came back.
type steadyPoster struct {
	delivered atomic.Int64
	lastAt    atomic.Int64 // unix nanos of the latest answer
	maxGap    atomic.Int64 // longest wait for an answer or between answers (ns)
	err       atomic.Pointer[error]
	stop      chan struct{}
	done      chan struct{}
}

// posterEvery paces the legitimate participant: 200 posts/s, far more than
// a person or an agent says, so a stall of a few milliseconds shows.
const posterEvery = 5 * time.Millisecond

// startPoster seats a socket as "Lin" (account cc) in topic t of s and posts
// until the test ends, passing the newest post it knows as last_seen. A floor
// rejection (another participant spoke) is read and the post sent again;
// any other answer than delivered or rejected-with-missed is a failure.
func startPoster(t *testing.T, s *Server, h *Hub) *steadyPoster {
	t.Helper()
	c := dialRoom(t, s, bearer(s))
	c.hello("Lin", "t", "cc")
	waitRoster(t, h, "t", 1)
	p := &steadyPoster{stop: make(chan struct{}), done: make(chan struct{})}
	p.lastAt.Store(time.Now().UnixNano())
	go func() {
		defer close(p.done)
		defer func() {
			if r := recover(); r != nil {
				err := fmt.Errorf("poster panicked: %v", r)
				p.err.Store(&err)
			}
		}()
		last := ""
		for n := 0; ; n++ {
			select {
			case <-p.stop:
				return
			case <-time.After(posterEvery):
			}
			id := fmt.Sprintf("steady-%d", n)
			fr, err := c.tryPost(id, "still here", last)
			if err == nil && fr.Error != "" {
				err = fmt.Errorf("post %s: %s", id, fr.Error)
			}
			if err == nil && !fr.Delivered && len(fr.Missed) == 0 {
				err = fmt.Errorf("post %s rejected without missed posts", id)
			}
			if err != nil {
				p.err.Store(&err)
				return
			}
			now := time.Now().UnixNano()
			if gap := now - p.lastAt.Swap(now); gap > p.maxGap.Load() {
				p.maxGap.Store(gap)
			}
			if !fr.Delivered {
				// Someone else spoke (a participant joining mid-attack):
				// read it, then speak again.
				last = fr.Missed[len(fr.Missed)-1].MessageID
				continue
			}
			last = id
			p.delivered.Add(1)
		}
	}()
	t.Cleanup(func() {
		close(p.stop)
		<-p.done
	})
	return p
}

// posterStall bounds the longest the legitimate participant may wait for an
// answer during an attack. It is not a speed check (posts take well under a
// millisecond, and a shared 2-core box running -race can pause for seconds):
// it catches a room that stopped answering for the length of an attack.
var posterStall = waitFor

// during runs attack and checks that the participant kept posting: its
// posts were answered throughout (no wait longer than posterStall) and at
// least one was delivered after the attack began — during it, or for an
// attack shorter than one round trip on a loaded box, right after it. The
// posts delivered meanwhile and the longest wait are reported.
func (p *steadyPoster) during(t *testing.T, what string, attack func()) {
	t.Helper()
	p.maxGap.Store(0)
	before := p.delivered.Load()
	start := time.Now()
	attack()
	// A stall that is still going on shows as the time since the last answer.
	if gap := time.Now().UnixNano() - p.lastAt.Load(); gap > p.maxGap.Load() {
		p.maxGap.Store(gap)
	}
	took := time.Since(start)
	n := p.delivered.Load() - before
	testkit.Eventually(t, what+": a post of the legitimate participant delivered since the attack began", func() bool {
		return p.delivered.Load() != before || p.err.Load() != nil
	})
	if perr := p.err.Load(); perr != nil {
		t.Fatalf("%s: the legitimate participant failed: %v", what, *perr)
	}
	gap := time.Duration(p.maxGap.Load())
	t.Logf("%s: took %v; the legitimate participant got %d posts delivered meanwhile (%.0f/s), longest wait %v",
		what, took.Round(time.Millisecond), n, float64(n)/took.Seconds(), gap.Round(time.Microsecond))
	if gap > posterStall {
		t.Fatalf("%s: the legitimate participant waited %v for an answer", what, gap)
	}
}

// reportPanic, deferred first thing in a test goroutine, turns its panic
// into a test error instead of a crash of the whole test binary.
func reportPanic(t testing.TB) {
	if r := recover(); r != nil {
		t.Errorf("goroutine panicked: %v", r)
	}
}

// hostileRig is a server on a hub with room t, its Host port and the poster.
type hostileRig struct {
	h      *Hub
	s      *Server
	port   string
	poster *steadyPoster
}

func newHostileRig(t *testing.T) *hostileRig {
	t.Helper()
	return newHostileRigWith(t, hostileTimeouts())
}

func newHostileRigWith(t *testing.T, opts ServerOptions) *hostileRig {
	t.Helper()
	h := newTestHub(t, newMemLog(), newFakeTerms("t/cc"), testAccounts)
	mustOpen(t, h, "t") // no admin: the roster is only the sockets
	s := newTestServer(t, h, opts)
	return &hostileRig{h: h, s: s, port: strings.TrimPrefix(s.HooksURL(), "http://127.0.0.1:"), poster: startPoster(t, s, h)}
}

// TestHostileHandshakes: floods of handshakes with no token, a wrong token,
// the token only in the query string, a foreign Origin, a same-host Origin
// and a DNS-rebinding Host are each refused with the right status, while the
// participant keeps posting.
func TestHostileHandshakes(t *testing.T) {
	r := newHostileRig(t)
	tok := r.s.Token()
	with := func(kv ...string) http.Header {
		hd := bearer(r.s)
		for i := 0; i < len(kv); i += 2 {
			hd.Set(kv[i], kv[i+1])
		}
		return hd
	}
	// A wrong token of the right length and one differing in the last byte.
	near := tok[:len(tok)-1] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", tok[len(tok)-1])+1)%16])
	attacks := []struct {
		name string
		url  string
		hdr  http.Header
		want int
	}{
		{"no token", r.s.URL(), nil, http.StatusUnauthorized},
		{"wrong token", r.s.URL(), http.Header{"Authorization": {"Bearer " + strings.Repeat("f", len(tok))}}, http.StatusUnauthorized},
		{"token off by one byte", r.s.URL(), http.Header{"Authorization": {"Bearer " + near}}, http.StatusUnauthorized},
		{"token in the query string", r.s.URL() + "?token=" + url.QueryEscape(tok), nil, http.StatusUnauthorized},
		{"foreign Origin", r.s.URL(), with("Origin", "https://evil.example"), http.StatusForbidden},
		{"same-host Origin", r.s.URL(), with("Origin", "http://127.0.0.1:"+r.port), http.StatusForbidden},
		{"DNS-rebinding Host", r.s.URL(), with("Host", "evil.example:"+r.port), http.StatusForbidden},
		{"rebinding Host without port", r.s.URL(), with("Host", "localhost"), http.StatusForbidden},
	}
	// floodEach handshakes per attack, floodWorkers at a time: enough to
	// show the refusals are cheap and never disturb the room.
	const floodEach, floodWorkers = 200, 8
	for _, a := range attacks {
		r.poster.during(t, a.name, func() {
			var wg sync.WaitGroup
			var bad atomic.Pointer[string]
			var next atomic.Int64
			for range floodWorkers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer reportPanic(t)
					d := websocket.Dialer{HandshakeTimeout: waitFor}
					for next.Add(1) <= floodEach {
						ws, resp, err := d.Dial(a.url, a.hdr)
						got := 0
						if err == nil {
							ws.Close()
							got = http.StatusSwitchingProtocols
						} else if resp != nil {
							got = resp.StatusCode
						}
						if got != a.want {
							msg := fmt.Sprintf("status %d (%v), want %d", got, err, a.want)
							bad.Store(&msg)
							return
						}
					}
				}()
			}
			wg.Wait()
			if m := bad.Load(); m != nil {
				t.Fatalf("%s: %s", a.name, *m)
			}
		})
	}
}

// TestHostileHugeFrame: a client streams one 100 MB message (NextWriter, one
// 64 KiB buffer reused, so the client never holds it). The server stops at
// its 1 MiB read limit and drops the socket: the write fails long before
// 100 MB, the process never allocated anything near the message's size, the
// connection left the roster, and the participant kept posting.
func TestHostileHugeFrame(t *testing.T) {
	r := newHostileRig(t)
	const huge = 100 << 20
	chunk := []byte(strings.Repeat("x", 64<<10))
	var written int64
	var werr error
	var allocated uint64
	r.poster.during(t, "100 MB frame", func() {
		c := dialRoom(t, r.s, bearer(r.s))
		c.hello("Mallory", "t", "cx")
		waitRoster(t, r.h, "t", 2)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_ = c.ws.SetWriteDeadline(time.Now().Add(waitFor))
		w, err := c.ws.NextWriter(websocket.TextMessage)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, `{"type":"post","message_id":"huge","content":"`); err != nil {
			t.Fatal(err)
		}
		for written < huge {
			n, err := w.Write(chunk)
			written += int64(n)
			if err != nil {
				werr = err
				break
			}
		}
		if werr == nil {
			werr = w.Close()
		}
		runtime.ReadMemStats(&m1)
		allocated = m1.TotalAlloc - m0.TotalAlloc
		waitRoster(t, r.h, "t", 1)
	})
	t.Logf("100 MB frame: the write failed after %.1f MB (%v); %.1f MB allocated meanwhile", float64(written)/(1<<20), werr, float64(allocated)/(1<<20))
	var ne net.Error
	if werr == nil || errors.As(werr, &ne) && ne.Timeout() {
		t.Fatalf("streaming 100 MB: %v; the server should have dropped the socket at its read limit", werr)
	}
	// 1 MiB of limit plus both ends' socket buffers (a few MB on loopback).
	if written > 32<<20 {
		t.Fatalf("the server took %d MB before dropping the socket", written>>20)
	}
	if allocated > 64<<20 {
		t.Fatalf("%d MB allocated while a 100 MB frame was refused: something buffered it", allocated>>20)
	}
}

// TestHostileSlowloris: hook requests whose headers, or whose body, arrive
// one byte at a time are each timed out by the server (ReadHeaderTimeout,
// HookReadTimeout) — more of them than there are hook slots — while the
// participant keeps posting; afterwards a proper hook is served again.
func TestHostileSlowloris(t *testing.T) {
	r := newHostileRig(t)
	opts := r.s.opts
	const each = defaultMaxHooks + 8 // more than every hook slot
	type result struct {
		kind string
		took time.Duration
		resp string
		err  error
	}
	results := make(chan result, 2*each)
	auth := "Authorization: Bearer " + r.s.Token() + "\r\n"
	head := "POST /hooks/status/t/cc HTTP/1.1\r\nHost: 127.0.0.1:" + r.port + "\r\n"
	trickle := func(kind, prefix, drip string) {
		start := time.Now()
		conn, err := net.Dial("tcp", "127.0.0.1:"+r.port)
		if err != nil {
			results <- result{kind: kind, err: err}
			return
		}
		defer conn.Close()
		ended := make(chan string, 1)
		go func() {
			defer func() {
				if rec := recover(); rec != nil {
					ended <- fmt.Sprint("reader panicked: ", rec)
				}
			}()
			// The server answers (408/400) or just closes; either ends it.
			_ = conn.SetReadDeadline(time.Now().Add(testkit.Slow(4 * opts.HookReadTimeout)))
			line, _ := bufio.NewReader(conn).ReadString('\n')
			ended <- strings.TrimSpace(line)
		}()
		if _, err := io.WriteString(conn, prefix); err != nil {
			results <- result{kind: kind, err: err}
			return
		}
		// One byte every 100 ms: each byte alone would reset a per-read
		// timeout, so only a deadline on the whole request ends it.
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case line := <-ended:
				results <- result{kind: kind, took: time.Since(start), resp: line}
				return
			case <-tick.C:
				// A write may fail once the server closed; the read ends then.
				_, _ = conn.Write([]byte{drip[i%len(drip)]})
			}
		}
	}
	r.poster.during(t, fmt.Sprintf("%d slow-header and %d slow-body hook requests", each, each), func() {
		var wg sync.WaitGroup
		for range each {
			wg.Add(2)
			go func() {
				defer wg.Done()
				defer reportPanic(t)
				trickle("slow headers", head, "X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
			}()
			go func() {
				defer wg.Done()
				defer reportPanic(t)
				trickle("slow body", head+auth+"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n", `{"pad":"`)
			}()
		}
		wg.Wait()
	})
	close(results)
	worst := map[string]time.Duration{}
	for res := range results {
		if res.err != nil {
			t.Fatalf("%s: %v", res.kind, res.err)
		}
		limit := opts.ReadHeaderTimeout
		if res.kind == "slow body" {
			limit = opts.HookReadTimeout
		}
		// Ended by the server's timeout, not by our read deadline (4× the
		// hook timeout): the margin is for scheduling on a loaded box.
		if res.took > limit+waitFor {
			t.Fatalf("%s: ended after %v, the timeout is %v", res.kind, res.took, limit)
		}
		if strings.Contains(res.resp, " 200 ") {
			t.Fatalf("%s: a trickled request was accepted: %q", res.kind, res.resp)
		}
		worst[res.kind] = max(worst[res.kind], res.took)
	}
	t.Logf("slowloris: slowest slow-header request ended after %v (timeout %v), slowest slow-body after %v (timeout %v)",
		worst["slow headers"].Round(time.Millisecond), opts.ReadHeaderTimeout, worst["slow body"].Round(time.Millisecond), opts.HookReadTimeout)

	// Every hook slot is free again: a proper hook is served.
	req, err := http.NewRequest(http.MethodPost, r.s.HooksURL()+"/hooks/status/t/cc", strings.NewReader(`{"ok":true}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = bearer(r.s)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("hook after the slowloris: %d", resp.StatusCode)
	}
}

// TestHostileAdminHello: a socket whose hello names the admin's account,
// the admin's own name, and a role field of its own is refused: it never
// sits in the room, so it cannot post as the human — not even a post the
// log would keep under the admin's account and history would read back as
// the human's (docs/design.md §4: admin only from the UI entry point).
func TestHostileAdminHello(t *testing.T) {
	terms := newFakeTerms("t/cx")
	h := newTestHub(t, newMemLog(), terms, testAccounts)
	h.SetAdmin(Hello{Name: "Master", AccountID: "me"})
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	witness := dialRoom(t, s, bearer(s))
	witness.hello("Kai", "t", "cx")
	waitRoster(t, h, "t", 2)
	c := dialRoom(t, s, bearer(s))
	c.sendRaw([]byte(`{"type":"hello","protocol":12,"name":"Master","room":"t","account_id":"me","role":"admin","from_app":true}`))
	c.sendRaw([]byte(`{"type":"post","message_id":"forged","content":"I am the admin","role":"admin","speaker":"Master"}`))
	if fr := c.postResult("forged"); fr.Delivered || !strings.Contains(fr.Error, ErrNoRoom.Error()) {
		t.Fatalf("post_result %+v, want an error: the hello was refused", fr)
	}
	roster, err := h.Roster("t")
	if err != nil || len(roster) != 2 {
		t.Fatalf("roster %+v %v: the impostor sits in it", roster, err)
	}
	if hist, _, err := h.History("t", "", 10); err != nil || len(hist) != 0 {
		t.Fatalf("history %+v %v: the forged post was kept", hist, err)
	}
}
