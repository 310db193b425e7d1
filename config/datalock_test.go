package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLockDataDir: one holder per data directory; the second is refused
// naming the holder's pid; after Unlock the directory can be taken again.
func TestLockDataDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ownerFileName))
	if err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Fatalf("pid note %q, %v", b, err)
	}
	_, err = LockDataDir(dir)
	if !errors.Is(err, ErrDataDirBusy) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second lock: %v, want ErrDataDirBusy naming pid %d", err, os.Getpid())
	}
	if err := first.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := first.Unlock(); err != nil {
		t.Fatalf("second Unlock: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ownerFileName)); !os.IsNotExist(err) {
		t.Fatalf("pid note left after Unlock: %v", err)
	}
	again, err := LockDataDir(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	if err := again.Unlock(); err != nil {
		t.Fatal(err)
	}
}

// TestLockDataDirMissing: a data directory that does not exist is an
// error, not a lock somewhere else.
func TestLockDataDirMissing(t *testing.T) {
	t.Parallel()
	if _, err := LockDataDir(filepath.Join(t.TempDir(), "nope")); err == nil || errors.Is(err, ErrDataDirBusy) {
		t.Fatalf("lock of a missing dir: %v", err)
	}
}
