//go:build windows

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// openNoBlock opens path. Windows has no FIFOs in the file system (named
// pipes live under \\.\pipe\), so the open never waits; without follow a
// symbolic link or junction found by Lstat first is refused.
func openNoBlock(path string, flag int, perm fs.FileMode, follow bool) (*os.File, error) {
	if !follow {
		fi, err := os.Lstat(path)
		switch {
		case err == nil && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0:
			return nil, fmt.Errorf("%s %w", path, ErrSymlink)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	return os.OpenFile(path, flag, perm)
}

// setBlocking does nothing: the open above never made the file
// non-blocking.
func setBlocking(*os.File) error { return nil }
