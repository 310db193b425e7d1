package attachclient

import (
	"net"

	"github.com/Microsoft/go-winio"
)

// dialSocket connects to the server's named pipe (config.SocketPath),
// waiting while every instance is busy. The pipe's ACL admits only this
// user and no other machine (app/serve_windows.go): another user's
// process gets "access denied" here, before any byte.
func dialSocket(path string) (net.Conn, error) {
	wait := dialWait
	return winio.DialPipe(path, &wait)
}
