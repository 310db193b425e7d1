package peer

import (
	"errors"
	"fmt"
	"net"

	"golang.org/x/sys/windows"
)

// PID is the process id of a named pipe's client
// (GetNamedPipeClientProcessId): c must be a go-winio pipe connection,
// which exposes its handle. Other connections (TCP) are unsupported.
func PID(c net.Conn) (int, error) {
	fc, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return -1, fmt.Errorf("%w: not a named pipe: %T", errors.ErrUnsupported, c)
	}
	var pid uint32
	if err := windows.GetNamedPipeClientProcessId(windows.Handle(fc.Fd()), &pid); err != nil {
		return -1, fmt.Errorf("GetNamedPipeClientProcessId: %w", err)
	}
	return int(pid), nil
}

// Descends: on Windows a seat's processes are known by their Job object
// (seats/pty Holds), not by parent ids, which outlive their parents and
// may name a reused pid.
func Descends(int, int) bool { return false }

// Exe is pid's executable ("" when it cannot be read).
func Exe(pid int) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &n); err != nil {
		return ""
	}
	return windows.UTF16ToString(buf[:n])
}

// TTY is unknown on Windows.
func TTY(int) string { return "" }

// startTime is the process's creation time (GetProcessTimes); false when
// it cannot be opened (gone).
func startTime(pid int) (uint64, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, false
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0, false
	}
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil || code != 259 { // STILL_ACTIVE
		return 0, false
	}
	return uint64(created.HighDateTime)<<32 | uint64(created.LowDateTime), true
}
