package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// Run shows the UI on the terminal until the user quits or ctx ends
// (docs/design.md §10): alternate screen and cell-motion mouse come from View.
// Bubble Tea recovers a panic in Update, View or any command, restores the
// terminal and returns tea.ErrProgramPanic; a panic in Run's own goroutine
// is recovered here into an error after the program has released the
// terminal. A cancelled ctx is a normal end (nil).
func Run(ctx context.Context, b Backend, opts Options) error {
	return run(ctx, b, opts)
}

// FrameRate caps how often the UI draws a frame (tea.WithFPS; Bubble Tea's
// default is 60). Bubble Tea v2.1.1 draws from a ticker that runs for the
// program's whole life, changed or not, and each tick costs an idle app
// about 0.02 % of a core on a 2-core box (measured with 8 idle seats in
// `make compare`: 60 ticks/s 1.1–1.4 %, 30 0.6 %, 24 0.45 %, 20 0.4–0.5 %;
// nothing else woke it; docs/design.md §10 "Idle"). 20 frames a second
// keeps idle within 0.5 % of a core; a change waits at most 50 ms for its
// frame (the soak's echo p50: 26 ms at 60, 45 ms at 20).
const FrameRate = 20

// run is Run with extra program options (tests give it a null terminal).
func run(ctx context.Context, b Backend, opts Options, popts ...tea.ProgramOption) (err error) {
	m, err := New(b, opts)
	if err != nil {
		return fmt.Errorf("run ui: %w", err)
	}
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FrameRate)}, popts...)...)
	defer func() {
		if r := recover(); r != nil {
			_ = p.ReleaseTerminal()
			err = fmt.Errorf("run ui: panic: %v", r)
		}
	}()
	if _, err := p.Run(); err != nil {
		if ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled) {
			return nil
		}
		return fmt.Errorf("run ui: %w", err)
	}
	return nil
}
