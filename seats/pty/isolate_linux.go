package pty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// CanIsolate: this OS has the namespaces Isolate uses (Linux).
const CanIsolate = true

// statusWait bounds how long Start waits for the namespace init's word: a
// Go binary starts in milliseconds; a -race test binary on two busy cores
// took up to a second. Past it the seat starts without namespaces.
const statusWait = 15 * time.Second

// The init's words on its status descriptor (fd 3), one line each.
const (
	statusOK   = "ok"   // the namespaces are set and argv runs
	statusNS   = "ns"   // a namespace step failed: start without them
	statusExec = "exec" // argv could not start: the start fails
)

// startIsolating starts c in namespaces of its own when iso asks and the
// kernel allows, else as startPTY does, saying why not.
func startIsolating(c child, iso *Isolate) (Proc, Isolation, error) {
	if iso == nil {
		return startPlain(c)
	}
	p, reason, err := startIsolated(c, iso)
	if p != nil || err != nil {
		return p, Isolation{Isolated: p != nil}, err
	}
	proc, _, err := startPlain(c)
	return proc, Isolation{Reason: reason}, err
}

// startPlain is startPTY with the isolation it does not give.
func startPlain(c child) (Proc, Isolation, error) {
	p, err := startPTY(c)
	return p, Isolation{Reason: "not asked"}, err
}

// startIsolated starts `iso.Init seat-ns -- argv` in new user, PID and
// mount namespaces and waits for its word. A refusal of the namespaces
// returns no Proc and the reason; argv that cannot start is an error, as
// it is without namespaces.
func startIsolated(c child, iso *Isolate) (Proc, string, error) {
	argv := c.argv
	// Resolved here, with Pullcept's PATH, as the plain start resolves it.
	target := exec.Command(argv[0], argv[1:]...)
	if target.Err != nil {
		return nil, "", target.Err
	}
	args := []string{NamespaceCommand, "--report"}
	if c.guarded {
		args = append(args, "--pass-report")
	}
	if iso.SessionBus {
		args = append(args, "--bus")
	}
	for _, d := range iso.ReadOnly {
		args = append(args, "--ro", d)
	}
	for _, f := range iso.Hide {
		args = append(args, "--hide", f)
	}
	args = append(append(args, "--exe", target.Path, "--"), argv...)
	cmd := exec.Command(iso.Init, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	cmd.SysProcAttr = nsAttrs()
	r, w, err := os.Pipe()
	if err != nil {
		return nil, "", fmt.Errorf("status pipe: %w", err)
	}
	defer r.Close()
	endR, endW, err := os.Pipe()
	if err != nil {
		_ = w.Close()
		return nil, "", fmt.Errorf("end report pipe: %w", err)
	}
	cmd.ExtraFiles = []*os.File{w, endW} // fd 3 and nsReportFD
	p, err := startCmd(cmd, c.cols, c.rows, endR)
	_, _ = w.Close(), endW.Close() // the init holds the only write ends now
	if err != nil {
		return nil, cloneRefused(err), nil
	}
	word, text := readStatus(r)
	switch word {
	case statusOK:
		return p, "", nil
	case statusExec:
		p.abandon()
		return nil, "", errors.New(text)
	case statusNS:
		p.abandon()
		return nil, text + nsHint(), nil
	}
	p.abandon()
	return nil, "the namespace init did not answer: " + text, nil
}

// nsAttrs are the namespaces a seat's init starts in: a user namespace
// mapping only the user's own ids (so nothing is allowed there that was
// not before), and in it a PID and a mount namespace. The user is root
// there: a user other than root would lose at exec the capabilities the
// init needs to mount; argv, one namespace further in, is the user again
// (startSeatChild).
func nsAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
}

// readStatus reads the init's one line: its word and the rest. No line by
// statusWait, or the init gone without one, is word "".
func readStatus(r *os.File) (word, text string) {
	_ = r.SetReadDeadline(time.Now().Add(statusWait))
	b, err := io.ReadAll(io.LimitReader(r, 4096))
	line := strings.TrimSpace(string(b))
	if line == "" {
		if err != nil {
			return "", err.Error()
		}
		return "", "it ended without a word"
	}
	word, text, _ = strings.Cut(line, " ")
	return word, text
}

// abandon ends a child that will not run as the seat and reaps it.
func (p *unixProc) abandon() {
	_ = syscall.Kill(p.pid, syscall.SIGKILL)
	_ = p.Close()
	_, _ = p.Wait()
}

// cloneRefused says why the kernel would not start the init in its
// namespaces.
func cloneRefused(err error) string {
	var why string
	switch {
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EACCES):
		why = "the kernel refused new user namespaces (" + err.Error() + ")"
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EUSERS):
		why = "no user namespace is left to make (" + err.Error() + ")"
	case errors.Is(err, syscall.EINVAL):
		why = "this kernel has no user or PID namespaces (" + err.Error() + ")"
	default:
		why = "the namespace init did not start: " + err.Error()
	}
	return why + nsHint()
}

// nsHint names the system setting that explains a refusal, when one is set.
func nsHint() string {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	switch {
	case read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
		return "; kernel.unprivileged_userns_clone is 0"
	case read("/proc/sys/user/max_user_namespaces") == "0":
		return "; user.max_user_namespaces is 0"
	case read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
		return "; AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns is 1)"
	}
	return ""
}

// Probe reports whether a child started with Isolate{Init: init} would run
// in namespaces of its own, by setting them up once with nothing in them
// (the launch preview's word before any seat starts).
func Probe(init string) Isolation {
	cmd := exec.Command(init, NamespaceCommand, "--probe")
	cmd.SysProcAttr = nsAttrs()
	r, w, err := os.Pipe()
	if err != nil {
		return Isolation{Reason: "status pipe: " + err.Error()}
	}
	defer r.Close()
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	_ = w.Close()
	if err != nil {
		return Isolation{Reason: cloneRefused(err)}
	}
	word, text := readStatus(r)
	if word != statusOK {
		_ = cmd.Process.Kill()
	}
	_ = cmd.Wait()
	switch word {
	case statusOK:
		return Isolation{Isolated: true}
	case statusNS:
		return Isolation{Reason: text + nsHint()}
	}
	return Isolation{Reason: "the namespace init did not answer: " + text}
}
