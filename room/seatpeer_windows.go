package room

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"

	"github.com/Microsoft/go-winio"

	"github.com/pullcept/pullcept/config"
)

// roomPipePrefix names the room's pipes: \\.\pipe\pullcept-room-<64 random
// bits>, one per run.
const roomPipePrefix = `\\.\pipe\pullcept-room-`

// listenSocket makes the room's named pipe (dir is not used on Windows):
// a protected DACL that admits only this user, remote clients rejected and
// the first instance created with FILE_CREATE (go-winio), so a squatter
// that holds the name makes this an error, never a shared pipe.
func listenSocket(string) (net.Listener, string, error) {
	sid, err := config.UserSID()
	if err != nil {
		return nil, "", err
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return nil, "", err
	}
	path := roomPipePrefix + hex.EncodeToString(b)
	ln, err := winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: "D:P(A;;GA;;;" + sid + ")"})
	if err != nil {
		return nil, "", fmt.Errorf("listen on %s: %w", path, err)
	}
	return ln, path, nil
}

// SeatDialer is how a seat's process reaches the room: over the room's
// named pipe when there is one (EnvRoomSocket), else the URL's own TCP
// address. Use it as websocket.Dialer.NetDialContext or
// http.Transport.DialContext.
func SeatDialer(socket string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if socket == "" {
		var d net.Dialer
		return d.DialContext
	}
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		return winio.DialPipeContext(ctx, socket)
	}
}
