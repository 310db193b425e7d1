package room

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/pullcept/pullcept/room/peer"
)

// A seat is known by its process, not by its token alone (docs/design.md §6
// "Seat identity", §16): with ServerOptions.SocketDir the server also
// listens on a Unix socket, and a seat token counts only on that socket
// from a process the kernel names (SO_PEERCRED) that is one of the seat's
// processes or descends from one (Server.BindProcess). The same token on
// the TCP listener, or from any other process, is refused and logged: a
// sibling seat can read the token from /proc/<pid>/environ, but it cannot
// put its own process into another seat's tree.

// SocketName is the room socket's file name in ServerOptions.SocketDir.
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
	pid   int
	err   error
}

type peerCtxKey struct{}

// connContext records the peer process of a Unix socket connection; TCP
// connections carry none.
func connContext(ctx context.Context, c net.Conn) context.Context {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return ctx
	}
	pid, err := peer.PID(uc)
	return context.WithValue(ctx, peerCtxKey{}, peerSeen{local: true, pid: pid, err: err})
}

// listenSocket makes the room socket in dir (which the caller made 0700):
// a stale file from a crashed run is removed first.
func listenSocket(dir string) (net.Listener, string, error) {
	path := filepath.Join(dir, SocketName)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, "", err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, "", err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, "", err
	}
	return ln, path, nil
}

// SocketPath is the room's Unix socket ("" when the server has none).
func (s *Server) SocketPath() string { return s.sockPath }

// BindProcess makes pid one of the processes of token's seat: it and its
// descendants may use the token on the room socket. The Manager binds
// every process it starts for the seat (the CLI's PTY child, a Codex
// app-server). Errors: not a live seat token, a bad pid, too many.
func (s *Server) BindProcess(token string, pid int) error {
	if pid <= 0 {
		return fmt.Errorf("bind a seat process: bad pid %d", pid)
	}
	key, g := s.seatGrant(token)
	if g == nil {
		return fmt.Errorf("bind a seat process: %w", ErrWrongSeat)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.grants[key] != g {
		return fmt.Errorf("bind a seat process: %w (revoked)", ErrWrongSeat)
	}
	if len(g.roots) >= maxSeatRoots {
		return fmt.Errorf("bind a seat process: more than %d for one seat", maxSeatRoots)
	}
	g.roots = append(g.roots, pid)
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
	default:
		s.mu.Lock()
		roots := append([]int(nil), g.roots...)
		s.mu.Unlock()
		for _, root := range roots {
			if peer.InTree(seen.pid, root) {
				return nil
			}
		}
		why = fmt.Errorf("%w: pid %d is not in the tree of %v", ErrNotTheSeat, seen.pid, roots)
	}
	s.logger.Warn("room: a seat token refused", "account", g.binding.Account, "topic", g.binding.Topic,
		"pid", seen.pid, "exe", peer.Exe(seen.pid), "remote", r.RemoteAddr, "err", why)
	return why
}

// SeatDialer is how a seat's process reaches the room: over the room
// socket when there is one (room.EnvRoomSocket; the URL's host then only
// names the Host header), else the URL's own TCP address. Use it as
// websocket.Dialer.NetDialContext or http.Transport.DialContext.
func SeatDialer(socket string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	if socket == "" {
		return d.DialContext
	}
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "unix", socket)
	}
}
