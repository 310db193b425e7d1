package room

import (
	"context"
	"fmt"
	"strings"
)

// Listening reports whether the room still answers where its seats dial
// it (spec «参加者パネル»: the details warn when the room socket is not
// listening): it opens a connection to the room socket — the named pipe
// on Windows, the TCP listener when the server has no socket — and closes
// it at once. nil when it answered; else why not, naming the address. A socket file removed
// under a running server (a temporary-files cleaner), a closed server or a
// listener that died all fail here, while the server itself may not know.
func (s *Server) Listening(ctx context.Context) error {
	addr := s.sockPath
	if addr == "" {
		addr = "127.0.0.1:" + s.port
	}
	c, err := SeatDialer(s.sockPath)(ctx, "tcp", "127.0.0.1:"+s.port)
	if err != nil {
		if !strings.Contains(err.Error(), addr) { // a dial error names it already
			err = fmt.Errorf("%s: %w", addr, err)
		}
		return err
	}
	return c.Close()
}

// Address is where the room's seats dial it: the room socket (or named
// pipe) when the server has one, else its WebSocket URL.
func (s *Server) Address() string {
	if s.sockPath != "" {
		return s.sockPath
	}
	return s.URL()
}
