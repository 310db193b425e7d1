package peer

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// sockopt runs get on c's descriptor: c must be a Unix socket.
func sockopt(c net.Conn, get func(fd int) (int, error)) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, fmt.Errorf("not a unix socket: %T", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	v, getErr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { v, getErr = get(int(fd)) }); err != nil {
		return -1, err
	}
	return v, getErr
}

// UID is the uid of the process on the other end of a Unix socket
// (LOCAL_PEERCRED).
func UID(c net.Conn) (int, error) {
	return sockopt(c, func(fd int) (int, error) {
		cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}

// PID is the pid of the process that connected the Unix socket
// (LOCAL_PEERPID).
func PID(c net.Conn) (int, error) {
	return sockopt(c, func(fd int) (int, error) {
		return unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	})
}

// Descends reports whether ancestor is among pid's parents (at most 64
// generations up), read with sysctl kern.proc.pid (no /proc on macOS).
func Descends(pid, ancestor int) bool {
	for range 64 {
		kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil || kp.Proc.P_pid != int32(pid) {
			return false
		}
		ppid := int(kp.Eproc.Ppid)
		if ppid <= 1 {
			return false
		}
		if ppid == ancestor {
			return true
		}
		pid = ppid
	}
	return false
}

// Exe and TTY are not read on macOS yet ("" = unknown).
func Exe(int) string { return "" }

// TTY: see Exe.
func TTY(int) string { return "" }

// startTime is pid's start time in microseconds (kern.proc.pid); false
// when the process is gone.
func startTime(pid int) (uint64, bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return 0, false
	}
	t := kp.Proc.P_starttime
	return uint64(t.Sec)*1e6 + uint64(t.Usec), true
}
