package seats

import "errors"

// Sentinel errors of the seat Manager; callers compare with errors.Is. A
// refused launch wraps the launch's own (seats/launch, the kinds'
// packages) with the reason the UI shows (docs/design.md §9).
var (
	// ErrUnknownAccount: no account has that id.
	ErrUnknownAccount = errors.New("unknown account")
	// ErrNotASeat: the account's kind (admin, mcp) does not run as a seat.
	ErrNotASeat = errors.New("account kind does not run as a seat")
	// ErrNoSeat: (topic, account) has no seat.
	ErrNoSeat = errors.New("no such seat")
	// ErrManagerClosed: the Manager was closed (the app is quitting).
	ErrManagerClosed = errors.New("seat manager closed")
	// ErrKilled: a seat's process was ended by a signal nobody in the app
	// sent (SeatInfo.Err wraps it with the signal number).
	ErrKilled = errors.New("killed")
	// ErrStartStopped: Stop came while the start was under way; the start
	// undid itself.
	ErrStartStopped = errors.New("stopped while starting")
)

// Sentinel errors of the seat ledger.
var (
	// ErrSeatTaken: the (topic, account) already has a seat starting or
	// running (docs/design.md §9 "one seat per (topic, account)").
	ErrSeatTaken = errors.New("seat already taken")
	// ErrSeatReleased: the seat left the ledger before it was started.
	ErrSeatReleased = errors.New("seat released")
	// ErrNoSeatKey: an empty topic or account id was given to the ledger.
	ErrNoSeatKey = errors.New("topic and account are required")
)
