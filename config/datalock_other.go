//go:build !linux && !windows

package config

import "syscall"

// lockOpenFlags: never follow a link swapped in as the lock file, never
// wait on a FIFO.
const lockOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// lockTableHolder: this OS has no lock table a process can read (macOS
// and the BSDs list flock holders only to lsof's privileged readers); the
// refusal falls back to the pid note.
func lockTableHolder(string) (int, string) { return 0, "" }
