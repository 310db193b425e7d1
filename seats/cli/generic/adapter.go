package generic

import (
	"context"
	"fmt"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/seats/pty"
)

// Adapter is a generic CLI's cli.Adapter: the person's own line.
type Adapter struct{}

// ReadsMCPJSON: a generic CLI that speaks MCP finds the room in the working
// directory's .mcp.json.
func (Adapter) ReadsMCPJSON() bool { return true }

// Line is the command and options as written; a resume is the account's
// resume line (ErrNoResumeLine when it has none; pty.ErrNotConsoleSafe when
// cmd.exe would cut it).
func (Adapter) Line(b *launch.Builder, opts []string) ([]string, error) {
	a, in := b.In.Account, b.In
	if !in.Resume {
		return append([]string{a.Command}, opts...), nil
	}
	words, err := config.SplitWords(a.ResumeLine)
	if err != nil {
		return nil, fmt.Errorf("resume line: %w", err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%w: write one with %s for %q, or start it fresh", launch.ErrNoResumeLine, config.SessionIDPlaceholder, a.DisplayName())
	}
	if b.ViaCmd && !launch.AllConsoleSafe(words) {
		return nil, fmt.Errorf("%w: the resume line holds one of %s (dropping part of it would start a fresh session instead)", pty.ErrNotConsoleSafe, pty.CmdReactive)
	}
	if !launch.HasPlaceholder(words) {
		b.Warn("the resume line has no %s: the recorded session id is not passed", config.SessionIDPlaceholder)
	}
	return words, nil
}

// Joins: a generic CLI may never join the room (one without MCP).
func (Adapter) Joins() bool { return false }

// Observed: a generic CLI reports nothing; its terminal is all there is.
func (Adapter) Observed() bool { return true }

// UsesAttachments: a generic CLI gets no folder rules.
func (Adapter) UsesAttachments() bool { return false }

// Conversation: where a generic CLI keeps its conversations is unknown,
// and unknown is not "missing": it resumes whenever it has a resume line.
func (Adapter) Conversation(a config.Account, _ string, _ func(string) string) (cli.Conversation, error) {
	if strings.TrimSpace(a.ResumeLine) == "" {
		return cli.ConversationNoResume, nil
	}
	return cli.ConversationResumes, nil
}

// Prepare gives the CLI the room token: a sidecar it starts inherits it.
func (Adapter) Prepare(_ context.Context, p *cli.Launching) (cli.Run, error) {
	p.Env = cli.WithToken(p.Env, p.Token)
	return genericRun{}, nil
}

// genericRun is a generic CLI's launch: bytes written is all that is known
// of it (docs/design.md §5), so it reports nothing and holds nothing.
type genericRun struct{}

func (genericRun) Holds() []string                   { return nil }
func (genericRun) LimitRules() limits.Rules          { return 0 }
func (genericRun) Tasks(cli.Seat) []cli.Task         { return nil }
func (genericRun) Live(cli.Seat)                     {}
func (genericRun) Report(cli.Seat, room.Report) bool { return false }
func (genericRun) Ended()                            {}
func (genericRun) Abandon()                          {}
