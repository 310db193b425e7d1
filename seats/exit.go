package seats

import "errors"

// Signal is the signal that ended an exited seat nobody asked to stop, 0
// for any other end: a stop the user (or a topic delete, or quit) asked for,
// a plain exit code (an `exit 130` too), a wait error. The PTY layer
// reports a program a signal ended as 128+N and names the signal, and
// exitErr makes only those kills (docs/design.md §10: the words a pane
// shows for its seat's end).
func (i SeatInfo) Signal() int {
	if i.State != StateExited || i.Requested || !errors.Is(i.Err, ErrKilled) {
		return 0
	}
	return i.ExitCode - 128
}
