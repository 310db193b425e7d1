package seats

import (
	"errors"
)

// Sentinel errors; callers compare with errors.Is. A refused launch wraps
// one of these with the reason the UI shows (docs/design.md §9).
var (
	// ErrStartStopped: Stop came while the start was under way; the start
	// undid itself.
	ErrStartStopped = errors.New("stopped while starting")
)

// Sentinel errors of the seat Manager.
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
)
