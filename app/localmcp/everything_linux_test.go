package localmcp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// The MCP "everything" reference server (@modelcontextprotocol/
// server-everything, pinned in testdata/clis/package.json, `make clis`):
// a real MCP server no one here wrote. Its initialize answer names it
// "mcp-servers/everything" 2.0.0 and declares tools, prompts, resources,
// logging, tasks and completions, no claude/channel; it writes "Starting
// default (STDIO) server..." on stderr.
const everythingServer = "mcp-servers/everything 2.0.0"

// everythingSpec runs the pinned everything server over stdio with node.
func everythingSpec(t *testing.T) Spec {
	t.Helper()
	script := fakeapi.CLIPath(t, fakeapi.CLIEverything)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH (%v): the everything server needs it; install Node.js and run `make clis`", err)
	}
	return Spec{Command: node, Args: []string{script, "stdio"}}
}

// groupMembers lists the live processes of process group pgid (zombies
// count as gone, as in gone).
func groupMembers(pgid int) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:]) // state, ppid, pgrp, …
		if i < 0 || len(f) < 3 || f[0] == "Z" || f[2] != strconv.Itoa(pgid) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		out = append(out, pid)
	}
	return out
}

// TestEverythingServerLifecycle runs the real everything server under the
// supervisor: Starting, then Running with State.Server naming it (its
// missing claude/channel noted); Stop ends it (Stopped, its process gone);
// Restart starts a new process and keeps the earlier run's log; Close
// ends the run's whole process group.
func TestEverythingServerLifecycle(t *testing.T) {
	spec := everythingSpec(t)
	s := NewSupervisor(Options{Grace: time.Second})
	defer s.Close()
	if err := s.Start("everything", spec); err != nil {
		t.Fatal(err)
	}
	if st := s.State("everything"); (st.Phase != Starting && st.Phase != Running) || st.Pid == 0 {
		t.Fatalf("after Start: %+v", st)
	}
	st := waitPhase(t, s, "everything", Running)
	first := st.Pid
	if st.Server != everythingServer || st.Spec.Command != spec.Command {
		t.Errorf("running: %+v", st)
	}
	waitLog(t, s, "everything", "Starting default (STDIO) server...") // its stderr
	log := logText(s, "everything")
	started := strings.Index(log, fmt.Sprintf("started (pid %d)", first))
	running := strings.Index(log, "running: "+everythingServer)
	if started < 0 || running < started || !strings.Contains(log, "the server does not declare claude/channel") {
		t.Errorf("log:\n%s", log)
	}

	s.Stop("everything")
	if st := s.State("everything"); st.Phase != Stopped || !gone(first) {
		t.Fatalf("after Stop: %+v (pid %d gone: %v)\nlog:\n%s", st, first, gone(first), logText(s, "everything"))
	}

	if err := s.Restart("everything", spec); err != nil {
		t.Fatal(err)
	}
	st = waitPhase(t, s, "everything", Running)
	second := st.Pid
	log = logText(s, "everything")
	if second == first || st.Server != everythingServer || !strings.Contains(log, fmt.Sprintf("started (pid %d)", first)) ||
		!strings.Contains(log, "restarting") || strings.Count(log, "running: "+everythingServer) != 2 {
		t.Errorf("after Restart: %+v\nlog:\n%s", st, log)
	}

	s.Close()
	if st := s.State("everything"); st.Phase != Stopped {
		t.Errorf("after Close: %+v", st)
	}
	if left := groupMembers(second); len(left) > 0 {
		t.Errorf("after Close, its process group %d still has %v", second, left)
	}
	t.Logf("the everything server's log:\n%s", logText(s, "everything"))
}
