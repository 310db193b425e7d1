//go:build linux

package app

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/app/attachclient"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// probeEnv switches this test binary, started again as another user by
// TestServeRefusesAnotherUser, into probeSocket on the socket it names.
const probeEnv = "PULLCEPT_TEST_SOCKET_PROBE"

func init() {
	if sock := os.Getenv(probeEnv); sock != "" {
		fmt.Println(probeSocket(sock))
		os.Exit(0)
	}
}

// probeSocket connects to sock and says how far it got: "dial: …" (the
// kernel refused), "banner: …" (bytes came: the SSH server's version),
// "closed: …" (the server hung up before a byte) or "silent" (nothing
// within the deadline).
func probeSocket(sock string) string {
	who := fmt.Sprintf("uid %d: ", os.Getuid())
	c, err := net.Dial("unix", sock)
	if err != nil {
		return who + "dial: " + err.Error()
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(serveWait))
	buf := make([]byte, 256)
	n, err := c.Read(buf)
	switch {
	case n > 0:
		return who + fmt.Sprintf("banner: %q", buf[:n])
	case errors.Is(err, os.ErrDeadlineExceeded):
		return who + "silent"
	}
	return who + "closed: " + err.Error()
}

// nobody is the uid and gid the other user's process runs as.
const nobody = 65534

// probeAs runs probeSocket on sock as the user nobody (the test binary,
// copied where nobody may run it) and returns its line.
func probeAs(t *testing.T, bin, sock string) string {
	t.Helper()
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = []string{probeEnv + "=" + sock}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the probe as uid %d: %v\n%s", nobody, err, out)
	}
	line := strings.TrimSpace(string(out))
	if !strings.HasPrefix(line, fmt.Sprintf("uid %d: ", nobody)) {
		t.Fatalf("the probe did not run as uid %d: %q", nobody, line)
	}
	t.Logf("probe: %s", line)
	return strings.TrimPrefix(line, fmt.Sprintf("uid %d: ", nobody))
}

// nobodyBinary is this test binary where the user nobody may run it.
func nobodyBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "pcsbin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "app.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestServeRefusesAnotherUser: a process of another user (nobody) cannot
// reach the server. Each layer is shown alone: the socket's directory as
// the server made it (with the socket opened to everyone), the socket's
// mode as the server made it (with the directory opened to everyone but
// for listing), and with both opened the peer-uid check
// (peerListener), which hangs up before the SSH server says a byte. The
// owner's client still works after each.
func TestServeRefusesAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a process as uid 65534 (nobody); as another user this test cannot switch")
	}
	withUmask(t, 0)
	s := startTestServer(t, runtimeDir(t), "", "")
	bin := nobodyBinary(t)
	dir := filepath.Dir(s.sock)
	chmod := func(p string, m os.FileMode) {
		t.Helper()
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	// The owner signs in on the socket itself: attachclient refuses a
	// socket directory opened to others (config.SocketPath) before it dials.
	host, key, err := config.LoadServeKeys(s.data)
	if err != nil {
		t.Fatal(err)
	}
	owner := func() {
		t.Helper()
		c, err := s.sshDial(&gossh.ClientConfig{User: "root", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
			HostKeyCallback: gossh.FixedHostKey(host.PublicKey())})
		if err != nil {
			t.Fatalf("the owner cannot sign in: %v", err)
		}
		defer c.Close()
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		if out, err := sess.Output("version"); err != nil || strings.TrimSpace(string(out)) != "test" {
			t.Fatalf("the owner's version = %q, %v", out, err)
		}
	}
	refused := func(what, got string) {
		t.Helper()
		if !strings.HasPrefix(got, "dial: ") || !strings.Contains(got, "permission denied") {
			t.Errorf("%s: the other user got %q; want the connect refused (permission denied)", what, got)
		}
	}

	fi, err := os.Lstat(s.sock)
	if err != nil {
		t.Fatal(err)
	}
	created := fi.Mode().Perm()

	refused("as created", probeAs(t, bin, s.sock))
	owner()

	chmod(s.sock, 0o666)
	refused("the directory as created alone (socket 0666)", probeAs(t, bin, s.sock))
	owner()

	chmod(s.sock, created)
	chmod(dir, 0o711)
	refused("the socket's mode as created alone (directory 0711)", probeAs(t, bin, s.sock))
	owner()

	chmod(s.sock, 0o666)
	chmod(dir, 0o777)
	got := probeAs(t, bin, s.sock)
	if !strings.HasPrefix(got, "closed: ") {
		t.Errorf("the peer-uid check alone (directory 0777, socket 0666): the other user got %q; want the connection closed before a byte", got)
	}
	owner()
	chmod(dir, 0o700)
	chmod(s.sock, created)
}

// uiSession is an attached terminal: an SSH session with a PTY to the
// test server, its output read into an emulator (whose replies go back as
// a terminal's do) and kept whole.
type uiSession struct {
	t     *testing.T
	c     *gossh.Client
	sess  *gossh.Session
	scr   *terminal.Screen
	inMu  sync.Mutex
	in    io.WriteCloser
	mu    sync.Mutex
	got   bytes.Buffer // every byte of stdout and stderr
	ended chan struct{}

	detachOnce sync.Once
}

// lockedWriter appends to the session's record under its lock.
type lockedWriter struct{ u *uiSession }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.u.mu.Lock()
	defer w.u.mu.Unlock()
	return w.u.got.Write(p)
}

// attachUI attaches to s as `pullcept attach` does, sending env (the
// client's variables) and asking for a 120×40 xterm; it detaches at the
// test's end.
func (s *testServer) attachUI(t *testing.T, env [][2]string) *uiSession {
	t.Helper()
	const cols, rows = 120, 40
	c, err := attachclient.Dial(s.data)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	u := &uiSession{t: t, c: c, sess: sess, ended: make(chan struct{})}
	for _, kv := range env {
		if err := sess.Setenv(kv[0], kv[1]); err != nil {
			t.Fatalf("send %s: %v", kv[0], err)
		}
	}
	if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if u.in, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stderr = lockedWriter{u}
	if u.scr, err = terminal.NewScreen(cols, rows, func(b []byte) { u.keys(string(b)) }); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(u.ended)
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				_, _ = lockedWriter{u}.Write(buf[:n])
				_, _ = u.scr.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(u.detach)
	return u
}

// detach ends the session and waits for its output to end. Idempotent.
func (u *uiSession) detach() { u.detachOnce.Do(u.detachNow) }

func (u *uiSession) detachNow() {
	_ = u.sess.Close()
	_ = u.c.Close()
	timer := time.NewTimer(serveWait)
	defer timer.Stop()
	select {
	case <-u.ended:
	case <-timer.C:
		u.t.Errorf("the session's output did not end within %v of its close", serveWait)
	}
	_ = u.scr.Close()
}

// keys types s as the client's terminal would send it.
func (u *uiSession) keys(s string) {
	u.inMu.Lock()
	defer u.inMu.Unlock()
	_, _ = io.WriteString(u.in, s)
}

// bytes is everything the client received so far.
func (u *uiSession) bytes() []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	return bytes.Clone(u.got.Bytes())
}

func (u *uiSession) waitScreen(what string, ok func(string) bool) {
	u.t.Helper()
	defer func() {
		if u.t.Failed() {
			u.t.Logf("the attached screen:\n%s", u.scr.Text())
		}
	}()
	testkit.Eventually(u.t, what, func() bool { return ok(u.scr.Text()) })
}

// startShellSeat starts the Shell account's seat from the attached UI as
// a person does (the accounts panel: Tab ×3, Down, s) and returns its pid
// from `pullcept ls`.
func (s *testServer) startShellSeat(t *testing.T, u *uiSession) int {
	t.Helper()
	u.waitScreen("the accounts panel", func(x string) bool { return strings.Contains(x, "Shell") })
	u.keys("\t\t\t")
	u.waitScreen("the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	u.keys("\x1b[B")
	u.waitScreen("the cursor on Shell", func(x string) bool { return strings.Contains(x, "› Shell") })
	u.keys("s")
	var pid int
	testkit.Eventually(t, "pullcept ls lists the Shell seat running", func() bool {
		pid = lsSeatPID(s.command(t, "ls"), "Shell")
		return pid > 0
	})
	return pid
}

// environ is /proc/pid/environ as NAME=value entries.
func environ(t *testing.T, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// TestClientEnvNeverReachesASeat: the variables an attaching client sends
// reach its UI (a client LANG=ja… turns the UI Japanese) and never a seat
// started from that UI: neither the ones the UI reads (LANG, LC_ALL,
// COLORTERM, TZ, TERM_PROGRAM), nor others (a made-up PULLCEPT_CANARY,
// PATH, PULLCEPT_HOME). The seat runs with the server's environment.
func TestClientEnvNeverReachesASeat(t *testing.T) {
	s := startTestServer(t, runtimeDir(t), "", "")
	canary := "canary" + randomHex(t)
	u := s.attachUI(t, [][2]string{
		{"LANG", "ja_JP." + canary}, {"LC_ALL", "ja_JP." + canary}, {"COLORTERM", "truecolor-" + canary},
		{"TZ", canary}, {"TERM_PROGRAM", canary}, {"PULLCEPT_CANARY", canary}, {"PATH", "/" + canary},
		{"PULLCEPT_HOME", "/" + canary},
	})
	u.waitScreen("the UI in Japanese (the client's LANG reached it)", func(x string) bool { return strings.Contains(x, "F1 ヘルプ") })
	pid := s.startShellSeat(t, u)
	env := environ(t, pid)
	if envValue(env, room.EnvRoomToken) == "" {
		t.Fatalf("pid %d has no %s: not the seat's process?\n%s", pid, room.EnvRoomToken, strings.Join(env, "\n"))
	}
	for _, kv := range env {
		if strings.Contains(kv, canary) || strings.HasPrefix(kv, "PULLCEPT_CANARY=") {
			t.Errorf("the seat's environment has the client's %q", kv)
		}
	}
	for _, name := range []string{"LANG", "LC_ALL", "COLORTERM", "TZ", "PATH"} {
		if got, want := envValue(env, name), os.Getenv(name); got != want {
			t.Errorf("the seat's %s = %q, want the server's %q", name, got, want)
		}
	}
}

// tickScript is a seat that prints "tick N" lines at its own pace, for a
// steady stream of seat output through the attached UI.
const tickScript = "#!/bin/sh\ni=0\nwhile :; do i=$((i+1)); echo \"tick $i\"; sleep 0.02; done\n"

// tokenLeaks reports where b holds the room token or its first half (a
// cut token leaks as much).
type tokenLeaks struct {
	t     *testing.T
	token string
}

func (l tokenLeaks) check(where string, b []byte) {
	l.t.Helper()
	for _, n := range []string{l.token, l.token[:len(l.token)/2]} {
		if bytes.Contains(b, []byte(n)) {
			l.t.Errorf("the room token (or its first half) is in %s", where)
			return
		}
	}
}

// files checks every regular file under roots and returns their paths.
func (l tokenLeaks) files(roots ...string) []string {
	l.t.Helper()
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, p)
			l.check(p, b)
			return nil
		})
		if err != nil {
			l.t.Fatal(err)
		}
	}
	return files
}

// TestRoomTokenNeverLeavesTheServer: the room token a seat holds (read
// from its /proc environ) appears nowhere a client or a file can see:
// not in any byte an attached client received while the UI showed a
// seat's pane streaming output, nor in `pullcept ls`, server.json, the
// logs or any other file of the data directory, the seat's working
// directory or the socket directory — looked at while the seat runs
// (server.json, the seat's .mcp.json) and again after the server ended
// (its last log lines).
func TestRoomTokenNeverLeavesTheServer(t *testing.T) {
	rt := runtimeDir(t)
	work := t.TempDir()
	script := filepath.Join(work, "ticks.sh")
	if err := os.WriteFile(script, []byte(tickScript), 0o700); err != nil {
		t.Fatal(err)
	}
	s := startTestServer(t, rt, script, `,"language":"en"`)
	u := s.attachUI(t, [][2]string{{"LANG", "C.UTF-8"}})
	pid := s.startShellSeat(t, u)
	token := envValue(environ(t, pid), room.EnvRoomToken)
	if len(token) < 32 {
		t.Fatalf("the seat's %s is %q", room.EnvRoomToken, token)
	}
	l := tokenLeaks{t, token}
	u.keys("\x14") // Ctrl+T: the panes show
	ticks := regexp.MustCompile(`tick (\d+)`)
	u.waitScreen("the seat's output streaming into the UI (tick 100)", func(x string) bool {
		for _, m := range ticks.FindAllStringSubmatch(x, -1) {
			if n, _ := strconv.Atoi(m[1]); n >= 100 {
				return true
			}
		}
		return false
	})
	l.check("pullcept ls", []byte(s.command(t, "ls")))
	for _, f := range []string{config.ServerInfoFile, logFileName} {
		if _, err := os.Stat(filepath.Join(s.data, f)); err != nil {
			t.Errorf("no %s to check: %v", f, err)
		}
	}
	running := l.files(s.data, s.work, filepath.Dir(s.sock))
	t.Logf("checked while the seat ran: %s", strings.Join(running, " "))
	screen := u.scr.Text()
	u.detach()
	s.stop(t)()

	got := u.bytes()
	if len(got) < 1000 {
		t.Fatalf("the client received only %d bytes", len(got))
	}
	t.Logf("checked %d bytes the client received", len(got))
	l.check("the bytes the attached client received", got)
	l.check("the attached screen", []byte(screen))
	after := l.files(s.data, s.work, work, filepath.Dir(s.sock))
	t.Logf("checked after the server ended: %s", strings.Join(after, " "))
}
