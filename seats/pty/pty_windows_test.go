//go:build windows

package pty

// The Windows PTY (a ConPTY in a Job object, pty_windows.go), tested on
// Windows with `go test ./...` and under Wine with `make wine`. Wine runs
// the processes, Job objects and exit codes; it does not send a child's
// console output back, and it does not resize a pseudo console: the tests
// that need those skip under Wine only, saying so.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// winTreeEnv makes this test binary a helper (TestHelperWinTree): the
// parent starts a child copy of itself, writes both pids to the file the
// variable names, and sleeps; the child only sleeps.
const winTreeEnv = "PULLCEPT_WIN_TREE"

// TestHelperWinTree is not a test: it is the process tree the kill tests
// start (winTreeEnv set), and returns at once otherwise.
func TestHelperWinTree(t *testing.T) {
	pidFile := os.Getenv(winTreeEnv)
	if pidFile == "" {
		return
	}
	if pidFile == "child" {
		time.Sleep(5 * time.Minute)
		os.Exit(0)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestHelperWinTree$")
	child.Env = append(os.Environ(), winTreeEnv+"=child")
	if err := child.Start(); err != nil {
		os.Exit(3)
	}
	if err := os.WriteFile(pidFile, fmt.Appendf(nil, "%d %d", os.Getpid(), child.Process.Pid), 0o600); err != nil {
		os.Exit(4)
	}
	time.Sleep(5 * time.Minute)
	os.Exit(0)
}

// startTree starts the helper tree in a PTY and returns it with both pids.
func startTree(t *testing.T) (Proc, [2]int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pids")
	// No ^…$ anchors: the line goes through cmd.exe, where ^ is its escape
	// character (and the launch refuses it outside quotes).
	p, err := Start(Options{Argv: []string{os.Args[0], "-test.run=TestHelperWinTree"}, Dir: t.TempDir(),
		Env: append(os.Environ(), winTreeEnv+"="+pidFile)})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, p) }() // ConPTY can block the child on unread output
	var pids [2]int
	testkit.Eventually(t, "the helper wrote its and its child's pid", func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return false
		}
		f := strings.Fields(string(b))
		if len(f) != 2 {
			return false
		}
		pids[0], _ = strconv.Atoi(f[0])
		pids[1], _ = strconv.Atoi(f[1])
		return pids[0] > 0 && pids[1] > 0
	})
	return p, pids
}

// exitOf runs argv in a PTY to its end and returns its exit status.
func exitOf(t *testing.T, argv ...string) int {
	t.Helper()
	p, err := Start(Options{Argv: argv, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	go func() { _, _ = io.Copy(io.Discard, p) }() // ConPTY can block the child on unread output
	code, err := p.Wait()
	if err != nil {
		t.Fatalf("%q: wait: %v", argv, err)
	}
	return code
}

// running reports whether process pid still runs.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false // gone (or its id already reused by one we may not open)
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == uint32(windows.WAIT_TIMEOUT)
}

// TestWindowsPTYExitCode: the child's exit status comes back from Wait,
// through the cmd.exe every launch runs under, for a cmd.exe line and an
// .exe.
func TestWindowsPTYExitCode(t *testing.T) {
	if code := exitOf(t, "cmd.exe", "/C", "exit 7"); code != 7 {
		t.Errorf("cmd.exe /C exit 7: exit %d", code)
	}
	// A flag the test binary refuses: status 2.
	if code := exitOf(t, os.Args[0], "-test.run=NoTestHasThisName", "-exit-helper"); code != 2 {
		t.Errorf("the test binary with a bad flag: exit %d, want 2", code)
	}
	// No signals here: 130 is an exit like any other, and the guard is
	// Unix's only (the Job object ends the tree).
	p, err := Start(Options{Argv: []string{"cmd.exe", "/C", "exit 130"}, Dir: t.TempDir(), Guard: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	go func() { _, _ = io.Copy(io.Discard, p) }()
	if code, err := p.Wait(); code != 130 || err != nil || p.Signaled() != 0 {
		t.Errorf("cmd.exe /C exit 130 with a guard asked: exit %d, %v, signal %d", code, err, p.Signaled())
	}
}

// TestWindowsPTYCmdLauncher: a bare name resolves to a .cmd script on PATH
// (what npm installs: claude.cmd, codex.cmd), which runs and exits with
// its status.
func TestWindowsPTYCmdLauncher(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool.cmd"), []byte("@exit /b 3\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("PATHEXT", ".COM;.EXE;.BAT;.CMD")
	if code := exitOf(t, "tool"); code != 3 {
		t.Fatalf("tool.cmd: exit %d, want 3", code)
	}
}

// TestWindowsPTYKillEndsTheTree: a seat's stop (Kill) ends the child and
// the process it started, through the Job object.
func TestWindowsPTYKillEndsTheTree(t *testing.T) {
	p, pids := startTree(t)
	defer p.Close()
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "both processes of the tree ended", func() bool { return !running(pids[0]) && !running(pids[1]) })
}

// TestWindowsPTYCloseEndsTheTree: closing the PTY — what the app's exit
// does to every seat — ends the tree too (the Job's KILL_ON_JOB_CLOSE).
func TestWindowsPTYCloseEndsTheTree(t *testing.T) {
	p, pids := startTree(t)
	if err := p.Close(); err != nil && !errors.Is(err, windows.ERROR_BROKEN_PIPE) {
		t.Logf("close: %v", err)
	}
	testkit.Eventually(t, "both processes of the tree ended", func() bool { return !running(pids[0]) && !running(pids[1]) })
}

// TestWindowsPTYOutputAndResize: what the child writes comes back, and a
// resize reaches the pseudo console.
func TestWindowsPTYOutputAndResize(t *testing.T) {
	testkit.SkipUnderWine(t, "Wine does not send a ConPTY child's output back, and ResizePseudoConsole is not implemented")
	p, err := Start(Options{Argv: []string{"cmd.exe", "/C", "echo pullcept-hello"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Resize(100, 30); err != nil {
		t.Fatalf("resize: %v", err)
	}
	out := make(chan string, 1)
	go func() {
		var b strings.Builder
		buf := make([]byte, 4096)
		for !strings.Contains(b.String(), "pullcept-hello") {
			n, err := p.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		out <- b.String()
	}()
	select {
	case s := <-out:
		if !strings.Contains(s, "pullcept-hello") {
			t.Fatalf("output %q", s)
		}
	case <-time.After(testkit.Wait):
		t.Fatal("no output from the child")
	}
}

// TestWindowsPTYCmdLauncherInAFolderWithSpaces: npm's .cmd launchers live
// under the user's profile, which may hold spaces; run through
// `cmd.exe /S /C "…"`, the script still runs and gets its arguments, one
// with a space kept whole.
func TestWindowsPTYCmdLauncherInAFolderWithSpaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Tools")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "tool.cmd")
	body := "@if \"%~1\"==\"a b\" exit /b %2\r\n@exit /b 1\r\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if code := exitOf(t, script, "a b", "5"); code != 5 {
		t.Fatalf("%s \"a b\" 5: exit %d, want 5", script, code)
	}
}

// argsEnv makes this test binary write its arguments after the -test.run
// flag, one per line, to the file the variable names (TestHelperArgs).
const argsEnv = "PULLCEPT_WIN_ARGS"

// TestHelperArgs is not a test: with argsEnv set it records the arguments
// it was started with; otherwise it returns at once.
func TestHelperArgs(t *testing.T) {
	out := os.Getenv(argsEnv)
	if out == "" {
		return
	}
	_ = os.WriteFile(out, []byte(strings.Join(flag.Args(), "\n")), 0o600)
	os.Exit(0)
}

// TestWindowsPTYExeThroughCmdKeepsArguments: an .exe seat runs under
// cmd.exe too, and its arguments arrive as the launch built them — a space,
// a quote, exclamation marks (/V:OFF) and non-ASCII text kept whole.
func TestWindowsPTYExeThroughCmdKeepsArguments(t *testing.T) {
	out := filepath.Join(t.TempDir(), "args")
	want := []string{"a b", `say "hi"`, "x!y!", "名前", `C:\dir with space\`}
	p, err := Start(Options{Argv: append([]string{os.Args[0], "-test.run=TestHelperArgs"}, want...),
		Dir: t.TempDir(), Env: append(os.Environ(), argsEnv+"="+out)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	go func() { _, _ = io.Copy(io.Discard, p) }() // ConPTY can block the child on unread output
	if code, err := p.Wait(); err != nil || code != 0 {
		t.Fatalf("helper: exit %d, %v", code, err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(string(b), "\n"); !slices.Equal(got, want) {
		t.Fatalf("arguments through cmd.exe: %q, want %q", got, want)
	}
}

// TestWindowsPTYRefusesACutLine: a line cmd.exe would cut (a character it
// reacts to outside quotes) is refused before anything runs.
func TestWindowsPTYRefusesACutLine(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ran")
	for _, c := range []struct {
		argv []string
		runs bool
	}{
		{[]string{"cmd.exe", "/C", "exit", "0&echo", "x", ">" + mark}, false},
		{[]string{os.Args[0], "-test.run=^TestHelperArgs$"}, false},
		{[]string{os.Args[0], "-test.run=TestHelperArgs", "%PATH%"}, false}, // expanded before the line is read
		{[]string{"cmd.exe", "/C", "echo (x)"}, true},                       // quoted (a space): whole to cmd.exe
	} {
		p, err := Start(Options{Argv: c.argv, Dir: t.TempDir()})
		switch {
		case c.runs && err != nil:
			t.Errorf("%q: %v; a quoted argument is whole to cmd.exe", c.argv, err)
		case c.runs:
			go func() { _, _ = io.Copy(io.Discard, p) }()
			_, _ = p.Wait()
			_ = p.Close()
		case !errors.Is(err, ErrNotConsoleSafe):
			if p != nil {
				_ = p.Kill()
				_ = p.Close()
			}
			t.Errorf("%q: err %v, want ErrNotConsoleSafe", c.argv, err)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the part after & ran")
	}
}

// TestHoldsIsTheJob (issue 31): Holds names the seat's tree by its Job
// object: the child and the process it started are in it, this test
// process is not, and after Close nothing is.
func TestHoldsIsTheJob(t *testing.T) {
	p, pids := startTree(t)
	for _, pid := range pids {
		if !Holds(p, pid) {
			t.Errorf("Holds(%d) = false for a process of the seat's tree %v", pid, pids)
		}
	}
	if Holds(p, os.Getpid()) {
		t.Error("Holds is true for the test process, outside the job")
	}
	_ = p.Kill()
	_ = p.Close()
	if Holds(p, pids[0]) {
		t.Error("Holds is true after Close")
	}
}
