//go:build !windows

package attachclient

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// detach makes cmd start the server in a session of its own (setsid), so
// the terminal's hangup never reaches it, with the readiness pipe as its
// descriptor 3; it returns that descriptor's number for ReadyFDFlag.
func detach(cmd *exec.Cmd, ready *os.File) (string, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.ExtraFiles = []*os.File{ready}
	return "3", nil
}

// startFailed says why cmd did not start.
func startFailed(_ *exec.Cmd, err error) error { return fmt.Errorf("start the server: %w", err) }
