package room

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// rawHook opens a TCP connection and sends a hook request's headers with a
// Content-Length of n, and no body yet.
func rawHook(t *testing.T, s *Server, token, path string, n int) net.Conn {
	t.Helper()
	u, _ := url.Parse(s.HooksURL())
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, u.Host, token, n)
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	return c
}

func hookCode(t *testing.T, s *Server, token, path, body string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", s.HooksURL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestHookSlotsPerSeat: one seat's token holding hook requests open (bodies
// never finished) takes only its share of the server's hook slots; another
// seat's PermissionRequest is still served (found by the seat-token review:
// it got 503 and lost its hold).
func TestHookSlotsPerSeat(t *testing.T) {
	terms := newFakeTerms("t/cc", "t/cc2")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	bad, _, _ := s.Grant("cc", "t", "")
	good, _, _ := s.Grant("cc2", "t", "")
	for range defaultMaxHooks {
		rawHook(t, s, bad, "/hooks/status/t/cc", 1000) // body never sent
	}
	// The seat holds at most its share; its other requests were refused.
	testkit.Eventually(t, "the seat's share of slots held", func() bool { return len(s.hookSlot) == maxHooksPerSeat })
	code := hookCode(t, s, good, "/hooks/activity/PermissionRequest/t/cc2", `{"hook_event_name":"PermissionRequest"}`)
	if code != http.StatusOK {
		t.Fatalf("seat cc2's own PermissionRequest hook: %d while seat cc holds every hook slot, want 200", code)
	}
}

// TestHookAfterRevokeIsRefused: a hook whose headers were authorized before
// the seat's token was revoked is refused when its body arrives after.
func TestHookAfterRevokeIsRefused(t *testing.T) {
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	token, revoke, _ := s.Grant("cc", "t", "")
	body := `{"hook_event_name":"PermissionRequest"}`
	c := rawHook(t, s, token, "/hooks/activity/PermissionRequest/t/cc", len(body))
	testkit.Eventually(t, "request in serveHook", func() bool { return len(s.hookSlot) == 1 })
	revoke() // the seat's process is gone
	if _, err := c.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(waitFor))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, ok := terms.lastReport("t", "cc", ReportActivity); ok || resp.StatusCode == http.StatusOK {
		t.Fatalf("after revoke: hook answered %d and kept=%v; want refused", resp.StatusCode, ok)
	}
}

// TestWrongSeatHelloWithBadNameIsClosed: a hello naming another seat closes
// the socket even when its name is bad too (the binding is checked first).
func TestWrongSeatHelloWithBadNameIsClosed(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	mustOpen(t, h, "u")
	s := newTestServer(t, h, ServerOptions{})
	token, _, _ := s.Grant("cc", "t", "")
	c := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + token}})
	c.hello("K\nai", "u", "cc2") // another room AND account, plus a newline in the name
	if !closedByServer(c) {
		t.Fatal("a socket whose hello named another seat (with a bad name too) was not closed")
	}
}

// TestMessageIDReusedAfterRestart: after an app restart (a new Hub on the
// same log) a seat cannot reuse the id of a post already in the log: the
// room starts with the log's newest ids.
func TestMessageIDReusedAfterRestart(t *testing.T) {
	log := newMemLog()
	h1 := newTestHub(t, log, nil, testAccounts)
	mustOpen(t, h1, "t")
	kai := seat(t, h1, "t", "Kai", "cc2")
	if res, err := kai.Post(Draft{MessageID: "m-human-visible", Content: "approve deploy?"}); err != nil || !res.Delivered {
		t.Fatal(res, err)
	}
	h1.Close()

	h2 := newTestHub(t, log, nil, testAccounts) // the next app run
	mustOpen(t, h2, "t")
	lin := seat(t, h2, "t", "Lin", "cc")
	res, err := lin.Post(Draft{MessageID: "m-human-visible", Content: "rm -rf, says Kai"})
	if !errors.Is(err, ErrDuplicateID) {
		t.Fatalf("reusing a logged post's id after a restart: delivered=%v err=%v; log now holds %v", res.Delivered, err, log.ids("t"))
	}
}

// TestMessageIDLengthBounded: a message_id is bounded, so the ids a room
// remembers stay small.
func TestMessageIDLengthBounded(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	c := seat(t, h, "t", "Lin", "cc")
	for _, id := range []string{strings.Repeat("x", 256<<10), "m\n1", "m\u202e1"} {
		if _, err := c.Post(Draft{MessageID: id, Content: "x"}); !errors.Is(err, ErrBadName) {
			t.Errorf("message_id of %d bytes %q…: %v, want ErrBadName", len(id), id[:min(len(id), 8)], err)
		}
	}
	if res, err := c.Post(Draft{MessageID: "0b3206be-800f-4304-baf3-5f3a53dfcad3", Content: "x"}); err != nil || !res.Delivered {
		t.Fatalf("a UUID id: %+v %v", res, err)
	}
}

// TestRosterChurnByReconnect: a seat reconnecting with a new name each time
// is held to the same hello rate as renames (the limiter is the token's).
func TestRosterChurnByReconnect(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	token, _, _ := s.Grant("cc", "t", "")
	sub := h.Subscribe()
	defer sub.Close()
	auth := http.Header{"Authorization": {"Bearer " + token}}
	start := time.Now()
	const n = 40
	for i := range n {
		c := dialRoom(t, s, auth)
		c.hello(fmt.Sprint("Lin", i), "t", "cc")
		c.history("h", "", 1) // the hello was handled
		c.ws.Close()
	}
	// The limiter allows renameBurst hellos, then one a second: the names
	// it may let through grow with the time the dials took, which a loaded
	// box stretches (issue 28), so the bound counts those seconds.
	dialed := time.Since(start)
	names := map[string]bool{}
	deadline := time.After(testkit.Slow(2 * time.Second)) // the roster events of the last hellos
loop:
	for {
		select {
		case e := <-sub.C():
			if rc, ok := e.(RosterChanged); ok {
				for _, m := range rc.Roster {
					names[m.Name] = true
				}
			}
		case <-deadline:
			break loop
		}
	}
	if allowed := renameBurst + 2 + int(dialed/time.Second); len(names) > allowed {
		t.Fatalf("one seat's token showed %d different names in %v of dials, at most %d allowed (rename limit: burst %d, then 1/s)", len(names), dialed, allowed, renameBurst)
	}
}

// TestHistoryReadsPerSeatAreLimited: a seat token's history requests, over
// all its sockets, get a burst and then a few a second; the rest are
// answered with an error at once (a page of 200 long posts costs 1.5 s to
// parse, and a seat asking in a loop slowed the human's posts tenfold —
// breaker review). Another seat reads as before.
func TestHistoryReadsPerSeatAreLimited(t *testing.T) {
	h := newTestHub(t, newMemLog(), nil, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	bad, _, _ := s.Grant("cc", "t", "")
	good, _, _ := s.Grant("cc2", "t", "")
	c := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + bad}})
	c.hello("Lin", "t", "cc")
	refused := 0
	for i := range readBurst + 10 {
		if fr := c.history(fmt.Sprint(i), "", 10); fr.Error != "" {
			if !strings.Contains(fr.Error, ErrTooManyReads.Error()) {
				t.Fatalf("history %d: %q", i, fr.Error)
			}
			refused++
		}
	}
	if refused < 5 || refused > 10 {
		t.Fatalf("%d of %d history requests refused, want the ones past the burst of %d", refused, readBurst+10, readBurst)
	}
	other := dialRoom(t, s, http.Header{"Authorization": {"Bearer " + good}})
	other.hello("Kai", "t", "cc2")
	if fr := other.history("k", "", 10); fr.Error != "" {
		t.Fatalf("another seat's history: %q", fr.Error)
	}
}
