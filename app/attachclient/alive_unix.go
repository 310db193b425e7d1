//go:build !windows

package attachclient

import "syscall"

// processAlive: signal 0 reaches pid (a zombie counts as ended: the
// server's parent may never reap it).
func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	return !zombie(pid)
}
