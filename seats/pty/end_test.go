//go:build unix

package pty

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// endChain is one way Start runs a seat's program: under the seat guard
// or not, in namespaces or not (end_linux_test.go adds those).
type endChain struct {
	name  string
	guard bool
	// isolate, when set, is the chain's Isolate; it skips the test where
	// the kernel refuses namespaces.
	isolate func(t *testing.T) *Isolate
}

var endChains = []endChain{{name: "plain"}, {name: "guard", guard: true}}

// startChain starts o (its Argv and Env) the chain's way; the test's
// cleanup ends it.
func startChain(t *testing.T, c endChain, o Options) Proc {
	t.Helper()
	o.Dir = t.TempDir()
	if c.guard {
		o.Guard = os.Args[0] // TestMain runs the guard
	}
	if c.isolate != nil {
		o.Isolate = c.isolate(t)
	}
	p, err := Start(o)
	if err != nil {
		t.Fatalf("Start(%q): %v", o.Argv, err)
	}
	t.Cleanup(func() {
		_ = p.Kill()
		_ = p.Close()
		waitExit(t, p)
	})
	return p
}

// TestSeatEndExitOrSignal: whatever runs the program — alone in its PTY,
// under the seat guard, in namespaces (Linux), or both — its own `exit
// 130` is an exit with code 130, and a death by the SIGINT it sent itself
// or by a SIGKILL from outside is that signal, with the same 128+N code.
func TestSeatEndExitOrSignal(t *testing.T) {
	for _, c := range endChains {
		for _, e := range []struct {
			name, script string
			killLeaf     bool // SIGKILL the program from outside once it is ready
			code, signal int
		}{
			{"exit 130", "exit 130", false, 130, 0},
			{"kill -INT itself", "kill -INT $$", false, 130, int(syscall.SIGINT)},
			{"SIGKILL from outside", "echo ready; exec sleep 600", true, 137, int(syscall.SIGKILL)},
			{"exit 3", "exit 3", false, 3, 0},
		} {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				p := startChain(t, c, Options{Argv: []string{"/bin/sh", "-c", e.script}})
				out := collect(p)
				if e.killLeaf {
					out.waitFor(t, "ready")
					leaf := leafOf(t, p.Pid())
					if err := syscall.Kill(leaf, syscall.SIGKILL); err != nil {
						t.Fatalf("kill %d: %v", leaf, err)
					}
				}
				code := waitExit(t, p)
				if sig := p.Signaled(); code != e.code || sig != e.signal {
					t.Errorf("ended with code %d, signal %d; want code %d, signal %d", code, sig, e.code, e.signal)
				}
			})
		}
	}
}

// TestReportedSignal: a report line counts only whole and naming the
// signal the code already says; anything else a seat may have written
// there is no signal.
func TestReportedSignal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code   int
		report string
		want   int
	}{
		{130, "signal 2\n", 2},
		{137, "junk\nsignal 2\nsignal 9\n", 9},
		{130, "", 0},
		{3, "signal 2\n", 0},
		{130, "signal 9\n", 0},
		{130, "signal 2", 0},
		{130, "signal 02\n", 0},
		{130, " signal 2\n", 0},
		{130, "xsignal 2\n", 0},
		{128, "signal 0\n", 0},
		{0, "signal 0\n", 0},
	} {
		if got := reportedSignal(tc.code, []byte(tc.report)); got != tc.want {
			t.Errorf("code %d, report %q: signal %d, want %d", tc.code, tc.report, got, tc.want)
		}
	}
}

// leafOf follows pid's child down to the last one: the chain's program.
func leafOf(t *testing.T, pid int) int {
	t.Helper()
	for range 8 {
		kids := childrenOf(t, pid)
		if len(kids) == 0 {
			return pid
		}
		if len(kids) > 1 {
			t.Fatalf("process %d has children %v, want one", pid, kids)
		}
		pid = kids[0]
	}
	t.Fatalf("no leaf under %d", pid)
	return 0
}

// childrenOf lists pid's children: from /proc on Linux, else from ps.
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	var pairs [][2]string // pid, ppid
	if runtime.GOOS == "linux" {
		stats, _ := filepath.Glob("/proc/[0-9]*/stat")
		for _, path := range stats {
			b, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			s := string(b)
			if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 1 {
				pairs = append(pairs, [2]string{filepath.Base(filepath.Dir(path)), f[1]})
			}
		}
	} else {
		b, err := exec.Command("ps", "-A", "-o", "pid=,ppid=").Output()
		if err != nil {
			t.Fatalf("ps: %v", err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) == 2 {
				pairs = append(pairs, [2]string{f[0], f[1]})
			}
		}
	}
	var kids []int
	for _, p := range pairs {
		if p[1] == strconv.Itoa(pid) {
			k, err := strconv.Atoi(p[0])
			if err != nil {
				t.Fatal(fmt.Errorf("pid %q: %w", p[0], err))
			}
			kids = append(kids, k)
		}
	}
	return kids
}
