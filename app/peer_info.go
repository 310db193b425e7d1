package app

import (
	"fmt"
	"github.com/pullcept/pullcept/room/peer"
	"net"
	"os"
)

// peerInfo is what the server knows of an attached terminal's process
// (docs/serve.md "Seats and the socket"): shown in every other UI when it
// attaches and in `pullcept ls`, so no attach goes unseen.
type peerInfo struct {
	pid    int    // 0: unknown (not Linux or macOS, or over TCP)
	exe    string // its executable, when readable
	tty    string // its controlling terminal, when known
	remote string // the TCP peer's address (the --ssh listener)
}

func (p peerInfo) String() string {
	switch {
	case p.remote != "":
		return "from " + p.remote
	case p.pid == 0:
		return "local"
	}
	s := fmt.Sprintf("pid %d", p.pid)
	if p.exe != "" {
		s += " " + p.exe
	}
	if p.tty != "" {
		s += " on " + p.tty
	}
	return s
}

var peerKey = &ctxKey{"peer"}

// innerConn is the connection under the listeners' wrappers.
func innerConn(c net.Conn) net.Conn {
	if sc, ok := c.(*slotConn); ok {
		return sc.Conn
	}
	return c
}

// lookPeer describes c's peer; fromSeat reports a process that descends
// from this server — a seat, or anything a seat started without leaving
// the tree. Such a process is refused: a seat must not attach and act as
// the human (the breaker's review). A seat's process that daemonized out
// of the tree is caught on Windows by its Job object (vetPeer asks the
// Manager); on Unix it is not, and the notice every UI shows is what
// remains.
func lookPeer(c net.Conn) (p peerInfo, fromSeat bool) {
	c = innerConn(c)
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return peerInfo{remote: a.String()}, false
	}
	pid, err := peer.PID(c)
	if err != nil || pid <= 0 {
		return peerInfo{}, false
	}
	p = peerInfo{pid: pid, exe: peer.Exe(pid), tty: peer.TTY(pid)}
	if _, err := peer.Identify(c); err != nil {
		// The connecting process has ended: nothing can be said of it,
		// and a seat made exactly that (a child that connects and exits)
		// to pass the tree check (issue 31 review). A real client waits
		// for its answer.
		return p, true
	}
	return p, peer.Descends(pid, os.Getpid())
}
