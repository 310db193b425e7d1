package room

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestListeningSaysWhenTheRoomDoesNotAnswer: a running server answers on
// its room socket (and on TCP when it has none); one whose socket file was
// removed under it (Unix), or that closed, does not, and the error names
// the address. Address is the socket, else the URL.
func TestListeningSaysWhenTheRoomDoesNotAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newTestHub(t, nil, nil, testAccounts)
	tcp := newTestServer(t, h, ServerOptions{})
	if err := tcp.Listening(ctx); err != nil || tcp.Address() != tcp.URL() {
		t.Fatalf("a TCP-only server: %v, address %q", err, tcp.Address())
	}
	s, err := NewServer(h, ServerOptions{SocketDir: testkit.RoomSocketDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Address() != s.SocketPath() || s.SocketPath() == "" {
		t.Fatalf("address %q, socket %q", s.Address(), s.SocketPath())
	}
	if err := s.Listening(ctx); err != nil {
		t.Fatalf("a running server: %v", err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Remove(s.SocketPath()); err != nil {
			t.Fatal(err)
		}
		if err := s.Listening(ctx); err == nil || !strings.Contains(err.Error(), s.SocketPath()) {
			t.Fatalf("its socket file removed: %v", err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Listening(ctx); err == nil {
		t.Fatal("a closed server answers")
	}
}
