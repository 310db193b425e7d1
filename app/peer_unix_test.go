//go:build linux || darwin

package app

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestAnEndedConnectorIsNoUI (issue 31 review): a connection to the
// server's socket whose connecting process has already ended is refused
// as a UI — a seat made exactly that (a child that connects and exits) to
// pass for a process outside every seat. A live peer outside the seats is
// not.
func TestAnEndedConnectorIsNoUI(t *testing.T) {
	path := filepath.Join(testkit.RoomSocketDir(t), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(self, connectFlag, path).CombinedOutput(); err != nil {
		t.Fatalf("connector: %v %s", err, out)
	}
	c, err := ln.Accept() // the connector has ended (the command returned)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if p, fromSeat := lookPeer(c); !fromSeat {
		t.Fatalf("the ended connector %s passed as a UI", p)
	}
	go func() {
		if c, err := net.Dial("unix", path); err == nil {
			defer c.Close()
			_, _ = c.Read(make([]byte, 1))
		}
	}()
	live, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if p, fromSeat := lookPeer(live); fromSeat {
		t.Fatalf("a live process outside the seats (%s) was refused", p)
	}
}
