//go:build linux

package realapp

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// sshdPath is where Debian's openssh-server puts the daemon (.ci/run
// installs it).
const sshdPath = "/usr/sbin/sshd"

// sshdStop is how long a stopped sshd gets to end before it is killed.
var sshdStop = testkit.Slow(10 * time.Second)

// privateSSHD is a real OpenSSH sshd of the test's own on a free loopback
// port, run as a child in the foreground: a temporary host key, one
// temporary client key authorised, keys only. It signs in as the user the
// test runs as.
type privateSSHD struct {
	t          *testing.T
	cmd        *exec.Cmd
	dir        string
	port       int
	key        string // the client's private key
	knownHosts string // the host key, pinned
	log        string // sshd's stderr (-e)
	user       string
}

// startSSHD starts one for t and stops it at t's end. Without sshd (or
// ssh, ssh-keygen) it fails t when CI is set (.ci/run installs them) and
// skips t otherwise, saying what to install.
func startSSHD(t *testing.T) *privateSSHD {
	t.Helper()
	for _, tool := range []string{sshdPath, "ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := fmt.Sprintf("%s is missing: apt-get install openssh-server openssh-client (.ci/run does)", tool)
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// sshd run as root insists on its privilege separation directory,
		// which a container's /run (a tmpfs, no service ever started)
		// lacks. Made once, left: the system's own sshd wants it too.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatalf("sshd's privilege separation directory: %v", err)
		}
	}
	// A directory of its own, short and outside the test's TempDir:
	// nothing in its name for sshd_config to expand, and sshd's files
	// stay apart from the data directory.
	dir, err := os.MkdirTemp("", "pssh")
	if err != nil {
		t.Fatal(err)
	}
	d := &privateSSHD{t: t, dir: dir, key: filepath.Join(dir, "client"), knownHosts: filepath.Join(dir, "known_hosts"),
		log: filepath.Join(dir, "sshd.log"), user: u.Username}
	t.Cleanup(func() {
		d.stop()
		_ = os.RemoveAll(dir)
	})
	for _, k := range []string{filepath.Join(dir, "host"), d.key} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "pullcept-test", "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	clientPub, err := os.ReadFile(d.key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), clientPub, 0o600); err != nil {
		t.Fatal(err)
	}
	d.port = freePort(t)
	hostPub, err := os.ReadFile(filepath.Join(dir, "host.pub"))
	if err != nil {
		t.Fatal(err)
	}
	known := fmt.Sprintf("[127.0.0.1]:%d %s", d.port, hostPub)
	if err := os.WriteFile(d.knownHosts, []byte(known), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(cfg, []byte(d.config()), 0o600); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(d.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	// sshd re-executes itself: its path must be absolute.
	d.cmd = exec.Command(sshdPath, "-D", "-e", "-f", cfg)
	d.cmd.Stdout, d.cmd.Stderr = logf, logf
	if err := d.cmd.Start(); err != nil {
		t.Fatalf("start sshd: %v", err)
	}
	testkit.Eventually(t, "sshd listens", func() bool {
		b, _ := os.ReadFile(d.log)
		return bytes.Contains(b, []byte("Server listening on 127.0.0.1 port "+strconv.Itoa(d.port)))
	})
	return d
}

// config is the sshd_config: the system's defaults are never read (-f),
// so every line that matters is here. AcceptEnv is Debian's stock one, so
// the locale travels as it does between two stock Debian machines.
func (d *privateSSHD) config() string {
	return strings.Join([]string{
		"Port " + strconv.Itoa(d.port),
		"ListenAddress 127.0.0.1",
		"HostKey " + filepath.Join(d.dir, "host"),
		"PidFile none",
		"AuthorizedKeysFile " + filepath.Join(d.dir, "authorized_keys"),
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"PermitRootLogin prohibit-password",
		"UsePAM no",
		// The temporary directories are not root's 0755 chain.
		"StrictModes no",
		"UseDNS no",
		"PrintMotd no",
		"PrintLastLog no",
		"AcceptEnv LANG LC_*",
		"AllowTcpForwarding no",
		"X11Forwarding no",
		"LogLevel VERBOSE",
		"",
	}, "\n")
}

// command is the shell command line that runs remote over ssh -tt, the
// way a person types it: nothing set up but the key and the pinned host.
func (d *privateSSHD) command(remote string) string {
	args := []string{"ssh", "-tt", "-F", "/dev/null", "-p", strconv.Itoa(d.port), "-i", d.key,
		"-o", "UserKnownHostsFile=" + d.knownHosts, "-o", "GlobalKnownHostsFile=/dev/null",
		"-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
		"-o", "SendEnv=LANG", "-o", "ConnectTimeout=10",
		d.user + "@127.0.0.1", remote}
	return shellJoin(args)
}

// sessions are sshd's processes per connection (children of the listener).
func (d *privateSSHD) sessions() []int {
	if d.cmd == nil || d.cmd.Process == nil {
		return nil
	}
	return childPIDs(d.cmd.Process.Pid)
}

// stop ends the connections' processes (their sessions hang up), then the
// listener, and reaps it.
func (d *privateSSHD) stop() {
	if d.cmd == nil || d.cmd.Process == nil {
		return
	}
	if d.t.Failed() {
		b, _ := os.ReadFile(d.log)
		d.t.Logf("sshd's log:\n%s", b)
	}
	for _, p := range d.sessions() {
		_ = syscall.Kill(p, syscall.SIGTERM)
	}
	testkit.EventuallyWithin(d.t, sshdStop, "sshd's connections ended", func() bool { return len(d.sessions()) == 0 })
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = d.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(sshdStop):
		_ = d.cmd.Process.Kill()
		<-done
	}
	d.cmd = nil
}

// freePort is a loopback TCP port nothing listens on (a moment ago).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// shellWindow opens a tmux session of s's tmux server running a shell
// script at w×h with s's environment.
func (s *served) shellWindow(name string, w, h int, script string) {
	s.t.Helper()
	cmd := append([]string{"-f", "/dev/null", "new-session", "-d", "-s", name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "env"},
		s.env...)
	s.tmux(append(cmd, "sh", "-c", script)...)
}

// remoteAttach is the command sshd's login shell runs: `pullcept attach`
// by its absolute path, PULLCEPT_HOME given (sshd starts from a clean
// environment). The socket's directory follows XDG_RUNTIME_DIR and
// TMPDIR (config.SocketPath): when the test has them they are passed, as a
// login through PAM and logind gives the same ones to both sides.
func (s *served) remoteAttach() string {
	args := []string{"env", "PULLCEPT_HOME=" + s.data}
	for _, v := range []string{"XDG_RUNTIME_DIR", "TMPDIR"} {
		if x := os.Getenv(v); x != "" {
			args = append(args, v+"="+x)
		}
	}
	return shellJoin(append(args, s.bin, "attach"))
}

// TestServedAttachOverOpenSSH is issue 29's "ssh -t HOST pullcept attach"
// through a real OpenSSH sshd on loopback, with nothing set up on the
// server's side but sshd itself: a window starts pullcept and a seat
// answering every post and is killed; `ssh -tt … pullcept attach` in a
// second window shows the same chat, its post reaches the seat and the
// answer shows; `pullcept ls` counts it as a client; Ctrl+Q, Enter
// detaches, ssh ends with status 0, and the seat runs on.
func TestServedAttachOverOpenSSH(t *testing.T) {
	d := startSSHD(t) // first: its cleanup runs after the windows' hang up
	s := newServed(t)
	lines := filepath.Join(s.work, "lines.jsonl")
	for _, dir := range []string{s.data, filepath.Join(s.work, "e")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "echo", Name: "Echo", Kind: "cli", Cwd: filepath.Join(s.work, "e"), Command: fakecli.Command(t),
			Options: "-join -echo -lines " + lines, Env: fakecli.SeatEnv()})

	s.window("w1", 120, 40)
	s.waitScreen("w1", "the accounts panel", func(x string) bool { return strings.Contains(x, "Echo") })
	for range 3 {
		s.tmux("send-keys", "-t", "w1", "Tab")
	}
	s.waitScreen("w1", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w1", "Down", "s")
	var ls string
	testkit.Eventually(t, "pullcept ls lists Echo running", func() bool { ls = s.ls(); return seatPID(ls, "Echo") > 0 })
	echoPID, server := seatPID(ls, "Echo"), s.serverPID()
	// Stop the server and wait for it by the pid read now: newServed's
	// cleanup reads server.json after kill-server, which the stopping
	// server may have removed already, and then its TempDir's removal
	// races the server's last writes. Runs before newServed's cleanup.
	t.Cleanup(func() {
		// Its status is not this test's: a server that stops fast can close
		// the link before kill-server has read its answer.
		if out, err := exec.Command(s.bin, "kill-server", "--data", s.data).CombinedOutput(); err != nil {
			t.Logf("kill-server: %v\n%s", err, out)
		}
		testkit.Eventually(t, "the seat and the server ended", func() bool {
			return syscall.Kill(echoPID, 0) != nil && (server <= 0 || syscall.Kill(server, 0) != nil)
		})
	})
	s.waitScreen("w1", "Echo running, the cursor on it", func(x string) bool {
		return seatRuns(x, "Echo") && strings.Contains(x, "› Echo")
	})
	// A post reaches the seats in the room when it is sent: wait for Echo's
	// sidecar to join.
	s.waitScreen("w1", "Echo joined the room", func(x string) bool { return strings.Contains(x, "· 2 · F1 help") })
	s.tmux("send-keys", "-t", "w1", "Escape")
	s.waitScreen("w1", "the accounts panel lets the focus go", func(x string) bool { return !strings.Contains(x, "› Echo") })
	s.tmux("send-keys", "-t", "w1", "-l", "@Echo first from one")
	s.tmux("send-keys", "-t", "w1", "Enter")
	s.waitScreen("w1", "Echo's answer", func(x string) bool { return echoAnswers(x) >= 1 })
	s.tmux("kill-session", "-t", "w1")
	testkit.Eventually(t, "pullcept ls: no client, Echo running", func() bool {
		ls = s.ls()
		return clients(ls) == 0 && seatPID(ls, "Echo") == echoPID
	})

	// Over ssh: the marker says how ssh ended; `read` keeps the window
	// (and its screen) until the tmux server goes.
	s.shellWindow("w2", 100, 30, d.command(s.remoteAttach())+"; echo SSHEXIT=$?; read x")
	s.waitScreen("w2", "the first post, over ssh", func(x string) bool { return strings.Contains(x, "first from one") })
	if n := len(d.sessions()); n != 1 {
		t.Errorf("sshd has %d connections, want 1 (the attach is not over ssh?)", n)
	}
	s.tmux("send-keys", "-t", "w2", "-l", "@Echo second over ssh")
	s.tmux("send-keys", "-t", "w2", "Enter")
	testkit.Eventually(t, "Echo read the post typed over ssh", func() bool {
		got, _ := fakecli.Lines(lines)
		for _, l := range got {
			if strings.Contains(l, "second over ssh") {
				return true
			}
		}
		return false
	})
	s.waitScreen("w2", "the post and Echo's second answer", func(x string) bool {
		return strings.Contains(x, "second over ssh") && echoAnswers(x) >= 2
	})
	testkit.Eventually(t, "pullcept ls: one client", func() bool { ls = s.ls(); return clients(ls) == 1 })

	// Ctrl+Q: the leave dialog; Enter takes its focus, Detach.
	s.tmux("send-keys", "-t", "w2", "C-q")
	s.waitScreen("w2", "the leave dialog", func(x string) bool { return strings.Contains(x, "Detach") })
	s.tmux("send-keys", "-t", "w2", "Enter")
	got := s.waitScreen("w2", "ssh ended", func(x string) bool { return strings.Contains(x, "SSHEXIT=") })
	if !strings.Contains(got, "SSHEXIT=0") {
		t.Errorf("ssh did not end with status 0:\n%s", got)
	}
	testkit.Eventually(t, "pullcept ls: no client, Echo still running", func() bool {
		ls = s.ls()
		return clients(ls) == 0 && seatPID(ls, "Echo") == echoPID
	})
	if syscall.Kill(echoPID, 0) != nil {
		t.Errorf("Echo's process %d ended with the detach", echoPID)
	}
	testkit.Eventually(t, "sshd's connection ended", func() bool { return len(d.sessions()) == 0 })
}
