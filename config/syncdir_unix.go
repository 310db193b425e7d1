//go:build !windows

package config

import (
	"errors"
	"os"
	"syscall"
)

// SyncDir fsyncs a directory so that a rename or create inside it survives a
// power loss (POSIX puts directory entries in the directory's own data).
// Filesystems that cannot sync a directory (EINVAL, ENOTSUP: some network
// and FUSE mounts) are not an error: there is nothing more we can do there.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}
