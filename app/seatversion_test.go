package app

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/tui"
)

// TestStartErrorTooOld (issue 34 item 12): a start refused for a CLI too
// old reaches the UI as its own error, with the versions, for it to word
// in its language; any other refusal is passed on as it is.
func TestStartErrorTooOld(t *testing.T) {
	t.Parallel()
	old := &cli.TooOldError{Path: "/usr/bin/claude", Have: cli.Version{Major: 2, Minor: 1, Patch: 50},
		Need: cli.Need{CLI: "Claude Code", Min: cli.Version{Major: 2, Minor: 1, Patch: 78}, Uses: "the StopFailure hook in --settings"}}
	var ui *tui.CLITooOldError
	if err := startError(fmt.Errorf("start seat Ada: %w", old)); !errors.As(err, &ui) ||
		*ui != (tui.CLITooOldError{CLI: "Claude Code", Path: "/usr/bin/claude", Have: "2.1.50", Need: "2.1.78", Uses: "the StopFailure hook in --settings"}) {
		t.Fatalf("startError = %#v", err)
	}
	other := errors.New("launch options carry their own --settings")
	if err := startError(other); err != other {
		t.Errorf("startError(other) = %v, want it unchanged", err)
	}
	if got := seatInfo(seats.SeatInfo{VersionUnread: "no answer"}); got.VersionUnread != "no answer" {
		t.Errorf("seatInfo lost VersionUnread: %q", got.VersionUnread)
	}
}
