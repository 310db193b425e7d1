//go:build linux

package realapp

// The served mode's lifecycle (docs/serve.md "How it works", "Signals and
// ends") with the real binary: two plain starts at once make one server,
// a SIGKILLed server takes its seats with it and the next start replaces
// its stale socket, and an empty server ends by itself.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// serverProcesses are the live processes running `pullcept server --data
// dir` (Linux /proc; a zombie has no command line).
func serverProcesses(dir string) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		i := slices.Index(args, "server")
		if i < 0 || i+2 >= len(args) || args[i+1] != "--data" || args[i+2] != dir {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d))); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// processGone: pid has ended (no such process, or a zombie nobody reaped
// yet: a server's seats are reparented when it dies).
func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// treePIDs is pid and every live descendant of it.
func treePIDs(pid int) []int {
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, childPIDs(out[i])...)
	}
	return out
}

// flockWaiters counts the processes blocked on a flock of path
// (/proc/locks marks a blocked request with "->").
func flockWaiters(t *testing.T, path string) int {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ino := ":" + strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10)
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if slices.Contains(f, "->") && slices.ContainsFunc(f, func(x string) bool { return strings.HasSuffix(x, ino) }) {
			n++
		}
	}
	return n
}

// TestServedTwoStartsMakeOneServer: two plain `pullcept` started at the
// same instant (both held at a flock barrier, then let go together) on one
// data directory end up attached to one server: `pullcept ls` counts two
// clients, one process runs `server --data DIR`, and serve.log holds no
// refused second server.
func TestServedTwoStartsMakeOneServer(t *testing.T) {
	s := newServed(t)
	if _, err := exec.LookPath("flock"); err != nil {
		t.Fatalf("flock (util-linux) is needed for the start barrier: %v", err)
	}
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		t.Fatal(err)
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "sh", Name: "Shell", Kind: "cli", Cwd: s.work, Command: "/bin/sh"})
	barrier := filepath.Join(s.work, "barrier.lock")
	f, err := os.Create(barrier)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"w1", "w2"} {
		cmd := append([]string{"-f", "/dev/null", "new-session", "-d", "-s", w, "-x", "100", "-y", "30", "env"}, s.env...)
		s.tmux(append(cmd, "flock", "-s", "-o", barrier, s.bin)...)
	}
	testkit.Eventually(t, "both starts wait at the barrier", func() bool { return flockWaiters(t, barrier) == 2 })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}

	var ls string
	testkit.Eventually(t, "pullcept ls counts two clients", func() bool { ls = s.ls(); return clients(ls) == 2 })
	for _, w := range []string{"w1", "w2"} {
		s.waitScreen(w, "the UI", func(x string) bool { return strings.Contains(x, "Shell") })
	}
	procs := serverProcesses(s.data)
	if len(procs) != 1 || procs[0] != s.serverPID() {
		t.Errorf("server processes for %s: %v; want exactly server.json's pid %d", s.data, procs, s.serverPID())
	}
	if log, err := os.ReadFile(filepath.Join(s.data, config.ServeLogFile)); err == nil && bytes.Contains(log, []byte("pullcept server:")) {
		t.Errorf("a second server was started and refused; serve.log:\n%s", log)
	}
	t.Logf("pullcept ls:\n%s", ls)
}

// TestServedKilledServerEndsItsSeats: `kill -9` of the server ends its
// seat (the PTY hangs up: the fake CLI and its sidecar end), leaves the
// socket file behind, and the next plain `pullcept` replaces that stale
// socket with a new server and attaches. What happens to the seat's
// .mcp.json entry is logged, not asserted (a crash cannot clean up; see
// the report of issue 29's tests).
func TestServedKilledServerEndsItsSeats(t *testing.T) {
	s := newServed(t)
	cwd := filepath.Join(s.work, "e")
	lines := filepath.Join(s.work, "lines.jsonl")
	for _, d := range []string{s.data, cwd} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "echo", Name: "Echo", Kind: "cli", Cwd: cwd, Command: fakecli.Command(t),
			Options: "-join -echo -lines " + lines, Env: fakecli.SeatEnv()})
	s.window("w1", 120, 40)
	s.waitScreen("w1", "the accounts panel", func(x string) bool { return strings.Contains(x, "Echo") })
	for range 3 {
		s.tmux("send-keys", "-t", "w1", "Tab")
	}
	s.waitScreen("w1", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w1", "Down", "s")
	s.waitScreen("w1", "Echo joined the room", func(x string) bool { return strings.Contains(x, "· 2 · F1 help") })
	seat := seatPID(s.ls(), "Echo")
	if seat == 0 {
		t.Fatalf("pullcept ls gives no running Echo:\n%s", s.ls())
	}
	tree := treePIDs(seat)
	if len(tree) < 2 {
		t.Fatalf("the seat %d has no sidecar under it: %v", seat, tree)
	}
	mcp := filepath.Join(cwd, ".mcp.json")
	before, _ := os.ReadFile(mcp)
	t.Logf(".mcp.json while the seat ran:\n%s", before)
	sock, err := config.SocketPath(s.data)
	if err != nil {
		t.Fatal(err)
	}

	old := s.serverPID()
	if old == 0 {
		t.Fatal("no server.json pid")
	}
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the server, the seat and its sidecar ended", func() bool {
		if !processGone(old) {
			return false
		}
		for _, p := range tree {
			if !processGone(p) {
				return false
			}
		}
		return true
	})
	fi, err := os.Lstat(sock)
	if err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("the killed server's socket file is not left behind: %v, %v", fi, err)
	}
	if c, err := exec.Command(s.bin, "ls", "--data", s.data).CombinedOutput(); err == nil {
		t.Fatalf("pullcept ls found a server on the stale socket:\n%s", c)
	} else {
		t.Logf("pullcept ls on the stale socket: %v: %s", err, c)
	}
	crashed, _ := os.ReadFile(mcp)
	t.Logf(".mcp.json after the kill -9:\n%s", crashed)
	if _, err := os.Stat(filepath.Join(s.data, config.ServerInfoFile)); err == nil {
		t.Logf("server.json is left behind by the kill -9 (pid %d)", old)
	}

	s.window("w2", 120, 40)
	var ls string
	testkit.Eventually(t, "a new server with the new window attached", func() bool {
		ls = s.ls()
		return clients(ls) == 1
	})
	s.waitScreen("w2", "the UI", func(x string) bool { return strings.Contains(x, "Echo") })
	now := s.serverPID()
	if now == 0 || now == old || processGone(now) {
		t.Errorf("server.json's pid is %d after the restart (the killed one was %d)", now, old)
	}
	if procs := serverProcesses(s.data); len(procs) != 1 || procs[0] != now {
		t.Errorf("server processes after the restart: %v; want [%d]", procs, now)
	}
	// The new server answers on the path: the stale file was replaced (its
	// inode number may come back, so no SameFile).
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Errorf("no socket after the restart: %v, %v", fi, err)
	}
	after, _ := os.ReadFile(mcp)
	t.Logf(".mcp.json after the new server started:\n%s", after)
	t.Logf("pullcept ls after the restart:\n%s", ls)
}

// TestServedEmptyServerEnds: `pullcept server --exit-empty 1s` with no
// client and no seat ends by itself, status 0, its socket and server.json
// removed.
func TestServedEmptyServerEnds(t *testing.T) {
	s := newServed(t)
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		t.Fatal(err)
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "sh", Name: "Shell", Kind: "cli", Cwd: s.work, Command: "/bin/sh"})
	sock, err := config.SocketPath(s.data)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(s.bin, "server", "--data", s.data, "--exit-empty", "1s")
	cmd.Env = append(os.Environ(), "PULLCEPT_HOME="+s.data)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ended := false
	t.Cleanup(func() {
		if !ended {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	testkit.Eventually(t, "the server answers", func() bool { return clients(s.ls()) == 0 })
	var status error
	testkit.Eventually(t, "the empty server ended by itself", func() bool {
		select {
		case status = <-done:
			ended = true
		default:
		}
		return ended
	})
	if status != nil {
		t.Errorf("the server ended with %v:\n%s", status, out.String())
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Errorf("the socket %s is left", sock)
	}
	if _, err := os.Stat(filepath.Join(s.data, config.ServerInfoFile)); err == nil {
		t.Error("server.json is left")
	}
	if log, err := os.ReadFile(filepath.Join(s.data, "pullcept.log")); err != nil || !bytes.Contains(log, []byte(`why=empty`)) {
		t.Errorf("pullcept.log does not say the server ended empty (%v):\n%s", err, log)
	}
}
