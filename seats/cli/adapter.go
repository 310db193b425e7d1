package cli

import (
	"context"
	"log/slog"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/seats/pty"
)

// Adapter is one CLI kind's part of its seats (docs/design.md §9, §11;
// docs/architecture.md "Seat kinds"): its launch line, its resume rule,
// and per launch a Run — where the seat's activity, usage and usage-limit
// events come from, and what holds its typing. The seats Manager keeps one
// Adapter per kind that launches (seats/kinds.go): a seat kind is one
// package implementing it.
type Adapter interface {
	launch.Kind
	// Joins reports whether the kind's CLI always joins the room (its
	// sidecar from .mcp.json or its command line): then its seat shows
	// starting until it did. A generic CLI may never join (bash has no
	// MCP): its seat shows running once its process runs.
	Joins() bool
	// Observed reports whether the kind's CLI reports no activity of its
	// own (no hooks, rollout or notes: a generic CLI), so its seats'
	// activity is what their terminals show — output arriving, or a
	// measured silence (Observed, docs/design.md §10).
	Observed() bool
	// UsesAttachments reports whether the CLI reads the topic's
	// attachments folder without asking (launch.Input.AttachmentsDir): the
	// Manager makes the folder for its launches only.
	UsesAttachments() bool
	// Conversation says what the CLI of account a would do with its
	// recorded conversation id, in the seat's environment getenv (where
	// the CLI keeps its files): the resume rule (docs/design.md §9) reads
	// it. An error is a check that could not look (a home folder not
	// found, a permission or I/O error): the record is kept and the resume
	// tried. Only a conversation looked for and not found is gone.
	Conversation(a config.Account, id string, getenv func(string) string) (Conversation, error)
	// Prepare readies one launch after its line is built and before its
	// process is spawned: it sets p.Env to the child's whole environment
	// (the room token where the kind needs it), may fill p.Launch's words,
	// may record a conversation the start opened (p.Record), and may start
	// a process of its own (an app-server Codex seat's server). ctx ends
	// when the human stops the start or the app quits. On an error Prepare
	// has undone what it started itself (no Run, so no Abandon follows);
	// the Run it returns lives until the seat's end, or until Abandon.
	Prepare(ctx context.Context, p *Launching) (Run, error)
}

// Conversation is what a kind's CLI would do with a recorded conversation.
type Conversation int

// Conversations.
const (
	// ConversationResumes: the conversation resumes (it is on disk, or the
	// kind cannot tell and has a way to resume).
	ConversationResumes Conversation = iota + 1
	// ConversationGone: the conversation is not on disk; the record is
	// dropped and the seat starts fresh.
	ConversationGone
	// ConversationNoResume: the kind cannot resume it (a generic CLI
	// without a resume line): it starts fresh, the record is kept.
	ConversationNoResume
)

// Confirmer is an Adapter whose CLI confirms each post it takes as a user
// message of its own (docs/design.md §5 "Confirmed delivery"): its Run
// reports each submit (Seat.Submitted) and the CLI's turns through the
// activity, and Composer reads the CLI's input box off its screen.
type Confirmer interface {
	// Composer finds the CLI's input box in the screen's plain rows (the
	// cursor at column cx of row cy) and returns its text without the
	// box's own marks (prompt, indent, a placeholder); false when no box
	// is found.
	Composer(rows []string, cx, cy int) (string, bool)
}

// Releaser is an Adapter whose seats' usage limits end only when a check
// says so (Codex: its app-server's rate limits, seats/cli/codex/release.go).
type Releaser interface {
	// Release asks whether account a's ordinary usage is allowed again,
	// with the seat's environment env (no room token in it).
	Release(ctx context.Context, a config.Account, env []string) (limits.Release, error)
}

// Launching is one launch between its line and its spawn (Adapter.Prepare).
type Launching struct {
	Topic   string
	Account config.Account
	// Launch is the built line; Prepare may fill in the words only the
	// start knows (an app-server seat's port and conversation id) and the
	// session id.
	Launch *launch.Launch
	// Env is the child's environment without the room token; Prepare sets
	// it to the whole environment (WithToken for most kinds).
	Env []string
	// Token is the seat launch's room token (docs/design.md §6): it goes
	// to the process that runs the sidecar, never into a file or argv.
	Token string
	// Getenv looks a variable up in the environment the seat's CLI will
	// see (SeatGetenv): where it keeps its files.
	Getenv func(string) string
	// PullceptPath is our own executable (the seat guard, the sidecar).
	PullceptPath string
	// SocketDir is where a kind makes a socket of its own (a Codex
	// gate): the room socket's directory, which no seat can change
	// (RoomEndpoint.Protect); "" = the system's temporary directory.
	SocketDir string
	// Spawn starts a child in a PTY (pty.Start; tests wrap it).
	Spawn func(pty.Options) (pty.Proc, error)
	// Record records a conversation id the start opened in the topic
	// (before the seat is live); Drop drops it again.
	Record func(id string) error
	Drop   func(id string)
	Logger *slog.Logger
}

// WithToken is env with the room token in it: the child's whole
// environment for a kind whose CLI starts the sidecar itself.
func WithToken(env []string, token string) []string {
	return append(env, room.EnvRoomToken+"="+token)
}

// Run is one launch's kind-specific part, from Adapter.Prepare to the
// seat's end. The Manager calls Holds, LimitRules and Tasks before the
// seat is listed, Live once it is, Report from the room's hooks, and
// Ended after the process was reaped; Abandon instead of all that when the
// launch does not go live.
type Run interface {
	// Holds are the typing holds the seat starts with (docs/design.md §5),
	// released by the Run (Seat.Release).
	Holds() []string
	// LimitRules are the seat's usage-limit rules (0: none).
	LimitRules() limits.Rules
	// Tasks are the goroutines the seat needs while it lives; the Manager
	// runs each one, counted, recovered and waited for (doc.go). Each must
	// return once s.Done() is closed. Tasks has no side effect.
	Tasks(s Seat) []Task
	// Live is called once the seat is listed, before its Tasks run.
	Live(s Seat)
	// Report takes a hook report of the seat (room.Terminals.Reported):
	// false when the kind takes none, and the room refuses it.
	Report(s Seat, r room.Report) bool
	// Ended ends what the Run started (a server process) once the seat's
	// process was reaped, and waits for it.
	Ended()
	// Abandon undoes Prepare for a launch that does not go live.
	Abandon()
}

// Task is one goroutine of a seat (Run.Tasks); Name is for the log.
type Task struct {
	Name string
	Run  func()
}

// Seat is what a Run may do with its live seat. Every method is safe from
// any goroutine; none may be called with a lock of the Run's own held that
// Report's f also takes, and Report's f must not call back into the Seat
// (it runs under the seat's lock).
type Seat interface {
	Topic() string
	Account() string
	// Started is when the process was spawned.
	Started() time.Time
	// Done is closed once the seat's process has exited and been reaped.
	Done() <-chan struct{}
	// Output is closed at the child's first output.
	Output() <-chan struct{}
	// Pasting reports whether the CLI asked its terminal for bracketed
	// paste (?2004): it reads its keys raw, in an input box of its own.
	Pasting() bool
	Now() time.Time
	Logger() *slog.Logger
	// Report applies f to what the seat's CLI reported, under the seat's
	// lock; f returns whether anything shown changed, and the seat then
	// announces it (SeatUpdated). The permission wait f leaves sets the
	// typing holds; the cards in Reported.Closed close after the lock.
	Report(f func(*Reported) bool)
	// Release releases a typing hold (Run.Holds).
	Release(hold string)
	// Limit runs one step of the seat's usage limiter and the actions it
	// returns; nothing happens when the kind has no limit rules.
	Limit(step func(l *limits.Limiter, now time.Time) []limits.Action)
	// Notice shows a status line about the seat.
	Notice(isErr bool, format string, args ...any)
	// Kill ends the seat's process tree.
	Kill() error
	// Submitted reports a user message the CLI took (a submit of its
	// own), its text as the CLI saw it: the post whose tag it carries is
	// confirmed (Confirmer). Call it without a lock the Run's Report f
	// takes.
	Submitted(text string)
	// SessionFound gives a fresh seat the conversation id its CLI made
	// (Codex's rollout): the seat knows it first, then the topic records it.
	SessionFound(id string)
}

// Spawned is a Run that wants the pid of the seat's process (its PTY
// child) as soon as it is spawned, before the seat is live: a Codex
// app-server seat's gate lets only that process tree attach.
type Spawned interface {
	Spawned(pid int)
}

// Reported is what a seat's CLI reported, as the seat keeps it.
type Reported struct {
	Activity Activity
	Usage    Usage
	// Perm is the seat's open permission requests; the typing holds follow
	// it (docs/design.md §5).
	Perm PermWait
	// Closed are the room's cards whose requests ended (Report closes them
	// once the seat's lock is released).
	Closed []uint64
}
