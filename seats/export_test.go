package seats

// TypingOf is a seat's typing queue for the external e2e tests (no
// production caller reads it yet; the UI will, to say why a post waits).
func TypingOf(s *Seat) TypistState { return s.typist.State() }
