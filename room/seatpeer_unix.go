//go:build !windows

package room

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
)

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

// SeatDialer is how a seat's process reaches the room: over the room
// socket when there is one (EnvRoomSocket; the URL's host then only names
// the Host header), else the URL's own TCP address. Use it as
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
