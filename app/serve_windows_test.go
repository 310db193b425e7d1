//go:build windows

package app

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Microsoft/go-winio"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/sys/windows"

	"github.com/pullcept/pullcept/app/attachclient"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/terminal/emu"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// The served mode on Windows (docs/serve.md "Windows"): Serve on a named
// pipe whose ACL admits only the user, reached through attachclient.

// pipeWait bounds a test server's start and end.
var pipeWait = testkit.Slow(60 * time.Second)

// pipeServer is Serve running in this test process on a fresh data
// directory; done receives Serve's result.
type pipeServer struct {
	data, pipe string
	done       chan error
	cancel     context.CancelFunc
}

func startPipeServer(t *testing.T) *pipeServer {
	t.Helper()
	s := &pipeServer{data: t.TempDir(), done: make(chan error, 1)}
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}]}`
	if err := os.WriteFile(filepath.Join(s.data, config.FileName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var ctx context.Context
	ctx, s.cancel = context.WithCancel(context.Background())
	ready := make(chan error, 1)
	go func() { s.done <- Serve(ctx, s.data, "test", ServeOptions{Ready: func(err error) { ready <- err }}) }()
	select {
	case err := <-ready:
		if err != nil {
			s.cancel()
			t.Fatalf("Serve did not start: %v", err)
		}
	case <-time.After(pipeWait):
		s.cancel()
		t.Fatalf("Serve did not listen within %v", pipeWait)
	}
	t.Cleanup(func() {
		s.cancel()
		select {
		case <-s.done:
		case <-time.After(pipeWait):
			t.Errorf("Serve did not end within %v of its context", pipeWait)
		}
	})
	var err error
	if s.pipe, err = config.SocketPath(s.data); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestServeOnANamedPipe: Serve listens on the data directory's pipe and
// names it in server.json; attachclient's ls answers through it; an SSH
// session with a terminal gets the UI's bytes; kill-server ends Serve,
// which removes server.json, and nothing answers on the pipe after.
func TestServeOnANamedPipe(t *testing.T) {
	s := startPipeServer(t)
	if !strings.HasPrefix(s.pipe, config.PipePrefix) {
		t.Fatalf("SocketPath = %q, want a pipe starting %q", s.pipe, config.PipePrefix)
	}
	in, err := config.ReadServerInfo(s.data)
	if err != nil || in.Socket != s.pipe || in.PID != os.Getpid() {
		t.Fatalf("server.json = %+v, %v; want the pipe %s and this pid", in, err, s.pipe)
	}

	var ls bytes.Buffer
	if err := attachclient.Command(s.data, "ls", &ls); err != nil {
		t.Fatalf("ls: %v", err)
	}
	if !strings.Contains(ls.String(), "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(ls.String(), "clients") {
		t.Fatalf("ls = %q, want the server's pid and its clients", ls.String())
	}

	c, err := attachclient.Dial(s.data)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out pipeOut
	sess.Stdout = &out
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the UI's bytes over the pipe", func() bool { return strings.Contains(out.String(), "Accounts") })
	var ls2 bytes.Buffer
	if err := attachclient.Command(s.data, "ls", &ls2); err != nil || !strings.Contains(ls2.String(), "80x24") {
		t.Errorf("ls with a terminal attached = %q, %v; want its 80x24", ls2.String(), err)
	}
	sess.Close()
	c.Close()

	var kill bytes.Buffer
	if err := attachclient.Command(s.data, "kill-server", &kill); err != nil {
		t.Fatalf("kill-server: %v (%s)", err, kill.String())
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
		s.done <- nil // for the cleanup
	case <-time.After(pipeWait):
		t.Fatalf("Serve did not end within %v of kill-server", pipeWait)
	}
	if _, err := os.Stat(filepath.Join(s.data, config.ServerInfoFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("server.json after the end: %v", err)
	}
	if _, err := attachclient.Dial(s.data); !errors.Is(err, attachclient.ErrNoServer) {
		t.Errorf("Dial after kill-server = %v, want ErrNoServer", err)
	}
}

// TestAttachOverThePipe: attachclient.Attach — the client plain
// `pullcept` runs — shows the server's UI on its output and carries keys:
// Ctrl+Q with no seat running detaches at once, with status 0.
func TestAttachOverThePipe(t *testing.T) {
	s := startPipeServer(t)
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inR.Close(); inW.Close(); outR.Close(); outW.Close() })
	var out pipeOut
	go func() { _, _ = io.Copy(&out, outR) }()
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := attachclient.Attach(attachclient.Options{DataDir: s.data, In: inR, Out: outW,
			Getenv: func(k string) string { return map[string]string{"TERM": "xterm-256color", "LANG": "en_US.UTF-8"}[k] }})
		done <- result{code, err}
	}()
	testkit.Eventually(t, "the UI through Attach", func() bool { return strings.Contains(out.String(), "Accounts") })
	if _, err := inW.Write([]byte{0x11}); err != nil { // Ctrl+Q
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.code != 0 || r.err != nil {
			t.Fatalf("Attach = %d, %v; want 0 after a detach", r.code, r.err)
		}
	case <-time.After(pipeWait):
		t.Fatal("Ctrl+Q did not end Attach")
	}
}

// TestServerPipeAdmitsOnlyTheUser: the pipe's DACL, read back from the
// pipe itself, is protected and has one entry: all access for this
// user's SID — no Administrators, SYSTEM, Everyone or anyone else.
func TestServerPipeAdmitsOnlyTheUser(t *testing.T) {
	s := startPipeServer(t)
	conn, err := winio.DialPipe(s.pipe, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fd, ok := conn.(interface{ Fd() uintptr })
	if !ok {
		t.Fatalf("%T has no handle", conn)
	}
	sd, err := windows.GetSecurityInfo(windows.Handle(fd.Fd()), windows.SE_KERNEL_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatalf("GetSecurityInfo: %v", err)
	}
	sid, err := config.UserSID()
	if err != nil {
		t.Fatal(err)
	}
	// Windows maps GA (generic all) to the pipe's FA when it stores the
	// entry; Wine keeps GA. Either is all access, for this SID alone.
	got := sd.String()
	if got != "D:P(A;;FA;;;"+sid+")" && got != "D:P(A;;GA;;;"+sid+")" {
		t.Errorf("the pipe's DACL = %s, want one entry of all access for %s, protected", got, sid)
	}
}

// TestServerPipeNameIsExclusive: a second listener on a server's pipe
// name is refused (go-winio creates the first instance with FILE_CREATE),
// so neither a second server nor a squatter can share it.
func TestServerPipeNameIsExclusive(t *testing.T) {
	s := startPipeServer(t)
	testkit.SkipUnderWine(t, "Wine lets a second NtCreateNamedPipeFile with FILE_CREATE open an instance of a pipe that exists")
	if ln, err := listenSocket(s.pipe); err == nil {
		ln.Close()
		t.Error("a second listener took the server's pipe name")
	}
}

// TestServedScreenOnWindowsKeepsColumns: the screen an attached terminal
// shows after a UI's incremental redraws (six posts, each moving the chat
// up) equals what a terminal attached afterwards is drawn whole, the
// status line (each UI's own hints) aside. Bubble Tea on Windows moves
// the cursor down with a bare newline and expects its column kept; sent
// through the emulated PTY as "\r\n" it landed in column 0 and each post
// after the first showed as a stray letter at the left (uiOutput).
func TestServedScreenOnWindowsKeepsColumns(t *testing.T) {
	s := startPipeServer(t)
	a := attachPipe(t, s.data)
	testkit.Eventually(t, "the UI drawn", func() bool { return strings.Contains(a.screen(), "Accounts") })
	for _, x := range "abcdef" {
		post := "hello number " + string(x)
		if _, err := io.WriteString(a.in, post+"\r"); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, post+" whole on the screen", func() bool { return strings.Contains(a.screen(), post) })
	}
	b := attachPipe(t, s.data)
	testkit.Eventually(t, "the second terminal drawn", func() bool { return strings.Contains(b.screen(), "hello number f") })
	got, want := strings.Split(a.screen(), "\n"), strings.Split(b.screen(), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d rows, a fresh screen has %d", len(got), len(want))
	}
	for i := range len(got) - 1 {
		if got[i] != want[i] {
			t.Errorf("row %d after redraws:\n%q\ndrawn whole:\n%q", i, got[i], want[i])
		}
	}
}

// pipeTerm is an attached terminal: an SSH session with an 80x24 PTY.
type pipeTerm struct {
	sess *gossh.Session
	in   io.WriteCloser
	out  pipeOut
}

func attachPipe(t *testing.T, data string) *pipeTerm {
	t.Helper()
	c, err := attachclient.Dial(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := &pipeTerm{}
	if p.sess, err = c.NewSession(); err != nil {
		t.Fatal(err)
	}
	p.sess.Stdout = &p.out
	if p.in, err = p.sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := p.sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return p
}

// screen is what a terminal shows after every byte received so far.
func (p *pipeTerm) screen() string {
	e := emu.New(80, 24, 0, nil) // its answers to the UI's queries are dropped
	_, _ = e.Write([]byte(p.out.String()))
	e.Flush()
	rows := make([]string, 24)
	for y := range rows {
		rows[y] = e.PlainRow(y)
	}
	return strings.Join(rows, "\n")
}

// pipeOut is a buffer the session's copier writes while the test reads.
type pipeOut struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *pipeOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *pipeOut) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}
