//go:build !windows

package app

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// listenSocket listens on the server's Unix socket, 0600 in its 0700
// directory (config.SocketPath). A socket file already there is replaced
// only when nothing answers on it: this server holds the data directory's
// lock, so a listener there would be a stranger's, and is refused.
func listenSocket(path string) (net.Listener, error) {
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, 2*time.Second); err == nil {
			_ = c.Close()
			return nil, fmt.Errorf("listen %s: something already answers there", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("replace the stale socket %s: %w", path, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("listen: %w", err)
	}
	return peerListener{ln}, nil
}

// ServeSupported: `pullcept server` runs here, so plain `pullcept`
// attaches to it.
const ServeSupported = true
