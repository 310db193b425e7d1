//go:build windows

package attachclient

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// The start of a server from a terminal whose programs run in a job
// (Windows Terminal's tabs; docs/serve.md "Windows"). The test binary,
// started again, plays the starter in the job (starterEnv) and the server
// it starts (fakeServerEnv).

const (
	// starterEnv: run as a starter in the job whose handle jobEnv names,
	// starting a server for the data directory this names.
	starterEnv = "PULLCEPT_TEST_ATTACH_STARTER"
	jobEnv     = "PULLCEPT_TEST_ATTACH_JOB"
	// fakeServerEnv: run as `pullcept server`: say ok on the readiness
	// pipe, write the pid to server.pid and wait for a file named stop.
	fakeServerEnv = "PULLCEPT_TEST_ATTACH_FAKE_SERVER"
	// starterRefused is a starter's exit status for ErrNoDetachedStart.
	starterRefused = 3
)

func init() {
	switch {
	case os.Getenv(fakeServerEnv) != "":
		os.Exit(fakeServer(os.Args[1:]))
	case os.Getenv(starterEnv) != "":
		os.Exit(starter(os.Getenv(starterEnv), os.Getenv(jobEnv)))
	}
}

// starter joins the job it was given, then starts a server for dir as
// plain `pullcept` would, and a control process the plain way, which
// stays in the job.
func starter(dir, job string) int {
	h, err := strconv.ParseUint(job, 10, 64)
	if err == nil {
		err = windows.AssignProcessToJobObject(windows.Handle(h), windows.CurrentProcess())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "join the job: %v\n", err)
		return 1
	}
	exe, _ := os.Executable()
	_ = os.Setenv(fakeServerEnv, "1")
	control := exec.Command(exe, "server", "--data", filepath.Join(dir, "control"))
	if err := control.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "control: %v\n", err)
		return 1
	}
	err = spawn(dir, Options{Exe: exe})
	switch {
	case errors.Is(err, ErrNoDetachedStart):
		fmt.Fprintln(os.Stderr, err)
		return starterRefused
	case err != nil:
		fmt.Fprintf(os.Stderr, "spawn: %v\n", err)
		return 1
	}
	return 0
}

// fakeServer is `pullcept server --data DIR [--ready-fd H]`.
func fakeServer(args []string) int {
	var dir string
	var ready uint64
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--data":
			dir = args[i+1]
		case ReadyFDFlag:
			ready, _ = strconv.ParseUint(args[i+1], 10, 64)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 1
	}
	if err := os.WriteFile(filepath.Join(dir, "server.pid"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return 1
	}
	if ready != 0 {
		f := os.NewFile(uintptr(ready), "ready")
		fmt.Fprintln(f, "ok")
		_ = f.Close()
	}
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "stop")); err == nil {
			return 0
		}
	}
	return 0
}

// TestBreakawayFollowsTheJobsLimits: outside a job's reach the server
// starts as is; where the job allows it, it breaks away; where it does not
// (Windows Terminal), no server is started.
func TestBreakawayFollowsTheJobsLimits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		limits uint32
		flag   uint32
		err    error
	}{
		{windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, 0, ErrNoDetachedStart},
		{0, 0, ErrNoDetachedStart},
		{windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK, windows.CREATE_BREAKAWAY_FROM_JOB, nil},
		{windows.JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK, 0, nil},
	} {
		flag, err := breakaway(c.limits)
		if flag != c.flag || !errors.Is(err, c.err) {
			t.Errorf("breakaway(%#x) = %#x, %v; want %#x, %v", c.limits, flag, err, c.flag, c.err)
		}
	}
}

// TestServerStartLeavesTheTerminalsJob: a starter in a job that ends its
// processes when it closes (as a closed Windows Terminal tab does) starts
// the server out of the job when the job allows it: closing the job ends
// a control process started the plain way, not the server. In a job that
// forbids leaving, the start is refused with ErrNoDetachedStart and no
// server runs.
func TestServerStartLeavesTheTerminalsJob(t *testing.T) {
	t.Run("breakaway allowed", func(t *testing.T) {
		testkit.SkipUnderWine(t, "Wine's QueryInformationJobObject answers every job's limits as 0 (a stub), so a job that allows breakaway reads as one that forbids it")
		dir := t.TempDir()
		job := killOnCloseJob(t, windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK)
		if code, out := runStarter(t, dir, job); code != 0 {
			if code == starterRefused && inAJob(t) {
				t.Skipf("this test runs in a job that forbids leaving it: %s", out)
			}
			t.Fatalf("starter: exit %d: %s", code, out)
		}
		server, control := readPID(t, dir), readPID(t, filepath.Join(dir, "control"))
		defer stopFake(t, dir, server)
		defer stopFake(t, filepath.Join(dir, "control"), control)
		if err := windows.CloseHandle(job); err != nil {
			t.Fatal(err)
		}
		testkit.Eventually(t, "the job's end ends the control process", func() bool { return !processAlive(control) })
		if !processAlive(server) {
			t.Fatal("the server ended with the job it was started from")
		}
	})
	t.Run("breakaway forbidden", func(t *testing.T) {
		dir := t.TempDir()
		job := killOnCloseJob(t, 0)
		defer func() { _ = windows.CloseHandle(job) }()
		code, out := runStarter(t, dir, job)
		if code != starterRefused || !strings.Contains(out, "Windows Terminal") {
			t.Fatalf("starter: exit %d: %s; want %d and ErrNoDetachedStart's words", code, out, starterRefused)
		}
		control := readPID(t, filepath.Join(dir, "control"))
		defer stopFake(t, filepath.Join(dir, "control"), control)
		if _, err := os.Stat(filepath.Join(dir, "server.pid")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a server started anyway: %v", err)
		}
	})
}

// killOnCloseJob is a new job that ends its processes when its last
// handle closes, with extra limits; its handle is inheritable.
func killOnCloseJob(t *testing.T, limits uint32) windows.Handle {
	t.Helper()
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | limits
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		t.Fatal(err)
	}
	if err := windows.SetHandleInformation(job, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT); err != nil {
		t.Fatal(err)
	}
	return job
}

// runStarter runs the starter in job for dir and returns its exit status
// and output.
func runStarter(t *testing.T, dir string, job windows.Handle) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), starterEnv+"="+dir, jobEnv+"="+strconv.FormatUint(uint64(job), 10))
	cmd.SysProcAttr = &syscall.SysProcAttr{AdditionalInheritedHandles: []syscall.Handle{syscall.Handle(job)}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("starter: %v", err)
	}
	return 0, string(out)
}

// readPID waits for the fake server in dir to say its pid.
func readPID(t *testing.T, dir string) int {
	t.Helper()
	var pid int
	testkit.Eventually(t, "a pid in "+dir, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "server.pid"))
		pid, _ = strconv.Atoi(string(b))
		return err == nil && pid > 0
	})
	return pid
}

// stopFake ends the fake server in dir and waits for it.
func stopFake(t *testing.T, dir string, pid int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "stop"), nil, 0o600); err != nil {
		t.Error(err)
	}
	testkit.Eventually(t, "the fake server ends", func() bool { return !processAlive(pid) })
}

// inAJob: this test process runs in a job (a CI runner's).
func inAJob(t *testing.T) bool {
	var in int32
	if r, _, err := procIsProcessInJob.Call(uintptr(windows.CurrentProcess()), 0, uintptr(unsafe.Pointer(&in))); r == 0 {
		t.Fatalf("IsProcessInJob: %v", err)
	}
	return in != 0
}
