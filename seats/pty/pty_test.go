//go:build unix

package pty

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// helperEnv selects a PTY-level helper when the test binary is re-executed
// as a child through TestHelperProcess (the os/exec GO_WANT_HELPER_PROCESS
// pattern): window sizes, signals and process trees, below what a seat's
// fake CLI (testdata/fakecli) does.
const helperEnv = "PULLCEPT_SEATS_HELPER"

// ptyDeadline bounds every wait on a child in these tests. Generous: a -race
// test binary re-executing itself on 2 busy cores starts in ~0.1–1 s.
var ptyDeadline = testkit.Slow(20 * time.Second)

// TestHelperProcess is not a test: it is the fake CLI the PTY tests start.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return // an ordinary test run: nothing to do
	}
	// A helper process must end with a chosen status; os.Exit is the only way.
	os.Exit(runHelper(mode))
}

func runHelper(mode string) int {
	switch mode {
	case "echo": // print TERM, then answer every line; "exit N" exits with N
		fmt.Printf("term=%s\n", os.Getenv("TERM"))
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			line := sc.Text()
			if n, ok := strings.CutPrefix(line, "exit "); ok {
				code, _ := strconv.Atoi(n)
				return code
			}
			fmt.Printf("got: %s\n", line)
		}
		return 0
	case "size": // report the window size now and on every SIGWINCH
		winch := make(chan os.Signal, 1)
		signal.Notify(winch, syscall.SIGWINCH)
		for {
			ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
			if err != nil {
				fmt.Printf("size error %v\n", err)
				return 3
			}
			fmt.Printf("size %d %d\n", ws.Row, ws.Col)
			<-winch
		}
	case "sleep": // say ready, then block until a signal ends the process
		// A hangup ends it even when SIGHUP came ignored (a test run under
		// nohup passes SIG_IGN down, and exec keeps it): exit as a
		// SIGHUP death reads, 128+1.
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		fmt.Println("ready")
		<-hup
		return 128 + int(syscall.SIGHUP)
	case "exit": // say bye and exit 7
		fmt.Println("bye")
		return 7
	case "tree": // ignore HUP/TERM, start a grandchild that does too, block
		signal.Ignore(syscall.SIGHUP, syscall.SIGTERM)
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), helperEnv+"=stubborn")
		if err := cmd.Start(); err != nil {
			fmt.Printf("grandchild error %v\n", err)
			return 3
		}
		fmt.Printf("grandchild %d\n", cmd.Process.Pid)
		select {}
	case "stubborn": // the grandchild: survive HUP and TERM
		signal.Ignore(syscall.SIGHUP, syscall.SIGTERM)
		select {}
	}
	if f, ok := osHelpers[mode]; ok {
		return f()
	}
	fmt.Printf("unknown helper mode %q\n", mode)
	return 2
}

// osHelpers are the helper modes of one OS's tests (isolate_linux_test.go).
var osHelpers = map[string]func() int{}

// isolateHelpers, when set, starts startHelper's children with it
// (TestIsolatedPTYBehavesAsPlain runs the tests above in namespaces).
var isolateHelpers *Isolate

// startHelper starts the test binary as a fake CLI in a PTY.
func startHelper(t *testing.T, mode string, cols, rows int) Proc {
	t.Helper()
	p, err := Start(Options{
		Argv:    []string{os.Args[0], "-test.run=^TestHelperProcess$"},
		Dir:     t.TempDir(),
		Env:     append(withoutEnv(os.Environ(), "TERM"), helperEnv+"="+mode),
		Cols:    cols,
		Rows:    rows,
		Isolate: isolateHelpers,
	})
	if err != nil {
		t.Fatalf("Start(%s): %v", mode, err)
	}
	t.Cleanup(func() {
		_ = p.Kill()
		_ = p.Close()
		waitExit(t, p)
	})
	return p
}

func withoutEnv(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// waitExit waits for the child with the test deadline.
func waitExit(t *testing.T, p Proc) int {
	t.Helper()
	type res struct {
		code int
		err  error
	}
	ch := make(chan res, 1)
	go func() { c, err := p.Wait(); ch <- res{c, err} }()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Errorf("Wait: %v", r.err)
		}
		return r.code
	case <-time.After(ptyDeadline):
		t.Fatalf("child %d did not exit within %v", p.Pid(), ptyDeadline)
		return -1
	}
}

// collector reads a Proc until it fails and keeps everything it read.
type collector struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	err     error
	changed chan struct{}
	done    chan struct{}
}

func collect(p io.Reader) *collector {
	c := &collector{changed: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		b := make([]byte, 4096)
		for {
			n, err := p.Read(b)
			c.mu.Lock()
			c.buf.Write(b[:n])
			if err != nil {
				c.err = err
			}
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *collector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// waitFor waits until the output contains want.
func (c *collector) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(ptyDeadline)
	for {
		if strings.Contains(c.String(), want) {
			return
		}
		select {
		case <-c.changed:
		case <-c.done:
			if !strings.Contains(c.String(), want) {
				t.Fatalf("output ended (%v) without %q; got %q", c.readErr(), want, c.String())
			}
			return
		case <-deadline:
			t.Fatalf("no %q within %v; got %q", want, ptyDeadline, c.String())
		}
	}
}

func (c *collector) readErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// waitDone waits for the reader to stop and returns its final error.
func (c *collector) waitDone(t *testing.T) error {
	t.Helper()
	select {
	case <-c.done:
		return c.readErr()
	case <-time.After(ptyDeadline):
		t.Fatalf("Read still blocked after %v; got %q", ptyDeadline, c.String())
		return nil
	}
}

// processGone reports whether pid no longer runs: absent, or a zombie waiting
// for a parent that is not us (Linux /proc; elsewhere kill(pid, 0)).
func processGone(pid int) bool {
	if runtime.GOOS == "linux" {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// Field 3, after the parenthesised command name, is the state.
		s := string(stat)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
			return s[i+2] == 'Z' || s[i+2] == 'X'
		}
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestPTYEchoAndTerm(t *testing.T) {
	p := startHelper(t, "echo", 80, 24)
	out := collect(p)
	out.waitFor(t, "term="+termName)
	if _, err := p.Write([]byte("hello 日本語\n")); err != nil {
		t.Fatal(err)
	}
	// The line discipline echoes what we typed, then the child answers.
	out.waitFor(t, "hello 日本語\r\n")
	out.waitFor(t, "got: hello 日本語\r\n")
	if _, err := p.Write([]byte("exit 5\n")); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, p); code != 5 {
		t.Fatalf("exit code %d, want 5", code)
	}
}

func TestPTYResizeSeenByChild(t *testing.T) {
	p := startHelper(t, "size", 80, 24)
	out := collect(p)
	out.waitFor(t, "size 24 80")
	if err := p.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "size 30 100")
	if err := p.Resize(0, 30); !errors.Is(err, ErrBadSize) {
		t.Fatalf("Resize(0, 30) = %v, want ErrBadSize", err)
	}
}

func TestPTYExitGivesEOFAndCode(t *testing.T) {
	p := startHelper(t, "exit", 0, 0)
	out := collect(p)
	if err := out.waitDone(t); err != io.EOF {
		t.Fatalf("read after exit ended with %v, want io.EOF (EIO mapped)", err)
	}
	if !strings.Contains(out.String(), "bye") {
		t.Fatalf("output %q lacks bye", out.String())
	}
	if code := waitExit(t, p); code != 7 {
		t.Fatalf("exit code %d, want 7", code)
	}
	// Wait reaped it: no zombie left behind, and Wait answers again.
	if !processGone(p.Pid()) {
		t.Fatalf("child %d still present after Wait", p.Pid())
	}
	if code, err := p.Wait(); code != 7 || err != nil {
		t.Fatalf("second Wait = %d, %v", code, err)
	}
	if sig := p.Signaled(); sig != 0 {
		t.Fatalf("Signaled = %d after an exit", sig)
	}
}

func TestPTYCtrlCInterrupts(t *testing.T) {
	p := startHelper(t, "sleep", 80, 24)
	out := collect(p)
	out.waitFor(t, "ready")
	if _, err := p.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, p); code != 128+int(syscall.SIGINT) {
		t.Fatalf("exit code %d, want %d (SIGINT through the controlling terminal)", code, 128+int(syscall.SIGINT))
	}
	if sig := p.Signaled(); sig != int(syscall.SIGINT) {
		t.Fatalf("Signaled = %d, want SIGINT", sig)
	}
}

func TestPTYCloseUnblocksReadAndHangsUp(t *testing.T) {
	p := startHelper(t, "sleep", 80, 24)
	out := collect(p)
	out.waitFor(t, "ready")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.waitDone(t); err == nil {
		t.Fatal("Read returned no error after Close")
	}
	if code := waitExit(t, p); code != 128+int(syscall.SIGHUP) {
		t.Fatalf("exit code %d, want %d (hangup on master close)", code, 128+int(syscall.SIGHUP))
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestPTYKillEndsWholeGroup(t *testing.T) {
	p := startHelper(t, "tree", 80, 24)
	out := collect(p)
	out.waitFor(t, "grandchild ")
	out.waitFor(t, "\n")
	var gpid int
	for _, line := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "grandchild "); ok {
			gpid, _ = strconv.Atoi(rest)
		}
	}
	if gpid <= 0 {
		t.Fatalf("no grandchild pid in %q", out.String())
	}
	if processGone(gpid) {
		t.Fatalf("grandchild %d not running before Kill", gpid)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	// Both ignore SIGHUP and SIGTERM: only the SIGKILL after the grace ends them.
	if code := waitExit(t, p); code != 128+int(syscall.SIGKILL) {
		t.Fatalf("exit code %d, want %d", code, 128+int(syscall.SIGKILL))
	}
	testkit.Eventually(t, fmt.Sprintf("grandchild %d gone after Kill", gpid), func() bool { return processGone(gpid) })
	if err := p.Kill(); err != nil {
		t.Fatalf("Kill after the group is gone: %v", err)
	}
}

func TestPTYKillCooperativeChild(t *testing.T) {
	p := startHelper(t, "sleep", 80, 24)
	collect(p).waitFor(t, "ready")
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	// SIGHUP and SIGTERM go out back to back; either may be the one that
	// ends it first. Never SIGKILL: the child did not need the grace (the
	// exit code says which signal ended it; timing the Kill said the same
	// and failed under load, issue 28).
	if code := waitExit(t, p); code != 128+int(syscall.SIGHUP) && code != 128+int(syscall.SIGTERM) {
		t.Fatalf("exit code %d, want %d or %d (%d: the SIGKILL after the grace)", code, 128+int(syscall.SIGHUP), 128+int(syscall.SIGTERM), 128+int(syscall.SIGKILL))
	}
}

func TestStartBadInput(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		o    Options
		want error
	}{
		{"no argv", Options{Dir: dir}, config.ErrNoCommand},
		{"empty argv0", Options{Argv: []string{""}, Dir: dir}, config.ErrNoCommand},
		{"no dir", Options{Argv: []string{"true"}}, config.ErrNoWorkDir},
		{"negative cols", Options{Argv: []string{"true"}, Dir: dir, Cols: -1}, ErrBadSize},
		{"huge rows", Options{Argv: []string{"true"}, Dir: dir, Rows: 1 << 20}, ErrBadSize},
		{"missing dir", Options{Argv: []string{"true"}, Dir: dir + "/nope"}, os.ErrNotExist},
		{"dir is a file", Options{Argv: []string{"true"}, Dir: file}, nil},
		{"unknown command", Options{Argv: []string{"pullcept-no-such-command"}, Dir: dir}, exec.ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Start(c.o)
			if err == nil {
				_ = p.Kill()
				_ = p.Close()
				_, _ = p.Wait()
				t.Fatal("Start succeeded")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestWithTermKeepsCallerEnv(t *testing.T) {
	t.Parallel()
	env := []string{"A=1"}
	got := withTerm(env)
	if len(env) != 1 || env[0] != "A=1" {
		t.Fatalf("caller's env modified: %q", env)
	}
	if want := []string{"A=1", "TERM=" + termName}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("withTerm = %q, want %q", got, want)
	}
	own := []string{"TERM=dumb"}
	if got := withTerm(own); len(got) != 1 || got[0] != "TERM=dumb" {
		t.Fatalf("withTerm overrode TERM: %q", got)
	}
}
