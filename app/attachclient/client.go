// Package attachclient is `pullcept attach`'s side of a served Pullcept
// (docs/serve.md): it finds the data directory's server (starting one when
// asked), signs in over SSH on the server's Unix socket (a named pipe on
// Windows) with the data directory's client key, pins the server's host
// key, and then only carries bytes — the terminal in raw mode, its size
// and the few variables the UI reads; the UI itself runs in the server.
// It never imports tui or a UI library (make arch), so what crosses the
// socket is an SSH session, nothing Pullcept serialises.
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
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/config"
)

// ErrNoServer: nothing serves the data directory (no socket, or nothing
// answers on it).
var ErrNoServer = errors.New("no server is running for this data directory")

// dialWait bounds connecting to the server's socket or pipe.
const dialWait = 5 * time.Second

// Dial signs in to dataDir's server. A refused sign-in or a wrong host key
// is an error; a missing or silent socket is ErrNoServer.
func Dial(dataDir string) (*ssh.Client, error) {
	sock, err := socketOf(dataDir)
	if err != nil {
		return nil, err
	}
	conn, err := dialSocket(sock)
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

// socketOf is where dataDir's server listens: the socket server.json
// names when its directory is this user's alone (a server started where
// XDG_RUNTIME_DIR was set, attached from an ssh login where it is not),
// else the one this environment gives (config.SocketPath).
func socketOf(dataDir string) (string, error) {
	if in, err := config.ReadServerInfo(dataDir); err == nil && in.Socket != "" && filepath.IsAbs(in.Socket) {
		if config.CheckSocketDir(filepath.Dir(in.Socket)) == nil {
			return in.Socket, nil
		}
	}
	return config.SocketPath(dataDir)
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
	// One writer for both streams, which x/crypto copies from two
	// goroutines: a bytes.Buffer taking both at once loses what it read.
	w := &lockedWriter{w: out}
	sess.Stdout, sess.Stderr = w, w
	return sess.Run(name)
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// logPath is where a started server's stderr goes.
func logPath(dataDir string) string { return filepath.Join(dataDir, config.ServeLogFile) }

// killWait bounds how long kill-server waits for the server to end (its
// seats stop first; a CLI that ignores its hangup is killed after a grace).
const killWait = 2 * time.Minute

// KillServer asks dataDir's server to stop its seats and end, and returns
// once it ended (its process is gone), so a script can start another.
func KillServer(dataDir string, out io.Writer) error {
	in, _ := config.ReadServerInfo(dataDir)
	if err := Command(dataDir, "kill-server", out); err != nil {
		return err
	}
	if in.PID <= 0 {
		return nil
	}
	deadline := time.Now().Add(killWait)
	for processAlive(in.PID) {
		if time.Now().After(deadline) {
			return fmt.Errorf("the server (pid %d) still runs after %s; see %s", in.PID, killWait, logPath(dataDir))
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintln(out, "pullcept: the server ended")
	return nil
}
