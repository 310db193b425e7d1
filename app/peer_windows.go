package app

import (
	"errors"
	"net"
)

// On Windows the named pipe's ACL is the check (serve_windows.go); a
// peer's process is not looked up yet.
func peerPID(net.Conn) (int, error) { return -1, errors.ErrUnsupported }
func descendsFrom(int, int) bool    { return false }
func procExe(int) string            { return "" }
func procTTY(int) string            { return "" }
