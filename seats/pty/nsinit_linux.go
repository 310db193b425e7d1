package pty

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// envBus is where D-Bus clients look for the session bus first; unset,
// they look at $XDG_RUNTIME_DIR/bus.
const envBus = "DBUS_SESSION_BUS_ADDRESS"

// nsArgs is the init's command line (NamespaceCommand).
type nsArgs struct {
	ro    []string // --ro DIR: bind DIR read-only (Isolate.ReadOnly)
	hide  []string // --hide FILE: bind /dev/null over FILE (Isolate.Hide)
	bus   bool     // --bus: leave the session bus reachable
	probe bool     // --probe: set the namespace up, say so and end
	exe   string   // --exe: argv's executable, resolved by Pullcept
	argv  []string

	// --report: nsReportFD is the end report (end_unix.go); --pass-report:
	// argv is the guard, which gets it as its fd 3 and tells its own
	// command's end there.
	report, passReport bool
}

func parseNSArgs(args []string) (nsArgs, error) {
	var a nsArgs
	for len(args) > 0 {
		switch args[0] {
		case "--bus":
			a.bus = true
		case "--probe":
			a.probe = true
		case "--report":
			a.report = true
		case "--pass-report":
			a.passReport = true
		case "--ro":
			if len(args) < 2 {
				return a, errors.New("--ro needs a directory")
			}
			a.ro, args = append(a.ro, args[1]), args[1:]
		case "--hide":
			if len(args) < 2 {
				return a, errors.New("--hide needs a file")
			}
			a.hide, args = append(a.hide, args[1]), args[1:]
		case "--exe":
			if len(args) < 2 {
				return a, errors.New("--exe needs a path")
			}
			a.exe, args = args[1], args[1:]
		case "--":
			a.argv = args[1:]
			args = nil
			continue
		default:
			return a, fmt.Errorf("unknown argument %q", args[0])
		}
		args = args[1:]
	}
	if !a.probe && (a.exe == "" || len(a.argv) == 0) {
		return a, errors.New("no command")
	}
	return a, nil
}

// RunNamespace is `pullcept seat-ns` (NamespaceCommand), PID 1 of a seat's
// PID namespace, started by Start in new user, PID and mount namespaces. It
// makes the mounts one-way (the host's new mounts still arrive, none go
// back), mounts a /proc that shows only the seat's processes, covers the
// session bus with /dev/null unless --bus, starts argv on the same
// terminal as the foreground job, says "ok" on fd 3, then forwards SIGHUP,
// SIGTERM and SIGINT to argv's process group, reaps every process
// reparented to it, and exits with argv's code (128+N for signal N, which
// --report also says on fd 4, end_unix.go). Its exit ends every process
// left in the namespace (the kernel kills them).
func RunNamespace(args []string, stderr io.Writer) int {
	// Caught at once: Go's default for these is to exit, and PID 1 leaving
	// kills the CLI without the grace it has to save its session.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	st := openStatus(stderr)
	a, err := parseNSArgs(args)
	if err != nil {
		st.say(statusExec, "pullcept "+NamespaceCommand+": "+err.Error())
		return 2
	}
	if err := enterSeatNS(a.bus, a.ro, a.hide); err != nil {
		st.say(statusNS, err.Error())
		return 3
	}
	if a.probe {
		st.say(statusOK, "")
		return 0
	}
	var report *endReport
	if a.report {
		report = openReport(nsReportFD)
	}
	pid, err := startSeatChild(a, report)
	if err != nil {
		word := statusExec
		if nestRefused(err) {
			word = statusNS
		}
		st.say(word, err.Error())
		return 127
	}
	st.say(statusOK, "")
	end := superviseChild(pid, sigs)
	report.tell(end.signal)
	return end.code
}

// status is the init's answer to Start: fd 3 when Start passed it, else
// stderr (run by hand).
type status struct {
	w    io.Writer
	file *os.File
}

func openStatus(stderr io.Writer) *status {
	if _, err := unix.FcntlInt(3, unix.F_GETFD, 0); err != nil {
		return &status{w: stderr}
	}
	// Not inherited by argv: its end is what tells Start the init is gone.
	unix.CloseOnExec(3)
	f := os.NewFile(3, "status")
	return &status{w: f, file: f}
}

// say writes one line and closes fd 3: there is one answer.
func (s *status) say(word, text string) {
	fmt.Fprintln(s.w, strings.TrimSpace(word+" "+strings.ReplaceAll(text, "\n", " ")))
	if s.file != nil {
		_ = s.file.Close()
		s.file = nil
	}
}

// enterSeatNS sets the namespaces up, in the order each step needs.
func enterSeatNS(bus bool, readOnly, hide []string) error {
	if os.Getpid() != 1 {
		return errors.New("not the first process of a PID namespace of its own")
	}
	// Slave, not private: a disk the human mounts later still shows up in
	// the seat; nothing the seat mounts reaches the host.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("make the mounts one-way: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount a /proc of the seat's own: %w", err)
	}
	for _, d := range readOnly {
		if err := bindReadOnly(d); err != nil {
			return err
		}
	}
	for _, f := range hide {
		// A file that is not there has nothing to take; a seat creating it
		// later makes another inode than the one Pullcept locks.
		if _, err := os.Lstat(f); err != nil {
			continue
		}
		if err := unix.Mount("/dev/null", f, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hide %s: %w", f, err)
		}
	}
	if bus {
		return nil
	}
	for _, p := range busSockets(os.Getenv(envBus), os.Getenv("XDG_RUNTIME_DIR")) {
		if err := unix.Mount("/dev/null", p, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hide the session bus %s: %w", p, err)
		}
	}
	return nil
}

// busSockets are the session bus's sockets on disk: the unix:path= of
// address and $XDG_RUNTIME_DIR/bus, those that exist as sockets. An
// abstract socket (unix:abstract=) lives in the network namespace, which a
// seat shares: it cannot be covered (docs/design.md §16).
func busSockets(address, runtimeDir string) []string {
	var paths []string
	for _, entry := range strings.Split(address, ";") {
		transport, params, ok := strings.Cut(entry, ":")
		if !ok || transport != "unix" {
			continue
		}
		for _, kv := range strings.Split(params, ",") {
			if v, ok := strings.CutPrefix(kv, "path="); ok {
				if p, err := url.PathUnescape(v); err == nil {
					paths = append(paths, p)
				}
			}
		}
	}
	if runtimeDir != "" {
		paths = append(paths, filepath.Join(runtimeDir, "bus"))
	}
	var out []string
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&os.ModeSocket != 0 && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// startSeatChild starts argv as the terminal's foreground job, in a user
// and mount namespace nested in the init's, where it is the user again
// (the init is root in its own, nsAttrs): every mount the init made is
// then locked to it, so even a seat running as root cannot unmount its
// /proc (or the /dev/null over the bus) to see the host's beneath. A
// guard (passReport) gets the end report as its fd 3; nothing else does.
func startSeatChild(a nsArgs, report *endReport) (int, error) {
	env := os.Environ()
	if !a.bus {
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, envBus+"=") })
	}
	uid, err := outerID("/proc/self/uid_map")
	if err != nil {
		return 0, err
	}
	gid, err := outerID("/proc/self/gid_map")
	if err != nil {
		return 0, err
	}
	sys := &syscall.SysProcAttr{
		Setpgid:                    true,
		Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	if _, err := unix.IoctlGetInt(0, unix.TIOCGPGRP); err == nil {
		// Its own group in the foreground, as a shell runs a job: Ctrl+C
		// and SIGWINCH reach it and not the init; Start's Kill reaches the
		// init, which passes it on.
		sys.Foreground, sys.Ctty = true, 0
	}
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	if a.passReport && report != nil {
		files = append(files, report.f)
	}
	p, err := os.StartProcess(a.exe, a.argv, &os.ProcAttr{Env: env, Files: files, Sys: sys})
	if err != nil {
		return 0, err
	}
	return p.Pid, nil
}

// outerID is the user's (or group's) id outside the init's namespace: the
// one id its map holds ("0 <outer id> 1").
func outerID(mapFile string) (int, error) {
	b, err := os.ReadFile(mapFile)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) != 3 || f[2] != "1" {
		return 0, fmt.Errorf("%s: want one id mapped, got %q", mapFile, b)
	}
	return strconv.Atoi(f[1])
}

// nestRefused: the nested namespaces, not argv, were refused (the seat
// then starts without namespaces; argv's own errors fail the start).
func nestRefused(err error) bool {
	for _, e := range []error{syscall.EPERM, syscall.ENOSPC, syscall.EUSERS, syscall.EINVAL} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// childEnd is how argv ended: its code (128+N for signal N) and the
// signal, 0 for an exit.
type childEnd struct {
	code   int
	signal syscall.Signal
}

// superviseChild passes the init's signals on to the child's group and
// reaps until the child itself is reaped; it returns how the child ended.
func superviseChild(pid int, sigs <-chan os.Signal) childEnd {
	exited := make(chan childEnd, 1)
	go reapAll(pid, exited)
	for {
		select {
		case sig := <-sigs:
			s, _ := sig.(syscall.Signal)
			if err := syscall.Kill(-pid, s); err != nil {
				_ = syscall.Kill(pid, s) // it left its group
			}
		case code := <-exited:
			return code
		}
	}
}

// reapAll reaps every child of the init (as PID 1 it inherits every
// orphan of the namespace) until pid's end, which it sends.
func reapAll(pid int, exited chan<- childEnd) {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			exited <- childEnd{code: 128 + int(syscall.SIGKILL)} // no child left to wait for: cannot happen
			return
		}
		if got != pid {
			continue
		}
		if ws.Signaled() {
			exited <- childEnd{code: 128 + int(ws.Signal()), signal: ws.Signal()}
		} else {
			exited <- childEnd{code: ws.ExitStatus()}
		}
		return
	}
}

// bindReadOnly binds dir onto itself read-only. The remount keeps the
// flags the kernel locked on the mount it comes from (nosuid, nodev,
// noexec…): a user namespace may not drop them, and asking without them
// is refused.
func bindReadOnly(dir string) error {
	if err := unix.Mount(dir, dir, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", dir, err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return fmt.Errorf("read %s's mount: %w", dir, err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range [][2]int64{{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME}} {
		if st.Flags&f[0] != 0 {
			flags |= uintptr(f[1])
		}
	}
	if err := unix.Mount("", dir, "", flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", dir, err)
	}
	return nil
}
