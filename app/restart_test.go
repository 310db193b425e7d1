package app

import (
	"errors"
	"testing"

	"github.com/pullcept/pullcept/tui"
)

// TestRestartPhasesReachTheUI: the session operations' restart phases
// (sessionops.Options.OnRestart) reach every UI as tui.SeatRestart, so the
// status line says "restarting", then back or why not (issue 35: it said
// "Stopped Claude." and nothing after).
func TestRestartPhasesReachTheUI(t *testing.T) {
	a, b := openTest(t)
	a.restartPhase("t1", "sh", false, nil)
	if got := nextEvent(t, b, func(e tui.SeatRestart) bool { return e.Account == "sh" }); got != (tui.SeatRestart{Topic: "t1", Account: "sh"}) {
		t.Fatalf("begin: %+v", got)
	}
	a.restartPhase("t1", "sh", true, errors.New("it stopped but did not start again: boom"))
	if got := nextEvent(t, b, func(e tui.SeatRestart) bool { return e.Done }); got.Err != "it stopped but did not start again: boom" {
		t.Fatalf("end: %+v", got)
	}
}
