//go:build !linux && !darwin && !windows

package app

import (
	"errors"
	"net"
)

// peerUID: no peer credentials here; the socket's 0700 directory and 0600
// mode are the check (config.SocketPath).
func peerUID(net.Conn) (int, error) { return -1, errors.ErrUnsupported }

func peerPID(net.Conn) (int, error) { return -1, errors.ErrUnsupported }
func descendsFrom(int, int) bool    { return false }
func procExe(int) string            { return "" }
func procTTY(int) string            { return "" }
