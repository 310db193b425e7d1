package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Refusals of ReadRegularFile. A file Pullcept reads because a CLI would
// (.mcp.json here and in every parent, .claude/settings.local.json) may
// have been planted by someone else: a FIFO hangs a plain read, /dev/zero
// or a sparse 64 GB file exhausts memory, a symlink redirects our write.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooBig     = errors.New("file too big")
	ErrSymlink    = errors.New("is a symbolic link")
)

// ReadRegularFile reads path when it is a regular file of at most max
// bytes. With follow false a symbolic link is refused (ErrSymlink) — use
// it for a file we will write back. A FIFO, device, socket or directory is
// refused (ErrNotRegular) without blocking: the open does not wait for a
// FIFO's writer. A missing file is fs.ErrNotExist, as os.ReadFile says.
// Errors name the path.
func ReadRegularFile(path string, max int64, follow bool) ([]byte, error) {
	if !follow {
		fi, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s %w", path, ErrSymlink)
		}
	}
	f, err := openNoBlock(path, follow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%v)", path, ErrNotRegular, fi.Mode().Type())
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
