//go:build !windows

package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// sshRig is Serve with the embedded listener on loopback, port 0.
type sshRig struct {
	data, keys string
	addr       string
	ok, other  gossh.Signer
	host       gossh.PublicKey
	stop       func()
}

// startSSHRig serves a fresh data directory with --ssh 127.0.0.1:0 and an
// authorized_keys file listing one key (rig.ok); the test ends it.
func startSSHRig(t *testing.T) *sshRig {
	t.Helper()
	rt, err := os.MkdirTemp("", "pcssh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	r := &sshRig{data: t.TempDir(), ok: sshSigner(t), other: sshSigner(t)}
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}]}`
	if err := os.WriteFile(filepath.Join(r.data, config.FileName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r.keys = filepath.Join(r.data, AuthorizedKeysFile)
	if err := os.WriteFile(r.keys, append([]byte("# the laptop\n"), gossh.MarshalAuthorizedKey(r.ok.PublicKey())...), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan error, 1), make(chan error, 1)
	go func() {
		done <- Serve(ctx, r.data, "test", ServeOptions{SSH: "127.0.0.1:0", Ready: func(err error) { ready <- err }})
	}()
	if err := waitChan(ready); err != nil {
		cancel()
		t.Fatalf("Serve: %v", err)
	}
	r.stop = func() {
		cancel()
		if err := waitChan(done); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
	t.Cleanup(r.stop)
	in, err := config.ReadServerInfo(r.data)
	if err != nil {
		t.Fatal(err)
	}
	r.addr = in.SSH
	host, _, err := config.LoadServeKeys(r.data)
	if err != nil {
		t.Fatal(err)
	}
	r.host = host.PublicKey()
	return r
}

func waitChan(c chan error) error {
	select {
	case err := <-c:
		return err
	case <-time.After(testkit.Slow(30 * time.Second)):
		return errors.New("no answer within the deadline")
	}
}

func sshSigner(t *testing.T) gossh.Signer {
	t.Helper()
	dir := t.TempDir()
	host, _, err := config.ServeKeys(dir) // any fresh ed25519 key will do
	if err != nil {
		t.Fatal(err)
	}
	return host
}

func (r *sshRig) dial(auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", r.addr, &gossh.ClientConfig{User: "me", Auth: auth,
		HostKeyCallback: gossh.FixedHostKey(r.host), Timeout: testkit.Slow(10 * time.Second)})
}

// TestSSHListenerNeedsAKey: with no key to let in (no file, an empty
// one, an unreadable line) the listener does not start, and says why.
func TestSSHListenerNeedsAKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys")
	s := &server{}
	host := sshSigner(t)
	for name, content := range map[string]*string{"missing": nil, "empty": new(string), "bad line": ptr("ssh-ed25519 not-base64\n")} {
		_ = os.Remove(path)
		if content != nil {
			if err := os.WriteFile(path, []byte(*content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := s.listenSSH("127.0.0.1:0", path, host); !errors.Is(err, ErrNoAuthorizedKeys) {
			t.Errorf("%s: listenSSH = %v, want ErrNoAuthorizedKeys", name, err)
		}
	}
	opts := "from=\"10.0.0.1\" " + string(gossh.MarshalAuthorizedKey(host.PublicKey()))
	if err := os.WriteFile(path, []byte(opts), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.listenSSH("127.0.0.1:0", path, host); err == nil || !strings.Contains(err.Error(), "options") {
		t.Errorf("a key with options = %v, want a refusal naming them", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestSSHListenerAddress: a bare port is loopback's; a host is kept.
func TestSSHListenerAddress(t *testing.T) {
	for in, want := range map[string]string{"2222": "127.0.0.1:2222", ":2222": "127.0.0.1:2222",
		"0.0.0.0:2222": "0.0.0.0:2222", "[::1]:22": "[::1]:22"} {
		if got, err := sshAddr(in); err != nil || got != want {
			t.Errorf("sshAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := sshAddr("host:"); err == nil {
		t.Error("an address without a port was taken")
	}
}

// TestSSHListenerLetsInOnlyItsKeys: the listed key gets a UI on a
// terminal; another key, a password, keyboard questions and no
// authentication at all are refused; a key removed from the file stops
// working at the next attempt.
func TestSSHListenerLetsInOnlyItsKeys(t *testing.T) {
	r := startSSHRig(t)
	if !strings.HasPrefix(r.addr, "127.0.0.1:") {
		t.Fatalf("the listener is on %q, want loopback", r.addr)
	}
	for name, auth := range map[string][]gossh.AuthMethod{
		"another key": {gossh.PublicKeys(r.other)},
		"a password":  {gossh.Password("secret")},
		"keyboard":    {gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return []string{"x"}, nil })},
		"nothing":     nil,
	} {
		if c, err := r.dial(auth...); err == nil {
			c.Close()
			t.Errorf("%s: signed in", name)
		}
	}
	c, err := r.dial(gossh.PublicKeys(r.ok))
	if err != nil {
		t.Fatalf("the listed key: %v", err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out sshOut
	sess.Stdout = &out
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the UI drawn over the listener", func() bool { return strings.Contains(out.String(), "Accounts") })
	sess.Close()

	if err := os.WriteFile(r.keys, gossh.MarshalAuthorizedKey(r.other.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	if c2, err := r.dial(gossh.PublicKeys(r.ok)); err == nil {
		c2.Close()
		t.Error("a key removed from authorized_keys still signs in")
	}
}

// TestSSHListenerRefusesWithoutATerminalOrForwarding: a session without a
// PTY is refused (even ls), and so is a forwarding channel.
func TestSSHListenerRefusesWithoutATerminalOrForwarding(t *testing.T) {
	r := startSSHRig(t)
	c, err := r.dial(gossh.PublicKeys(r.ok))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, cmd := range []string{"", "ls"} {
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		var out sshOut
		sess.Stdout, sess.Stderr = &out, &out
		if cmd == "" {
			err = sess.Shell()
			if err == nil {
				err = sess.Wait()
			}
		} else {
			err = sess.Run(cmd)
		}
		var exit *gossh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() != 1 || !strings.Contains(out.String(), "terminal is needed") {
			t.Errorf("%q without a PTY: %v, %q; want exit 1 and the reason", cmd, err, out.String())
		}
		sess.Close()
	}
	if conn, err := c.Dial("tcp", r.addr); err == nil {
		conn.Close()
		t.Error("a direct-tcpip channel was opened")
	}
}

// sshOut is a buffer the session's copier writes while the test reads.
type sshOut struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *sshOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *sshOut) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}
