//go:build !windows

package app

import (
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestSignedInClientIsBounded: one signed-in client gets at most
// maxSessionsPerConn sessions on a connection, and at most maxEnvRequests
// env requests of at most maxEnvRequestBytes each in a session — the rest
// are refused, not stored.
func TestSignedInClientIsBounded(t *testing.T) {
	r := startSSHRig(t)
	c, err := r.dial(gossh.PublicKeys(r.ok))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var open []*gossh.Session
	for range maxSessionsPerConn {
		sess, err := c.NewSession()
		if err != nil {
			t.Fatalf("session %d: %v", len(open)+1, err)
		}
		open = append(open, sess)
	}
	if sess, err := c.NewSession(); err == nil {
		sess.Close()
		t.Fatalf("session %d on one connection was opened", maxSessionsPerConn+1)
	}
	sess := open[0]
	for i := range maxEnvRequests {
		if err := sess.Setenv("LANG", "C.UTF-8"); err != nil {
			t.Fatalf("env request %d: %v", i+1, err)
		}
	}
	if err := sess.Setenv("LANG", "C.UTF-8"); err == nil {
		t.Errorf("env request %d was taken", maxEnvRequests+1)
	}
	if err := open[1].Setenv("TZ", strings.Repeat("x", maxEnvRequestBytes)); err == nil {
		t.Error("an env request over the size was taken")
	}
	for _, s := range open {
		s.Close()
	}
}

// TestCleanTerm: a TERM with escape sequences or of any length is not
// shown or used as given.
func TestCleanTerm(t *testing.T) {
	for in, want := range map[string]string{"xterm-256color": "xterm-256color", "tmux-256color": "tmux-256color",
		"screen.xterm+x": "screen.xterm+x", "": "xterm-256color", "\x1b]0;HACKED\a": "xterm-256color",
		strings.Repeat("a", 65): "xterm-256color"} {
		if got := cleanTerm(in); got != want {
			t.Errorf("cleanTerm(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOneAddressCannotTakeEverySlot: the embedded listener closes a fifth
// connection from one address at once, while the four stay open.
func TestOneAddressCannotTakeEverySlot(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(raw, 32, 4)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c // held open until the test closes the listener
		}
	}()
	var conns []net.Conn
	for range 5 {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	closed := func(c net.Conn) bool {
		_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		return err != nil && !isTimeout(err)
	}
	testkit.Eventually(t, "the fifth connection closed", func() bool { return closed(conns[4]) })
	for i, c := range conns[:4] {
		if closed(c) {
			t.Errorf("connection %d was closed", i+1)
		}
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestAttachedUIsAreBounded: the server shows at most maxAttachedUIs.
func TestAttachedUIsAreBounded(t *testing.T) {
	s := &server{clients: map[int]*attachClient{}, logger: discardLogger()}
	for i := range maxAttachedUIs {
		if _, ok := s.addClient("xterm", 80, 24, peerInfo{}); !ok {
			t.Fatalf("client %d refused", i+1)
		}
	}
	if _, ok := s.addClient("xterm", 80, 24, peerInfo{}); ok {
		t.Fatalf("client %d taken", maxAttachedUIs+1)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
