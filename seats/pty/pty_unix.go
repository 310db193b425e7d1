//go:build unix

package pty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// killGrace is how long Kill lets the process group react to SIGHUP and
// SIGTERM before SIGKILL: enough for a CLI to restore its terminal and write
// its session file (Claude Code and Codex exit well within 1 s), short enough
// that stopping a seat never feels stuck.
const killGrace = 2 * time.Second

// killPoll is how often Kill checks whether the process group is gone.
const killPoll = 20 * time.Millisecond

// unixProc is a child in a creack/pty pseudo-terminal. The wait goroutine
// started by startPTY owns cmd.Wait and closes done when the child is reaped.
type unixProc struct {
	cmd    *exec.Cmd
	master *os.File // non-blocking, poller-backed: Close wakes a blocked Read
	pid    int

	report   *os.File      // the chain's end report (end_unix.go), nil without links; reap closes it
	done     chan struct{} // closed once the child is reaped
	exitCode int           // valid after done
	signal   int           // valid after done: what ended the program, 0 an exit
	waitErr  error         // valid after done

	closeOnce sync.Once
	closeErr  error

	killMu    sync.Mutex
	groupGone bool // Kill saw the process group empty; never signal its id again
}

func startPTY(c child) (Proc, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = c.env
	var report *os.File
	if c.guarded {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("end report pipe: %w", err)
		}
		defer w.Close() // the guard holds the only write end once started
		cmd.ExtraFiles, report = []*os.File{w}, r
	}
	p, err := startCmd(cmd, c.cols, c.rows, report)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return p, nil
}

// startCmd starts cmd in a new PTY of cols×rows and reaps it when it ends;
// report, when set, is the read end of the chain's end report, which the
// Proc then owns.
func startCmd(cmd *exec.Cmd, cols, rows int, report *os.File) (*unixProc, error) {
	closeOnExec()
	// StartWithSize sets Setsid+Setctty (keeping the rest of SysProcAttr:
	// a seat's namespaces), wires the slave to stdin/out/err, starts the
	// child and closes the slave in this process.
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		if report != nil {
			_ = report.Close()
		}
		return nil, err
	}
	// creack/pty called Fd() on the master, which switched it to blocking
	// mode: Close would then neither wake a blocked Read nor hang up the
	// child (measured, docs/dependencies.md §1.1). Re-wrap a close-on-exec
	// duplicate in non-blocking mode so os.File uses the runtime poller.
	master, err := pollableDup(f)
	_ = f.Close() // the duplicate (or nothing, on error) is what we keep
	if err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if report != nil {
			_ = report.Close()
		}
		return nil, fmt.Errorf("pty master: %w", err)
	}
	p := &unixProc{cmd: cmd, master: master, pid: cmd.Process.Pid, report: report, done: make(chan struct{})}
	go p.reap()
	return p, nil
}

// pollableDup returns a non-blocking, close-on-exec duplicate of f as a new
// *os.File. F_DUPFD_CLOEXEC rather than dup(2): a plain duplicate would leak
// into every later seat's child and keep this terminal open after its own
// child exits (no EOF, no hangup).
func pollableDup(f *os.File) (*os.File, error) {
	var fd int
	var dupErr error
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	if err := rc.Control(func(old uintptr) {
		fd, dupErr = unix.FcntlInt(old, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if dupErr != nil {
		return nil, fmt.Errorf("dup: %w", dupErr)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("set non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// reap is the only caller of cmd.Wait (always called: no zombies). It
// records the exit code and the signal for every Wait caller.
func (p *unixProc) reap() {
	defer close(p.done)
	if p.report != nil {
		defer p.report.Close()
	}
	defer func() {
		if r := recover(); r != nil {
			p.exitCode, p.waitErr = -1, fmt.Errorf("wait: panic: %v", r)
		}
	}()
	err := p.cmd.Wait()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		p.exitCode, p.waitErr = -1, fmt.Errorf("wait: %w", err)
		return
	}
	p.exitCode = exitCode(p.cmd.ProcessState)
	p.signal = endSignal(p.cmd.ProcessState, p.report)
}

// exitCode is the status passed to exit, or 128+signal for a child a signal
// ended (shell convention: Ctrl+C gives 130, as does `exit 130`; the end
// report tells them apart, end_unix.go).
func exitCode(ps *os.ProcessState) int {
	if sig := waitSignal(ps); sig != 0 {
		return 128 + int(sig)
	}
	return ps.ExitCode()
}

// Read reads the child's output. EIO (Linux, once every slave descriptor is
// closed) is io.EOF.
func (p *unixProc) Read(b []byte) (int, error) {
	n, err := p.master.Read(b)
	if err != nil && errors.Is(err, syscall.EIO) {
		err = io.EOF
	}
	return n, err
}

// Write writes keys to the child's terminal.
func (p *unixProc) Write(b []byte) (int, error) { return p.master.Write(b) }

// Resize sets the window size through the poller-held descriptor (pty.Setsize
// would call Fd() and make it blocking again).
func (p *unixProc) Resize(cols, rows int) error {
	if err := CheckSize(cols, rows); err != nil {
		return err
	}
	rc, err := p.master.SyscallConn()
	if err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)})
	}); err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	if ioErr != nil {
		return fmt.Errorf("resize: %w", ioErr)
	}
	return nil
}

// Winch sends SIGWINCH to the terminal's foreground process group: the
// program there reads its size again although it did not change
// (resize.go, re-applying a size). Only while the child runs, and only to
// the group the terminal names — never a guessed id that may be reused.
func (p *unixProc) Winch() error {
	select {
	case <-p.done:
		return nil // reaped: nobody to tell
	default:
	}
	rc, err := p.master.SyscallConn()
	if err != nil {
		return fmt.Errorf("winch: %w", err)
	}
	pgrp, ioErr := 0, error(nil)
	if err := rc.Control(func(fd uintptr) { pgrp, ioErr = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP) }); err != nil {
		return fmt.Errorf("winch: %w", err)
	}
	if ioErr != nil || pgrp <= 0 {
		return fmt.Errorf("winch: foreground group: %v", ioErr)
	}
	if err := unix.Kill(-pgrp, unix.SIGWINCH); err != nil {
		return fmt.Errorf("winch: %w", err)
	}
	return nil
}

// Wait returns the reaped child's exit code.
func (p *unixProc) Wait() (int, error) {
	<-p.done
	return p.exitCode, p.waitErr
}

// Signaled is the signal that ended the program, 0 when it exited.
func (p *unixProc) Signaled() int {
	<-p.done
	return p.signal
}

// Kill sends SIGHUP and SIGTERM to the child's process group, waits up to
// killGrace for the group to empty, then sends SIGKILL. Members that left the
// group with setsid are out of reach (accepted, docs/dependencies.md §1.4).
func (p *unixProc) Kill() error {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	if p.groupGone {
		return nil
	}
	pgid := p.pid // Setsid: the child leads its own session and process group
	if !p.signalGroup(pgid, syscall.SIGHUP) {
		return nil
	}
	p.signalGroup(pgid, syscall.SIGTERM)
	deadline := time.Now().Add(killGrace)
	for time.Now().Before(deadline) {
		if !p.signalGroup(pgid, 0) {
			return nil
		}
		time.Sleep(killPoll)
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill process group %d: %w", pgid, err)
	}
	return nil
}

// signalGroup sends sig to the group and reports whether the group still
// exists. Once it is gone its id may be reused by an unrelated group, so it
// is never signalled again.
func (p *unixProc) signalGroup(pgid int, sig syscall.Signal) bool {
	if err := syscall.Kill(-pgid, sig); errors.Is(err, syscall.ESRCH) {
		p.groupGone = true
		return false
	}
	return true
}

// Close closes the master; a pending Read returns.
func (p *unixProc) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.master.Close() })
	return p.closeErr
}

// Pid returns the child's process id.
func (p *unixProc) Pid() int { return p.pid }

// closeOnExec marks every descriptor of this process above stderr
// close-on-exec before a seat's child starts: Go opens its own so, but a
// library may not (bubbletea's input reader makes its epoll without
// EPOLL_CLOEXEC) and the shell that started Pullcept may have left some
// open. Inherited, a seat held Pullcept's input epoll and, adding an
// always-ready descriptor to it, froze the human's keys for good (issue 31
// review). The child's own descriptors (the PTY, ExtraFiles) are dup'ed
// into it whatever the flag.
func closeOnExec() {
	dir := "/dev/fd"
	if runtime.GOOS == "linux" {
		dir = "/proc/self/fd"
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
}
