package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// ErrDataDirBusy: another Pullcept holds the data directory's lock. Two
// writers of one directory lose each other's posts and index entries
// (docs/design.md §12).
var ErrDataDirBusy = errors.New("another Pullcept is using this data directory")

// Names of the lock and of the note saying who holds it. The note is a file
// of its own: on Windows a locked file cannot be read by the one asking.
const (
	lockFileName  = "pullcept.lock"
	ownerFileName = "pullcept.pid"
)

// DataDirLock is the held lock of one data directory (LockDataDir).
type DataDirLock struct {
	lock  *flock.Flock
	owner string
}

// LockDataDir takes dir's lock for this process, without waiting: an
// advisory OS lock (flock / LockFileEx, through gofrs/flock) on
// <dir>/pullcept.lock, which the OS drops when the process ends, however
// it ends — a crash leaves no stale lock. It then writes this process's
// pid to <dir>/pullcept.pid. When another process holds it the error wraps
// ErrDataDirBusy and names that process's pid when known.
func LockDataDir(dir string) (*DataDirLock, error) {
	l := flock.New(filepath.Join(dir, lockFileName))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock data directory %s: %w", dir, err)
	}
	owner := filepath.Join(dir, ownerFileName)
	if !ok {
		who := "another process"
		if b, err := os.ReadFile(owner); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				who = "pid " + strconv.Itoa(pid)
			}
		}
		return nil, fmt.Errorf("%w: %s (held by %s); quit that Pullcept first, or set %s to another directory",
			ErrDataDirBusy, dir, who, EnvHome)
	}
	if err := WriteFileAtomic(owner, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		_ = l.Unlock()
		return nil, fmt.Errorf("lock data directory %s: %w", dir, err)
	}
	return &DataDirLock{lock: l, owner: owner}, nil
}

// Unlock releases the lock and removes the pid note. Safe to call twice.
func (l *DataDirLock) Unlock() error {
	if l == nil || !l.lock.Locked() {
		return nil
	}
	rmErr := os.Remove(l.owner)
	if errors.Is(rmErr, os.ErrNotExist) {
		rmErr = nil
	}
	return errors.Join(rmErr, l.lock.Unlock())
}
