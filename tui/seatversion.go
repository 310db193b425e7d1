package tui

import (
	"errors"
	"slices"
)

// The CLI's version before a seat starts (docs/clis.md §6): a CLI too old
// for its launch line is refused, worded here in the UI's language; one
// whose version could not be read starts, and its row says so.

// startErrText is why a seat was not started, in the UI's language when
// the UI knows the reason (CLITooOldError), else the error's text.
func startErrText(tr catalog, err error) string {
	var old *CLITooOldError
	if !errors.As(err, &old) {
		return err.Error()
	}
	return tr.t(mStTooOld, sanitize(old.CLI), sanitize(old.Have), sanitize(old.Need), sanitize(old.Uses), sanitize(old.Path))
}

// seatWarnings are a seat's warnings as its row and details show them: the
// version check not made first, then its launch's.
func seatWarnings(tr catalog, s SeatInfo) []string {
	if s.VersionUnread == "" {
		return s.Warnings
	}
	return append([]string{tr.t(mVersionUnread, s.VersionUnread)}, slices.Clone(s.Warnings)...)
}
