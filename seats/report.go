package seats

import (
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

// Usage is a seat's last reported usage (docs/design.md §11): the model and
// effort it runs, and the used percentages of its context window and of its
// plan's 5-hour and 7-day windows with their reset times. A nil percentage
// or a zero time is unknown — shown as "—", never 0 %. At is when the
// report arrived (zero: none yet). The figures outlive the seat's exit:
// they are the last known.
type Usage struct {
	Model, Effort  string
	Context        *float64
	FiveHour       *float64
	Weekly         *float64
	FiveHourResets time.Time
	WeeklyResets   time.Time
	At             time.Time
}

// SeatUpdated: a seat's activity, usage or typing queue changed (its
// SeatInfo, read again, says how). It carries no state of its own so that
// the newest read always wins.
type SeatUpdated struct{ Topic, Account string }

func (SeatUpdated) seatEvent() {}

// Reported takes a hook report of the seat (topicID, accountID) from the
// room (room.Terminals, docs/design.md §6, §11): Claude Code's status line
// JSON (room.ReportStatus) or one of its http hook events
// (room.ReportActivity). It reports false — the room refuses the hook and
// keeps nothing — when no seat of that topic and account is running, or
// when its kind does not report through hooks.
func (m *Manager) Reported(topicID, accountID string, r room.Report) bool {
	s, ok := m.Seat(topicID, accountID)
	if !ok || s.State() == StateExited || s.kind != config.KindClaudeCode {
		return false
	}
	now := m.opts.Now()
	changed := false
	switch r.Kind {
	case room.ReportStatus:
		changed = s.statusReported(r.Body, now)
	case room.ReportActivity:
		changed = s.hookReported(r.Event, r.Body, now)
	default:
		return false
	}
	if changed {
		m.emit(SeatUpdated{Topic: topicID, Account: accountID})
	}
	return true
}

// statusReported stores the usage a status line report carries.
func (s *Seat) statusReported(body []byte, now time.Time) bool {
	st, ok := ParseClaudeStatus(body)
	if !ok {
		return false
	}
	u := Usage{Model: st.Model(), Effort: st.Effort, Context: st.Context, FiveHour: st.FiveHour,
		Weekly: st.Weekly, FiveHourResets: st.FiveHourResets, WeeklyResets: st.WeeklyResets, At: now}
	s.mu.Lock()
	s.usage = u
	s.mu.Unlock()
	return true
}

// hookReported moves the seat's activity and its permission hold.
func (s *Seat) hookReported(event string, body []byte, now time.Time) bool {
	s.mu.Lock()
	step := applyHook(s.activity, event, body, now)
	s.activity = step.next
	s.mu.Unlock()
	// The hold is set before the hook is answered: the CLI shows its
	// dialog only after, and no post's "\r" may reach it.
	if step.hold {
		s.typist.Hold(HoldPermission)
	}
	if step.clear {
		s.typist.Release(HoldPermission)
		s.typist.Release(HoldAnswered)
	}
	return step.changed
}

// humanAnswered notes the human's answer to a permission dialog in the
// pane: the seat is thinking again, and its posts wait for the CLI's next
// hook instead of the dialog (HoldAnswered). It reports whether the
// activity changed.
func (s *Seat) humanAnswered(b []byte, now time.Time) bool {
	if !answersDialog(b) {
		return false
	}
	s.mu.Lock()
	waiting := s.activity.Kind == ActivityPermission
	if waiting {
		s.activity = Activity{Kind: ActivityThinking, Subagents: s.activity.Subagents, Since: now}
	}
	s.mu.Unlock()
	if waiting {
		s.typist.Hold(HoldAnswered) // before the release: no gap to type in
		s.typist.Release(HoldPermission)
	}
	return waiting
}

// Usage is the seat (topicID, accountID)'s own last reported usage for its
// usage frame (room.Terminals, docs/design.md §11). ok is false when no
// seat is known there or it reported nothing; an exited seat keeps its
// last figures until its topic is deleted.
func (m *Manager) Usage(topicID, accountID string) (room.SeatUsage, bool) {
	s, ok := m.Seat(topicID, accountID)
	if !ok {
		return room.SeatUsage{}, false
	}
	s.mu.Lock()
	u := s.usage
	s.mu.Unlock()
	if u.At.IsZero() {
		return room.SeatUsage{}, false
	}
	return room.SeatUsage{FiveHour: window(u.FiveHour, u.FiveHourResets), SevenDay: window(u.Weekly, u.WeeklyResets),
		Context: u.Context, ReceivedAt: u.At}, true
}

// window is one plan window for the usage frame; nil when not reported.
func window(used *float64, resets time.Time) *room.UsageWindow {
	if used == nil {
		return nil
	}
	return &room.UsageWindow{UsedPercentage: *used, ResetsAt: resets}
}
