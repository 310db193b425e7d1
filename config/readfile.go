package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Refusals of ReadRegularFile and OpenRegular. A file Pullcept reads
// because a CLI would (.mcp.json here and in every parent,
// .claude/settings.local.json), or one in the data directory, may have
// been planted by someone else: a FIFO hangs a plain open or read,
// /dev/zero or a sparse 64 GB file exhausts memory, a symlink redirects
// our write (docs/design.md §16 "Planted files").
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooBig     = errors.New("file too big")
	ErrSymlink    = errors.New("is a symbolic link")
)

// OpenRegular opens path with flag (os.O_RDONLY, os.O_RDWR|os.O_APPEND|
// os.O_CREATE …) and perm, like os.OpenFile, when it is a regular file:
// never through a final symbolic link (ErrSymlink), never waiting for a
// FIFO's writer (the open is non-blocking, then the file is checked and
// made blocking again), and a FIFO, device, socket or directory is
// refused (ErrNotRegular). Every log, lock and state file of the data
// directory is opened through it. Errors name the path.
func OpenRegular(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return openRegular(path, flag, perm, false)
}

// OpenRegularFollow is OpenRegular for reading a file of a CLI's own home
// (a rollout, a transcript), which the user may have linked: a final link
// is followed, a FIFO or device is still refused without blocking.
func OpenRegularFollow(path string) (*os.File, error) {
	return openRegular(path, os.O_RDONLY, 0, true)
}

func openRegular(path string, flag int, perm fs.FileMode, follow bool) (*os.File, error) {
	f, err := openNoBlock(path, flag, perm, follow)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w (%v)", path, ErrNotRegular, fi.Mode().Type())
	}
	if err == nil {
		err = setBlocking(f)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// ReadRegularFile reads path when it is a regular file of at most max
// bytes. With follow false a symbolic link is refused (ErrSymlink) — use
// it for a file we will write back. A FIFO, device, socket or directory is
// refused (ErrNotRegular) without blocking: the open does not wait for a
// FIFO's writer. A missing file is fs.ErrNotExist, as os.ReadFile says.
// Errors name the path.
func ReadRegularFile(path string, max int64, follow bool) ([]byte, error) {
	f, err := openRegular(path, os.O_RDONLY, 0, follow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %w: %d bytes, limit %d", path, ErrTooBig, fi.Size(), max)
	}
	// The size may grow after the stat: read one byte past the limit.
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: %w: over %d bytes", path, ErrTooBig, max)
	}
	return b, nil
}
