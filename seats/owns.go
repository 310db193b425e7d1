package seats

import "github.com/pullcept/pullcept/seats/pty"

// OwnsProcess reports whether pid is one of a running seat's processes: its
// PTY child or a process it started (pty.Holds — the Job object on
// Windows, the parents elsewhere). The served mode refuses such a peer as
// a UI: a seat must not attach as the human (docs/design.md §16).
func (m *Manager) OwnsProcess(pid int) bool {
	if pid <= 0 {
		return false
	}
	m.mu.Lock()
	procs := make([]pty.Proc, 0, len(m.seats))
	for _, s := range m.seats {
		s.mu.Lock()
		if s.state != StateExited {
			procs = append(procs, s.proc)
		}
		s.mu.Unlock()
	}
	m.mu.Unlock()
	for _, p := range procs {
		if pty.Holds(p, pid) {
			return true
		}
	}
	return false
}
