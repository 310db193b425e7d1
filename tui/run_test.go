package tui

import (
	"context"
	"errors"
	"io"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRunEndsWithItsContext runs the real program on a null terminal: the
// startup topic is opened through the bridge, and cancelling the context
// is a normal end.
func TestRunEndsWithItsContext(t *testing.T) {
	t.Parallel()
	f := newFake()
	f.events = make(chan Event)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Wait)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, f, testOptions(), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	}()
	// The program is up once it asked for the startup topic's room.
	testkit.Eventually(t, "the program to open its startup topic", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.opened) > 0
	})
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	if err := Run(context.Background(), f, Options{Lang: "xx"}); !errors.Is(err, ErrUnknownLanguage) {
		t.Fatalf("Run with bad options: %v", err)
	}
}
