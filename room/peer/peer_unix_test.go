//go:build linux || darwin

package peer

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPeerOfALocalSocket: the kernel names the process (and user) on the
// other end of a Unix socket, and InTree follows parents: a child is in
// its parent's tree, the parent is not in the child's.
func TestPeerOfALocalSocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "peer-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ln, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := net.Dial("unix", ln.Addr().String()); err == nil {
			defer c.Close()
			_, _ = c.Read(make([]byte, 1))
		}
	}()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if pid, err := PID(c); err != nil || pid != os.Getpid() {
		t.Errorf("PID = %d, %v; want this process, %d", pid, err, os.Getpid())
	}
	if uid, err := UID(c); err != nil || uid != os.Getuid() {
		t.Errorf("UID = %d, %v; want %d", uid, err, os.Getuid())
	}
	if _, err := PID(&net.TCPConn{}); err == nil {
		t.Error("PID of a TCP connection answered")
	}

	child := exec.Command("sleep", "600")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	if !InTree(child.Process.Pid, os.Getpid()) || !InTree(os.Getpid(), os.Getpid()) {
		t.Error("a child (or the root itself) is not in the tree")
	}
	if InTree(os.Getpid(), child.Process.Pid) || InTree(0, os.Getpid()) || InTree(os.Getpid(), 0) {
		t.Error("InTree answered true outside the tree")
	}
}
