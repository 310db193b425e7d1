//go:build unix

package fakemcp

import (
	"os/exec"
	"syscall"
)

// detach puts cmd in a session of its own, out of the server's process
// group.
func detach(cmd *exec.Cmd) bool {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return true
}
