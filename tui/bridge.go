package tui

import (
	tea "charm.land/bubbletea/v2"
)

// The bridge: one re-arming wait command per source (docs/design.md §14).
// Domain goroutines never call Program.Send; each wait below blocks in a
// tea.Cmd goroutine (owned, recovered and waited for by Bubble Tea) until
// its source yields, returns one message, and Update re-arms exactly one
// new wait after handling it. Sources, both behind Backend's Events:
//
//   - events (NextEvents): must-deliver. Every event is returned, in order;
//     a burst comes as one batch of at most burstMax, never dropped.
//   - screen changes (WaitScreens): coalesced by design; the UI then
//     snapshots the panes it shows.

// burstMax bounds how many queued events one message carries, so a flood
// of posts still lets the UI render between batches (~one frame's worth).
const burstMax = 256

// eventsMsg carries events in the order the backend queued them.
type eventsMsg struct{ evs []Event }

// eventsClosedMsg: the backend closed; no event follows.
type eventsClosedMsg struct{}

// screenChangedMsg: some seat's screen moved since generation gen-1.
type screenChangedMsg struct{ gen uint64 }

// wait is the one bridge wait: a command that blocks in next until the
// source yields, then returns it as a message (closed when it ended).
func wait[T any](next func() (T, bool), msg func(T) tea.Msg, closed tea.Msg) tea.Cmd {
	return func() tea.Msg {
		v, ok := next()
		if !ok {
			return closed
		}
		return msg(v)
	}
}

// waitEvents waits for the next batch of events.
func waitEvents(b Events) tea.Cmd {
	return wait(func() ([]Event, bool) { return b.NextEvents(burstMax) },
		func(evs []Event) tea.Msg { return eventsMsg{evs: evs} }, eventsClosedMsg{})
}

// waitScreens waits for a screen change after generation seen. A closed
// backend ends the wait for good (nil message, not re-armed).
func waitScreens(b Events, seen uint64) tea.Cmd {
	return wait(func() (uint64, bool) { return b.WaitScreens(seen) },
		func(gen uint64) tea.Msg { return screenChangedMsg{gen: gen} }, nil)
}
