package fakeapi

import "errors"

// Sentinel errors; compare with errors.Is.
var (
	// ErrStarted: Start was called on a Server that is already listening.
	ErrStarted = errors.New("fake api already started")
	// ErrClosed: the Server was closed (Start after Close, Wait after Close).
	ErrClosed = errors.New("fake api closed")
	// ErrCLIMissing: the pinned CLI is not installed under testdata/clis
	// (run `make clis`).
	ErrCLIMissing = errors.New("pinned cli not installed")
	// ErrBadOptions: Options or a setup struct is missing a required field.
	ErrBadOptions = errors.New("bad options")
)
