//go:build unix

package app

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRunningSeatsFilePlanted: running-seats.json is read at every start.
// A FIFO planted there is refused at once (before, the open waited for a
// writer and the start hung); a link planted there is neither read
// through nor written through — the next record replaces the link, the
// target keeps its bytes (breaker review of issue 32).
func TestRunningSeatsFilePlanted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, RunningSeatsFile)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// A failed run leaves the read blocked: give it its writer.
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	})
	done := make(chan error, 1)
	go func() {
		_, err := loadSeatMarks(dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO read as running-seats.json")
		}
	case <-time.After(testkit.Slow(5 * time.Second)):
		t.Fatal("loadSeatMarks blocked on a FIFO")
	}

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte(`{"seats":[]}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	m, err := loadSeatMarks(dir)
	if err == nil {
		t.Error("running-seats.json read through a link")
	}
	if err := m.sync([]seats.SeatInfo{{Topic: "t-1", Account: "sh", State: seats.StateRunning}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != `{"seats":[]}`+"\n" {
		t.Errorf("written through the link: the target holds %q", b)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("running-seats.json: %v %v, want a regular file", fi, err)
	}
}

// TestServerInfoLinkIsNotWrittenThrough: server.json is written over a
// link planted there, not into the link's target.
func TestServerInfoLinkIsNotWrittenThrough(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	host, err := gossh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, config.ServerInfoFile)
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	s := &server{a: &App{dataDir: dir}}
	if err := s.writeInfo(path, host); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Errorf("server.json went through the link: the target holds %q", b)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("server.json: %v %v, want a regular file", fi, err)
	}
}
