package app

import (
	"os"
	"runtime"
	"testing"
)

// TestRoomSocketSaysWhetherTheRoomAnswers: the backend names the room's
// socket and, dialling it, says when nothing answers there (its file
// removed under the running server).
func TestRoomSocketSaysWhetherTheRoomAnswers(t *testing.T) {
	a, b := openTest(t)
	s := b.RoomSocket()
	if s.Address == "" || s.Address != a.server.Address() || s.Err != "" {
		t.Fatalf("a running room: %+v", s)
	}
	if runtime.GOOS == "windows" {
		return // a named pipe cannot be removed under its server
	}
	if err := os.Remove(a.server.SocketPath()); err != nil {
		t.Fatal(err)
	}
	if s := b.RoomSocket(); s.Err == "" {
		t.Fatalf("its socket removed: %+v", s)
	}
}
