//go:build !windows

package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// socketPath is the data directory's socket: 16 hex digits of the SHA-256
// of the absolute data directory, .sock, in the user's socket directory.
func socketPath(abs string) (string, error) {
	dir, err := socketDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".sock"), nil
}

// socketDir is the per-user directory of the servers' sockets, made safe.
func socketDir() (string, error) {
	var dir string
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		dir = filepath.Join(rt, "pullcept")
	} else {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("pullcept-%d", os.Getuid()))
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("socket directory: %w", err)
	}
	if err := checkPrivateDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

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

// RoomSocketDir makes a fresh 0700 directory for one run's room socket
// (room.ServerOptions.SocketDir) in the user's socket directory; the
// caller removes it at the end.
func RoomSocketDir() (string, error) {
	dir, err := socketDir()
	if err != nil {
		return "", err
	}
	return os.MkdirTemp(dir, "room-")
}
