package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// holderKnown: /proc/locks names a flock's holder on Linux.
func holderKnown() bool { return true }

// TestBusyLockNamesTheHolderOverALyingNote: pullcept.pid names another
// pid (written by whoever took the lock after Pullcept quit); the refusal
// names the real holder.
func TestBusyLockNamesTheHolderOverALyingNote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Unlock()
	if err := os.WriteFile(filepath.Join(dir, ownerFileName), []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LockDataDir(dir)
	if err == nil || strings.Contains(err.Error(), "pid 1 ") || strings.Contains(err.Error(), "pid 1)") ||
		!strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("%v, want the holder's pid %d, not the note's", err, os.Getpid())
	}
}

// TestLockIsCloseOnExec: the lock's descriptor is close-on-exec, so no
// seat's process inherits it and holds the data directory after Pullcept
// quits.
func TestLockIsCloseOnExec(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	want := filepath.Join(dir, lockFileName)
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err != nil || target != want {
			continue
		}
		fd, _ := strconv.Atoi(e.Name())
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC == 0 {
			t.Fatalf("lock descriptor %d: flags %#x %v, want FD_CLOEXEC", fd, flags, err)
		}
		found = true
	}
	if !found {
		t.Fatal("no descriptor of this process holds the lock")
	}
}
