// Package attachclient is `pullcept attach`'s side of a served Pullcept
// (docs/serve.md): it finds the data directory's server (starting one when
// asked), signs in over SSH on the server's Unix socket with the data
// directory's client key, pins the server's host key, and then only
// carries bytes — the terminal in raw mode, its size and the few
// variables the UI reads; the UI itself runs in the server. It never
// imports tui or a UI library (make arch), so what crosses the socket is
// an SSH session, nothing Pullcept serialises.
//
// Goroutines: Attach runs two per session (stdin → the session; window
// size changes → the session), both ending with the process or the
// session; none outlives a Command.
package attachclient

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os/user"
	"path/filepath"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/config"
)

// ErrNoServer: nothing serves the data directory (no socket, or nothing
// answers on it).
var ErrNoServer = errors.New("no server is running for this data directory")

// Dial signs in to dataDir's server. A refused sign-in or a wrong host key
// is an error; a missing or silent socket is ErrNoServer.
func Dial(dataDir string) (*ssh.Client, error) {
	sock, err := config.SocketPath(dataDir)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("%w (%s): %v", ErrNoServer, sock, err)
	}
	host, key, err := config.LoadServeKeys(dataDir)
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("the server's keys: %w", err)
	}
	return DialConn(conn, sock, host.PublicKey(), key)
}

// DialConn signs in over conn with key, accepting only hostKey.
func DialConn(conn net.Conn, addr string, hostKey ssh.PublicKey, key ssh.Signer) (*ssh.Client, error) {
	name := "pullcept"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	cfg := &ssh.ClientConfig{
		User:            name,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(hostKey),
		Timeout:         10 * time.Second,
	}
	_ = conn.SetDeadline(time.Now().Add(cfg.Timeout))
	c, chans, reqs, err := ssh.NewClientConn(conn, addr, cfg)
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("sign in to the server: %w", err)
	}
	_ = conn.SetDeadline(time.Time{})
	return ssh.NewClient(c, chans, reqs), nil
}

// Command runs one of the server's commands (ls, kill-server, version)
// and copies its output to out.
func Command(dataDir, name string, out io.Writer) error {
	c, err := Dial(dataDir)
	if err != nil {
		return err
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return err
	}
	defer sess.Close()
	sess.Stdout, sess.Stderr = out, out
	return sess.Run(name)
}

// logPath is where a started server's stderr goes.
func logPath(dataDir string) string { return filepath.Join(dataDir, config.ServeLogFile) }
