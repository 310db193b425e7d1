//go:build linux

package seats

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// procChild is one child process of this test process as /proc shows it.
type procChild struct {
	pid   int
	state string // R, S, Z …
	comm  string
}

// children lists this process's children from /proc/<pid>/stat: "pid (comm)
// state ppid …", comm may hold spaces and parentheses, so the fields are
// read after the last ')'.
func children(t *testing.T) []procChild {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	me := os.Getpid()
	var out []procChild
	for _, path := range dirs {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the process ended meanwhile
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) < 2 {
			continue
		}
		ppid, err := strconv.Atoi(fields[1])
		if err != nil || ppid != me {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		out = append(out, procChild{pid: pid, state: fields[0], comm: s[open+1 : end]})
	}
	return out
}

// TestManagerCloseLeavesNoZombies starts seats that run, one that exited
// by itself and one the user stopped, closes the Manager, and checks /proc:
// no child of this process is left, zombie or alive, and every seat's
// process group is gone.
func TestManagerCloseLeavesNoZombies(t *testing.T) {
	for _, c := range children(t) {
		t.Logf("child before the test: %+v", c)
	}
	before := len(children(t))
	r := newManagerRig(t)
	var pids []int
	for i, opts := range []string{"", "", "-exit 2", ""} {
		a := r.fakeAccount(t, fmt.Sprintf("seat%d", i), opts)
		if _, err := r.m.Start(managerTopic, a.ID, 0, 0); err != nil {
			t.Fatalf("Start %s: %v", a.ID, err)
		}
		s, _ := r.m.Seat(managerTopic, a.ID)
		pids = append(pids, s.info().Pid)
	}
	s2, _ := r.m.Seat(managerTopic, "seat2")
	waitDone(t, s2)
	if err := r.m.Stop(managerTopic, "seat3"); err != nil {
		t.Fatal(err)
	}
	for _, c := range children(t) {
		if c.state == "Z" {
			t.Errorf("zombie before Close: %+v", c)
		}
	}
	r.m.Close()
	// Close waits for every seat to be reaped, so /proc is final now.
	after := children(t)
	for _, c := range after {
		if c.state == "Z" {
			t.Errorf("zombie after Close: %+v", c)
		}
		for _, pid := range pids {
			if c.pid == pid {
				t.Errorf("seat process %d still a child after Close: %+v", pid, c)
			}
		}
	}
	if len(after) > before {
		t.Errorf("children after Close = %+v, want at most the %d from before the test", after, before)
	}
	for _, pid := range pids {
		// Each seat led its own process group (Setsid): the group is empty.
		if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process group %d: kill 0 = %v, want ESRCH", pid, err)
		}
	}
}
