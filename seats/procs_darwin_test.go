package seats_test

import (
	"os/exec"
	"strconv"
	"strings"
)

// listenPort is the TCP port pid listens on (lsof), "" when none.
func listenPort(pid int) string {
	out, err := exec.Command("lsof", "-a", "-p", strconv.Itoa(pid), "-iTCP", "-sTCP:LISTEN", "-Fn", "-P").Output()
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(l, "n"); ok {
			if i := strings.LastIndexByte(name, ':'); i >= 0 {
				return name[i+1:]
			}
		}
	}
	return ""
}

// environOf reads pid's environment with ps (as any process of the user
// can): one string, the command line and its environment.
func environOf(pid int) ([]string, error) {
	out, err := exec.Command("ps", "eww", "-o", "command=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}
