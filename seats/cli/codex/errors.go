package codex

import "errors"

// Sentinel errors of a Codex seat; callers compare with errors.Is.
var (
	// ErrOption: a launch option an app-server Codex seat has no place
	// for, or one without its value (spec #299).
	ErrOption = errors.New("launch option refused for an app-server Codex seat")
	// ErrMismatch: the server's conversation does not run with what was
	// asked.
	ErrMismatch = errors.New("the Codex app-server did not take the settings asked for")
)
