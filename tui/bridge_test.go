package tui

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

func TestWaitRoomEventsDrainsInOrder(t *testing.T) {
	if waitRoomEvents(nil) != nil || waitAppEvents(nil) != nil || waitScreen(nil) != nil {
		t.Fatalf("a nil source must arm no wait")
	}
	ch := make(chan room.Event, burstMax+10)
	for i := 0; i < burstMax+3; i++ {
		ch <- room.PostDelivered{Topic: "t", Seq: uint64(i)}
	}
	msg := waitRoomEvents(ch)().(roomEventsMsg)
	if len(msg.evs) != burstMax {
		t.Fatalf("first batch has %d events, want %d", len(msg.evs), burstMax)
	}
	msg2 := waitRoomEvents(ch)().(roomEventsMsg)
	if len(msg2.evs) != 3 || msg2.evs[2].(room.PostDelivered).Seq != burstMax+2 {
		t.Fatalf("second batch = %+v", msg2.evs)
	}
	for i, ev := range msg.evs {
		if ev.(room.PostDelivered).Seq != uint64(i) {
			t.Fatalf("out of order at %d", i)
		}
	}
	close(ch)
	if _, ok := waitRoomEvents(ch)().(roomClosedMsg); !ok {
		t.Fatalf("closed channel must say so")
	}

	app := make(chan AppEvent, 2)
	app <- Notice{Text: "a"}
	app <- LinesSkipped{Topic: "t", Count: 1}
	am := waitAppEvents(app)().(appEventsMsg)
	if len(am.evs) != 2 {
		t.Fatalf("app events = %+v", am.evs)
	}
	close(app)
	if _, ok := waitAppEvents(app)().(appClosedMsg); !ok {
		t.Fatalf("closed app channel must say so")
	}
}

func TestWaitScreenCoalesces(t *testing.T) {
	ch := make(chan struct{}, 1)
	for i := 0; i < 5; i++ {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	if _, ok := waitScreen(ch)().(screenChangedMsg); !ok {
		t.Fatalf("no screen message")
	}
	if len(ch) != 0 {
		t.Fatalf("five signals must coalesce into one")
	}
	close(ch)
	if msg := waitScreen(ch)(); msg != nil {
		t.Fatalf("closed screen channel: %v", msg)
	}
}

// quitOnClose wraps the model so a real program ends once the hub closes
// its channel (which it can only observe after every event before it).
type quitOnClose struct{ m *Model }

func (q quitOnClose) Init() tea.Cmd  { return q.m.Init() }
func (q quitOnClose) View() tea.View { return q.m.View() }
func (q quitOnClose) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := q.m.Update(msg)
	if _, ok := msg.(roomClosedMsg); ok {
		return q, tea.Batch(cmd, tea.Quit)
	}
	return q, cmd
}

// TestBridgeDeliversEveryEventInARealProgram runs the model in a Bubble Tea
// program and floods the room channel from another goroutine: every post
// must arrive, in order, with the waits re-armed after each batch.
func TestBridgeDeliversEveryEventInARealProgram(t *testing.T) {
	f := newFake()
	f.roomCh = make(chan room.Event) // unbuffered: the producer waits on the UI
	f.appCh = make(chan AppEvent, 1)
	f.screenCh = make(chan struct{}, 1)
	opts := testOptions()
	opts.StartTopic = "flood"
	m, err := New(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := tea.NewProgram(quitOnClose{m}, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	const n = 2000
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(f.roomCh)
		for i := 0; i < n; i++ {
			select {
			case f.roomCh <- room.PostDelivered{Topic: "flood", Seq: uint64(i + 1), Post: post(fmt.Sprintf("e%04d", i), "Lin", "x", i)}:
			case <-ctx.Done():
				return
			}
			if i%500 == 0 {
				select {
				case f.screenCh <- struct{}{}:
				default:
				}
			}
		}
	}()
	final, err := p.Run()
	<-done
	if err != nil {
		t.Fatalf("program: %v", err)
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
