package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

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

// LockPath is the data directory's lock file, which an isolated seat sees
// as /dev/null (seats.RoomEndpoint.Hide).
func LockPath(dir string) string { return filepath.Join(dir, lockFileName) }

// LockDataDir takes dir's lock for this process, without waiting: an
// advisory OS lock (flock / LockFileEx, through gofrs/flock) on
// <dir>/pullcept.lock, which the OS drops when the process ends, however
// it ends — a crash leaves no stale lock. Its descriptor is close-on-exec
// (Go opens every file so), so no seat inherits it. A link or FIFO planted
// as the lock file is refused, never followed or waited on. It then writes
// this process's pid to <dir>/pullcept.pid, replacing a link there rather
// than writing through it. When another process holds the lock the error
// wraps ErrDataDirBusy and names that process — its pid and command from
// the OS's lock table where there is one (Linux), else the pid the note
// gives (docs/design.md §12, §16 "Planted files").
func LockDataDir(dir string) (*DataDirLock, error) {
	path := filepath.Join(dir, lockFileName)
	// Create or check it first: gofrs/flock opens it itself, with the
	// flags below, which keep a link swapped in since from being followed.
	f, err := OpenRegular(path, os.O_CREATE|os.O_RDONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock data directory %s: %w", dir, err)
	}
	_ = f.Close()
	l := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDONLY|lockOpenFlags))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock data directory %s: %w", dir, err)
	}
	owner := filepath.Join(dir, ownerFileName)
	if !ok {
		return nil, fmt.Errorf("%w: %s (held by %s); quit that Pullcept first, or set %s to another directory",
			ErrDataDirBusy, dir, lockHolder(path, owner), EnvHome)
	}
	if err := (AtomicFile{NoFollow: true}).Write(owner, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		_ = l.Unlock()
		return nil, fmt.Errorf("lock data directory %s: %w", dir, err)
	}
	return &DataDirLock{lock: l, owner: owner}, nil
}

// maxPidNote bounds a read of pullcept.pid: a pid and a newline.
const maxPidNote = 32

// ReadPidNote returns the pid <dir>/pullcept.pid gives: a regular file,
// not a link, of at most a few bytes (a FIFO planted there does not hang
// the read); 0 when there is none. The note says who wrote it last, not
// who holds the lock: whoever took the lock may have written it.
func ReadPidNote(dir string) int {
	b, err := ReadRegularFile(filepath.Join(dir, ownerFileName), maxPidNote, false)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// lockHolder names the process holding the lock file path for a refusal:
// "pid N (command)" from the OS's lock table (lockTableHolder), else "pid
// N" from the note owner, else "another process".
func lockHolder(path, owner string) string {
	if pid, cmd := lockTableHolder(path); pid > 0 {
		if cmd == "" {
			return "pid " + strconv.Itoa(pid)
		}
		return fmt.Sprintf("pid %d (%s)", pid, cmd)
	}
	if pid := ReadPidNote(filepath.Dir(owner)); pid > 0 {
		return "pid " + strconv.Itoa(pid) + ", as pullcept.pid says"
	}
	return "another process"
}

// printableCommand makes a process's command line one short line for a
// refusal: control and other unprintable characters as '?', at most
// maxCommandRunes characters. It is the holder's own text, shown only to
// the human starting Pullcept.
func printableCommand(s string) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || unicode.Is(unicode.Bidi_Control, r) {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(strings.TrimSpace(s), "?"))
	if r := []rune(s); len(r) > maxCommandRunes {
		s = string(r[:maxCommandRunes]) + "…"
	}
	return s
}

// maxCommandRunes: enough for a program and its first arguments.
const maxCommandRunes = 80

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
