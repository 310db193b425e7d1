//go:build !linux && !darwin && !windows

package peer

import (
	"errors"
	"net"
)

// UID: no peer credentials here; a socket's 0700 directory and 0600 mode
// are the check.
func UID(net.Conn) (int, error) { return -1, errors.ErrUnsupported }

// PID: see UID.
func PID(net.Conn) (int, error) { return -1, errors.ErrUnsupported }

// Descends: the process tree is not read here.
func Descends(int, int) bool { return false }

// Exe and TTY are unknown here.
func Exe(int) string { return "" }

// TTY: see Exe.
func TTY(int) string { return "" }

// startTime is unknown here: 0, and the pid alone is judged.
func startTime(int) (uint64, bool) { return 0, true }
