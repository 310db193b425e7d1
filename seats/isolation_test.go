//go:build unix

package seats

import (
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/pty"
)

// TestIsolationLog: a seat is isolated only when every process its start
// spawned is; the first refusal's reason stays; nothing spawned through
// the PTY layer says why.
func TestIsolationLog(t *testing.T) {
	t.Parallel()
	var l isolationLog
	if got := l.result("off"); got.Isolated || got.Reason != "off" {
		t.Fatalf("nothing spawned: %+v", got)
	}
	l.add(pty.Isolation{Isolated: true})
	l.add(pty.Isolation{Reason: "refused"})
	l.add(pty.Isolation{Isolated: true})
	l.add(pty.Isolation{Reason: "later"})
	if got := l.result("off"); got.Isolated || got.Reason != "refused" {
		t.Fatalf("a server isolated, the CLI not: %+v", got)
	}
	var ok isolationLog
	ok.add(pty.Isolation{Isolated: true, SessionBus: true})
	if got := ok.result("off"); !got.Isolated || !got.SessionBus {
		t.Fatalf("all isolated: %+v", got)
	}
}

// TestManagerSeatsAreIsolated: a seat the Manager starts runs in its
// namespaces where the machine allows (its SeatInfo says so, and its
// process is the namespace init, the CLI its child); with NoIsolation it
// runs as before and says why.
func TestManagerSeatsAreIsolated(t *testing.T) {
	for _, off := range []bool{false, true} {
		r := newManagerRig(t)
		r.m.opts.NoIsolation = off
		probe := pty.Probe(r.m.opts.PullceptPath)
		a := r.fakeAccount(t, "iso", "")
		if _, err := r.m.Start("t", a.ID, 80, 24); err != nil {
			t.Fatal(err)
		}
		var in SeatInfo
		for _, s := range r.m.Seats("t") {
			in = s
		}
		switch {
		case off && (in.Isolation.Isolated || in.Isolation.Reason != isolationOff):
			t.Errorf("NoIsolation: %+v", in.Isolation)
		case !off && in.Isolation != (pty.Isolation{Isolated: probe.Isolated, Reason: probe.Reason}):
			t.Errorf("isolation %+v, the probe said %+v", in.Isolation, probe)
		}
		if err := r.m.Stop("t", a.ID); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPreviewSaysNotIsolated: where a seat would not be isolated on Linux
// the launch preview says so and why (here: an init that never answers);
// an isolated account that opted into the session bus is told it is
// reachable; elsewhere, and with NoIsolation, the preview is silent (the
// panel says it).
func TestPreviewSaysNotIsolated(t *testing.T) {
	r := newManagerRig(t)
	a := config.Account{Name: "Sh", Kind: config.KindCLI, WorkDir: t.TempDir(), Command: "/bin/sh"}
	probe := pty.Probe(r.m.opts.PullceptPath)
	_, problems := r.m.Preview(a)
	switch {
	case !pty.CanIsolate && len(problems) != 0:
		t.Fatalf("problems %q on %s", problems, "an OS without namespaces")
	case pty.CanIsolate && !probe.Isolated && !slices.Contains(problems, probe.String()):
		t.Fatalf("problems %q, want %q", problems, probe.String())
	case pty.CanIsolate && probe.Isolated && len(problems) != 0:
		t.Fatalf("problems %q of an isolated seat", problems)
	}
	on := true
	a.SessionBus = &on
	if _, problems := r.m.Preview(a); pty.CanIsolate && probe.Isolated && !strings.Contains(strings.Join(problems, "\n"), "session bus is reachable") {
		t.Errorf("session_bus: problems %q", problems)
	}
	if !pty.CanIsolate {
		return
	}
	silent := newManagerRig(t)
	silent.m.opts.NoIsolation = true
	if _, problems := silent.m.Preview(a); len(problems) != 0 {
		t.Errorf("NoIsolation: problems %q", problems)
	}
	refused := newManagerRig(t)
	refused.m.opts.PullceptPath = "/bin/true" // runs, says nothing
	a.SessionBus = nil
	if _, problems := refused.m.Preview(a); len(problems) != 1 || !strings.HasPrefix(problems[0], "not isolated: ") || !strings.Contains(problems[0], "did not answer") {
		t.Errorf("an init that never answers: problems %q", problems)
	}
}

// launchProblems are a preview's problems but its isolation's (a Linux
// that refuses the namespaces adds "not isolated: …"; isolation tests
// check that one).
func launchProblems(ps []string) []string {
	return slices.DeleteFunc(slices.Clone(ps), func(p string) bool { return strings.HasPrefix(p, "not isolated: ") })
}
