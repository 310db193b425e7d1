package localmcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// deathChildEnv runs TestDeathChild as a Pullcept that a test kills.
const deathChildEnv = "LOCALMCP_DEATH_CHILD"

// TestServerDiesWithPullcept: a server that ignores its stdin closing
// (as the real bridge does; here `sleep`) still ends when Pullcept is
// SIGKILLed and Close never runs (Linux: its parent-death signal).
func TestServerDiesWithPullcept(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	child := exec.Command(os.Args[0], "-test.run=^TestDeathChild$", "-test.count=1")
	child.Env = append(os.Environ(), deathChildEnv+"="+pidFile)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = child.Wait(); close(exited) }()
	var pid int
	testkit.Eventually(t, "the child's server pid", func() bool {
		b, err := os.ReadFile(pidFile)
		if err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		return pid > 0
	})
	t.Logf("server pid %d", pid)
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	testkit.Eventually(t, "the server gone with its Pullcept", func() bool {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return err != nil || strings.Contains(string(b), ") Z ")
	})
}

// TestDeathChild is the Pullcept TestServerDiesWithPullcept kills.
func TestDeathChild(t *testing.T) {
	pidFile := os.Getenv(deathChildEnv)
	if pidFile == "" {
		t.Skip("run by TestServerDiesWithPullcept")
	}
	// sleep ignores its stdin and writes nothing: only a signal ends it,
	// long after the test's scaled wait for it to go.
	s := NewSupervisor(Options{})
	if err := s.Start("x", Spec{Command: "sleep", Args: []string{strconv.Itoa(int(testkit.Slow(120 * time.Second).Seconds()))}}); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "started", func() bool { return s.State("x").Pid > 0 })
	if err := os.WriteFile(pidFile+".tmp", []byte(strconv.Itoa(s.State("x").Pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(pidFile+".tmp", pidFile); err != nil {
		t.Fatal(err)
	}
	time.Sleep(testkit.Slow(2 * time.Minute)) // killed long before: the kill is the subject
}
