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

// run is Run with extra program options (tests give it a null terminal).
func run(ctx context.Context, b Backend, opts Options, popts ...tea.ProgramOption) (err error) {
	m, err := New(b, opts)
	if err != nil {
		return fmt.Errorf("run ui: %w", err)
	}
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, popts...)...)
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
