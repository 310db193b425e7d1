package seats

import (
	"errors"
	"fmt"
	"testing"
)

// TestSeatSignal: only an end nobody asked for that a signal caused names
// the signal (the pane says "killed by signal 9", a stop says "stopped").
func TestSeatSignal(t *testing.T) {
	t.Parallel()
	killed := fmt.Errorf("%w by signal 9 (exit code 137)", ErrKilled) // exitErr's answer on Unix
	for _, tc := range []struct {
		in   SeatInfo
		want int
	}{
		{SeatInfo{State: StateExited, ExitCode: 137, Err: killed}, 9},
		{SeatInfo{State: StateExited, ExitCode: 143, Requested: true, Err: exitErr(143, 15, nil, true)}, 0},
		{SeatInfo{State: StateExited, ExitCode: 3}, 0},
		{SeatInfo{State: StateExited, ExitCode: -1, Err: fmt.Errorf("wait: %w", errors.New("boom"))}, 0},
		{SeatInfo{State: StateRunning, ExitCode: 137, Err: killed}, 0},
	} {
		if got := tc.in.Signal(); got != tc.want {
			t.Errorf("%+v: Signal = %d, want %d", tc.in, got, tc.want)
		}
	}
}
