//go:build !windows

package app

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"os"
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
	"github.com/pullcept/pullcept/testdata/testkit"
)

// The served mode's security (docs/serve.md "Security"), checked against
// Serve running in this process on a temp data directory, its socket under
// a temp XDG_RUNTIME_DIR. serve_security_linux_test.go has the checks that
// need Linux (another uid's process, /proc).

// serveWait bounds a test server's start and its end.
var serveWait = testkit.Slow(60 * time.Second)

// testServer is Serve running in this test process.
type testServer struct {
	data, work, sock string
	done             chan error
	cancel           context.CancelFunc
	stopOnce         sync.Once
}

// runtimeDir is a short fresh directory for XDG_RUNTIME_DIR (a socket's
// path is limited to about 100 bytes), mode 0755 so that another user's
// process can reach the pullcept directory under it, which then alone
// decides; removed at the test's end.
func runtimeDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "pcs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// withUmask sets the process umask for the test (0: a mode the code does
// not set itself shows as 0777/0666, so a missing chmod cannot hide
// behind the usual 022 or 077).
func withUmask(t *testing.T, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// serveConfig writes a config.json with an admin (Alice) and a generic CLI
// seat running command ("": /bin/sh) in work (Shell); extra are more
// top-level members.
func serveConfig(t *testing.T, data, work, command, extra string) {
	t.Helper()
	if command == "" {
		command = testShell
	}
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"},
		{"id":"sh","name":"Shell","kind":"cli","cwd":` + jsonString(work) + `,"command":` + jsonString(command) + `}]` + extra + `}`
	if err := os.WriteFile(filepath.Join(data, config.FileName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// startTestServer runs Serve on a fresh data directory with its socket
// under XDG_RUNTIME_DIR=rt, until the test ends. command and extra go
// into config.json (serveConfig).
func startTestServer(t *testing.T, rt, command, extra string) *testServer {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	s := &testServer{data: t.TempDir(), work: t.TempDir(), done: make(chan error, 1)}
	serveConfig(t, s.data, s.work, command, extra)
	var ctx context.Context
	ctx, s.cancel = context.WithCancel(context.Background())
	ready := make(chan error, 1)
	go func() {
		s.done <- Serve(ctx, s.data, "test", ServeOptions{Ready: func(err error) { ready <- err }})
	}()
	timer := time.NewTimer(serveWait)
	defer timer.Stop()
	select {
	case err := <-ready:
		if err != nil {
			s.cancel()
			t.Fatalf("Serve did not start: %v", err)
		}
	case <-timer.C:
		s.cancel()
		t.Fatalf("Serve did not listen within %v", serveWait)
	}
	t.Cleanup(s.stop(t))
	var err error
	if s.sock, err = config.SocketPath(s.data); err != nil {
		t.Fatal(err)
	}
	return s
}

// stop ends the server and waits for Serve to return. Idempotent.
func (s *testServer) stop(t *testing.T) func() {
	return func() { s.stopOnce.Do(func() { s.stopNow(t) }) }
}

func (s *testServer) stopNow(t *testing.T) {
	s.cancel()
	timer := time.NewTimer(serveWait)
	defer timer.Stop()
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-timer.C:
		t.Errorf("Serve did not end within %v of its context", serveWait)
	}
}

// sshDial signs in on the test server's socket with cfg.
func (s *testServer) sshDial(cfg *gossh.ClientConfig) (*gossh.Client, error) {
	conn, err := net.Dial("unix", s.sock)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(serveWait))
	c, chans, reqs, err := gossh.NewClientConn(conn, s.sock, cfg)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	return gossh.NewClient(c, chans, reqs), nil
}

// command runs one of the server's exec commands as its client does.
func (s *testServer) command(t *testing.T, name string) string {
	t.Helper()
	var out strings.Builder
	if err := attachclient.Command(s.data, name, &out); err != nil {
		t.Fatalf("pullcept %s: %v\n%s", name, err, out.String())
	}
	return out.String()
}

func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lsSeatPID is the pid `pullcept ls` gives the named seat when it runs.
func lsSeatPID(ls, name string) int {
	m := regexp.MustCompile(regexp.QuoteMeta(name) + `\s+running\s+pid (\d+)`).FindStringSubmatch(ls)
	if m == nil {
		return 0
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// TestSocketDirUnsafeIsRefused: a socket directory that is not this user's
// alone — group or other bits, another owner, a symlink, not a directory
// — is refused by config.SocketPath (ErrSocketDirUnsafe) and so by Serve,
// which then never listens; nothing is created in it. A fresh one is
// created 0700.
func TestSocketDirUnsafeIsRefused(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T, dir string)
	}{
		{"group bits", func(t *testing.T, dir string) { mkdirMode(t, dir, 0o750) }},
		{"other bits", func(t *testing.T, dir string) { mkdirMode(t, dir, 0o701) }},
		{"group write", func(t *testing.T, dir string) { mkdirMode(t, dir, 0o720) }},
		{"another owner", func(t *testing.T, dir string) {
			if os.Getuid() != 0 {
				t.Skip("needs root to give the directory to another uid (chown); the mode cases still run")
			}
			mkdirMode(t, dir, 0o700)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}},
		{"a symlink to a private directory", func(t *testing.T, dir string) {
			target := filepath.Join(filepath.Dir(dir), "elsewhere")
			mkdirMode(t, target, 0o700)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"not a directory", func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := runtimeDir(t)
			t.Setenv("XDG_RUNTIME_DIR", rt)
			dir := filepath.Join(rt, "pullcept")
			c.make(t, dir)
			data := t.TempDir()
			serveConfig(t, data, t.TempDir(), "", "")
			if p, err := config.SocketPath(data); !errors.Is(err, config.ErrSocketDirUnsafe) {
				t.Fatalf("SocketPath = %q, %v; want ErrSocketDirUnsafe", p, err)
			}
			var readyErr error
			err := Serve(context.Background(), data, "test", ServeOptions{Ready: func(err error) { readyErr = err }})
			if !errors.Is(err, config.ErrSocketDirUnsafe) || !errors.Is(readyErr, config.ErrSocketDirUnsafe) {
				t.Fatalf("Serve = %v, Ready got %v; want ErrSocketDirUnsafe for both", err, readyErr)
			}
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				if des, _ := os.ReadDir(dir); len(des) > 0 {
					t.Errorf("something was created in the refused directory: %v", des)
				}
			}
			if _, err := os.Stat(filepath.Join(data, config.ServerInfoFile)); err == nil {
				t.Error("server.json was written though the server never listened")
			}
		})
	}
	t.Run("fresh", func(t *testing.T) {
		withUmask(t, 0)
		rt := runtimeDir(t)
		t.Setenv("XDG_RUNTIME_DIR", rt)
		p, err := config.SocketPath(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Dir(p))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("the socket directory was created %#o, want 0700", fi.Mode().Perm())
		}
	})
}

func mkdirMode(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// TestServeSocketIsPrivate: the socket is 0600 and its directory 0700,
// both this user's, even under umask 0.
func TestServeSocketIsPrivate(t *testing.T) {
	withUmask(t, 0)
	s := startTestServer(t, runtimeDir(t), "", "")
	fi, err := os.Lstat(s.sock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("%s is %v, not a socket", s.sock, fi.Mode())
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the socket is %#o, want 0600", fi.Mode().Perm())
	}
	di, err := os.Lstat(filepath.Dir(s.sock))
	if err != nil {
		t.Fatal(err)
	}
	if !di.IsDir() || di.Mode().Perm() != 0o700 {
		t.Errorf("the socket directory is %v, want a 0700 directory", di.Mode())
	}
	for _, f := range []os.FileInfo{fi, di} {
		if st, ok := f.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
			t.Errorf("%s belongs to uid %d, not %d", f.Name(), st.Uid, os.Getuid())
		}
	}
}

// TestAttachClientRefusesAnOpenSocketDir: the client, too, talks only to a
// socket in a directory that is this user's alone: once the server's
// socket directory is opened to others (a socket there could be anyone's),
// Dial refuses with ErrSocketDirUnsafe before it connects; closed again,
// it signs in.
func TestAttachClientRefusesAnOpenSocketDir(t *testing.T) {
	s := startTestServer(t, runtimeDir(t), "", "")
	dir := filepath.Dir(s.sock)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := attachclient.Dial(s.data)
	if err == nil {
		_ = c.Close()
	}
	if !errors.Is(err, config.ErrSocketDirUnsafe) {
		t.Errorf("Dial with the socket directory 0755 = %v; want ErrSocketDirUnsafe", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if v := strings.TrimSpace(s.command(t, "version")); v != "test" {
		t.Errorf("version once the directory is private again = %q", v)
	}
}

// TestServeRefusesOtherSignIns: only the data directory's client key signs
// in. An unknown key, the host key used as a client key, a password,
// keyboard-interactive answers and no credentials at all ("none") are
// refused; the client key (control) signs in and runs `version`.
func TestServeRefusesOtherSignIns(t *testing.T) {
	s := startTestServer(t, runtimeDir(t), "", "")
	host, client, err := config.LoadServeKeys(s.data)
	if err != nil {
		t.Fatal(err)
	}
	pin := gossh.FixedHostKey(host.PublicKey())
	yes := func(string, string, []string, []bool) ([]string, error) { return []string{"secret"}, nil }
	refused := map[string][]gossh.AuthMethod{
		"an unknown key":       {gossh.PublicKeys(newSigner(t))},
		"the host key":         {gossh.PublicKeys(host)},
		"a password":           {gossh.Password("secret")},
		"keyboard-interactive": {gossh.KeyboardInteractive(yes)},
		"none":                 nil,
		"all of those at once": {gossh.PublicKeys(newSigner(t)), gossh.Password(""), gossh.KeyboardInteractive(yes)},
	}
	for name, auth := range refused {
		c, err := s.sshDial(&gossh.ClientConfig{User: "root", Auth: auth, HostKeyCallback: pin})
		if err == nil {
			_ = c.Close()
			t.Errorf("%s signed in", name)
			continue
		}
		if !strings.Contains(err.Error(), "unable to authenticate") {
			t.Errorf("%s: refused for another reason than sign-in: %v", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	c, err := s.sshDial(&gossh.ClientConfig{User: "root", Auth: []gossh.AuthMethod{gossh.PublicKeys(client)}, HostKeyCallback: pin})
	if err != nil {
		t.Fatalf("the client key was refused: %v", err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if out, err := sess.Output("version"); err != nil || strings.TrimSpace(string(out)) != "test" {
		t.Errorf("version with the client key = %q, %v", out, err)
	}
}

// TestAttachClientRefusesWrongHostKey: the client pins the data
// directory's host key: another server key over the very same socket is
// refused (DialConn), and so is Dial once serve_host_ed25519 holds
// another key than the one the server signs with.
func TestAttachClientRefusesWrongHostKey(t *testing.T) {
	s := startTestServer(t, runtimeDir(t), "", "")
	host, client, err := config.LoadServeKeys(s.data)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("unix", s.sock)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := attachclient.DialConn(conn, s.sock, newSigner(t).PublicKey(), client); err == nil {
		_ = c.Close()
		t.Fatal("DialConn accepted a server whose host key is not the pinned one")
	} else {
		t.Logf("DialConn with another host key: %v", err)
	}
	// Control: the same call with the right key signs in.
	conn, err = net.Dial("unix", s.sock)
	if err != nil {
		t.Fatal(err)
	}
	c, err := attachclient.DialConn(conn, s.sock, host.PublicKey(), client)
	if err != nil {
		t.Fatalf("DialConn with the server's host key: %v", err)
	}
	_ = c.Close()

	// The pin is the file: replace it with another key and Dial refuses.
	hostFile := filepath.Join(s.data, config.HostKeyFile)
	if err := os.Remove(hostFile); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if _, _, err := config.ServeKeys(other); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(other, config.HostKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hostFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := attachclient.Dial(s.data); err == nil {
		_ = c.Close()
		t.Fatal("Dial accepted the server though serve_host_ed25519 holds another key")
	} else if errors.Is(err, attachclient.ErrNoServer) {
		t.Fatalf("Dial: %v; want a host key refusal", err)
	} else {
		t.Logf("Dial with another pinned key: %v", err)
	}
}
