package seats_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// listenPort is the TCP port pid listens on (its first LISTEN socket,
// read from /proc/<pid>/fd and /proc/net/tcp), "" when none.
func listenPort(pid int) string {
	inodes := map[string]bool{}
	links, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, l := range links {
		if dst, err := os.Readlink(l); err == nil && strings.HasPrefix(dst, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(dst, "socket:["), "]")] = true
		}
	}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local rem st … inode (index 9); st 0A = LISTEN.
			if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
				continue
			}
			_, hexPort, _ := strings.Cut(fields[1], ":")
			if n, err := strconv.ParseUint(hexPort, 16, 16); err == nil {
				f.Close()
				return strconv.FormatUint(n, 10)
			}
		}
		f.Close()
	}
	return ""
}

// environOf is pid's environment as another process of the user reads it.
func environOf(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), nil
}
