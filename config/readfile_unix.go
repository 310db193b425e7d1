//go:build !windows

package config

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without waiting for a FIFO's writer
// (O_NONBLOCK; reads of a regular file ignore it), and without following a
// final symbolic link unless follow (O_NOFOLLOW: a link swapped in after
// the Lstat fails here).
func openNoBlock(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0)
}
