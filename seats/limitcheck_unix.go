//go:build unix

package seats

import (
	"os/exec"
	"syscall"
)

// treeKill makes cmd's cancellation end its whole process group.
func treeKill(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
