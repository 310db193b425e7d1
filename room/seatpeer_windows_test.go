package room

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestSeatTokenOnThePipe (issue 31, Windows): the room listens on a named
// pipe; a seat token counts only there, from a process its seat's test
// (BindTree: the seat's Job object in the app) holds — never over TCP, and
// not from a process the test does not hold, each refusal answered 403.
func TestSeatTokenOnThePipe(t *testing.T) {
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{SocketDir: testkit.RoomSocketDir(t)})
	if !strings.HasPrefix(s.SocketPath(), roomPipePrefix) {
		t.Fatalf("socket %q, want a named pipe", s.SocketPath())
	}
	token, _, err := s.Grant("cc", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	if err := s.BindTree(token, func(pid int) bool { return pid != self && pid > 0 }); err != nil {
		t.Fatal(err)
	}
	if _, code := dialPipe(t, s, token); code != http.StatusForbidden {
		t.Errorf("hello from a process the seat does not hold: status %d, want 403", code)
	}
	if code := dialStatus(t, s.URL(), http.Header{"Authorization": {"Bearer " + token}}); code != http.StatusForbidden {
		t.Errorf("hello with a seat token over TCP: status %d, want 403", code)
	}
	if err := s.BindTree(token, func(pid int) bool { return pid == self }); err != nil {
		t.Fatal(err)
	}
	own, code := dialPipe(t, s, token)
	if own == nil {
		t.Fatalf("the seat's own process over the pipe: status %d", code)
	}
	own.hello("Lin", "t", "cc")
	if fr := own.post("m-1", "hello", ""); !fr.Delivered {
		t.Fatalf("the seat's post: %+v", fr)
	}
}
