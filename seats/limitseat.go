package seats

import (
	"context"
	"fmt"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// The Manager's side of usage limits (limits.go decides): each Claude Code
// and Codex seat has a limiter fed by its transcript or rollout tail, and a
// limit watcher goroutine (Manager.watchLimits, a goSeat goroutine ending
// at Seat.Done) that ticks it each second and runs Codex's release checks.
// Whoever feeds it runs the actions it returns under Seat.limitMu, so a
// notice and the prompt tagged with its id stay together and in order
// (lock order: Seat.limitMu → the room's lock → Manager.mu → Seat.mu).

// LimitMarks stores the per (topic, account) usage-limit marks
// (logstore.Store). A SessionBook that is also LimitMarks gets them used.
type LimitMarks interface {
	MarkLimited(topicID, accountID string) error
	ClearLimited(topicID, accountID string) error
	Limited(topicID, accountID string) (bool, error)
}

// LookMarks stores, per (topic, account), that the room was told to look
// at a seat's terminal and has not heard it is back (logstore.Store): the
// seat's next launch still says so at its first normal answer (issue 34
// item 22). A SessionBook that is also LookMarks gets them used.
type LookMarks interface {
	MarkLooked(topicID, accountID string) error
	ClearLooked(topicID, accountID string) error
	Looked(topicID, accountID string) (bool, error)
}

// limitTick is how often a limiter looks at the time.
const limitTick = time.Second

// newSeatLimiter makes s's limiter under its kind's rules (none for kinds
// without limits) and, for a seat whose stop is marked (Codex), starts it
// limited when the mark is set.
func (m *Manager) newSeatLimiter(s *Seat, acct config.Account) {
	rules := s.run.LimitRules()
	if rules == 0 {
		return
	}
	l := limits.New(rules, acct.DisplayName(), m.opts.LimitLocation)
	if m.opts.LimitGrace > 0 {
		l.Grace = m.opts.LimitGrace
	}
	s.limits = l
	m.restoreLooked(s)
	if !l.Marked() {
		return
	}
	marks, ok := m.opts.Sessions.(LimitMarks)
	if !ok {
		return
	}
	on, err := marks.Limited(s.Topic, s.Account)
	if err != nil {
		m.logger.Warn("limit: read the mark", "topic", s.Topic, "account", s.Account, "err", err)
		return
	}
	if on {
		m.runLimit(s, func(l *limits.Limiter) []limits.Action { return l.RestoreCodex(m.opts.Now()) })
	}
}

// runLimit computes actions with s's limiter and runs them, under
// s.limitMu.
func (m *Manager) runLimit(s *Seat, step func(*limits.Limiter) []limits.Action) {
	if s.limits == nil {
		return
	}
	s.limitMu.Lock()
	defer s.limitMu.Unlock()
	before := s.limits.Info()
	acts := s.limits.Capped(step(s.limits), m.opts.Now())
	// The panel learns the new state before the actions run: whoever sees
	// a notice about the seat finds the seat saying the same.
	if after := s.limits.Info(); after != before {
		s.mu.Lock()
		s.limit = after
		s.mu.Unlock()
		m.emit(SeatUpdated{Topic: s.Topic, Account: s.Account})
	}
	var notice room.Post
	for _, a := range acts {
		switch a.Kind {
		case limits.ActNotice:
			notice = m.limitNotice(s, a.Text)
		case limits.ActPrompt:
			m.limitPrompt(s, notice, a.Text)
		case limits.ActMarkerSet, limits.ActMarkerClear:
			m.limitMark(s, a.Kind == limits.ActMarkerSet)
		case limits.ActLookSet, limits.ActLookClear:
			m.lookMark(s, a.Kind == limits.ActLookSet)
		case limits.ActAsk:
			s.limitAsk = true // the watcher runs the check (it owns the wait)
		case limits.ActLog:
			m.logger.Info(a.Text, "topic", s.Topic, "account", s.Account)
		}
	}
}

// limitNotice posts a room notice about s, not typed into s.
func (m *Manager) limitNotice(s *Seat, text string) room.Post {
	if m.opts.AppNotice == nil {
		m.logger.Info("limit: notice (no room to post it)", "topic", s.Topic, "account", s.Account, "text", text)
		return room.Post{}
	}
	p, err := m.opts.AppNotice(s.Topic, text, s.Account)
	if err != nil {
		m.logger.Warn("limit: notice not posted", "topic", s.Topic, "account", s.Account, "err", err)
	}
	return p
}

// limitPrompt types the resume prompt into s, tagged as Pullcept with the
// notice's message id (a seat answering with last_seen = it is not refused
// for that notice). It waits behind the human's unsent keys and a
// permission dialog like any post.
func (m *Manager) limitPrompt(s *Seat, notice room.Post, text string) {
	p := room.Post{Role: room.RoleApp, Speaker: room.AppSpeaker, FromApp: true, MessageID: notice.MessageID,
		TS: notice.TS, Content: text}
	if p.MessageID == "" {
		p.MessageID = "limit-" + m.opts.Now().UTC().Format("20060102T150405")
	}
	if p.TS == "" {
		p.TS = m.opts.Now().Format(time.RFC3339)
	}
	if s.State() == StateExited {
		m.logger.Warn("limit: resume prompt not typed (the seat's terminal is closed)", "topic", s.Topic, "account", s.Account)
		return
	}
	s.typist.Enqueue(p)
}

// limitMark sets or clears s's mark.
func (m *Manager) limitMark(s *Seat, on bool) {
	marks, ok := m.opts.Sessions.(LimitMarks)
	if !ok {
		return
	}
	var err error
	if on {
		err = marks.MarkLimited(s.Topic, s.Account)
	} else {
		err = marks.ClearLimited(s.Topic, s.Account)
	}
	if err != nil {
		m.logger.Warn("limit: mark", "topic", s.Topic, "account", s.Account, "on", on, "err", err)
	}
}

// restoreLooked starts s's limiter with its "look at its terminal" out
// when its mark says a launch before left it out.
func (m *Manager) restoreLooked(s *Seat) {
	marks, ok := m.opts.Sessions.(LookMarks)
	if !ok {
		return
	}
	on, err := marks.Looked(s.Topic, s.Account)
	if err != nil {
		m.logger.Warn("limit: read the look mark", "topic", s.Topic, "account", s.Account, "err", err)
		return
	}
	if on {
		m.runLimit(s, func(l *limits.Limiter) []limits.Action { return l.RestoreLooked() })
	}
}

// lookMark sets or clears s's "look at its terminal" mark.
func (m *Manager) lookMark(s *Seat, on bool) {
	marks, ok := m.opts.Sessions.(LookMarks)
	if !ok {
		return
	}
	var err error
	if on {
		err = marks.MarkLooked(s.Topic, s.Account)
	} else {
		err = marks.ClearLooked(s.Topic, s.Account)
	}
	if err != nil {
		m.logger.Warn("limit: look mark", "topic", s.Topic, "account", s.Account, "on", on, "err", err)
	}
}

// watchLimits ticks s's limiter each second and runs the Codex release
// checks it asks for (one at a time, ended with the seat).
func (m *Manager) watchLimits(s *Seat) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	t := time.NewTicker(m.opts.LimitTick)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		m.runLimit(s, func(l *limits.Limiter) []limits.Action { return l.Tick(m.opts.Now()) })
		s.limitMu.Lock()
		ask := s.limitAsk
		s.limitAsk = false
		s.limitMu.Unlock()
		if !ask {
			continue
		}
		rel, err := m.askRelease(ctx, s)
		if ctx.Err() != nil {
			return // the seat ended: this launch no longer holds it
		}
		m.runLimit(s, func(l *limits.Limiter) []limits.Action { return l.Answer(rel.Allowed, rel.ResetsAt, err, m.opts.Now()) })
	}
}

// askRelease runs the release check of s's kind (Releaser) for its
// account.
func (m *Manager) askRelease(ctx context.Context, s *Seat) (limits.Release, error) {
	acct, ok := m.opts.Accounts(s.Account)
	if !ok {
		return limits.Release{}, ErrUnknownAccount
	}
	r, ok := m.kinds[s.kind].(cli.Releaser)
	if !ok {
		return limits.Release{}, fmt.Errorf("%s seats have no release check", s.kind)
	}
	return r.Release(ctx, acct, s.env)
}
