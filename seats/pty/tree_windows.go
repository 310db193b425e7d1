//go:build windows

package pty

import (
	"os/exec"
	"strconv"
)

// EndTreeOnCancel makes cmd's cancellation end its whole process tree (taskkill
// /T: the check may run through cmd.exe, whose child is the CLI).
func EndTreeOnCancel(cmd *exec.Cmd) {
	cmd.Cancel = func() error {
		_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
		return cmd.Process.Kill()
	}
}
