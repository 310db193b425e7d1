package tui

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// seatKey names a seat: one per (topic, account) (docs/design.md §0).
type seatKey struct{ topic, account string }

// seatArea is the seats feature for the open topic (docs/design.md §9,
// §10): their states, starts not answered yet, the panes that show their
// terminals, and the queue of writes to them.
type seatArea struct {
	infos    map[string]SeatInfo // the open topic's seats by account id
	starting map[seatKey]bool    // start asked, no answer yet (any topic)
	failed   map[seatKey]string  // the last start's refusal, by seat
	// restarting are the seats whose restart began and has not ended
	// (SeatRestart): their exit is the restart's, not a stop.
	restarting map[seatKey]bool
	// owed are the open topic's accounts a post addressed, since this
	// screen opened it, that have not posted since (noteOwed).
	owed    map[string]bool
	panes   map[seatKey]*pane // one per seat of the open topic with a terminal to show
	closing map[seatKey]bool  // exited panes the human closed, until ForgetSeat answered
	shown   bool              // the pane area is open (TogglePanes)
	drag    paneDrag          // a mouse press in a pane, until its release

	// Writes (key bytes, pastes, resizes) go in order through one command
	// at a time, so keystrokes never overtake each other.
	writes  []seatOp
	writing bool // a flushOps command is running

	listing   coalesced // Seats() reads of the open topic
	snapshots coalesced // Snapshot() reads of the visible panes
	screenGen uint64    // the last screen generation the bridge reported

	spin     spinner.Model // the "starting" badge's spinner
	spinning bool          // a spinner tick is on its way

	clock textClock // wakes the UI when a relative text changes
}

// textClock arms one timer at a time for the next moment a shown relative
// text ("idle 5 min ago", "resets in 4 h 10 min") changes, and none while
// no such text is shown: no busy redraw. A timer armed earlier than the
// one running replaces it; the older one's tick is then ignored.
type textClock struct {
	seq   int       // of the armed timer; ticks of older ones are stale
	armed bool      // a timer runs
	at    time.Time // when it fires
	// after makes the timer's command (tea.Tick; tests replace it).
	after func(d time.Duration, msg tea.Msg) tea.Cmd
}

// textTickMsg: the armed timer fired; seq names it.
type textTickMsg struct{ seq int }

func tickAfter(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

func newSeatArea() seatArea {
	return seatArea{
		infos:      map[string]SeatInfo{},
		starting:   map[seatKey]bool{},
		failed:     map[seatKey]string{},
		restarting: map[seatKey]bool{},
		owed:       map[string]bool{},
		panes:      map[seatKey]*pane{},
		closing:    map[seatKey]bool{},
		spin:       spinner.New(spinner.WithSpinner(spinner.MiniDot)),
		clock:      textClock{after: tickAfter},
	}
}

// seatOp is one ordered write to a seat: key bytes or a resize. Bubble Tea
// runs commands concurrently, so only one batch of ops runs at a time.
type seatOp struct {
	seat       seatKey
	input      []byte
	resize     bool
	cols, rows int
}

func (sa *seatArea) anyStarting() bool { return len(sa.starting) > 0 }

func (sa *seatArea) anyStartingIn(topic string) bool {
	for k := range sa.starting {
		if k.topic == topic {
			return true
		}
	}
	return false
}

// coalesced runs one read at a time: asking while one runs folds every ask
// into one more read after it (a burst of events reads once or twice).
type coalesced struct {
	busy  bool // a read is running
	again bool // asked while busy: read once more when it answers
}

// start reports whether a read may start now; otherwise it is remembered.
func (c *coalesced) start() bool {
	if c.busy {
		c.again = true
		return false
	}
	c.busy = true
	return true
}

// done ends the running read and reports whether another was asked for.
func (c *coalesced) done() bool {
	again := c.again
	c.busy, c.again = false, false
	return again
}
