//go:build linux || darwin

package codex

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestGateLetsOnlyTheTUIsTree: the gate proxies a WebSocket to the server
// with the token added, for the TUI's process tree only; a process outside
// it gets 403 and the server never sees it. A connection that comes before
// the TUI's pid is known waits for it.
func TestGateLetsOnlyTheTUIsTree(t *testing.T) {
	t.Parallel()
	var up websocket.Upgrader
	seen := make(chan string, 4)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.URL.Path + " " + r.Header.Get("Authorization")
		if r.Header.Get("Authorization") != "Bearer cap-token" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		_, b, err := c.ReadMessage()
		if err == nil {
			_ = c.WriteMessage(websocket.TextMessage, append([]byte("echo "), b...))
		}
	}))
	defer backend.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(backend.URL, "http://"))
	g, err := openGate("", port, "cap-token", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", g.path)
	}}

	other := exec.Command("sleep", "600")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	type dialed struct {
		c    *websocket.Conn
		resp *http.Response
		err  error
	}
	early := make(chan dialed, 1)
	go func() { // before the root is known: it waits
		c, resp, err := d.Dial("ws://localhost/rpc", nil)
		early <- dialed{c, resp, err}
	}()
	g.setRoot(other.Process.Pid) // the TUI is another process: this test is outside its tree
	got := <-early
	if got.err == nil {
		got.c.Close()
		t.Fatal("a process outside the TUI's tree attached")
	}
	// Refused either way: 403 when it came before the TUI's pid was known,
	// closed at accept after.
	if got.resp != nil && got.resp.StatusCode != http.StatusForbidden {
		t.Fatalf("outside the tree: %v %+v, want 403 or a closed connection", got.err, got.resp)
	}
	if _, _, err := d.Dial("ws://localhost/rpc", nil); err == nil {
		t.Fatal("a process outside the TUI's tree attached once its pid was known")
	}
	select {
	case s := <-seen:
		t.Fatalf("the server saw a refused connection: %s", s)
	default:
	}

	g2, err := openGate("", port, "cap-token", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer g2.close()
	g2.setRoot(os.Getpid())
	d.NetDialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", g2.path)
	}
	c, _, err := d.Dial("ws://localhost/rpc", nil)
	if err != nil {
		t.Fatalf("the TUI's own process: %v", err)
	}
	defer c.Close()
	if s := <-seen; s != "/rpc Bearer cap-token" {
		t.Fatalf("the server saw %q, want the TUI's path with the token added", s)
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if _, b, err := c.ReadMessage(); err != nil || string(b) != "echo hi" {
		t.Fatalf("through the gate: %q %v", b, err)
	}
}

// TestGateBoundsItsConnections: even the TUI's own tree holds at most
// gateMaxConns connections at once; the rest are closed at accept, so a
// seat cannot use up Pullcept's descriptors through its gate.
func TestGateBoundsItsConnections(t *testing.T) {
	t.Parallel()
	g, err := openGate("", "9", "tok", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	g.setRoot(os.Getpid())
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range gateMaxConns + 4 {
		c, err := net.Dial("unix", g.path)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	eof := make([]bool, len(conns))
	count := func() int {
		n := 0
		for i, c := range conns {
			if !eof[i] {
				_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
				_, err := c.Read(make([]byte, 1))
				eof[i] = err == io.EOF
			}
			if eof[i] {
				n++
			}
		}
		return n
	}
	testkit.Eventually(t, "the connections over the cap closed", func() bool {
		return count() >= 4 && g.open.Load() == gateMaxConns
	})
	if n := count(); n != 4 || g.open.Load() != gateMaxConns {
		t.Fatalf("%d of %d connections closed at accept, %d open; want 4 closed, %d open", n, len(conns), g.open.Load(), gateMaxConns)
	}
}
