package seats

import (
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
)

// SeatUpdated: a seat's activity, usage or typing queue changed (its
// SeatInfo, read again, says how). It carries no state of its own so that
// the newest read always wins.
type SeatUpdated struct{ Topic, Account string }

func (SeatUpdated) seatEvent() {}

// Reported takes a hook report of the seat (topicID, accountID) from the
// room (room.Terminals, docs/design.md §6, §11) and hands it to its kind
// (Run.Report: Claude Code's status line JSON and http hook events). It
// reports false — the room refuses the hook and keeps nothing — when no
// seat of that topic and account is running, or when its kind does not
// report through hooks. A hook that ends a request the room holds a card
// for closes the card (ManagerOptions.AskClosed).
func (m *Manager) Reported(topicID, accountID string, r room.Report) bool {
	s, ok := m.Seat(topicID, accountID)
	if !ok || s.State() == StateExited {
		return false
	}
	return s.run.Report(seatHandle{m: m, s: s}, r)
}

// PermissionAnswered takes the human's answer to card ask of the seat
// (topicID, accountID) in the room (room.Terminals): its request counts
// answered, as a key in the pane would (docs/design.md §11), so posts wait
// for the CLI to go on rather than for the dialog; a denied one ends at
// the CLI's next hook (its tool never runs). An unknown seat or card is
// ignored.
func (m *Manager) PermissionAnswered(topicID, accountID string, ask uint64, allowed bool) {
	s, ok := m.Seat(topicID, accountID)
	if !ok {
		return
	}
	s.mu.Lock()
	step := cli.AnswerCard(s.activity, s.perm, ask, !allowed, m.opts.Now())
	s.activity = step.Next
	s.setPerm(step.Wait)
	s.mu.Unlock()
	if step.Changed {
		m.emit(SeatUpdated{Topic: topicID, Account: accountID})
	}
}

// closeAsks closes the room's cards ids of s (ManagerOptions.AskClosed):
// their requests were answered in the pane or ended. Called with no lock
// held.
func (m *Manager) closeAsks(s *Seat, ids []uint64) {
	if m.opts.AskClosed == nil {
		return
	}
	for _, id := range ids {
		m.opts.AskClosed(s.Topic, s.Account, id)
	}
}

// setPerm stores the permission wait and sets the Typist's holds from it
// (the new one before the old is released: no gap to type in). Caller
// holds s.mu (lock order: Seat.mu, then the Typist's).
func (s *Seat) setPerm(w cli.PermWait) {
	s.perm = w
	permission, answered := w.Holds()
	for _, h := range []struct {
		reason string
		on     bool
	}{{cli.HoldPermission, permission}, {cli.HoldAnswered, answered}} {
		if h.on {
			s.typist.Hold(h.reason)
		}
	}
	for _, h := range []struct {
		reason string
		on     bool
	}{{cli.HoldPermission, permission}, {cli.HoldAnswered, answered}} {
		if !h.on {
			s.typist.Release(h.reason)
		}
	}
}

// keysToDialog notes the human's keys b while a permission dialog is
// believed open: an answering key answers the oldest unanswered request
// (its posts then wait for its tool's result, HoldAnswered). toDialog
// reports an option key (a digit, y or n) that went to the dialog, not the
// input line, so the unsent tracker must not read it; everything else is
// read as usual (an Enter empties the line either way). A key is no proof
// of an answer — Claude ignores keys for a moment after a dialog shows — so
// the holds stay until the requests' own tool results; a key counted for
// an answer it was not is then read as text, and posts wait for the next
// submit (shown as unsent text) rather than be glued to a digit. changed
// reports whether the activity moved.
func (s *Seat) keysToDialog(b []byte, now time.Time) (toDialog, changed bool, closed []uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.perm.DialogOpen() {
		return false, false, nil
	}
	step := cli.AnswerDialog(s.activity, s.perm, b, now)
	closed = cli.ClosedAsks(s.perm, step.Wait)
	s.activity = step.Next
	s.setPerm(step.Wait)
	return cli.OptionKey(b), step.Changed, closed
}

// Usage is the seat (topicID, accountID)'s own last reported usage for its
// usage frame (room.Terminals, docs/design.md §11): each figure its launches
// reported, with when it arrived (usagebook.go). ok is false when nothing
// was reported there; the figures outlive the seat's exit and its next
// launch (until that one reports its own) and go with its topic.
func (m *Manager) Usage(topicID, accountID string) (room.SeatUsage, bool) {
	return m.usage.usage(seatKey{topicID, accountID})
}
