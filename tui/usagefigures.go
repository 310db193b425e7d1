package tui

import "time"

// A seat started again shows the figures of its launch before until it
// reports its own (issue 34 item 16), each with when it arrived: one that
// arrived before the seat started is dimmed, and the usage head says "last
// known", as after an exit.

// earlierLaunch reports a figure received (at) before the seat's launch
// started: an earlier launch's.
func earlierLaunch(at, started time.Time) bool {
	return !at.IsZero() && !started.IsZero() && at.Before(started)
}

// earlierFigures reports whether a figure s shows is an earlier launch's.
func earlierFigures(s SeatInfo) bool {
	return s.FiveHour != nil && earlierLaunch(s.FiveHourAt, s.Started) ||
		s.Weekly != nil && earlierLaunch(s.WeeklyAt, s.Started) ||
		s.Context != nil && earlierLaunch(s.ContextAt, s.Started)
}
