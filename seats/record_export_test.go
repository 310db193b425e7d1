package seats

import "github.com/pullcept/pullcept/seats/pty"

// RecordSpawns makes m start every seat's PTY through wrap, which may record
// what the child prints (the e2e rig's PULLCEPT_RECORD_PTY).
func RecordSpawns(m *Manager, wrap func(pty.Options, pty.Proc) pty.Proc) {
	spawn := m.spawn
	m.spawn = func(o pty.Options) (pty.Proc, error) {
		p, err := spawn(o)
		if err != nil {
			return nil, err
		}
		return wrap(o, p), nil
	}
}

// NoConfirm makes m's seats type as they did before confirmed delivery
// (docs/design.md §5): a test measures what it changes.
func NoConfirm(m *Manager) { m.unconfirmed = true }
