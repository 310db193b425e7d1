//go:build !windows

package app

import (
	"errors"
	"fmt"
	"github.com/pullcept/pullcept/room/peer"
	"net"
	"os"
)

// peerListener refuses a connection from another user's process before a
// byte is read (defence in depth behind the socket's directory and mode:
// root, or a mode changed by hand, would pass those).
type peerListener struct{ net.Listener }

func (l peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := samePeer(c); err != nil {
			_ = c.Close()
			continue
		}
		return c, nil
	}
}

// samePeer is nil when c's peer runs as this process's user (or the OS
// cannot tell, which the socket's mode then covers).
func samePeer(c net.Conn) error {
	uid, err := peer.UID(c)
	if errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	if err != nil {
		return err
	}
	if uid != os.Getuid() {
		return fmt.Errorf("peer uid %d is not %d", uid, os.Getuid())
	}
	return nil
}
