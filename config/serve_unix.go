//go:build !windows

package config

import (
	"fmt"
	"os"
	"syscall"
)

// checkPrivateDir: dir must be a directory owned by this user with no
// group or other bits (tmux's rule for its socket directory).
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%w: %s is not a directory", ErrSocketDirUnsafe, dir)
	case ok && int(st.Uid) != os.Getuid():
		return fmt.Errorf("%w: %s belongs to uid %d", ErrSocketDirUnsafe, dir, st.Uid)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%w: %s has mode %#o (want 0700)", ErrSocketDirUnsafe, dir, fi.Mode().Perm())
	}
	return nil
}
