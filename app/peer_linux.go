package app

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// peerCred is the credentials of the process on the other end of a Unix
// socket as it connected (SO_PEERCRED).
func peerCred(c net.Conn) (*unix.Ucred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, fmt.Errorf("not a unix socket: %T", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return nil, err
	}
	return cred, credErr
}

// peerUID is the peer's uid.
func peerUID(c net.Conn) (int, error) {
	cred, err := peerCred(c)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

// peerPID is the peer's pid.
func peerPID(c net.Conn) (int, error) {
	cred, err := peerCred(c)
	if err != nil {
		return -1, err
	}
	return int(cred.Pid), nil
}

// procStat is /proc/pid/stat's fields after the command name.
func procStat(pid int) []string {
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

// descendsFrom reports whether ancestor is among pid's parents (at most
// 64 generations up).
func descendsFrom(pid, ancestor int) bool {
	for range 64 {
		f := procStat(pid)
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

// procExe is pid's executable ("" when unreadable).
func procExe(pid int) string {
	p, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return ""
	}
	return p
}

// procTTY is pid's controlling terminal ("" when none or unknown).
func procTTY(pid int) string {
	f := procStat(pid)
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
