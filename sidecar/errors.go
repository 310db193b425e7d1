package sidecar

import "errors"

// Sentinel errors; callers compare with errors.Is.
var (
	// ErrNotJoining: the sidecar must not join the room — PULLCEPT_LAUNCHED_AS
	// differs from PULLCEPT_ACCOUNT_ID (or one is missing), or the room entry is
	// incomplete. The sidecar then serves MCP with no tools and no instructions
	// (docs/design.md §7, spec «セッションは自分以外の部屋の登録を起動しない»).
	ErrNotJoining = errors.New("not joining")
	// ErrUnreachable: no live connection to the room within the reconnect wait;
	// nothing was sent.
	ErrUnreachable = errors.New("the room is unreachable")
	// ErrConnectionLost: the connection dropped after a request was written and
	// before the room answered; the request may or may not have taken effect.
	ErrConnectionLost = errors.New("the connection to the room was lost before it answered")
	// ErrNoAnswer: the connection stayed up but the room did not answer within
	// the answer timeout.
	ErrNoAnswer = errors.New("the room did not answer in time")
	// ErrTooLong: the request's frame is over room.MaxFrameBytes; nothing
	// was sent.
	ErrTooLong = errors.New("too long")
	// ErrClientClosed: the room client was shut down (stdin reached EOF).
	ErrClientClosed = errors.New("room client closed")
)
