package tui

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestRunEndsWithItsContext runs the real program on a null terminal: the
// startup topic is opened through the bridge, and cancelling the context
// is a normal end.
func TestRunEndsWithItsContext(t *testing.T) {
	f := newFake()
	f.events = make(chan Event)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, f, testOptions(), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	}()
	// The program is up once it asked for the startup topic's room.
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		n := len(f.opened)
		f.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the program never opened its startup topic")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	if err := Run(context.Background(), f, Options{Lang: "xx"}); !errors.Is(err, ErrUnknownLanguage) {
		t.Fatalf("Run with bad options: %v", err)
	}
}
