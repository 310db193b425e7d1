package localmcp

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// gone reports whether pid no longer runs (a zombie counts as gone: its
// parent may be a PID 1 that does not reap, docs/dependencies.md §1.4).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && len(b) > i+2 && b[i+2] == 'Z'
}

// TestCloseKillsTheTree: a server that stays after its stdin closed, with
// a grandchild, is killed with its whole group after the grace by Close.
func TestCloseKillsTheTree(t *testing.T) {
	s := NewSupervisor(Options{Grace: 100e6})
	if err := s.Start("x", fakeSpec(t, fakeConfig{Stubborn: true, Child: true})); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "x", Running)
	child := childPid(t, s, "x")
	pid := s.State("x").Pid
	s.Close()
	if !gone(pid) {
		t.Errorf("server %d still runs after Close", pid)
	}
	// SIGKILL reached the group before Close returned; its end is not
	// waited for (the grandchild is not Pullcept's child).
	testkit.Eventually(t, "the grandchild's end", func() bool { return gone(child) })
	st := s.State("x")
	if st.Phase != Stopped || st.Code != 128+9 {
		t.Errorf("state %+v", st)
	}
	log := logText(s, "x")
	if !strings.Contains(log, "stdin closed; staying") || !strings.Contains(log, "killed its process tree") {
		t.Errorf("log:\n%s", log)
	}
}

// TestExitReapsTheGroup: a server that exits by itself leaves nothing of
// its group running.
func TestExitReapsTheGroup(t *testing.T) {
	s := newSupervisor(t, Options{})
	code := 0
	if err := s.Start("x", fakeSpec(t, fakeConfig{Child: true, ExitAfterInit: &code})); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "x", Exited)
	child := childPid(t, s, "x")
	testkit.Eventually(t, "the grandchild's end", func() bool { return gone(child) })
}

// pidRE reads the fake's "child pid N" line.
var pidRE = regexp.MustCompile(`child pid (\d+)`)

// childPid waits for the fake's grandchild pid in name's log.
func childPid(t *testing.T, s *Supervisor, name string) int {
	t.Helper()
	var pid int
	testkit.Eventually(t, "the grandchild's pid", func() bool {
		m := pidRE.FindStringSubmatch(logText(s, name))
		if m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		return m != nil
	})
	return pid
}

// TestStopDespiteAnEscapee: a process that left the server's group and
// holds its stdout and stderr does not hold Stop: the readers are closed
// after their drain.
func TestStopDespiteAnEscapee(t *testing.T) {
	s := newSupervisor(t, Options{})
	if err := s.Start("x", fakeSpec(t, fakeConfig{Escape: true})); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "x", Running)
	escapee := childPid(t, s, "x")
	t.Cleanup(func() { _ = syscall.Kill(escapee, syscall.SIGKILL) })
	s.Stop("x")
	if st := s.State("x"); st.Phase != Stopped || st.Code != 0 {
		t.Errorf("state %+v", st)
	}
	if gone(escapee) {
		t.Error("the escapee was killed: the test shows nothing")
	}
}
