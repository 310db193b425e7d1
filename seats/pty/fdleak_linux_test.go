package pty

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestNoDescriptorLeaksIntoASeat (issue 31 review): a descriptor Pullcept
// holds without close-on-exec — a library's epoll, one the shell left
// open — does not reach a seat's child, isolated or not.
func TestNoDescriptorLeaksIntoASeat(t *testing.T) {
	fd, err := unix.EpollCreate1(0) // as bubbletea's input reader makes it
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for _, iso := range []*Isolate{nil, (&isolateRecorder{}).isolate(false)} {
		out := filepath.Join(t.TempDir(), "fds")
		p, err := Start(Options{Argv: []string{"/bin/sh", "-c", "ls /proc/self/fd > " + out}, Dir: t.TempDir(), Isolate: iso})
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.Copy(io.Discard, p) }()
		if _, err := p.Wait(); err != nil {
			t.Fatal(err)
		}
		_ = p.Close()
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if fds := strings.Fields(string(b)); len(fds) > 0 && containsFD(fds, fd) {
			t.Errorf("isolate %v: the child holds Pullcept's descriptor %d: %v", iso != nil, fd, fds)
		}
	}
}

func containsFD(fds []string, fd int) bool {
	for _, f := range fds {
		if f == strconv.Itoa(fd) {
			return true
		}
	}
	return false
}
