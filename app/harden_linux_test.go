package app

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestServerIsNotDumpable: a running server's memory is closed to the
// user's other processes (PR_SET_DUMPABLE 0), the seats among them.
func TestServerIsNotDumpable(t *testing.T) {
	startSSHRig(t) // Serve runs in this process
	v, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v != 0 {
		t.Fatalf("PR_GET_DUMPABLE = %d while the server runs, want 0", v)
	}
}
