//go:build unix

package pty

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// How a seat's end crosses the chain Pullcept runs its program under
// (docs/design.md §9 "How a seat's end is told"). Every link — the
// namespace init (Linux), the seat guard — exits with its child's code, a
// signal's as 128+N, so a program's own `exit 130` and a death by SIGINT
// reach Pullcept alike. A link that saw its child die by a signal says so
// on a pipe Pullcept made for it: one line "signal N".
//
// Not a link dying by the same signal itself, as shells do: measured (Go
// 1.26, Linux 6.18, signal.Reset then kill(getpid())), SIGINT, SIGTERM,
// SIGHUP and SIGKILL end a Go process by that signal, but SIGQUIT, SIGABRT
// and SIGSEGV end it with a stack dump and exit 2 (the runtime keeps its
// handler), SIGUSR1 and the real-time signals do not end it, and PID 1 of
// a PID namespace — the init — is ended by no signal it sends itself,
// SIGKILL included.
//
// A seat may write to that pipe: not to the init's (argv cannot open the
// descriptors of its init, which holds capabilities it lacks), but to a
// guard's through /proc, and without namespaces to Pullcept's own end. So
// a line counts only when it names the signal the exit code already says
// (128+N): a forged line can only make a seat's own 128+N read as the
// signal it could have sent itself, never change a code, claim a signal
// for another code, or turn a stop the human asked for into a kill.

// reportFD is the guard's report descriptor; the init's is nsReportFD,
// its fd 3 being the status Start waits for.
const (
	reportFD   = 3
	nsReportFD = 4
)

// reportMax bounds what Pullcept reads of the pipe: the links write at
// most a line each; a seat's flood past it is left unread.
const reportMax = 256

// reportLine is a link's word for a child that sig ended.
func reportLine(sig syscall.Signal) string { return "signal " + strconv.Itoa(int(sig)) + "\n" }

// endReport is a link's report pipe; nil when it was given none (run by
// hand).
type endReport struct{ f *os.File }

// openReport takes fd as the link's report pipe, close-on-exec so the
// link's own child never holds it.
func openReport(fd int) *endReport {
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
		return nil
	}
	unix.CloseOnExec(fd)
	return &endReport{f: os.NewFile(uintptr(fd), "end report")}
}

// tell writes sig's line (nothing for 0, an exit). Never waiting: a seat
// that filled the pipe loses the word about its own end, and its link
// still ends.
func (r *endReport) tell(sig syscall.Signal) {
	if r == nil || sig == 0 {
		return
	}
	rc, err := r.f.SyscallConn()
	if err != nil {
		return
	}
	line := []byte(reportLine(sig))
	_ = rc.Write(func(fd uintptr) bool {
		// Set again here: passing the pipe on to a child (os.StartProcess
		// calls Fd) made the shared description blocking.
		if unix.SetNonblock(int(fd), true) == nil {
			_, _ = unix.Write(int(fd), line) // ≤ PIPE_BUF: all or nothing
		}
		return true
	})
}

// waitSignal is the signal that ended a reaped child, 0 when it exited.
func waitSignal(ps *os.ProcessState) syscall.Signal {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

// endSignal is the signal that ended the seat's program: the child's own
// wait status when a signal ended it (the program itself, or a link a
// signal ended), else what the chain's links reported for its exit code.
func endSignal(ps *os.ProcessState, report *os.File) int {
	if sig := waitSignal(ps); sig != 0 {
		return int(sig)
	}
	if report == nil {
		return 0
	}
	return reportedSignal(ps.ExitCode(), readReport(report))
}

// readReport reads what the links wrote, without waiting: they wrote it
// before they ended, and the chain has ended. A seat still holding a
// write end cannot keep Pullcept waiting.
func readReport(f *os.File) []byte {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	buf := make([]byte, reportMax)
	n := 0
	_ = rc.Read(func(fd uintptr) bool {
		for n < len(buf) {
			m, err := unix.Read(int(fd), buf[n:])
			if m <= 0 || err != nil {
				break
			}
			n += m
		}
		return true
	})
	return buf[:n]
}

// reportedSignal is N when report holds the whole line "signal N" and
// code is 128+N, else 0.
func reportedSignal(code int, report []byte) int {
	if code <= 128 || code > 255 {
		return 0
	}
	want := reportLine(syscall.Signal(code - 128))
	for _, line := range strings.SplitAfter(string(report), "\n") {
		if line == want {
			return code - 128
		}
	}
	return 0
}
