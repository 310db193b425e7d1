//go:build windows

package pty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/charmbracelet/x/conpty"
	"golang.org/x/sys/windows"
)

// winProc is a child in a ConPTY inside a Job object (docs/dependencies.md §1.3).
// The wait goroutine started by startPTY owns the wait on the process handle
// and closes done when the child has exited.
type winProc struct {
	cpty    *conpty.ConPty
	job     windows.Handle // KILL_ON_JOB_CLOSE: closing it kills the whole tree
	process windows.Handle
	pid     int

	done     chan struct{}
	exitCode int
	waitErr  error

	closeOnce sync.Once
	closeErr  error

	jobMu     sync.RWMutex // Holds reads job; Close closes it
	jobClosed bool
}

// startPTY starts c; Start never guards a Windows child (the Job object
// ends its tree).
func startPTY(c child) (Proc, error) {
	argv, dir, env, cols, rows := c.argv, c.dir, c.env, c.cols, c.rows
	// A bare name is looked up on PATH with PATHEXT (.exe, .cmd) the way
	// exec.Command does it; a path is left to Spawn, which resolves a
	// relative one against dir.
	path := argv[0]
	if !strings.ContainsAny(path, `/\:`) {
		var err error
		if path, err = exec.LookPath(path); err != nil {
			return nil, err
		}
	}
	attr := &syscall.ProcAttr{
		Dir: dir,
		Env: env,
		Sys: &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED},
	}
	// Every launch runs through cmd.exe (docs/design.md §9): npm's launchers
	// are .cmd scripts, and one rule keeps the launch checks the same for
	// every command. /D: no AutoRun from the registry (a `cd` there would
	// move the CLI out of its working directory; Node spawns the same way).
	// /V:OFF: ! stays text whatever the registry says. /S: cmd.exe strips
	// the outer quotes and keeps the rest as is, so a quoted path with
	// spaces and quoted arguments stay whole. The composed line is read as
	// cmd.exe will read it before it runs.
	line := windows.ComposeCommandLine(append([]string{path}, argv[1:]...))
	if err := CheckCmdLine(line); err != nil {
		return nil, err
	}
	path = comSpec()
	attr.Sys.CmdLine = `cmd.exe /D /V:OFF /S /C "` + line + `"`
	cpty, err := conpty.New(cols, rows, 0)
	if err != nil {
		return nil, err
	}
	job, err := newKillOnCloseJob()
	if err != nil {
		_ = cpty.Close()
		return nil, err
	}
	// Suspended, so the child cannot start anything before it is in the job.
	pid, h, err := cpty.Spawn(path, argv, attr)
	if err != nil {
		_ = windows.CloseHandle(job)
		_ = cpty.Close()
		return nil, err
	}
	process := windows.Handle(h)
	fail := func(err error) (Proc, error) {
		_ = windows.TerminateProcess(process, 1)
		_ = windows.CloseHandle(process)
		_ = windows.CloseHandle(job)
		_ = cpty.Close()
		return nil, err
	}
	if err := windows.AssignProcessToJobObject(job, process); err != nil {
		return fail(fmt.Errorf("assign to job: %w", err))
	}
	// conpty.Spawn closes the primary thread handle itself, so resume the
	// child's threads through a Toolhelp snapshot.
	if err := resumeThreads(uint32(pid)); err != nil {
		return fail(err)
	}
	p := &winProc{cpty: cpty, job: job, process: process, pid: pid, done: make(chan struct{})}
	go p.reap()
	return p, nil
}

// comSpec is cmd.exe's path: %ComSpec%, else System32's.
func comSpec() string {
	if p := os.Getenv("ComSpec"); p != "" {
		return p
	}
	dir, err := windows.GetSystemDirectory()
	if err != nil {
		return "cmd.exe"
	}
	return filepath.Join(dir, "cmd.exe")
}

// newKillOnCloseJob creates a Job object whose processes all die when its
// last handle closes (also when Pullcept itself dies).
func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create job: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("set job limits: %w", err)
	}
	return job, nil
}

// resumeThreads resumes every thread of the suspended process pid.
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("thread snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", te.ThreadID, err)
		}
		_, rerr := windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if rerr != nil {
			return fmt.Errorf("resume thread %d: %w", te.ThreadID, rerr)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("walk threads: %w", err)
	}
	if resumed == 0 {
		return fmt.Errorf("resume: no thread of process %d found", pid)
	}
	return nil
}

// reap waits on the process handle (always: the handle and exit code are
// collected exactly once) and records the exit code for every Wait caller.
func (p *winProc) reap() {
	defer close(p.done)
	defer func() {
		if r := recover(); r != nil {
			p.exitCode, p.waitErr = -1, fmt.Errorf("wait: panic: %v", r)
		}
	}()
	if _, err := windows.WaitForSingleObject(p.process, windows.INFINITE); err != nil {
		p.exitCode, p.waitErr = -1, fmt.Errorf("wait: %w", err)
		return
	}
	var code uint32
	if err := windows.GetExitCodeProcess(p.process, &code); err != nil {
		p.exitCode, p.waitErr = -1, fmt.Errorf("exit code: %w", err)
		return
	}
	p.exitCode = int(code)
}

// Read reads the child's output. A broken pipe (the console closed) and an
// empty successful read are io.EOF. The ConPTY does not end its output when
// the child exits: Close after Wait.
func (p *winProc) Read(b []byte) (int, error) {
	n, err := p.cpty.Read(b)
	if errors.Is(err, windows.ERROR_BROKEN_PIPE) || (n == 0 && err == nil && len(b) > 0) {
		return n, io.EOF
	}
	return n, err
}

// Write writes keys to the console.
func (p *winProc) Write(b []byte) (int, error) { return p.cpty.Write(b) }

// Resize resizes the pseudo console.
func (p *winProc) Resize(cols, rows int) error {
	if err := CheckSize(cols, rows); err != nil {
		return err
	}
	return p.cpty.Resize(cols, rows)
}

// Wait returns the exited child's exit code.
func (p *winProc) Wait() (int, error) {
	<-p.done
	return p.exitCode, p.waitErr
}

// Signaled is always 0: Windows has no signals, every end is an exit code
// (a crash's 0xC0000005 too).
func (p *winProc) Signaled() int { return 0 }

// Kill terminates every process in the job.
func (p *winProc) Kill() error {
	if err := windows.TerminateJobObject(p.job, 1); err != nil {
		return fmt.Errorf("terminate job: %w", err)
	}
	return nil
}

// Close closes the pseudo console (a pending Read returns) and the job,
// whose KILL_ON_JOB_CLOSE ends whatever still runs in it, then releases the
// process handle once the child has been waited on. Keep Pump reading while
// closing: ClosePseudoConsole can wait for unread output.
func (p *winProc) Close() error {
	p.closeOnce.Do(func() {
		p.closeErr = p.cpty.Close()
		p.jobMu.Lock()
		_ = windows.CloseHandle(p.job)
		p.jobClosed = true
		p.jobMu.Unlock()
		<-p.done
		_ = windows.CloseHandle(p.process)
	})
	return p.closeErr
}

// Pid returns the child's process id.
func (p *winProc) Pid() int { return p.pid }

// isProcessInJob is kernel32's IsProcessInJob (not in x/sys/windows).
var isProcessInJob = windows.NewLazySystemDLL("kernel32.dll").NewProc("IsProcessInJob")

// Holds reports whether pid runs in the seat's Job object: every process
// the child starts is in it (none may break away), so this is the seat's
// process tree as the kernel keeps it — unlike parent ids, which outlive
// their parents. False once the job is closed.
func (p *winProc) Holds(pid int) bool {
	if pid <= 0 {
		return false
	}
	// PROCESS_QUERY_INFORMATION, not the limited right Windows also
	// takes: under Wine IsProcessInJob answers "Access denied" to a
	// limited handle (measured, Wine 8.0).
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	p.jobMu.RLock()
	defer p.jobMu.RUnlock()
	if p.jobClosed {
		return false
	}
	var in int32
	if r, _, _ := isProcessInJob.Call(uintptr(h), uintptr(p.job), uintptr(unsafe.Pointer(&in))); r == 0 {
		return false
	}
	return in != 0
}
