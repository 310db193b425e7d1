package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// The bridge: one re-arming wait command per source (STYLE §5). Domain
// goroutines never call Program.Send; each wait below blocks in a tea.Cmd
// goroutine (owned, recovered and waited for by Bubble Tea) until its source
// yields, returns one message, and Update re-arms exactly one new wait after
// handling it. Sources:
//
//   - room events (Rooms.RoomEvents): must-deliver. Every event read is
//     returned; a burst is drained in order into one message, never dropped.
//   - app events (SeatControl.SeatEvents): must-deliver, same shape.
//   - screen changes (SeatControl.ScreenChanged): a capacity-1 signal,
//     coalesced by design; the UI then snapshots the panes it shows.

// burstMax bounds how many queued events one message carries, so a flood
// of posts still lets the UI render between batches (~one frame's worth).
const burstMax = 256

// roomEventsMsg carries room events in the order the hub sent them.
type roomEventsMsg struct{ evs []room.Event }

// roomClosedMsg: the hub closed its subscription channel.
type roomClosedMsg struct{}

// appEventsMsg carries app events (SeatChanged, LinesSkipped, Notice).
type appEventsMsg struct{ evs []AppEvent }

// appClosedMsg: the seat event channel was closed.
type appClosedMsg struct{}

// screenChangedMsg: some seat's screen moved since the last signal.
type screenChangedMsg struct{}

// waitRoomEvents blocks until the hub sends an event, then drains what is
// already queued (up to burstMax) without blocking.
func waitRoomEvents(ch <-chan room.Event) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return roomClosedMsg{}
		}
		evs := []room.Event{ev}
		for len(evs) < burstMax {
			select {
			case ev, ok := <-ch:
				if !ok {
					// Deliver what we have; the next wait sees the close.
					return roomEventsMsg{evs: evs}
				}
				evs = append(evs, ev)
			default:
				return roomEventsMsg{evs: evs}
			}
		}
		return roomEventsMsg{evs: evs}
	}
}

// waitAppEvents is waitRoomEvents for the seat/app event channel.
func waitAppEvents(ch <-chan AppEvent) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return appClosedMsg{}
		}
		evs := []AppEvent{ev}
		for len(evs) < burstMax {
			select {
			case ev, ok := <-ch:
				if !ok {
					return appEventsMsg{evs: evs}
				}
				evs = append(evs, ev)
			default:
				return appEventsMsg{evs: evs}
			}
		}
		return appEventsMsg{evs: evs}
	}
}

// waitScreen blocks until the coalesced screen signal fires. A closed
// channel ends the wait for good (nil message, not re-armed).
func waitScreen(ch <-chan struct{}) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		return screenChangedMsg{}
	}
}
