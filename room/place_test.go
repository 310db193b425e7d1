package room

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestOneMemberALaunch: a second sidecar of one seat launch (a CLI's child
// agent, which inherits the seat's token) is refused with the reason and
// the account stays one member; the first sidecar's reconnect replaces its
// older connection instead of adding a member; once the first is gone
// longer than placeHold another sidecar (a restarted MCP server) gets the
// place. Before: every sidecar of the launch joined as one more member of
// the account.
func TestOneMemberALaunch(t *testing.T) {
	clock := &testClock{t: fixedNow()}
	h, err := NewHub(HubOptions{Accounts: testAccounts, Now: clock.now, NewID: counterIDs(), Terminals: newFakeTerms("t/cc")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{})
	token, _, err := s.Grant("cc", "t", "pty-1")
	if err != nil {
		t.Fatal(err)
	}
	auth := http.Header{"Authorization": {"Bearer " + token}}
	hello := func(c *client, instance string) {
		c.send(HelloFrame{Type: FrameHello, Hello: Hello{Protocol: Protocol, Name: "Lin", Room: "t", AccountID: "cc", Instance: instance}})
	}
	members := func() int {
		r, _ := h.Roster("t")
		n := 0
		for _, m := range r {
			if m.AccountID == "cc" {
				n++
			}
		}
		return n
	}

	parent := dialRoom(t, s, auth)
	hello(parent, "parent")
	testkit.Eventually(t, "the parent's sidecar in the roster", func() bool { return members() == 1 })

	child := dialRoom(t, s, auth)
	hello(child, "child")
	if why := closeReason(child); !strings.Contains(why, "a child agent shares its parent's seat") {
		t.Errorf("the child's sidecar: closed with %q, want the reason", why)
	}
	if n := members(); n != 1 {
		t.Fatalf("the child's sidecar: %d members of the account, want 1", n)
	}
	if fr := parent.post("m1", "still here", ""); !fr.Delivered {
		t.Fatalf("the parent after the child's refusal: %+v", fr)
	}

	// The parent reconnects while its old socket lingers: still one member,
	// and the old socket is out of the room.
	again := dialRoom(t, s, auth)
	hello(again, "parent")
	if fr := again.post("m2", "reconnected", ""); !fr.Delivered {
		t.Fatalf("the reconnected parent: %+v", fr)
	}
	if n := members(); n != 1 {
		t.Fatalf("after the reconnect: %d members of the account, want 1", n)
	}
	if fr := parent.post("m3", "stale", ""); fr.Delivered || fr.Error == "" {
		t.Errorf("the replaced socket still posts: %+v", fr)
	}

	// The parent's sidecar is gone: its place waits placeHold for it, then
	// another sidecar (its MCP server restarted) takes it.
	_ = parent.ws.Close()
	_ = again.ws.Close()
	testkit.Eventually(t, "the parent leaves the roster", func() bool { return members() == 0 })
	early := dialRoom(t, s, auth)
	hello(early, "restarted")
	if why := closeReason(early); !strings.Contains(why, "a child agent shares its parent's seat") {
		t.Errorf("a new sidecar within placeHold: closed with %q, want the refusal", why)
	}
	clock.add(placeHold)
	late := dialRoom(t, s, auth)
	hello(late, "restarted")
	if fr := late.post("m4", "back", ""); !fr.Delivered {
		t.Fatalf("a new sidecar after placeHold: %+v", fr)
	}
	if n := members(); n != 1 {
		t.Errorf("after the restart: %d members of the account, want 1", n)
	}
}

// TestHelloInstanceIsChecked: a hello's instance id is a short plain word.
func TestHelloInstanceIsChecked(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{strings.Repeat("a", maxInstanceBytes+1), "a b", "a\nb", "ü"} {
		if err := checkHello(Hello{Name: "x", Room: "t", Instance: bad}); err == nil {
			t.Errorf("instance %q accepted", bad)
		}
	}
	if err := checkHello(Hello{Name: "x", Room: "t", Instance: "0123abcd-EF_9"}); err != nil {
		t.Errorf("a plain instance refused: %v", err)
	}
}

// testClock is a clock a test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// closeReason reads c until the server closes it and returns the close
// frame's text ("" when it ended otherwise).
func closeReason(c *client) string {
	_ = c.ws.SetReadDeadline(time.Now().Add(waitFor))
	for {
		_, _, err := c.ws.ReadMessage()
		if err == nil {
			continue
		}
		if ce, ok := err.(*websocket.CloseError); ok {
			return ce.Text
		}
		return ""
	}
}
