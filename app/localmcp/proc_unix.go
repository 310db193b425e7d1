//go:build unix

package localmcp

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// command builds the server's process, no shell in between: the command
// is looked up on PATH as written. The child leads its own process group,
// so killTree reaches everything it started there (docs/dependencies.md
// §1.4; a child that starts its own session escapes, as with seats).
func command(spec Spec) (*exec.Cmd, error) {
	path, err := exec.LookPath(spec.Command)
	if err != nil {
		return nil, fmt.Errorf("command not found: %w", err)
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	return cmd, nil
}

// killTree ends the server's process group at once.
func killTree(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}

// reapGroup ends what the server left running in its group after it
// exited by itself. The group's id cannot be reused while a member lives.
func reapGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// exitCode is the run's exit code as a shell reports it: the status, or
// 128 + the signal that ended it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
