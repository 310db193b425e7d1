package peer

import (
	"errors"
	"net"
)

// PID: on Windows a named pipe's ACL is the check (app/serve_windows.go);
// a peer's process is not looked up yet.
func PID(net.Conn) (int, error) { return -1, errors.ErrUnsupported }

// Descends: the process tree is not read on Windows (a seat is a job).
func Descends(int, int) bool { return false }

// Exe and TTY are unknown on Windows.
func Exe(int) string { return "" }

// TTY: see Exe.
func TTY(int) string { return "" }
