//go:build !windows

package client

import "syscall"

// detached: a session of its own, so the terminal's hangup never reaches
// the server.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
