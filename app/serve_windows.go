package app

import (
	"bytes"
	"fmt"
	"io"
	"net"

	"github.com/Microsoft/go-winio"

	"github.com/pullcept/pullcept/config"
)

// pipeBuffer is a pipe instance's buffer each way: a frame of a large
// terminal in one write.
const pipeBuffer = 64 << 10

// pipeSDDL is the pipe's security descriptor: a protected DACL (nothing
// inherited) with one entry, all access for the user's SID — no
// Administrators, SYSTEM, Everyone or other users. The owner is the
// server's user, the only one who may change it.
func pipeSDDL(sid string) string { return "D:P(A;;GA;;;" + sid + ")" }

// listenSocket listens on the server's named pipe (config.SocketPath,
// \\.\pipe\pullcept-<hash>). Who may connect is decided by the pipe, not
// per connection as on Unix (peerListener): its ACL (pipeSDDL) lets only
// this user open it, and go-winio creates it with
// FILE_PIPE_REJECT_REMOTE_CLIENTS (no client from another machine, even
// as this user) and its first instance with FILE_CREATE, so a name
// another process already holds — a second server, a squatter — is an
// error here, never shared. A pipe vanishes with its last handle: there
// is no stale file to replace. Behind it, as on Unix, the SSH sign-in
// takes only the data directory's client key, and clients pin the host
// key, so a squatter's pipe would get no session from a client.
func listenSocket(path string) (net.Listener, error) {
	sid, err := config.UserSID()
	if err != nil {
		return nil, err
	}
	ln, err := winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: pipeSDDL(sid),
		InputBufferSize: pipeBuffer, OutputBufferSize: pipeBuffer})
	if err != nil {
		return nil, fmt.Errorf("listen on %s (is another server, or another program, holding it?): %w", path, err)
	}
	return ln, nil
}

// ServeSupported: `pullcept server` runs on Windows on a named pipe, so
// plain `pullcept` attaches to it (started outside the terminal's job:
// app/attachclient, docs/serve.md "Windows").
const ServeSupported = true

// uiOutput is what an attached UI writes to. Bubble Tea's renderer on
// Windows takes a newline for a line feed alone (it counts on a newline
// also returning the carriage only on Unix, charm.land/bubbletea tea.go),
// while charm.land/ssh's emulated PTY writes every "\n" as "\r\n": a
// cursor moved down a line would land in column 0 and the next cells be
// drawn there. So each "\n" goes out as ESC D (IND: a line feed without
// the return, scrolling at the bottom as a newline does), which the PTY
// writer leaves alone.
func uiOutput(w io.Writer) io.Writer { return indexWriter{w} }

// indexWriter writes "\n" as ESC D (uiOutput).
type indexWriter struct{ w io.Writer }

func (i indexWriter) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, '\n') < 0 {
		return i.w.Write(p)
	}
	if _, err := i.w.Write(bytes.ReplaceAll(p, []byte{'\n'}, []byte("\x1bD"))); err != nil {
		return 0, err
	}
	return len(p), nil
}
