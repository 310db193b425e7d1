//go:build !windows

package attachclient

import "net"

// dialSocket connects to the server's Unix socket.
func dialSocket(path string) (net.Conn, error) { return net.DialTimeout("unix", path, dialWait) }
