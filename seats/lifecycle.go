package seats

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/pullcept/pullcept/room"
	"path/filepath"
	"sync"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
)

// The seat lifecycle as session operations need it (docs/design.md §15):
// launch ids, a lock shared by the human's start/stop and the operations,
// start modes, a stop that names the launch it means, and the resume check a
// restart makes before it stops anything.

// StartMode is how StartWith treats the topic's recorded conversation.
type StartMode int

// Start modes.
const (
	// StartAuto is the resume rule (docs/design.md §9): resume when the
	// recorded conversation exists, else fresh.
	StartAuto StartMode = iota
	// StartFresh starts a new conversation whatever is recorded.
	StartFresh
	// StartResume resumes the recorded conversation or refuses (ErrNoResume).
	StartResume
)

// StartOptions are StartWith's: the PTY size and the mode.
type StartOptions struct {
	Cols, Rows int
	Mode       StartMode
}

// Sentinel errors of the lifecycle.
var (
	// ErrNoResume: a start that must resume cannot (nothing recorded, no
	// resume line, the conversation is gone).
	ErrNoResume = errors.New("cannot resume")
	// ErrStaleLaunch: the seat runs another launch than the one named.
	ErrStaleLaunch = errors.New("the seat runs another launch")
	// ErrNotRunning: the seat is not running.
	ErrNotRunning = errors.New("the seat is not running")
	// ErrTopicClosed: the topic is deleted or being deleted (CloseTopic).
	ErrTopicClosed = errors.New("the topic was deleted")
	// ErrAccountRetired: the account is being deleted, or was (RetireAccount).
	ErrAccountRetired = errors.New("the account was deleted")
	// ErrAccountRunning: the account has a seat running or starting.
	ErrAccountRunning = errors.New("the account has a running seat")
)

// refusedLocked says why (topic, account) may take no new seat: a closed
// topic, a retired or deleted account. m.mu is held; Accounts (the book's
// lock) is a leaf.
func (m *Manager) refusedLocked(topicID, accountID string) error {
	switch {
	case m.closedTopics[topicID]:
		return ErrTopicClosed
	case m.retired[accountID]:
		return ErrAccountRetired
	}
	if _, ok := m.opts.Accounts(accountID); !ok {
		return ErrAccountRetired
	}
	return nil
}

// CloseTopic stops every seat of topicID for good (a topic delete): from
// this call on no seat starts there — a start already under way is undone
// before it goes live — and the seats it has are stopped. It returns the
// accounts that were running. Without the mark, a start that went live
// after the stop listed the seats ran on in a deleted topic, hidden from
// the human (breaker review).
func (m *Manager) CloseTopic(topicID string) []string {
	m.mu.Lock()
	if m.closedTopics == nil {
		m.closedTopics = map[string]bool{}
	}
	m.closedTopics[topicID] = true
	m.mu.Unlock()
	defer m.usage.dropTopic(topicID) // after its seats stopped: none reports again
	return m.StopTopic(topicID)
}

// RetireAccount refuses new seats of accountID while it is deleted: it
// fails with ErrAccountRunning when a seat of it runs or starts, else marks
// it so any start under way is undone before it goes live. Call undo when
// the delete failed; after a delete the account is unknown and no seat of
// it starts anyway.
func (m *Manager) RetireAccount(accountID string) (undo func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, s := range m.seats {
		if k.account == accountID && s.State() != StateExited {
			return nil, ErrAccountRunning
		}
	}
	for k := range m.starting {
		if k.account == accountID {
			return nil, ErrAccountRunning
		}
	}
	if m.retired == nil {
		m.retired = map[string]bool{}
	}
	m.retired[accountID] = true
	return func() {
		m.mu.Lock()
		delete(m.retired, accountID)
		m.mu.Unlock()
	}, nil
}

// newPtyID names one launch: "pty-" and 12 random hex digits, unique across
// runs too (a ledger record outlives the app).
func newPtyID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return "pty-" + hex.EncodeToString(b)
}

// lifeLocks are the per-seat lifecycle locks (Manager.Lifecycle).
type lifeLocks struct {
	mu    sync.Mutex // a leaf: guards locks only
	locks map[seatKey]*lifeLock
}

type lifeLock struct {
	sem  chan struct{} // cap 1: held while full
	refs int           // holders and waiters; the entry goes at 0
}

// Lifecycle takes (topic, account)'s lifecycle lock and returns its unlock:
// the human's start and stop and every session operation take it around
// their steps, so a restart's stop-and-start is never cut in two by the
// human's start, and each sees the seat the other left (docs/design.md §15).
// Start and Stop do not take it themselves. ctx bounds the wait.
func (m *Manager) Lifecycle(ctx context.Context, topicID, accountID string) (unlock func(), err error) {
	k := seatKey{topicID, accountID}
	m.life.mu.Lock()
	if m.life.locks == nil {
		m.life.locks = map[seatKey]*lifeLock{}
	}
	l := m.life.locks[k]
	if l == nil {
		l = &lifeLock{sem: make(chan struct{}, 1)}
		m.life.locks[k] = l
	}
	l.refs++
	m.life.mu.Unlock()
	release := func() {
		m.life.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(m.life.locks, k)
		}
		m.life.mu.Unlock()
	}
	select {
	case l.sem <- struct{}{}:
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-l.sem
			release()
		})
	}, nil
}

// StopLaunch stops (topic, account)'s seat only while it runs launch
// ptyID ("" = whichever runs): ErrStaleLaunch names the one that runs,
// ErrNotRunning when none does. Like Stop, it returns once the process is
// reaped.
func (m *Manager) StopLaunch(topicID, accountID, ptyID string) error {
	if err := m.checkLaunch(topicID, accountID, ptyID); err != nil {
		return err
	}
	return m.Stop(topicID, accountID)
}

// checkLaunch is nil when (topic, account) runs launch ptyID ("" = any).
func (m *Manager) checkLaunch(topicID, accountID, ptyID string) error {
	s, ok := m.Seat(topicID, accountID)
	if !ok || s.State() == StateExited {
		return ErrNotRunning
	}
	if ptyID != "" && s.ptyID != ptyID {
		return fmt.Errorf("%w: it runs %s, not %s", ErrStaleLaunch, s.ptyID, ptyID)
	}
	return nil
}

// CheckRestart is what a restart checks before it stops anything
// (docs/design.md §15): the seat runs launch ptyID, its conversation id is
// the one the topic recorded, and that conversation would resume (a resume
// line, a transcript on disk). Never a silent fresh conversation: any
// doubt is an error naming it.
func (m *Manager) CheckRestart(topicID, accountID, ptyID string) error {
	if err := m.checkLaunch(topicID, accountID, ptyID); err != nil {
		return err
	}
	s, _ := m.Seat(topicID, accountID)
	acct, ok := m.opts.Accounts(accountID)
	if !ok {
		return ErrUnknownAccount
	}
	recorded, _ := m.opts.Sessions.Session(topicID, accountID)
	running := s.SessionID()
	switch {
	case recorded == "":
		return fmt.Errorf("%w: no conversation id is recorded for it yet", ErrNoResume)
	case running == "":
		// A fresh Codex seat before its first turn: the record is an older
		// conversation's, and resuming it would not be this seat's.
		return fmt.Errorf("%w: its own conversation id is not known yet (it has not had a turn)", ErrNoResume)
	case running != recorded:
		return fmt.Errorf("%w: it runs conversation %s but the topic recorded %s", ErrNoResume, running, recorded)
	}
	if o := m.NextStart(topicID, accountID); o != OutlookResumes {
		return fmt.Errorf("%w: %s", ErrNoResume, resumeRefusal(acct, recorded, outlookConversation(o), outlookReason(o)))
	}
	return m.checkMCPJSON(topicID, acct)
}

// checkMCPJSON reads the seat folder's .mcp.json as the start after a
// restart's stop will: a file that start would refuse (planted, repeated
// key, not JSON) is refused before the stop, so the seat keeps running
// (docs/design.md §16 "Planted files"). Nothing is written.
func (m *Manager) checkMCPJSON(topicID string, acct config.Account) error {
	ad := m.kinds[acct.Kind]
	if ad == nil || !ad.ReadsMCPJSON() || !filepath.IsAbs(acct.WorkDir) {
		return nil
	}
	m.mu.Lock()
	url := m.room.URL
	m.mu.Unlock()
	_, err := launch.InspectMCPJSON(acct.WorkDir, launch.MCPKey(acct.ID, topicID), url)
	return err
}

// outlookConversation is the kind's answer an outlook stands for.
func outlookConversation(o Outlook) cli.Conversation {
	switch o {
	case OutlookResumes:
		return cli.ConversationResumes
	case OutlookNoResumeLine:
		return cli.ConversationNoResume
	case OutlookGone:
		return cli.ConversationGone
	}
	return 0
}

// outlookReason says why an outlook is not a resume.
func outlookReason(o Outlook) string {
	switch o {
	case OutlookNoResumeLine:
		return "it has no resume line"
	case OutlookGone:
		return "its transcript is gone"
	}
	return "no conversation is recorded"
}

// resumeRefusal is why a start that must resume cannot, given what its
// kind said of the conversation (c).
func resumeRefusal(a config.Account, recorded string, c cli.Conversation, reason string) string {
	switch {
	case recorded == "":
		return "no conversation is recorded for " + a.DisplayName() + " in this topic"
	case c == cli.ConversationNoResume:
		return a.DisplayName() + " has no resume line"
	case reason == "":
		return "conversation " + recorded + " cannot resume"
	}
	return reason
}

// SeatSize is the PTY size (topic, account)'s last seat asked for; false
// when it has none.
func (m *Manager) SeatSize(topicID, accountID string) (cols, rows int, ok bool) {
	s, found := m.Seat(topicID, accountID)
	if !found {
		return 0, 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size.want[0], s.size.want[1], true
}

// earlyJoin is what the room said of a seat before it was listed: an
// app-server seat's sidecar is the server's child and joins while the TUI
// is not started yet. goLive applies it.
type earlyJoin struct {
	joined, ready, stopped bool
	// held are the posts the room gave the seat while it started (its
	// sidecar is in the room before the seat is listed): typed once it is,
	// in order, never lost (issue 35: a Codex seat missed the first post
	// under load). Bounded like the typing queue (typebound.go): past
	// maxQueuedPosts a seat's or notice's post only counts in a fold
	// entry; the human's are always kept.
	held  []earlyPost
	posts int // the held entries that are not the human's and not folds
	// cancel ends the start's context (cli.Adapter.Prepare's): Stop and
	// Close call it, so a Codex server's start gives up at once instead of
	// after its own bounds.
	cancel context.CancelFunc
}

// earlyPost is a post held for a starting seat, or (fold > 0) the count of
// posts past the bound in its place.
type earlyPost struct {
	p    room.Post
	fold int
}

// hold keeps p for the seat once it is listed (earlyJoin.held).
func (ej *earlyJoin) hold(p room.Post) {
	if p.Role == room.RoleAdmin {
		ej.held = append(ej.held, earlyPost{p: p})
		return
	}
	if ej.posts < maxQueuedPosts {
		ej.posts++
		ej.held = append(ej.held, earlyPost{p: p})
		return
	}
	if n := len(ej.held); n > 0 && ej.held[n-1].fold > 0 {
		ej.held[n-1].fold++
		return
	}
	ej.held = append(ej.held, earlyPost{fold: 1})
}

// replay queues the held posts into the listed seat's typing queue, in the
// order the room gave them.
func (ej earlyJoin) replay(t *Typist) {
	for _, e := range ej.held {
		if e.fold > 0 {
			t.fold(e.fold)
			continue
		}
		t.Enqueue(e.p)
	}
}

// stopStarting tells a start of key under way to give up (Stop); false
// when none is.
func (m *Manager) stopStarting(key seatKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ej := m.starting[key]
	if ej == nil {
		return false
	}
	ej.stopped = true
	if ej.cancel != nil {
		ej.cancel()
	}
	return true
}

// startStopped reports whether Stop asked key's start to give up.
func (m *Manager) startStopped(key seatKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ej := m.starting[key]
	return ej != nil && ej.stopped
}

// startGaveUp says why key's start was told to give up: ErrManagerClosed,
// ErrStartStopped, or nil when it was not.
func (m *Manager) startGaveUp(key seatKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch ej := m.starting[key]; {
	case m.closed:
		return ErrManagerClosed
	case ej != nil && ej.stopped:
		return ErrStartStopped
	}
	return nil
}

// startingSeat notes a start in progress for key (earlyJoin), which cancel
// ends early.
func (m *Manager) startingSeat(key seatKey, cancel context.CancelFunc) {
	m.mu.Lock()
	m.starting[key] = &earlyJoin{cancel: cancel}
	m.mu.Unlock()
}

// startEnded forgets key's start; it returns what the room said meanwhile.
// Caller holds m.mu.
func (m *Manager) startEnded(key seatKey) earlyJoin {
	ej := m.starting[key]
	delete(m.starting, key)
	if ej == nil {
		return earlyJoin{}
	}
	return *ej
}

// earlySidecar records a join or ready of a seat still starting; false
// when no start of key is in progress.
func (m *Manager) earlySidecar(key seatKey, ready bool) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ej := m.starting[key]
	if ej == nil {
		return false
	}
	if ready {
		ej.ready = true
	} else {
		ej.joined = true
	}
	return true
}
