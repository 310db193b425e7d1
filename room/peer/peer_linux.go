package peer

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// cred is the credentials of the process on the other end of a Unix
// socket as it connected (SO_PEERCRED).
func cred(c net.Conn) (*unix.Ucred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, fmt.Errorf("not a unix socket: %T", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cr *unix.Ucred
	var crErr error
	if err := raw.Control(func(fd uintptr) {
		cr, crErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return nil, err
	}
	return cr, crErr
}

// UID is the uid of the process on the other end of a Unix socket.
func UID(c net.Conn) (int, error) {
	cr, err := cred(c)
	if err != nil {
		return -1, err
	}
	return int(cr.Uid), nil
}

// PID is the pid of the process that connected the Unix socket, in this
// process's PID namespace (the kernel translates it).
func PID(c net.Conn) (int, error) {
	cr, err := cred(c)
	if err != nil {
		return -1, err
	}
	return int(cr.Pid), nil
}

// stat is /proc/pid/stat's fields after the command name.
func stat(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// Descends reports whether ancestor is among pid's parents (at most 64
// generations up; init is nobody's ancestor here).
func Descends(pid, ancestor int) bool {
	for range 64 {
		f := stat(pid)
		if len(f) < 2 {
			return false
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil || ppid <= 1 {
			return false
		}
		if ppid == ancestor {
			return true
		}
		pid = ppid
	}
	return false
}

// Exe is pid's executable ("" when unreadable).
func Exe(pid int) string {
	p, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return ""
	}
	return p
}

// TTY is pid's controlling terminal ("" when none or unknown).
func TTY(pid int) string {
	f := stat(pid)
	if len(f) < 5 {
		return ""
	}
	nr, err := strconv.Atoi(f[4])
	if err != nil || nr == 0 {
		return ""
	}
	major, minor := (nr>>8)&0xfff, (nr&0xff)|((nr>>12)&0xfff00)
	if major >= 136 && major <= 143 {
		return fmt.Sprintf("/dev/pts/%d", (major-136)*256+minor)
	}
	return fmt.Sprintf("tty %d:%d", major, minor)
}

// startTime is pid's start time in clock ticks since boot (/proc/<pid>/stat
// field 22); false when the process is gone.
func startTime(pid int) (uint64, bool) {
	f := stat(pid)
	if len(f) < 20 {
		return 0, false
	}
	v, err := strconv.ParseUint(f[19], 10, 64)
	return v, err == nil
}
