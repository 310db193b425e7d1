package room

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"

	"github.com/pullcept/pullcept/room/peer"
)

// A seat is known by its process, not by its token alone (docs/design.md §6
// "Seat identity", §16): with ServerOptions.SocketDir the server also
// listens on a Unix socket (Windows: a named pipe only the user may open),
// and a seat token counts only there, from a process the kernel names
// (SO_PEERCRED, LOCAL_PEERPID, GetNamedPipeClientProcessId) that is one of
// the seat's processes or descends from one — on Windows, that is in its
// Job object (Server.BindTree). The same token on
// the TCP listener, or from any other process, is refused and logged: a
// sibling seat can read the token from /proc/<pid>/environ, but it cannot
// put its own process into another seat's tree.

// SocketName is the room socket's file name in ServerOptions.SocketDir
// (Unix; on Windows the room listens on a named pipe instead).
const SocketName = "room.sock"

// maxSeatRoots bounds the processes one seat token binds (a CLI, a Codex
// app-server beside it, a restart or two).
const maxSeatRoots = 8

// ErrNotTheSeat: a seat token came from a process outside the seat's tree,
// or over a listener that cannot name its process.
var ErrNotTheSeat = errors.New("this connection is not from the seat's processes")

// peerSeen is what the kernel said of a connection's peer at accept time.
type peerSeen struct {
	local bool // over the Unix socket
	proc  peer.Process
	err   error
}

type peerCtxKey struct{}

// connContext records the peer process of a room socket (or named pipe)
// connection; TCP connections carry none.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if _, tcp := c.(*net.TCPConn); tcp {
		return ctx
	}
	proc, err := peer.Identify(c)
	return context.WithValue(ctx, peerCtxKey{}, peerSeen{local: true, proc: proc, err: err})
}

// SocketPath is the room's Unix socket ("" when the server has none).
func (s *Server) SocketPath() string { return s.sockPath }

// BindProcess makes pid one of the processes of token's seat: it and its
// descendants may use the token on the room socket (Unix; on Windows
// parents are not walked: use BindTree with the seat's Job object).
// Errors: not a live seat token, a bad pid, too many.
func (s *Server) BindProcess(token string, pid int) error {
	if pid <= 0 {
		return fmt.Errorf("bind a seat process: bad pid %d", pid)
	}
	return s.BindTree(token, func(p int) bool { return peer.InTree(p, pid) })
}

// BindTree adds holds to the tests of token's seat: a process for which
// one of them is true may use the token on the room socket. The Manager
// binds every process it starts for the seat (the CLI's PTY child, a
// Codex app-server) with pty.Holds: its tree on Unix, its Job object on
// Windows. Errors: not a live seat token, too many.
func (s *Server) BindTree(token string, holds func(pid int) bool) error {
	key, g := s.seatGrant(token)
	if g == nil {
		return fmt.Errorf("bind a seat process: %w", ErrWrongSeat)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.grants[key] != g {
		return fmt.Errorf("bind a seat process: %w (revoked)", ErrWrongSeat)
	}
	if len(g.trees) >= maxSeatRoots {
		return fmt.Errorf("bind a seat process: more than %d for one seat", maxSeatRoots)
	}
	g.trees = append(g.trees, holds)
	return nil
}

// checkSeatPeer is nil when a request with seat token g may act as its
// seat: always without a room socket (Windows, tests), else only over the
// socket from the seat's processes. A refusal is logged with what the
// kernel said of the process.
func (s *Server) checkSeatPeer(r *http.Request, g *grant) error {
	if g == nil || s.sockPath == "" {
		return nil
	}
	seen, _ := r.Context().Value(peerCtxKey{}).(peerSeen)
	var why error
	switch {
	case !seen.local:
		why = fmt.Errorf("%w: a seat token is taken only on the room socket", ErrNotTheSeat)
	case seen.err != nil:
		why = fmt.Errorf("%w: the kernel did not name the process: %w", ErrNotTheSeat, seen.err)
	case !seen.proc.Alive():
		// Its pid may be another process's by now (a kept-alive connection
		// of a child that exited, waiting for its pid to come back).
		why = fmt.Errorf("%w: the process %d that connected has ended", ErrNotTheSeat, seen.proc.PID)
	default:
		s.mu.Lock()
		trees := slices.Clone(g.trees)
		s.mu.Unlock()
		for _, holds := range trees {
			// Alive again after the walk: the pid walked was still the
			// connecting process's.
			if holds(seen.proc.PID) && seen.proc.Alive() {
				return nil
			}
		}
		why = fmt.Errorf("%w: pid %d is none of the seat's %d process tree(s)", ErrNotTheSeat, seen.proc.PID, len(trees))
	}
	if s.refusals.Allow() {
		s.logger.Warn("room: a seat token refused", "account", g.binding.Account, "topic", g.binding.Topic,
			"pid", seen.proc.PID, "exe", peer.Exe(seen.proc.PID), "remote", r.RemoteAddr, "err", why)
	}
	return why
}
