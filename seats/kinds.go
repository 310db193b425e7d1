package seats

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/cli/claude"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/seats/cli/generic"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/limits"
)

// newKinds are the Manager's seat kinds, one Adapter per kind that
// launches (docs/architecture.md "Seat kinds"). A new kind is its package
// and one line here.
func newKinds(o ManagerOptions) map[config.Kind]cli.Adapter {
	return map[config.Kind]cli.Adapter{
		config.KindClaudeCode: &claude.Adapter{Poll: o.TailPoll},
		config.KindCodexCLI:   codex.New(o.TailPoll, o.CheckRelease),
		config.KindCLI:        generic.Adapter{},
	}
}

// conversation asks ad what a's CLI would do with the recorded id, in the
// seat's environment (the account's opened env over the process's); ""
// is no conversation. A check that could not look (no home folder, a
// permission or I/O error) keeps the record and tries the resume: only a
// conversation looked for and not found is gone (docs/design.md §9
// "Resume"). A resume the CLI then refuses loses its record as any
// refused resume does (the seat exits without joining).
func (m *Manager) conversation(ad cli.Adapter, a config.Account, recorded string, env []string) cli.Conversation {
	if recorded == "" {
		return 0
	}
	c, err := ad.Conversation(a, recorded, launch.SeatGetenv(env, m.getenv))
	if err != nil {
		m.logger.Warn("conversation check failed; the resume is tried", "account", a.ID, "err", err)
		return cli.ConversationResumes
	}
	return c
}

// seatHandle is a live seat as its Run sees it (cli.Seat).
type seatHandle struct {
	m *Manager
	s *Seat
}

var _ cli.Seat = seatHandle{}

func (h seatHandle) Topic() string           { return h.s.Topic }
func (h seatHandle) Account() string         { return h.s.Account }
func (h seatHandle) Started() time.Time      { return h.s.started }
func (h seatHandle) Done() <-chan struct{}   { return h.s.done }
func (h seatHandle) Output() <-chan struct{} { return h.s.output }
func (h seatHandle) Pasting() bool           { return h.s.screen != nil && h.s.screen.BracketedPaste() }
func (h seatHandle) Now() time.Time          { return h.m.opts.Now() }
func (h seatHandle) Logger() *slog.Logger    { return h.m.logger }
func (h seatHandle) Kill() error             { return h.s.proc.Kill() }
func (h seatHandle) Release(hold string)     { h.s.typist.Release(hold) }

// Report applies f under Seat.mu; a changed permission wait sets the
// typing holds there too (setPerm), so two reports racing leave the holds
// as the last one computed.
func (h seatHandle) Report(f func(*cli.Reported) bool) {
	s := h.s
	s.mu.Lock()
	x := cli.Reported{Activity: s.activity, Usage: s.usage, Perm: s.perm}
	changed := f(&x)
	s.activity, s.usage = x.Activity, x.Usage
	if !x.Perm.Equal(s.perm) {
		s.setPerm(x.Perm)
	}
	// A post waits while the CLI is in a turn (Typist.Busy); the Typist's
	// lock comes after Seat.mu.
	s.typist.Busy(inTurn(x.Activity.Kind))
	s.mu.Unlock()
	h.m.usage.note(seatKey{s.Topic, s.Account}, x.Usage)
	h.m.closeAsks(s, x.Closed)
	if changed {
		h.m.emit(SeatUpdated{Topic: s.Topic, Account: s.Account})
	}
}

// Submitted hands the CLI's submit to the seat's typing queue, which
// confirms the post it carries (docs/design.md §5 "Confirmed delivery").
func (h seatHandle) Submitted(text string) { h.s.typist.Submitted(text) }

// inTurn reports whether an activity is a turn under way: the CLI thinks,
// runs a tool or asks the human. Unknown is not: a seat whose reports
// stopped must not hold its posts forever.
func inTurn(k cli.ActivityKind) bool {
	return k == cli.ActivityThinking || k == cli.ActivityTool || k == cli.ActivityPermission
}

func (h seatHandle) Limit(step func(l *limits.Limiter, now time.Time) []limits.Action) {
	h.m.runLimit(h.s, func(l *limits.Limiter) []limits.Action { return step(l, h.m.opts.Now()) })
}

func (h seatHandle) Notice(isErr bool, format string, args ...any) {
	h.m.notice(h.s.Topic, h.s.Account, isErr, "%s", fmt.Sprintf(format, args...))
}

// SessionFound: the seat knows its id before the record is written, so
// whoever reads the record finds the seat agreeing with it.
func (h seatHandle) SessionFound(id string) {
	s := h.s
	s.mu.Lock()
	s.launch.SessionID = id
	s.mu.Unlock()
	if err := h.m.opts.Sessions.RecordSession(s.Topic, s.Account, id); err != nil {
		h.Notice(true, "could not record the session of %s: %v", s.Account, err)
	}
}
