package seats

import "errors"

// Sentinel errors of the seat ledger;
// callers compare with errors.Is. The launch-line half keeps its own in
// errors.go; the PTY layer has its own (seats/pty).
var (
	// ErrSeatTaken: the (topic, account) already has a seat starting or
	// running (docs/design.md §9 "one seat per (topic, account)").
	ErrSeatTaken = errors.New("seat already taken")
	// ErrSeatReleased: the seat left the ledger before it was started.
	ErrSeatReleased = errors.New("seat released")
	// ErrNoSeatKey: an empty topic or account id was given to the ledger.
	ErrNoSeatKey = errors.New("topic and account are required")
)
