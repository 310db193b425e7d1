package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// Joins: Claude Code always starts the room's sidecar.
func (*Adapter) Joins() bool { return true }

// Observed: Claude Code reports its turns through hooks.
func (*Adapter) Observed() bool { return false }

// UsesAttachments: a Claude seat reads the topic's attachments folder
// without asking (permissions.additionalDirectories).
func (*Adapter) UsesAttachments() bool { return true }

// Conversation: Claude Code's transcript of id, in the project folder
// CLAUDE_CODE_PROJECT_DIR_NAME names or under the working directory's
// slug, as written or as its links resolve (the CLI records its physical
// cwd).
func (*Adapter) Conversation(a config.Account, id string, getenv func(string) string) (cli.Conversation, error) {
	dir, err := ConfigDir(getenv, a.WorkDir)
	if err != nil {
		return cli.ConversationGone, err
	}
	for _, p := range transcriptsOf(dir, a.WorkDir, id, ProjectDirName(getenv)) {
		_, err := os.Stat(p)
		if err == nil {
			return cli.ConversationResumes, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return cli.ConversationGone, fmt.Errorf("check transcript: %w", err)
		}
	}
	return cli.ConversationGone, nil
}

// Prepare gives the CLI the room token (its sidecar is its child) and, for
// a resumed seat, notes how long its transcript is before the spawn: the
// limit tail starts there.
func (c *Adapter) Prepare(_ context.Context, p *cli.Launching) (cli.Run, error) {
	p.Env = cli.WithToken(p.Env, p.Token)
	r := &run{poll: c.Poll, workDir: p.Account.WorkDir, sessionID: p.Launch.SessionID, resumed: p.Launch.Resumed, getenv: p.Getenv}
	if p.Launch.Resumed {
		if dir, err := ConfigDir(p.Getenv, p.Account.WorkDir); err == nil {
			if fi, err := os.Stat(claudeTranscript(dir, p.Account.WorkDir, p.Launch.SessionID, ProjectDirName(p.Getenv))); err == nil {
				r.transcriptAt = fi.Size()
			}
		}
	}
	return r, nil
}

// run is one Claude Code launch: its hooks and status line report
// its activity and usage (Report), its transcript its usage-limit stops
// (watchTranscript).
type run struct {
	poll      time.Duration
	workDir   string
	sessionID string
	resumed   bool
	getenv    func(string) string
	// transcriptAt is a resumed seat's transcript length before the spawn.
	transcriptAt int64
}

// Holds: none at the start; a permission dialog holds through Report.
func (*run) Holds() []string { return nil }

// LimitRules: Claude Code's (limits.Claude).
func (*run) LimitRules() limits.Rules { return limits.Claude }

// Tasks: the transcript watcher.
func (r *run) Tasks(s cli.Seat) []cli.Task {
	return []cli.Task{{Name: "transcript", Run: func() { r.watchTranscript(s) }}}
}

// Live: nothing to adopt.
func (*run) Live(cli.Seat) {}

// Ended: nothing of its own runs.
func (*run) Ended() {}

// Abandon: Prepare started nothing.
func (*run) Abandon() {}

// Report takes Claude Code's status line JSON (room.ReportStatus: the
// seat's usage) or one of its http hook events (room.ReportActivity: its
// activity and permission wait, docs/design.md §11). A hook that ends a
// request the room holds a card for closes the card.
func (*run) Report(s cli.Seat, rep room.Report) bool {
	now := s.Now()
	switch rep.Kind {
	case room.ReportStatus:
		st, ok := ParseStatus(rep.Body)
		if !ok {
			return true
		}
		u := cli.Usage{Model: st.Model(), Effort: st.Effort, Context: st.Context, FiveHour: st.FiveHour,
			Weekly: st.Weekly, FiveHourResets: st.FiveHourResets, WeeklyResets: st.WeeklyResets}
		u.Received(now)
		s.Report(func(x *cli.Reported) bool {
			x.Usage = u
			return true
		})
	case room.ReportActivity:
		// The hold is set before the hook is answered: the CLI shows its
		// dialog only after, and no post's "\r" may reach it.
		defer submitted(s, rep)
		s.Report(func(x *cli.Reported) bool {
			step := applyHookAsk(x.Activity, x.Perm, rep.Event, rep.Body, rep.Ask, now)
			x.Closed = cli.ClosedAsks(x.Perm, step.Wait)
			if rep.Ask != 0 && !slices.ContainsFunc(step.Wait.Pending, func(q cli.PermRequest) bool { return q.Ask == rep.Ask }) {
				x.Closed = append(x.Closed, rep.Ask) // over cli.MaxPermWait: not kept
			}
			x.Activity, x.Perm = step.Next, step.Wait
			return step.Changed
		})
	default:
		return false
	}
	return true
}

// submitted confirms the post a UserPromptSubmit hook carries
// (docs/design.md §5 "Confirmed delivery"): the hook's prompt is the text
// Claude Code took. Measured with 2.1.328: it fires when a prompt is
// submitted, also one queued while a turn runs, so the seat types only
// between turns (Seat.Submitted, Typist.Busy).
func submitted(s cli.Seat, rep room.Report) {
	if rep.Event != hookUserPromptSubmit {
		return
	}
	var top jsonObject
	if json.Unmarshal(rep.Body, &top) != nil || top.str("hook_event_name") != hookUserPromptSubmit {
		return
	}
	if prompt := top.str("prompt"); prompt != "" {
		s.Submitted(prompt)
	}
}

// watchTranscript follows the seat's transcript for its limiter (a seat
// Task, ended at Done): a resumed seat first reads the transcript's last
// parent event (an unanswered refusal starts it limited), then, fresh or
// resumed, the tail from where the file ended at the start, each poll
// while lines come, each 10 s after a minute without one. A transcript
// that is missing, deleted or replaced is logged and looked for again,
// never a crash.
func (r *run) watchTranscript(s cli.Seat) {
	dir, err := ConfigDir(r.getenv, r.workDir)
	if err != nil || r.sessionID == "" {
		s.Logger().Debug("limit: no Claude transcript to watch", "topic", s.Topic(), "account", s.Account(), "err", err)
		return
	}
	path := claudeTranscript(dir, r.workDir, r.sessionID, ProjectDirName(r.getenv))
	t := cli.NewTail(path, r.transcriptAt)
	t.LineMax = claudeLineMax
	subs := newSubagentTails(path, r.sessionID)
	if r.resumed && r.transcriptAt > 0 {
		if e, ok := claudeLastParent(path, r.transcriptAt); ok && e.Kind == limits.Stop {
			s.Limit(func(l *limits.Limiter, now time.Time) []limits.Action { return l.RestoreClaude(e.ResetsAt, now) })
		}
	}
	lastLine, lastErr := s.Now(), ""
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		final := false
		select {
		case <-s.Done():
			final = true
		case <-timer.C:
		}
		feed := func(line []byte) {
			if e, ok := claudeLimitEvent(line); ok {
				s.Limit(func(l *limits.Limiter, now time.Time) []limits.Action { return l.Event(e, now) })
			}
		}
		n, err := t.Poll(func(line []byte) {
			feed(line)
			interrupted(s, line)
		})
		n += subs.poll(feed)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && err.Error() != lastErr {
			lastErr = err.Error()
			s.Logger().Warn("limit: transcript", "topic", s.Topic(), "account", s.Account(), "err", err)
		}
		if n > 0 {
			lastLine = s.Now()
		}
		if final {
			return
		}
		timer.Reset(cli.TailEvery(s.Now().Sub(lastLine), r.poll))
	}
}

// minVersion is the oldest Claude Code the launch line works with (issue
// 34 item 12). Line registers the StopFailure hook, which Claude Code has
// had since 2.1.78 (its CHANGELOG: "Added `StopFailure` hook event that
// fires when the turn ends due to an API error"); and before 2.1.101 ("an
// unrecognized hook event name in `settings.json` no longer causes the
// entire file to be ignored") an older CLI ignored the whole --settings:
// no room entry enabled (a dialog instead of the room), no status line, no
// hooks. Everything else the line uses is older: --settings (1.0.61),
// --append-system-prompt in interactive mode (1.0.51), the status line
// (1.0.71), UserPromptSubmit (1.0.54), SubagentStart (2.0.43),
// PermissionRequest (2.0.45), http hooks (2.1.63). .mcp.json's alwaysLoad
// (2.1.121) is not needed: an older CLI finds the tools through its tool
// search, one model call more per post (docs/clis.md §2.7).
var minVersion = cli.Version{Major: 2, Minor: 1, Patch: 78}

// Needs: minVersion, for the hooks on the line (cli.Versioned).
func (*Adapter) Needs(config.Account) cli.Need {
	return cli.Need{CLI: "Claude Code", Min: minVersion, Uses: "the StopFailure hook in --settings"}
}
