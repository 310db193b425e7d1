package tui

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// quitOnClose wraps the model so a real program ends once the event stream
// closes (which it can only observe after every event before it).
type quitOnClose struct{ m *Model }

func (q quitOnClose) Init() tea.Cmd  { return q.m.Init() }
func (q quitOnClose) View() tea.View { return q.m.View() }
func (q quitOnClose) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := q.m.Update(msg)
	if _, ok := msg.(eventsClosedMsg); ok {
		return q, tea.Batch(cmd, tea.Quit)
	}
	return q, cmd
}

// TestBridgeDeliversEveryEventInARealProgram runs the model in a Bubble Tea
// program and floods the room channel from another goroutine: every post
// must arrive, in order, with the waits re-armed after each batch.
func TestBridgeDeliversEveryEventInARealProgram(t *testing.T) {
	t.Parallel()
	f := newFake()
	f.events = make(chan Event) // unbuffered: the producer waits on the UI
	f.screens = make(chan struct{})
	opts := testOptions()
	opts.StartTopic = "flood"
	m, err := New(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Slow(30*time.Second))
	defer cancel()
	p := tea.NewProgram(quitOnClose{m}, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	const n = chatKeep // all of them held: the chat lets none go yet
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(f.events)
		for i := 0; i < n; i++ {
			select {
			case f.events <- PostDelivered{Topic: "flood", Seq: uint64(i + 1), Post: post(fmt.Sprintf("e%04d", i), "Lin", "x", i)}:
			case <-ctx.Done():
				return
			}
			if i%500 == 0 {
				select {
				case f.screens <- struct{}{}: // the model re-armed its screen wait
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	final, err := p.Run()
	<-done
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	if gen := final.(quitOnClose).m.seats.screenGen; gen != n/500 {
		t.Errorf("screen generation %d after %d changes: the wait was not re-armed with the last one", gen, n/500)
	}
	got := final.(quitOnClose).m.chat.posts
	if len(got) != n {
		t.Fatalf("%d of %d posts arrived", len(got), n)
	}
	for i, p := range got {
		if p.MessageID != fmt.Sprintf("e%04d", i) {
			t.Fatalf("post %d is %s", i, p.MessageID)
		}
	}
}
