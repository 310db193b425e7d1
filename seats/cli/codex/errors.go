package codex

import "errors"

// Sentinel errors of a Codex seat; callers compare with errors.Is.
var (
	// ErrOption: a launch option a Codex seat cannot run with (a
	// subcommand, --remote, --worktree, a -C/--cd that is not a directory,
	// a -p/--profile that is not a readable profile; options.go), one an
	// app-server seat has no place for (spec #299), or one without its
	// value.
	ErrOption = errors.New("launch option refused for a Codex seat")
	// ErrMismatch: the server's conversation does not run with what was
	// asked.
	ErrMismatch = errors.New("the Codex app-server did not take the settings asked for")
	// ErrStyleHook: Li+'s output-style SessionStart hook is not known to be
	// off in the conversation of a seat that sends its character itself.
	ErrStyleHook = errors.New("the output-style hook of Li+ is not off for this seat")
)
