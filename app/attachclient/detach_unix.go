//go:build !windows

package attachclient

import "syscall"

// detached: a session of its own, so the terminal's hangup never reaches
// the server.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
