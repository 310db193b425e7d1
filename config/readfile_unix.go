//go:build !windows

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNoBlock opens path without waiting for a FIFO's writer (O_NONBLOCK),
// and without following a final symbolic link unless follow (O_NOFOLLOW:
// the open fails with ELOOP, reported as ErrSymlink).
func openNoBlock(path string, flag int, perm fs.FileMode, follow bool) (*os.File, error) {
	flag |= syscall.O_NONBLOCK
	if !follow {
		flag |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil && !follow && errors.Is(err, syscall.ELOOP) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s %w", path, ErrSymlink)
		}
	}
	return f, err
}

// setBlocking clears O_NONBLOCK again on a file found regular: reads and
// writes of a regular file ignore it on Linux and macOS, but not every
// file system promises that.
func setBlocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("%s: %w", f.Name(), serr)
	}
	return nil
}
