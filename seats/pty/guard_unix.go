//go:build unix

package pty

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// RunGuard runs `pullcept seat-guard [--report] -- <command…>`
// (GuardCommand): it starts the command on its own terminal, returns its
// exit code (128+N for signal N; with --report it also says N on fd 3,
// end_unix.go), and on SIGHUP, SIGTERM or SIGINT kills its whole session
// with SIGKILL, itself last.
func RunGuard(args []string, stderr io.Writer) int {
	var report *endReport
	if len(args) > 0 && args[0] == "--report" {
		report, args = openReport(reportFD), args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "pullcept seat-guard: no command")
		return 2
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "pullcept seat-guard: %v\n", err)
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if cmd.ProcessState == nil {
			fmt.Fprintf(stderr, "pullcept seat-guard: %v\n", err)
			return 1
		}
		report.tell(waitSignal(cmd.ProcessState))
		return exitCode(cmd.ProcessState) // 128+N for signal N, as Proc.Wait
	case <-sigs:
		report.tell(syscall.SIGKILL) // what ends the command, and most likely the guard too
		killSession()
		return 128 + int(syscall.SIGKILL)
	}
}

// killSession SIGKILLs every process of the guard's session (Linux reads
// them from /proc; elsewhere the guard's process group), itself last.
func killSession() {
	me := os.Getpid()
	if sid, err := unix.Getsid(me); err == nil {
		for _, pid := range sessionPids(sid) {
			if pid != me {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	_ = syscall.Kill(-syscall.Getpgrp(), syscall.SIGKILL)
}

// sessionPids lists the processes of session sid from /proc (none where
// there is no /proc): the room sidecar and the commands Codex runs lead
// process groups of their own, but stay in the session.
func sessionPids(sid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(b)
		end := strings.LastIndexByte(s, ')')
		if end < 0 {
			continue
		}
		// After "pid (comm)": state ppid pgrp session …
		f := strings.Fields(s[end+1:])
		if len(f) < 4 || f[3] != strconv.Itoa(sid) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path))); err == nil {
			out = append(out, pid)
		}
	}
	return out
}
