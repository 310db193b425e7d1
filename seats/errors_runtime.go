package seats

import "errors"

// Sentinel errors of the seats runtime (screen, ledger);
// callers compare with errors.Is. The launch-line half keeps its own in
// errors.go; the PTY layer has its own (seats/pty).
var (
	// ErrScreenClosed: the Screen was closed.
	ErrScreenClosed = errors.New("screen closed")
	// ErrScreenBroken: the terminal emulator panicked on the seat's output;
	// the Screen keeps its last picture and takes nothing more.
	ErrScreenBroken = errors.New("terminal emulator failed")
	// ErrSeatTaken: the (topic, account) already has a seat starting or
	// running (docs/design.md §9 "one seat per (topic, account)").
	ErrSeatTaken = errors.New("seat already taken")
	// ErrSeatReleased: the seat left the ledger before it was started.
	ErrSeatReleased = errors.New("seat released")
	// ErrNoSeatKey: an empty topic or account id was given to the ledger.
	ErrNoSeatKey = errors.New("topic and account are required")
)
