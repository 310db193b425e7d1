package app

import (
	"errors"
	"slices"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/tui"
)

// NextEvents merges this UI's three event sources — the hub's, the seat
// manager's and the backend's own notices — converting each event to the
// UI's plain data (tui.Event). It blocks until one event is there, then
// drains what is queued, up to max. A source that cut this UI off for
// falling behind (pubsub.ErrOverflow) is subscribed again and the batch
// carries tui.Resynced so the UI reloads. ok is false once the backend or
// the app closed. One call at a time (the UI's bridge).
//
// The sources' order relative to each other is arrival order; within one
// source it is the publish order.
func (b *Backend) NextEvents(limit int) ([]tui.Event, bool) {
	var evs []tui.Event
	for len(evs) == 0 {
		got, closed := b.next(true)
		if closed {
			return nil, false
		}
		evs = append(evs, got...)
	}
	for len(evs) < limit {
		got, closed := b.next(false)
		if closed || got == nil {
			break
		}
		evs = append(evs, got...)
	}
	return evs, true
}

// next takes one event from any source, waiting for one when block is set.
// It returns the converted event (none when the event has no UI meaning, or
// nothing was queued), or Resynced after a cut-off; closed reports that the
// stream is over.
func (b *Backend) next(block bool) (evs []tui.Event, closed bool) {
	if block {
		select {
		case e, open := <-b.hubSub.C():
			return b.fromHub(e, open)
		case e, open := <-b.seatSub.C():
			return b.fromSeats(e, open)
		case e, open := <-b.noteSub.C():
			return b.fromNotes(e, open)
		case <-b.done:
			return nil, true
		}
	}
	select {
	case e, open := <-b.hubSub.C():
		return b.fromHub(e, open)
	case e, open := <-b.seatSub.C():
		return b.fromSeats(e, open)
	case e, open := <-b.noteSub.C():
		return b.fromNotes(e, open)
	case <-b.done:
		return nil, true
	default:
		return nil, false
	}
}

func (b *Backend) fromHub(e room.Event, open bool) ([]tui.Event, bool) {
	if !open {
		return b.reopen(b.hubSub.Err(), func() { b.hubSub = b.a.hub.Subscribe() })
	}
	if out, keep := roomEvent(e); keep {
		return []tui.Event{out}, false
	}
	return []tui.Event{}, false
}

func (b *Backend) fromSeats(e seats.Event, open bool) ([]tui.Event, bool) {
	if !open {
		return b.reopen(b.seatSub.Err(), func() { b.seatSub = b.a.seats.Subscribe() })
	}
	if out, keep := seatEvent(e); keep {
		return []tui.Event{out}, false
	}
	return []tui.Event{}, false
}

func (b *Backend) fromNotes(e tui.Event, open bool) ([]tui.Event, bool) {
	if !open {
		// A cut-off dropped the queued snapshot too: the UI reloads the
		// list (Resynced), and the forwarder may send again — once the new
		// subscription is there, or its next snapshot would reach no one
		// and it would wait for good.
		evs, closed := b.reopen(b.noteSub.Err(), func() { b.noteSub = b.notes.Subscribe() })
		b.tookAttention()
		return evs, closed
	}
	if _, ok := e.(tui.AttentionChanged); ok {
		b.tookAttention()
	}
	return []tui.Event{e}, false
}

// reopen handles a source whose channel closed: after a cut-off it
// subscribes again and reports Resynced; any other end (the backend or the
// app closing) ends the stream.
func (b *Backend) reopen(err error, subscribe func()) ([]tui.Event, bool) {
	if !errors.Is(err, pubsub.ErrOverflow) {
		return nil, true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, true
	}
	b.a.logger.Warn("a UI fell behind its events and was cut off; it reloads", "err", err)
	subscribe()
	return []tui.Event{tui.Resynced{}}, false
}

// WaitScreens waits for the seat manager's coalesced screen signal.
func (b *Backend) WaitScreens(seen uint64) (uint64, bool) {
	return b.a.seats.WaitScreens(b.done, seen)
}

// roomEvent converts a hub event. Values are copied: the UI never shares a
// hue pointer or a roster slice with the room or with another UI.
func roomEvent(e room.Event) (tui.Event, bool) {
	switch e := e.(type) {
	case room.PostDelivered:
		return tui.PostDelivered{Topic: e.Topic, Seq: e.Seq, Post: clonePost(e.Post)}, true
	case room.LogFailed:
		return tui.LogFailed{Topic: e.Topic, MessageID: e.MessageID, Err: errText(e.Err)}, true
	case room.RosterChanged:
		roster := slices.Clone(e.Roster)
		for i := range roster {
			roster[i].Hue = cloneHue(roster[i].Hue)
		}
		return tui.RosterChanged{Topic: e.Topic, Roster: roster}, true
	case room.BrakeChanged:
		return tui.BrakeChanged{Topic: e.Topic, On: e.On, Count: e.Count, Released: e.Released, Typed: e.Typed, Dropped: e.Dropped}, true
	case room.PermissionAsked:
		return tui.PermissionAsked{Card: permissionCard(e.Ask)}, true
	case room.PermissionClosed:
		return tui.PermissionClosed{ID: e.ID, Topic: e.Topic, Account: e.Account, End: permissionEnd(e.End), Allowed: e.Allowed}, true
	}
	return nil, false
}

// seatEvent converts a seat manager event.
func seatEvent(e seats.Event) (tui.Event, bool) {
	switch e := e.(type) {
	case seats.SeatChanged:
		in := e.Info
		return tui.SeatChanged{Topic: in.Topic, Account: in.Account, State: seatState(in.Shown()),
			Requested: in.Requested, ExitCode: in.ExitCode, Err: errText(in.Err)}, true
	case seats.SeatNotice:
		return tui.Notice{Text: e.Text, Error: e.Error}, true
	case seats.SeatRestart:
		return tui.SeatRestart{Topic: e.Topic, Account: e.Account, Done: e.Done, Err: errText(e.Err)}, true
	case seats.SeatUpdated:
		return tui.SeatUpdated{Topic: e.Topic, Account: e.Account}, true
	}
	return nil, false
}

func clonePost(p room.Post) room.Post {
	p.Hue = cloneHue(p.Hue)
	p.To = slices.Clone(p.To)
	return p
}

func cloneHue(h *int) *int {
	if h == nil {
		return nil
	}
	v := *h
	return &v
}
