//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestPidNoteIsNotWrittenThroughALink: a link planted at pullcept.pid is
// replaced by the note, never written through (issue 32: the pid landed
// in the link's target); a link or FIFO at pullcept.lock is refused, not
// followed or waited on.
func TestPidNoteIsNotWrittenThroughALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, ownerFileName)); err != nil {
		t.Fatal(err)
	}
	l, err := LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Fatalf("the pid went through the link: victim holds %q", b)
	}
	fi, err := os.Lstat(filepath.Join(dir, ownerFileName))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("pid note: %v %v, want a regular file", fi, err)
	}

	for name, plant := range map[string]func(string) error{
		"link": func(p string) error { return os.Symlink(victim, p) },
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		other := t.TempDir()
		lock := filepath.Join(other, lockFileName)
		if err := plant(lock); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			l, err := LockDataDir(other)
			if err == nil {
				_ = l.Unlock()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrSymlink) && !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s at pullcept.lock: %v, want it refused", name, err)
			}
		case <-time.After(testkit.Slow(10 * time.Second)):
			t.Fatalf("%s at pullcept.lock blocked the start", name)
		}
	}
}

// TestBusyLockNamesTheHolder: a start refused by a held lock names the
// process that holds it — found from the lock itself where the OS says
// (Linux), never only from pullcept.pid, which whoever took the lock may
// have written or left (issue 32: a leftover seat process took the lock
// and the refusal named a pid that was not it). A FIFO planted as the
// note does not hang the refusal.
func TestBusyLockNamesTheHolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	holder := flock.New(filepath.Join(dir, lockFileName))
	if ok, err := holder.TryLock(); !ok || err != nil {
		t.Fatalf("take the lock: %v %v", ok, err)
	}
	defer holder.Unlock()
	note := filepath.Join(dir, ownerFileName)
	if err := syscall.Mkfifo(note, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LockDataDir(dir)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(testkit.Slow(10 * time.Second)):
		if f, oerr := os.OpenFile(note, os.O_RDWR|syscall.O_NONBLOCK, 0); oerr == nil {
			_ = f.Close()
		}
		t.Fatal("a FIFO as pullcept.pid blocked the refusal")
	}
	if !errors.Is(err, ErrDataDirBusy) {
		t.Fatalf("%v, want ErrDataDirBusy", err)
	}
	if !holderKnown() {
		return
	}
	if !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), filepath.Base(os.Args[0])) {
		t.Fatalf("%v, want the holder's pid %d and command %s", err, os.Getpid(), filepath.Base(os.Args[0]))
	}
}
