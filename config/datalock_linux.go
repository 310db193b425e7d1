package config

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockOpenFlags: never follow a link swapped in as the lock file, never
// wait on a FIFO.
const lockOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// Read bounds of the proc files lockTableHolder reads: /proc/locks holds a
// line per lock on the machine (a few KiB normally); a command line is
// shown cut anyway.
const (
	maxProcLocks   = 4 << 20
	maxProcCmdline = 4 << 10
)

// lockTableHolder finds the process holding a flock on path in
// /proc/locks (matched by device and inode) and reads its command line
// from /proc/<pid>/cmdline; 0 when it cannot be told.
func lockTableHolder(path string) (pid int, cmd string) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, ""
	}
	dev := uint64(st.Dev) //nolint:unconvert // Dev's type differs by architecture
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), st.Ino)
	locks, err := readProc("/proc/locks", maxProcLocks)
	if err != nil {
		return 0, ""
	}
	sc := bufio.NewScanner(bytes.NewReader(locks))
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's
		// line has "->" after the number, so its fields do not match.
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != want {
			continue
		}
		if pid, err = strconv.Atoi(fields[4]); err != nil || pid <= 0 {
			return 0, ""
		}
		if b, err := readProc(fmt.Sprintf("/proc/%d/cmdline", pid), maxProcCmdline); err == nil {
			cmd = printableCommand(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
		}
		return pid, cmd
	}
	return 0, ""
}

// readProc reads at most max bytes of a proc file (their sizes read as 0,
// so ReadRegularFile's cap does not apply).
func readProc(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}
