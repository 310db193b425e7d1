//go:build unix

package pty

import (
	"os/exec"
	"syscall"
)

// EndTreeOnCancel makes cmd's cancellation end its whole process group.
func EndTreeOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
