package pty

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

func init() {
	isolated := func(t *testing.T) *Isolate {
		t.Helper()
		requireNamespaces(t)
		rec := &isolateRecorder{}
		t.Cleanup(func() {
			if got := rec.all(); len(got) != 1 || !got[0].Isolated {
				t.Errorf("isolations %+v, want the one start isolated", got)
			}
		})
		return rec.isolate(false)
	}
	endChains = append(endChains,
		endChain{name: "isolated", isolate: isolated},
		endChain{name: "isolated+guard", guard: true, isolate: isolated})
	osHelpers["flood"] = helperFlood
}

// helperFlood fills its guard's end report (its parent's fd 3, opened
// through /proc as a hostile seat can) and then dies by SIGKILL.
func helperFlood() int {
	fd, err := syscall.Open(fmt.Sprintf("/proc/%d/fd/%d", os.Getppid(), reportFD), syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		fmt.Printf("open: %v\n", err)
		return 3
	}
	chunk := make([]byte, 4096)
	n := 0
	for {
		m, err := syscall.Write(fd, chunk)
		if err != nil {
			break
		}
		n += m
	}
	fmt.Printf("flooded %d\n", n)
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

// TestSeatEndReportForgery: a program under its guard can open the
// guard's report pipe (/proc/$PPID/fd/3) and write there, but a line
// counts only when it names the signal its exit code says; a program
// that fills the pipe loses the word about its own end and holds up
// neither its guard nor Pullcept. One in namespaces without a guard cannot
// reach its init's report at all.
func TestSeatEndReportForgery(t *testing.T) {
	byName := map[string]endChain{}
	for _, c := range endChains {
		byName[c.name] = c
	}
	for _, tc := range []struct {
		chain, script string
		code, signal  int
	}{
		{"guard", `printf 'signal 2\n' >/proc/$PPID/fd/3 && exit 3`, 3, 0},
		{"guard", `printf 'signal 9\n' >/proc/$PPID/fd/3 && exit 130`, 130, 0},
		{"guard", `printf 'signal 2' >/proc/$PPID/fd/3 && exit 130`, 130, 0},
		{"isolated+guard", `printf 'signal 2\n' >/proc/$PPID/fd/3 && exit 3`, 3, 0},
		{"isolated", `printf 'signal 2\n' >/proc/1/fd/4; exit 130`, 130, 0},
	} {
		t.Run(tc.chain+"/"+tc.script, func(t *testing.T) {
			p := startChain(t, byName[tc.chain], Options{Argv: []string{"/bin/sh", "-c", tc.script}})
			out := collect(p)
			code := waitExit(t, p)
			if sig := p.Signaled(); code != tc.code || sig != tc.signal {
				t.Errorf("ended with code %d, signal %d; want code %d, signal %d (output %q)", code, sig, tc.code, tc.signal, out.String())
			}
		})
	}
	for _, name := range []string{"guard", "isolated+guard"} {
		t.Run(name+"/flood", func(t *testing.T) {
			p := startChain(t, byName[name], Options{
				Argv: []string{os.Args[0], "-test.run=^TestHelperProcess$"},
				Env:  append(os.Environ(), helperEnv+"=flood"),
			})
			out := collect(p)
			out.waitFor(t, "flooded ")
			// Its guard's word is lost, not waited on: the end arrives.
			if code := waitExit(t, p); code != 128+int(syscall.SIGKILL) {
				t.Errorf("ended with code %d, want %d (output %q)", code, 128+int(syscall.SIGKILL), out.String())
			}
			t.Logf("%s; signal %d", strings.TrimSpace(out.String()), p.Signaled())
		})
	}
}
