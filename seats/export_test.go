package seats

import "github.com/pullcept/pullcept/seats/pty"

// TypingOf is a seat's typing queue for the external e2e tests (no
// production caller reads it yet; the UI will, to say why a post waits).
func TypingOf(s *Seat) TypistState { return s.typist.State() }

// SetSpawn replaces how the Manager starts a child in a PTY (pty.Start).
func SetSpawn(m *Manager, f func(pty.Options) (pty.Proc, error)) {
	m.mu.Lock()
	m.spawn = f
	m.mu.Unlock()
}
