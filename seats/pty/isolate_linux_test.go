package pty

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/pullcept/pullcept/testdata/testkit"
)

func init() {
	osHelpers["procs"] = helperProcs
	osHelpers["bus"] = helperBus
	osHelpers["lock"] = helperLock
}

// helperLock tries to take the lock on LOCK_FILE as a seat would, and
// says what the file is there and whether the lock was taken.
func helperLock() int {
	path := os.Getenv("LOCK_FILE")
	kind := "missing"
	if fi, err := os.Stat(path); err == nil {
		kind = "file"
		if fi.Mode()&os.ModeCharDevice != 0 {
			kind = "device"
		}
	}
	took := false
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		took = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
	}
	fmt.Printf("lock %s took %v\n", kind, took)
	fmt.Println("done")
	select {}
}

// helperProcs reports what a seat sees of the processes around it: the
// numeric entries of /proc, its own pid, and whether it can read the
// environment of, signal, or unmount its way to the pid in PEER_PID.
func helperProcs() int {
	ents, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, e.Name())
		}
	}
	fmt.Printf("procs %s\n", strings.Join(pids, ","))
	fmt.Printf("self %d\n", os.Getpid())
	fmt.Printf("uid %d\n", os.Getuid())
	peer, _ := strconv.Atoi(os.Getenv("PEER_PID"))
	_, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", peer))
	fmt.Printf("environ %v\n", err != nil)
	fmt.Printf("signal %v\n", syscall.Kill(peer, syscall.SIGTERM) != nil)
	// Its init holds the namespaces' capabilities: a seat that could
	// trace it could unmount the init's /proc.
	_, err = os.ReadFile("/proc/1/environ")
	fmt.Printf("init %v\n", err != nil)
	// A seat running as root may try to take its /proc away.
	fmt.Printf("umount %v\n", unix.Unmount("/proc", unix.MNT_DETACH) != nil)
	fmt.Println("done")
	select {}
}

// helperBus reports whether the session bus's variable reached it and
// whether the two sockets in BUS_SOCKETS answer.
func helperBus() int {
	_, set := os.LookupEnv(envBus)
	var dialed []string
	for _, p := range strings.Split(os.Getenv("BUS_SOCKETS"), ",") {
		c, err := net.Dial("unix", p)
		if err == nil {
			_ = c.Close()
		}
		dialed = append(dialed, strconv.FormatBool(err == nil))
	}
	fmt.Printf("bus var %v dial %s\n", set, strings.Join(dialed, ","))
	fmt.Println("done")
	select {}
}

// requireNamespaces skips a test where this machine does not allow the
// namespaces (failing instead with CI set: the CI box does).
func requireNamespaces(t *testing.T) {
	t.Helper()
	if got := Probe(os.Args[0]); !got.Isolated {
		if os.Getenv("CI") != "" {
			t.Fatalf("namespaces: %s", got.Reason)
		}
		t.Skipf("namespaces: %s", got.Reason)
	}
}

// isolateRecorder is an Isolate whose Got the test reads.
type isolateRecorder struct {
	mu  sync.Mutex
	got []Isolation
}

func (r *isolateRecorder) isolate(bus bool) *Isolate {
	return &Isolate{Init: os.Args[0], SessionBus: bus, Got: func(i Isolation) {
		r.mu.Lock()
		r.got = append(r.got, i)
		r.mu.Unlock()
	}}
}

func (r *isolateRecorder) all() []Isolation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// TestIsolatedPTYBehavesAsPlain: in its namespaces a child still reads and
// writes its terminal, sees resizes, ends with its own code and EOF, takes
// Ctrl+C as SIGINT, ends on hangup, and stops on Kill — each by the same
// test as without them.
func TestIsolatedPTYBehavesAsPlain(t *testing.T) {
	requireNamespaces(t)
	rec := &isolateRecorder{}
	isolateHelpers = rec.isolate(false)
	t.Cleanup(func() { isolateHelpers = nil })
	for _, tc := range []struct {
		name string
		test func(*testing.T)
	}{
		{"echo", TestPTYEchoAndTerm}, {"resize", TestPTYResizeSeenByChild}, {"exit", TestPTYExitGivesEOFAndCode},
		{"ctrl-c", TestPTYCtrlCInterrupts}, {"hangup", TestPTYCloseUnblocksReadAndHangsUp},
		{"kill", TestPTYKillCooperativeChild},
	} {
		t.Run(tc.name, tc.test)
	}
	got := rec.all()
	if len(got) != 6 || slices.ContainsFunc(got, func(i Isolation) bool { return !i.Isolated }) {
		t.Fatalf("isolations = %+v, want 6 isolated", got)
	}
}

// startIsolatedHelper starts helper mode in namespaces with extra env.
func startIsolatedHelper(t *testing.T, mode string, iso *Isolate, env ...string) Proc {
	t.Helper()
	p, err := Start(Options{
		Argv:    []string{os.Args[0], "-test.run=^TestHelperProcess$"},
		Dir:     t.TempDir(),
		Env:     append(append(withoutEnv(os.Environ(), "TERM"), helperEnv+"="+mode), env...),
		Isolate: iso,
	})
	if err != nil {
		t.Fatalf("Start(%s): %v", mode, err)
	}
	t.Cleanup(func() {
		_ = p.Kill()
		_ = p.Close()
		waitExit(t, p)
	})
	return p
}

// helperLine is the value after prefix in out's line that starts with it.
func helperLine(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), prefix+" "); ok {
			return v
		}
	}
	return ""
}

// TestIsolatedChildSeesOnlyItself: /proc in the namespaces lists the init
// and the child only; this test process (as any other seat's) cannot be
// read or signalled from there, nor can the init (which holds the
// namespaces' capabilities) be read, and /proc cannot be unmounted to see
// the host's beneath, even by root; the child is the user (its uid).
func TestIsolatedChildSeesOnlyItself(t *testing.T) {
	requireNamespaces(t)
	rec := &isolateRecorder{}
	p := startIsolatedHelper(t, "procs", rec.isolate(false), "PEER_PID="+strconv.Itoa(os.Getpid()))
	out := collect(p)
	out.waitFor(t, "done")
	s := out.String()
	// The init's threads take pids too: the child's is the init's last + 1.
	self := helperLine(s, "self")
	if got := helperLine(s, "procs"); got != "1,"+self || self == "1" {
		t.Errorf("the child's /proc lists %q, want 1 (the init) and %s (itself) only", got, self)
	}
	if got := helperLine(s, "uid"); got != strconv.Itoa(os.Getuid()) {
		t.Errorf("the child runs as uid %s in its namespace, want the user's %d", got, os.Getuid())
	}
	for _, k := range []string{"environ", "signal", "umount", "init"} {
		if helperLine(s, k) != "true" {
			t.Errorf("%s of pid %d from the namespace did not fail:\n%s", k, os.Getpid(), s)
		}
	}
	if got := rec.all(); len(got) != 1 || !got[0].Isolated {
		t.Errorf("isolation = %+v", got)
	}
}

// TestIsolatedAsAnotherUser: run as root, the isolation tests run again
// as an unprivileged user (nobody), the case of most people: there the
// init would lose at exec the capabilities it mounts with, were it not
// root in its own namespace.
func TestIsolatedAsAnotherUser(t *testing.T) {
	if os.Getuid() != 0 || os.Getenv(helperEnv) != "" {
		t.Skip("runs as root only, to become another user")
	}
	requireNamespaces(t)
	dir, err := os.MkdirTemp("", "pullcept-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	bin := filepath.Join(dir, "pty.test")
	b, err := os.ReadFile(os.Args[0])
	if err == nil {
		err = os.WriteFile(bin, b, 0o755)
	}
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	tmp := filepath.Join(dir, "tmp") // the other user's TMPDIR and HOME
	if err == nil {
		err = os.Mkdir(tmp, 0o700)
	}
	if err == nil {
		err = os.Chown(tmp, 65534, 65534)
	}
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^(TestIsolatedPTYBehavesAsPlain|TestIsolatedChildSeesOnlyItself|TestIsolatedSessionBus|TestIsolatedSeatCannotTakeTheLock)$", "-test.v")
	cmd.Dir, cmd.Env = tmp, []string{"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMPDIR=" + tmp, "CI=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "--- SKIP") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

// TestIsolatedKillEndsTheNamespace: a child that ignores SIGHUP and
// SIGTERM, and its grandchild, end with the init at Kill's SIGKILL: no
// process of the namespace is left.
func TestIsolatedKillEndsTheNamespace(t *testing.T) {
	requireNamespaces(t)
	rec := &isolateRecorder{}
	p := startIsolatedHelper(t, "tree", rec.isolate(false))
	out := collect(p)
	out.waitFor(t, "grandchild ")
	var family []int
	testkit.Eventually(t, "the init's child and grandchild", func() bool {
		family = descendantsOf(p.Pid())
		return len(family) >= 2
	})
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, p); code != 128+int(syscall.SIGKILL) {
		t.Fatalf("exit code %d, want %d", code, 128+int(syscall.SIGKILL))
	}
	for _, pid := range family {
		testkit.Eventually(t, fmt.Sprintf("process %d gone", pid), func() bool { return processGone(pid) })
	}
}

// descendantsOf lists pid's descendants (host pids) from /proc.
func descendantsOf(pid int) []int {
	parents := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(b)
		end := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[end+1:])
		if end < 0 || len(f) < 2 {
			continue
		}
		me, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		parents[me], _ = strconv.Atoi(f[1])
	}
	var out []int
	for p := range parents {
		for q := parents[p]; q > 1; q = parents[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// TestIsolatedSessionBus: the session bus's sockets (the variable's path
// and $XDG_RUNTIME_DIR/bus) do not answer in a seat's namespaces and the
// variable is gone; an account that opted in keeps both.
func TestIsolatedSessionBus(t *testing.T) {
	requireNamespaces(t)
	dir, err := os.MkdirTemp("", "pullcept-bus-") // short: a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	named, runtime := filepath.Join(dir, "named"), filepath.Join(dir, "bus")
	for _, path := range []string{named, runtime} {
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ln.Close() })
	}
	env := []string{envBus + "=unix:path=" + named + ",guid=0", "XDG_RUNTIME_DIR=" + dir, "BUS_SOCKETS=" + named + "," + runtime}
	for _, tc := range []struct {
		bus  bool
		want string
	}{{false, "false dial false,false"}, {true, "true dial true,true"}} {
		rec := &isolateRecorder{}
		p := startIsolatedHelper(t, "bus", rec.isolate(tc.bus), env...)
		out := collect(p)
		out.waitFor(t, "done")
		if got := helperLine(out.String(), "bus var"); got != tc.want {
			t.Errorf("session bus opted in %v: %q, want %q", tc.bus, got, tc.want)
		}
		if got := rec.all(); len(got) != 1 || !got[0].Isolated || got[0].SessionBus != tc.bus {
			t.Errorf("isolation = %+v", got)
		}
	}
}

// TestIsolationFallsBack: an init that never answers, or cannot start,
// leaves the child started as without namespaces, and Got says why.
func TestIsolationFallsBack(t *testing.T) {
	requireNamespaces(t) // else every start falls back, for the kernel's reason
	for _, tc := range []struct{ init, why string }{
		{"/bin/true", "did not answer"},
		{filepath.Join(t.TempDir(), "no-such-pullcept"), "did not start"},
	} {
		rec := &isolateRecorder{}
		iso := rec.isolate(false)
		iso.Init = tc.init
		p := startIsolatedHelper(t, "echo", iso)
		out := collect(p)
		out.waitFor(t, "term=")
		got := rec.all()
		if len(got) != 1 || got[0].Isolated || !strings.Contains(got[0].Reason, tc.why) {
			t.Errorf("init %s: isolation = %+v, want not isolated: …%s…", tc.init, got, tc.why)
		}
		if !strings.HasPrefix(got[0].String(), "not isolated: ") {
			t.Errorf("shown as %q", got[0].String())
		}
	}
}

// TestIsolatedStartErrors: a command that cannot run fails the start as it
// does without namespaces (it is not started without them instead).
func TestIsolatedStartErrors(t *testing.T) {
	requireNamespaces(t)
	dir := t.TempDir()
	notExec := filepath.Join(dir, "script")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv []string
		want error
	}{
		{[]string{"pullcept-no-such-command"}, exec.ErrNotFound},
		{[]string{notExec}, nil},
	} {
		rec := &isolateRecorder{}
		p, err := Start(Options{Argv: tc.argv, Dir: dir, Isolate: rec.isolate(false)})
		if err == nil {
			_ = p.Kill()
			_ = p.Close()
			_, _ = p.Wait()
			t.Fatalf("%q started", tc.argv)
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%q: %v, want %v", tc.argv, err, tc.want)
		}
		if !strings.Contains(err.Error(), "permission denied") && tc.want == nil {
			t.Errorf("%q: %v, want permission denied", tc.argv, err)
		}
		if got := rec.all(); len(got) != 0 {
			t.Errorf("%q: a failed start reported %+v", tc.argv, got)
		}
	}
}

func TestParseNSArgs(t *testing.T) {
	t.Parallel()
	a, err := parseNSArgs([]string{"--bus", "--exe", "/bin/x", "--", "x", "--bus", "-v"})
	if err != nil || !a.bus || a.exe != "/bin/x" || !slices.Equal(a.argv, []string{"x", "--bus", "-v"}) {
		t.Fatalf("parse = %+v, %v", a, err)
	}
	for _, bad := range [][]string{nil, {"--exe"}, {"--exe", "/x"}, {"--", "x"}, {"--what", "--", "x"}} {
		if _, err := parseNSArgs(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if a, err := parseNSArgs([]string{"--probe"}); err != nil || !a.probe {
		t.Errorf("--probe: %+v, %v", a, err)
	}
}

func TestBusSockets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock := func(name string) string {
		p := filepath.Join(dir, name)
		ln, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ln.Close() })
		return p
	}
	a, bus := sock("a b"), sock("bus")
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	addr := "unix:abstract=/tmp/dbus-x,guid=1;unix:path=" + strings.ReplaceAll(a, " ", "%20") + ";tcp:host=h;unix:path=" + file + ";unix:path=" + bus
	if got := busSockets(addr, dir); !slices.Equal(got, []string{a, bus}) {
		t.Fatalf("busSockets = %q, want %q", got, []string{a, bus})
	}
	if got := busSockets("", ""); len(got) != 0 {
		t.Fatalf("nothing set: %q", got)
	}
}

// TestIsolatedSeatCannotTakeTheLock: a file in Isolate.Hide (the data
// directory's lock) is /dev/null inside the seat, so a seat's process
// cannot take the lock Pullcept holds, nor hold it past Pullcept's end and
// refuse the next start (issue 32). Without the hide the same process
// reaches the very file (the lock is refused while held here).
func TestIsolatedSeatCannotTakeTheLock(t *testing.T) {
	requireNamespaces(t)
	lock := filepath.Join(t.TempDir(), "pullcept.lock")
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hide bool
		want string
	}{{false, "file took false"}, {true, "device took true"}} {
		iso := (&isolateRecorder{}).isolate(false)
		if tc.hide {
			iso.Hide = []string{lock}
		}
		out := collect(startIsolatedHelper(t, "lock", iso, "LOCK_FILE="+lock))
		out.waitFor(t, "done")
		if got := helperLine(out.String(), "lock"); got != tc.want {
			t.Errorf("hide %v: %q, want %q", tc.hide, got, tc.want)
		}
	}
	// The lock taken inside the seat was /dev/null's: Pullcept's file is
	// still free to lock once this test lets it go.
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
	g, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := unix.Flock(int(g.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Errorf("the lock file is held by the seat: %v", err)
	}
}
