package seats

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/pty"
)

// Seats that cannot see each other (docs/design.md §16): every process the
// Manager starts for a seat (its CLI, a Codex app-server) runs in user, PID
// and mount namespaces of its own where the OS allows (pty.Isolate, with
// PullceptPath as the namespace init); the seat shows how it runs.

// isolationLog gathers how each process of one seat's start runs
// (pty.Isolate.Got): the seat is isolated only when every one of them is.
type isolationLog struct {
	mu   sync.Mutex
	seen bool
	got  pty.Isolation
}

func (l *isolationLog) add(i pty.Isolation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.seen || l.got.Isolated && !i.Isolated {
		l.got = i
	}
	l.seen = true
}

// result is the seat's isolation; off is why none was asked for.
func (l *isolationLog) result(off string) pty.Isolation {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.seen {
		return pty.Isolation{Reason: off}
	}
	return l.got
}

// isolationOff is the reason a seat of a Manager without isolation shows.
const isolationOff = "the seat manager starts seats without namespaces (ManagerOptions.NoIsolation)"

// isolate is the pty.Isolate of each process plan p starts (nil with
// ManagerOptions.NoIsolation).
func (m *Manager) isolate(p *startPlan) *pty.Isolate {
	if m.opts.NoIsolation {
		return nil
	}
	return &pty.Isolate{Init: m.opts.PullceptPath, SessionBus: p.acct.SessionBusOpen(), Got: p.isolation.add,
		ReadOnly: p.room.Protect, Hide: p.room.Hide}
}

// socketDir is the directory of the room's Unix socket, where a kind makes
// its own sockets; "" for a named pipe or no socket.
func socketDir(socket string) string {
	if socket == "" || !filepath.IsAbs(socket) || strings.HasPrefix(socket, `\\.\pipe\`) {
		return ""
	}
	return filepath.Dir(socket)
}

// previewIsolation is what the launch preview says of a's isolation: that
// its seat will not be isolated and why (the kernel refused the namespaces
// when probed: once per Manager, its result kept), or that its session bus
// is open. Nothing where the OS has no namespaces (the panel says it there)
// or the Manager asks for none.
func (m *Manager) previewIsolation(a config.Account) []string {
	if m.opts.NoIsolation || !pty.CanIsolate {
		return nil
	}
	m.probeOnce.Do(func() { m.probed = pty.Probe(m.opts.PullceptPath) })
	switch {
	case !m.probed.Isolated:
		return []string{m.probed.String()}
	case a.SessionBusOpen():
		return []string{"the session bus is reachable from this seat (the account's session_bus)"}
	}
	return nil
}
