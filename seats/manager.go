package seats

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal"
)

// SessionBook is what the Manager needs of the topic log's index
// (*logstore.Store implements it): the recorded session id per (topic,
// account), lazy topic creation, the size of a topic's log and how much of
// it each account's seat had seen when it last stopped (docs/design.md §8,
// §9).
type SessionBook interface {
	Session(topicID, accountID string) (string, bool)
	RecordSession(topicID, accountID, sessionID string) error
	// DropSessionIf drops the record only while it still holds sessionID.
	DropSessionIf(topicID, accountID, sessionID string) (bool, error)
	EnsureTopic(topicID string) error
	// LogSize is the topic log's size in bytes (0: no posts); it only grows.
	LogSize(topicID string) (int64, error)
	Seen(topicID, accountID string) (int64, bool)
	RecordSeen(topicID, accountID string, size int64) error
}

// RoomEndpoint is where seats find the room: the WebSocket URL (the
// sidecar's PULLCEPT_ROOM_URL), the hooks base URL and how a seat gets its
// bearer token. The token reaches the CLI's process environment only
// (docs/design.md §7).
type RoomEndpoint struct {
	URL      string
	HooksURL string
	// Grant issues each seat launch its own token, bound to its account
	// and topic (room.Server.Grant, docs/design.md §6 "Seat tokens"); the
	// Manager revokes it when the seat's process is gone. When nil, every
	// seat gets Token (tests that run no room).
	Grant func(account, topic, launch string) (token string, revoke func(), err error)
	Token string
	// Socket is the room's Unix socket or named pipe ("" where there is
	// none: tests without a room); Bind makes a process the Manager started
	// for a seat one of that seat's (room.Server.BindTree, with pty.Holds):
	// only its tree may use the seat's token there.
	Socket string
	Bind   func(token string, holds func(pid int) bool) error
	// Protect are directories a seat's processes may connect to sockets
	// in but never change (pty.Isolate.ReadOnly): the app's socket
	// directory, holding the room socket, the gates and the server's.
	Protect []string
	// Hide are files no seat's process may open (pty.Isolate.Hide): the
	// data directory's lock.
	Hide []string
}

// ManagerOptions configures NewManager. Sessions and Accounts are required.
type ManagerOptions struct {
	Sessions SessionBook
	// Accounts looks an account up by id at launch time (the config may
	// change while the app runs).
	Accounts func(id string) (config.Account, bool)
	// PullceptPath is the absolute path of our executable (sidecar, status
	// line); "" = os.Executable.
	PullceptPath string
	// Environ is the base environment of every seat (nil: os.Environ).
	Environ func() []string
	// Logger receives seat life lines (nil: discarded).
	Logger *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// TailPoll is how often the kinds read the files their CLIs append to
	// while lines come (a Codex rollout, a Claude transcript) and look for
	// a fresh Codex seat's rollout (0: tailPollEvery).
	TailPoll time.Duration
	// ConfirmWait bounds each wait for a CLI to confirm a typed post
	// (TypistOptions.ConfirmWait; 0: confirmWait).
	ConfirmWait time.Duration
	// AttachmentsDir makes and returns a topic's attachments folder, which
	// a Claude seat may read without asking (nil: none; an error is a
	// warning, the seat starts without it).
	AttachmentsDir func(topicID string) (string, error)
	// ResizeQuiet is how long a seat's size must hold before its PTY takes
	// it (0: resizeQuiet; resize.go).
	ResizeQuiet time.Duration
	// OpenEnv opens an account's env values for its launch (NAME=value;
	// config.Book.OpenEnv, which runs the vault). nil: config.OpenEnv with
	// no vault, so only values held in the clear launch and a sealed one is
	// refused. Called before the seat is claimed, never under a lock.
	OpenEnv func(config.Account) ([]string, error)
	// AppNotice posts a notice of Pullcept's own into a topic's room,
	// typed into every seat but the skipped accounts (room.Hub.AppNotice);
	// the usage-limit notices go through it. nil: they are only logged.
	AppNotice func(topicID, text string, skip ...string) (room.Post, error)
	// AskClosed closes the room's card ask of the seat (topicID,
	// accountID) (room.Hub.AskClosed): its permission request was answered
	// in the pane, its CLI went on past it, or the seat ended. nil: cards
	// close only when answered or when the room stops waiting.
	AskClosed func(topicID, accountID string, ask uint64)
	// LimitLocation is the time zone of reset times in notices (nil:
	// time.Local); LimitTick how often a limiter looks at the time (0:
	// limitTick).
	LimitLocation *time.Location
	LimitTick     time.Duration
	// LimitGrace replaces the 30 s between a reset time and the prompt or
	// the first release check (end-to-end tests; 0: limitGrace).
	LimitGrace time.Duration
	// CheckRelease replaces the Codex release check (tests; nil: run
	// `codex app-server` over stdio, seats/cli/codex/release.go).
	CheckRelease func(ctx context.Context, acct config.Account, env []string) (limits.Release, error)
	// NoIsolation starts seats without namespaces of their own (tests
	// whose PullceptPath cannot run `seat-ns`; isolation.go).
	NoIsolation bool
	// VersionTimeout bounds reading a CLI's version before its seat starts
	// (version.go; 0: 10 s).
	VersionTimeout time.Duration
}

// tailPollEvery: a fresh Codex seat writes its rollout at its first turn;
// a second is quick enough to record the id before a user would stop it,
// and to show a turn's usage while it runs, at the cost of one stat of the
// file (or one directory walk under $CODEX_HOME/sessions/<today>).
const tailPollEvery = time.Second

// outputDrain bounds how long a seat's exit waits for the PTY reader to
// reach EOF before the PTY is closed. The child's last output (Codex prints
// its "codex resume <id>" line, Claude Code its resume hint) is still in the
// PTY buffer when Wait returns; closing the master at once throws it away
// and the exited seat's screen misses it. EOF comes within milliseconds when
// nothing else holds the terminal; a process the child left behind on it
// (or Windows' ConPTY, whose output never ends by itself) would hold it
// forever, so the wait is bounded: half a second is far above a loopback
// PTY drain and short enough that a stop never feels stuck.
const outputDrain = 500 * time.Millisecond

// State is a seat's life stage (docs/design.md §10 participant panel).
type State int

// Seat states.
const (
	// StateStarting: the process runs, its sidecar has not joined yet.
	StateStarting State = iota + 1
	// StateRunning: the sidecar joined the roster (or the kind has none).
	StateRunning
	// StateExited: the process ended; the screen stays readable.
	StateExited
)

// String names the state for logs.
func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateRunning:
		return "running"
	case StateExited:
		return "exited"
	}
	return "unknown"
}

// StartResult says how a seat launched (shown on the status line,
// docs/design.md §9).
type StartResult struct {
	// Resumed is true when the kind's resume line ran with SessionID.
	Resumed   bool
	SessionID string
	// Dropped is a recorded session id that was dropped because its
	// transcript is missing; DropReason says why.
	Dropped    string
	DropReason string
	// Warnings are the launch builder's (stripped options, a disabled
	// .mcp.json key …).
	Warnings []string
	// Preview is the line that ran (no env values, no token).
	Preview string
	// PtyID names the launch (SeatInfo.PtyID).
	PtyID string
	// CLIVersion is the CLI's version as read before the start ("Claude
	// Code 2.1.328"; "" when the kind needs none or it was not read);
	// VersionUnread says why it could not be read (the seat started
	// without the check, version.go).
	CLIVersion    string
	VersionUnread string
}

// SeatInfo is one seat as the UI lists it.
type SeatInfo struct {
	Topic, Account string
	// Kind is the account's kind at launch.
	Kind     config.Kind
	State    State
	Pid      int
	Started  time.Time
	Argv     []string
	Dir      string
	ExitCode int
	// Requested is true when the user (or a topic delete, or quit) stopped it.
	Requested bool
	// Err is why the seat ended when the user did not ask (a wait error, or
	// ErrKilled for a signal); nil for a plain exit code.
	Err error
	// SessionID is the CLI's conversation id ("" while a fresh Codex seat
	// has none yet).
	SessionID string
	// PtyID names this launch (lifecycle.go): a new one per start, so a
	// restarted seat is told from the one it replaced.
	PtyID string
	// Activity and Usage are the CLI's last reports (its kind's Run, through cli.Seat.Report); they
	// outlive the exit as the last known.
	Activity cli.Activity
	Usage    cli.Usage
	// Typing is the seat's typing queue: posts held and why.
	Typing TypistState
	// Limit is its usage-limit state (seats/limits).
	Limit limits.Info
	// Warnings are its launch's (a disabled .mcp.json key, stripped
	// options …): shown on its row, not only logged.
	Warnings []string
	// Isolation is whether its processes run in namespaces of their own,
	// and why not (isolation.go, docs/design.md §16).
	Isolation pty.Isolation
	// MayNotJoin is true for a kind whose CLI may never join the room
	// (cli.Adapter.Joins false: a generic CLI, bash has no MCP).
	MayNotJoin bool
	// CLIVersion and VersionUnread are its start's (StartResult).
	CLIVersion    string
	VersionUnread string
	// Size is the seat's PTY in cells, columns and rows: the window its
	// CLI sees (spec «参加者パネル» ウィンドウ), after the last resize it
	// took.
	Size [2]int
	// Remote is how an app-server seat's terminal reaches its server: the
	// address its line passes to --remote (unix://<gate>, or
	// ws://127.0.0.1:<port> on Windows); "" for a seat whose CLI runs
	// alone in its PTY (spec «参加者パネル» 接続方法).
	Remote string
}

// Shown is the stage a person sees in the participant panel. A CLI that
// may never join the room shows running as soon as its process runs: its
// liveness is its process (docs/design.md §9). Every other kind shows
// starting until its sidecar joined.
func (i SeatInfo) Shown() State {
	if i.State == StateStarting && i.MayNotJoin {
		return StateRunning
	}
	return i.State
}

// exitErr explains an exit nobody asked for. The PTY layer reports a
// program a signal ended as 128+N (the shell's convention) and names the
// signal (pty.Proc.Signaled, through the seat's init and guard): say which,
// wrapping ErrKilled. Every other code — an `exit 130` of the program's
// own too — is its answer and needs no error (the status line shows the
// code). Windows has no signals: there the PTY names none (255, or
// 0xC0000005 for a crash, is not a kill).
func exitErr(code, signal int, waitErr error, requested bool) error {
	if waitErr != nil || requested || signal <= 0 {
		return waitErr
	}
	return fmt.Errorf("%w by signal %d (exit code %d)", ErrKilled, signal, code)
}

// Event is what a Manager subscription carries (must-deliver, in order).
type Event interface{ seatEvent() }

// SeatChanged: a seat changed state.
type SeatChanged struct{ Info SeatInfo }

// SeatNotice: something the status line must show about a seat (a dropped
// resume record, a recorded Codex session, a sidecar that never joined).
type SeatNotice struct {
	Topic, Account string
	Text           string
	Error          bool
}

// SeatRestart: a seat's restart (docs/design.md §15) began — its stop
// follows, and the exit it makes is the restart's, not an end — or, Done,
// ended: the seat is back, or Err says why not. The UIs say "restarting"
// where they would say "stopped" (issue 35).
type SeatRestart struct {
	Topic, Account string
	Done           bool
	Err            error
}

func (SeatChanged) seatEvent() {}
func (SeatNotice) seatEvent()  {}
func (SeatRestart) seatEvent() {}

// Manager runs the seats: launch (launch.Build/launch.Prepare), PTY, screen,
// typing queue and the ledger, and it implements room.Terminals so the room
// types posts into them (docs/design.md §2, §5, §9). Its goroutines and
// lock order are stated once, in the package doc (doc.go).
type Manager struct {
	opts   ManagerOptions
	ledger *Ledger
	logger *slog.Logger

	mu      sync.Mutex
	room    RoomEndpoint
	seats   map[seatKey]*Seat
	closed  bool
	events  *pubsub.Broker[Event]
	changed pubsub.Signal // some seat's screen changed (coalesced)
	wg      sync.WaitGroup
	kinds   map[config.Kind]cli.Adapter // the seat kinds (kinds.go)
	// starting holds what the room said of seats whose start is under way
	// (lifecycle.go earlyJoin), by seat.
	starting map[seatKey]*earlyJoin
	spawn    func(pty.Options) (pty.Proc, error) // pty.Start; a benchmark wraps it
	// unconfirmed types as before confirmed delivery (a test measures the
	// difference, NoConfirm).
	unconfirmed bool

	// probeOnce probes the namespaces once for the launch preview
	// (isolation.go); probed is its answer.
	probeOnce sync.Once
	probed    pty.Isolation

	versions cli.VersionBook // the CLIs' versions read (version.go)
	usage    usageBook       // the seats' own usage figures, across launches (usagebook.go)

	life lifeLocks // per-seat lifecycle locks (lifecycle.go)
	// closedTopics (deleted, or being deleted) and retired accounts (being
	// deleted) take no new seat (lifecycle.go); guarded by mu.
	closedTopics map[string]bool
	retired      map[string]bool
}

type seatKey struct{ topic, account string }

// Seat is one running (or exited) CLI in one topic for one account.
type Seat struct {
	Topic, Account string
	ptyID          string // this launch's id (lifecycle.go)

	launch  launch.Launch
	kind    config.Kind
	joins   bool // its kind's CLI always joins the room (cli.Adapter.Joins)
	proc    pty.Proc
	screen  *terminal.Screen
	typist  *Typist
	started time.Time
	done    chan struct{}
	pumped  chan struct{} // closed when the PTY reader has ended

	resizeKick chan struct{} // cap 1: Resize asked for a size (resize.go)
	output     chan struct{} // closed at the child's first output
	outputOnce sync.Once
	// ptyMu orders the resizer's PTY calls before the exit watcher's
	// Close: a ConPTY must not be resized while or after it is closed.
	ptyMu     sync.Mutex
	ptyClosed bool

	mu        sync.Mutex
	state     State
	size      seatSize // the size asked for and the one the PTY has (resize.go)
	joined    bool
	requested bool
	exitCode  int
	err       error
	activity  cli.Activity // the CLI's last reported activity (cli.Seat.Report)
	perm      cli.PermWait // its open permission requests (cli.PermWait)
	usage     cli.Usage    // its last reported usage

	// run is the launch's kind-specific part (its Adapter's Run): what
	// reports its activity and usage, what it runs beside the process.
	run cli.Run
	// observed is its activity read off its terminal when its kind's CLI
	// reports none (cli.Adapter.Observed; observe.go); nil otherwise.
	observed *observer

	// limits decides the seat's usage-limit episodes (seats/limits; nil for
	// generic CLIs); limitMu serializes it with the actions it returns;
	// limitAsk asks the limit watcher for a release check (under limitMu).
	// env is the seat's environment without tokens (the release check's).
	limits   *limits.Limiter
	limitMu  sync.Mutex
	limitAsk bool
	env      []string
	limit    limits.Info // what the panel shows (under mu)

	updated func() // emits SeatUpdated (set before the seat is listed)
	// asksClosed closes the room's cards of requests answered in the pane
	// (Manager.closeAsks; set before the seat is listed).
	asksClosed func(ids []uint64)
	revoke     func() // ends the seat's room token; nil when none (RoomEndpoint.Grant)
	isolation  pty.Isolation
	// cliVersion and versionUnread are its start's (StartResult).
	cliVersion, versionUnread string
}

// NewManager returns a Manager with no seats. Call SetRoom before Start.
func NewManager(o ManagerOptions) (*Manager, error) {
	if o.Sessions == nil || o.Accounts == nil {
		return nil, errors.New("new seat manager: sessions and accounts are required")
	}
	if o.PullceptPath == "" {
		p, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("new seat manager: own executable: %w", err)
		}
		o.PullceptPath = p
	}
	if o.Environ == nil {
		o.Environ = os.Environ
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TailPoll <= 0 {
		o.TailPoll = tailPollEvery
	}
	if o.ResizeQuiet <= 0 {
		o.ResizeQuiet = resizeQuiet
	}
	if o.LimitTick <= 0 {
		o.LimitTick = limitTick
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	m := &Manager{
		opts:     o,
		ledger:   NewLedger(),
		logger:   lg,
		seats:    map[seatKey]*Seat{},
		events:   pubsub.NewBroker(pubsub.Options[Event]{Logger: lg}),
		kinds:    newKinds(o),
		starting: map[seatKey]*earlyJoin{},
		spawn:    pty.Start,
	}
	m.versions.Timeout = o.VersionTimeout
	return m, nil
}

// SetRoom sets where seats find the room (the loopback server exists only
// after the hub, which needs the Manager as its Terminals).
func (m *Manager) SetRoom(r RoomEndpoint) {
	m.mu.Lock()
	m.room = r
	m.mu.Unlock()
}

// Subscribe returns a subscription to the seat life stream (SeatChanged,
// SeatNotice) from now on: must-deliver, in order, bounded per subscriber
// (room/pubsub). Close ends it.
func (m *Manager) Subscribe() *pubsub.Subscription[Event] { return m.events.Subscribe() }

// WaitScreens blocks until some seat's screen changed since generation
// seen (0 at first) and returns the new generation: a coalesced signal any
// number of UIs may wait on, each then snapshotting the panes it shows. ok
// is false when done closed or the Manager closed first.
func (m *Manager) WaitScreens(done <-chan struct{}, seen uint64) (gen uint64, ok bool) {
	return m.changed.Wait(done, seen)
}

// Start launches accountID in topicID with a cols×rows PTY (docs/design.md
// §9) in four steps: decide (the account, the ledger claim, resume or
// fresh), prepare (.mcp.json, the line, the topic, the environment), spawn
// (the PTY, typing queue and screen) and go live (list the seat, start its
// goroutines). Errors: ErrSeatTaken, launch refusals from launch.Build
// (wrapped), spawn errors, ErrManagerClosed. A failed start leaves nothing
// claimed: the claim is released here until the seat is live, then it
// belongs to the seat's exit watcher (wait).
func (m *Manager) Start(topicID, accountID string, cols, rows int) (StartResult, error) {
	return m.StartWith(topicID, accountID, StartOptions{Cols: cols, Rows: rows})
}

// StartWith is Start with a start mode (lifecycle.go): StartAuto is the
// resume rule, StartFresh never resumes, StartResume refuses (ErrNoResume)
// unless the recorded conversation resumes. StartResult.PtyID names the
// launch.
func (m *Manager) StartWith(topicID, accountID string, o StartOptions) (StartResult, error) {
	cols, rows := o.Cols, o.Rows
	p, err := m.decide(topicID, accountID, o.Mode)
	if err != nil {
		return StartResult{}, err
	}
	key := seatKey{topicID, accountID}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.startingSeat(key, cancel)
	live := false
	defer func() {
		if !live {
			m.mu.Lock()
			m.startEnded(key)
			m.mu.Unlock()
			if p.run != nil {
				p.run.Abandon()
			}
			if p.revoke != nil {
				p.revoke()
			}
			m.unregister(p.adapter, p.launch)
			m.ledger.Release(p.claim)
		}
	}()
	if err := m.checkVersion(ctx, p); err != nil {
		if gave := m.startGaveUp(key); gave != nil {
			err = gave
		}
		return p.res, fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), err)
	}
	if err := m.prepare(p); err != nil {
		return p.res, err
	}
	if err := m.prepareRun(ctx, p); err != nil {
		if gave := m.startGaveUp(key); gave != nil {
			err = gave // Stop or Close cancelled the kind's start
		}
		return p.res, fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), err)
	}
	if m.startStopped(key) {
		return p.res, fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), ErrStartStopped)
	}
	s, err := m.spawnSeat(p, cols, rows)
	if err != nil {
		return p.res, err
	}
	if err := m.goLive(p, s); err != nil {
		return p.res, err
	}
	live = true
	return p.res, nil
}

// startPlan is what Start's steps decide and prepare for one seat.
type startPlan struct {
	topic, account string
	acct           config.Account
	room           RoomEndpoint
	claim          Claim
	recorded       string // the session id the topic index holds ("" = none)
	resume         bool
	mode           StartMode
	launch         launch.Launch
	env            []string // the child's whole environment
	res            StartResult
	adapter        cli.Adapter // the kind's
	run            cli.Run     // the launch's kind-specific part, once prepared (prepareRun)
	token          string      // the seat launch's room token
	// checkEnv is the seat's environment without any token (the release
	// check's).
	checkEnv []string
	// revoke ends the seat's token (RoomEndpoint.Grant); nil when none was
	// granted. Start calls it when the seat does not go live, Manager.wait
	// when its process is gone.
	revoke func()
	// openEnv is the account's env opened for this launch (NAME=value).
	openEnv []string
	// isolation is how the processes started for the seat run.
	isolation isolationLog
}

// openEnv opens a's env values (ManagerOptions.OpenEnv).
func (m *Manager) openEnv(a config.Account) ([]string, error) {
	if m.opts.OpenEnv != nil {
		return m.opts.OpenEnv(a)
	}
	return config.OpenEnv(a.Env, nil)
}

// decide admits the start (a seat kind, the Manager open and listening, the
// ledger place free: claimed here) and decides resume or fresh.
func (m *Manager) decide(topicID, accountID string, mode StartMode) (*startPlan, error) {
	acct, ok := m.opts.Accounts(accountID)
	if !ok {
		return nil, fmt.Errorf("start seat %s: %w", accountID, ErrUnknownAccount)
	}
	ad, ok := m.kinds[acct.Kind]
	if !ok || !acct.Kind.Launches() {
		return nil, fmt.Errorf("start seat %s: kind %s does not run as a seat: %w", accountID, acct.Kind, ErrNotASeat)
	}
	m.mu.Lock()
	ep, closed := m.room, m.closed
	refused := m.refusedLocked(topicID, accountID)
	m.mu.Unlock()
	if closed {
		return nil, ErrManagerClosed
	}
	if refused != nil {
		return nil, fmt.Errorf("start seat %s: %w", acct.DisplayName(), refused)
	}
	if ep.URL == "" {
		return nil, errors.New("start seat: the room is not listening yet")
	}
	// The values first: a seat whose env will not open is refused before it
	// takes its place or writes anything (spec «アカウントは環境変数を持つ»).
	env, err := m.openEnv(acct)
	if err != nil {
		return nil, fmt.Errorf("start seat %s: %w", acct.DisplayName(), err)
	}
	claim, err := m.ledger.Claim(topicID, accountID)
	if err != nil {
		return nil, fmt.Errorf("start seat %s in %s: %w", accountID, topicID, err)
	}
	p := &startPlan{topic: topicID, account: accountID, acct: acct, adapter: ad, room: ep, claim: claim, openEnv: env, mode: mode}
	if err := m.decideResume(p); err != nil {
		m.ledger.Release(claim)
		return nil, fmt.Errorf("start seat %s: %w", acct.DisplayName(), err)
	}
	p.res.PtyID = newPtyID()
	return p, nil
}

// decideResume applies the resume rule (docs/design.md §9): a recorded id
// resumes when its conversation exists, and one whose transcript is gone is
// dropped on the spot. The conversation is looked for in the environment
// the CLI will see: an account may set its own CLAUDE_CONFIG_DIR or
// CODEX_HOME.
func (m *Manager) decideResume(p *startPlan) error {
	p.recorded, _ = m.opts.Sessions.Session(p.topic, p.account)
	if p.mode == StartFresh {
		return nil // a new conversation; its id replaces the record
	}
	c := m.conversation(p.adapter, p.acct, p.recorded, p.openEnv)
	resume, drop, reason := DecideResume(p.acct, p.recorded, c)
	if p.mode == StartResume && !resume {
		// Asked to resume: refuse, and leave the record for the human to judge.
		return fmt.Errorf("%w: %s", ErrNoResume, resumeRefusal(p.acct, p.recorded, c, reason))
	}
	if drop {
		if _, err := m.opts.Sessions.DropSessionIf(p.topic, p.account, p.recorded); err != nil {
			m.logger.Warn("drop session", "err", err)
		}
		p.res.Dropped, p.res.DropReason = p.recorded, reason
	}
	p.resume = resume
	return nil
}

// prepare builds the launch (launch.Prepare registers .mcp.json), creates
// the topic's index entry on its first seat start (lazy topic creation)
// and assembles the child's environment, the room token only there
// (docs/design.md §7).
func (m *Manager) prepare(p *startPlan) error {
	size, err := m.opts.Sessions.LogSize(p.topic)
	if err != nil {
		m.logger.Warn("log size", "topic", p.topic, "err", err)
	}
	seen, seenKnown := m.opts.Sessions.Seen(p.topic, p.account)
	in := launch.Input{
		Account:       p.acct,
		TopicID:       p.topic,
		Resume:        p.resume,
		PullceptPath:  m.opts.PullceptPath,
		RoomURL:       p.room.URL,
		HooksURL:      p.room.HooksURL,
		RoomSocket:    p.room.Socket,
		UnseenHistory: UnseenHistory(size, p.resume, seen, seenKnown),
		CommandPath:   launch.ResolveCommand(p.acct.Command),
		Env:           p.openEnv,
		Getenv:        m.getenv,
	}
	if p.resume {
		in.SessionID = p.recorded
	}
	var attachWarn string
	if m.opts.AttachmentsDir != nil && p.adapter.UsesAttachments() {
		if d, err := m.opts.AttachmentsDir(p.topic); err != nil {
			attachWarn = fmt.Sprintf("attachments: %v; the seat will ask before it reads one", err)
		} else {
			in.AttachmentsDir = d
		}
	}
	l, err := launch.Prepare(in, p.adapter)
	if err != nil {
		return fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), err)
	}
	l.Warnings = append(l.Warnings, character.Warnings(p.acct, launch.SeatGetenv(p.openEnv, m.getenv))...)
	if attachWarn != "" {
		l.Warnings = append(l.Warnings, attachWarn)
	}
	p.launch = l
	p.res.Resumed, p.res.SessionID, p.res.Warnings, p.res.Preview = l.Resumed, l.SessionID, l.Warnings, l.Preview
	if err := m.opts.Sessions.EnsureTopic(p.topic); err != nil {
		return fmt.Errorf("start seat: topic %s: %w", p.topic, err)
	}
	p.env = append(launch.UnsetEnv(launch.BaseEnv(m.opts.Environ()), l.Unset), l.Env...)
	p.checkEnv = slices.Clone(p.env) // no token: the release check's
	p.token = p.room.Token
	if p.room.Grant != nil {
		t, revoke, err := p.room.Grant(p.account, p.topic, p.res.PtyID)
		if err != nil {
			return fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), err)
		}
		p.token, p.revoke = t, revoke
	}
	return nil
}

// prepareRun hands the launch to its kind (Adapter.Prepare), last before
// the spawn: the token goes where the kind's sidecar runs, and an
// app-server Codex seat's server starts (and opens its conversation) here.
func (m *Manager) prepareRun(ctx context.Context, p *startPlan) error {
	ln := &cli.Launching{Topic: p.topic, Account: p.acct, Launch: &p.launch, Env: p.env, Token: p.token,
		Getenv: launch.SeatGetenv(p.openEnv, m.getenv), PullceptPath: m.opts.PullceptPath, Spawn: m.boundSpawn(p), Logger: m.logger,
		SocketDir: socketDir(p.room.Socket),
		Record: func(id string) error {
			return m.opts.Sessions.RecordSession(p.topic, p.account, id)
		},
		Drop: func(id string) {
			if _, err := m.opts.Sessions.DropSessionIf(p.topic, p.account, id); err != nil {
				m.logger.Warn("drop session", "err", err)
			}
		}}
	run, err := p.adapter.Prepare(ctx, ln)
	if err != nil {
		return err
	}
	p.run, p.env = run, ln.Env
	p.res.SessionID, p.res.Warnings = p.launch.SessionID, p.launch.Warnings // the kind's own, too
	return nil
}

// spawnSeat starts the child in its PTY with its typing queue and screen,
// and records it in the ledger. Nothing of it runs unless goLive lists it.
func (m *Manager) spawnSeat(p *startPlan, cols, rows int) (*Seat, error) {
	l := p.launch
	proc, err := m.boundSpawn(p)(pty.Options{Argv: l.Argv, Dir: l.Dir, Env: p.env, Cols: cols, Rows: rows})
	if err != nil {
		return nil, fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), err)
	}
	if sp, ok := p.run.(cli.Spawned); ok {
		sp.Spawned(proc.Pid())
	}
	s := &Seat{Topic: p.topic, Account: p.account, ptyID: p.res.PtyID, launch: l, kind: p.acct.Kind, joins: p.adapter.Joins(), proc: proc, run: p.run, env: p.checkEnv,
		started: m.opts.Now(), done: make(chan struct{}), pumped: make(chan struct{}), state: StateStarting,
		revoke: p.revoke, resizeKick: make(chan struct{}, 1), output: make(chan struct{}), isolation: p.isolation.result(isolationOff),
		cliVersion: p.res.CLIVersion, versionUnread: p.res.VersionUnread}
	size := [2]int{orDefault(cols, pty.DefaultCols), orDefault(rows, pty.DefaultRows)}
	s.size = seatSize{want: size, have: size}
	// Posts go in bracketed-paste markers when the CLI asked for them
	// (TypistOptions.BracketedPaste). s.screen is set below, before the
	// seat is listed, and posts reach the typist only once it is listed.
	s.updated = func() { m.emit(SeatUpdated{Topic: s.Topic, Account: s.Account}) }
	s.asksClosed = func(ids []uint64) { m.closeAsks(s, ids) }
	var typed func()
	if p.adapter.Observed() {
		s.observed = newObserver(m.opts.Now, s.started)
		typed = s.observed.typed
	}
	conf, confirms := p.adapter.(cli.Confirmer)
	confirms = confirms && !m.unconfirmed
	s.typist = NewTypist(proc, TypistOptions{BracketedPaste: func() bool {
		return s.screen != nil && s.screen.BracketedPaste()
	}, OnChange: s.updated, AnswerWait: answerWait,
		Confirm: confirms, ConfirmWait: m.opts.ConfirmWait,
		InComposer: func(text string) Composer { return s.inComposer(conf, text) },
		OnDelivery: func(d Delivery) { m.delivered(s, d) }, OnTyped: typed})
	for _, h := range p.run.Holds() {
		s.typist.Hold(h) // released by the run
	}
	screen, err := terminal.NewScreen(orDefault(cols, pty.DefaultCols), orDefault(rows, pty.DefaultRows), s.typist.Reply)
	if err != nil {
		s.abandon()
		return nil, fmt.Errorf("start seat: screen: %w", err)
	}
	s.screen = screen
	if err := m.ledger.Started(p.claim, SeatRecord{Pid: proc.Pid(), Started: s.started, Argv: l.Argv, Dir: l.Dir}); err != nil {
		m.logger.Warn("ledger", "err", err)
	}
	return s, nil
}

// boundSpawn is m.spawn for plan p: each process started is bound to the
// seat's token (RoomEndpoint.Bind), so it and its descendants are the seat
// on the room socket. A process that cannot be bound is ended: its token
// would be refused anyway, and a seat whose sidecar cannot join is broken.
func (m *Manager) boundSpawn(p *startPlan) func(pty.Options) (pty.Proc, error) {
	return func(o pty.Options) (pty.Proc, error) {
		if o.Isolate == nil {
			o.Isolate = m.isolate(p)
		}
		proc, err := m.spawn(o)
		if err != nil || p.room.Bind == nil || p.revoke == nil {
			return proc, err
		}
		if err := p.room.Bind(p.token, func(pid int) bool { return pty.Holds(proc, pid) }); err != nil {
			_ = proc.Kill()
			_ = proc.Close()
			_, _ = proc.Wait()
			return nil, fmt.Errorf("bind the seat's process to its token: %w", err)
		}
		return proc, nil
	}
}

// abandon undoes a spawned seat that will not run (no goroutine of it has
// started yet): the process tree is ended and reaped, nothing leaks.
func (s *Seat) abandon() {
	_ = s.proc.Kill()
	_ = s.proc.Close()
	_, _ = s.proc.Wait()
	_ = s.typist.Close()
	if s.screen != nil {
		_ = s.screen.Close()
	}
}

// goLive lists the seat and starts its goroutines (seats/doc.go). It fails
// only with ErrManagerClosed, having abandoned the seat.
//
// The seat is listed under m.mu, re-checking closed: a Close that began
// since decide must either see this seat in its list (and stop it) or make
// this Start fail; and the goroutines are counted before Close can wait for
// them.
func (m *Manager) goLive(p *startPlan, s *Seat) error {
	h := seatHandle{m: m, s: s}
	tasks := s.run.Tasks(h)
	goroutines := 3 + len(tasks)
	m.newSeatLimiter(s, p.acct)
	if s.limits != nil {
		goroutines++ // the limit watcher
	}
	if s.observed != nil {
		goroutines++ // the quiet watcher
	}
	key := seatKey{p.topic, p.account}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		s.abandon()
		return ErrManagerClosed
	}
	if ej := m.starting[key]; ej != nil && ej.stopped {
		m.startEnded(key)
		m.mu.Unlock()
		s.abandon()
		return ErrStartStopped
	}
	if err := m.refusedLocked(p.topic, p.account); err != nil {
		// The topic or the account went while this seat started: it never
		// runs where the human no longer sees it (lifecycle.go).
		m.startEnded(key)
		m.mu.Unlock()
		s.abandon()
		return fmt.Errorf("start seat %s: %w", p.acct.DisplayName(), err)
	}
	old := m.seats[key] // an exited seat this one replaces
	m.seats[key] = s
	early := m.startEnded(key)
	// Under m.mu, so no post the room gives the listed seat from now on is
	// queued before those it gave while the seat started.
	early.replay(s.typist)
	m.wg.Add(goroutines)
	// Announced before the seat's goroutines run and before m.mu is free for
	// SidecarJoined, so "starting" precedes "running" and "exited".
	m.emit(SeatChanged{Info: s.info()})
	m.mu.Unlock()
	if old != nil && old.screen != nil {
		_ = old.screen.Close()
	}
	// Recorded once the seat runs: a start that failed before leaves no
	// record of a session that never began.
	if l := p.launch; l.SessionID != "" && !l.Resumed {
		if err := m.opts.Sessions.RecordSession(p.topic, p.account, l.SessionID); err != nil {
			m.notice(p.topic, p.account, true, "could not record the session id of %s: %v", p.acct.DisplayName(), err)
		}
	}
	if early.joined {
		m.SidecarJoined(p.topic, p.account)
	}
	if early.ready {
		m.SidecarReady(p.topic, p.account)
	}
	s.run.Live(h)
	m.goSeat("pump", s, func() { m.pump(s) })
	m.goSeat("wait", s, func() { m.wait(s, p.claim) })
	m.goSeat("resize", s, func() { m.resizer(s) })
	if s.limits != nil {
		m.goSeat("limits", s, func() { m.watchLimits(s) })
	}
	if s.observed != nil {
		m.goSeat("quiet", s, func() { m.watchQuiet(s) })
	}
	for _, t := range tasks {
		m.goSeat(t.Name, s, t.Run)
	}
	m.logger.Info("seat started", "topic", p.topic, "account", p.account, "pid", s.proc.Pid(), "resumed", p.launch.Resumed)
	return nil
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// getenv is the process environment lookup used for transcript locations.
func (m *Manager) getenv(name string) string {
	prefix := name + "="
	env := m.opts.Environ()
	for i := len(env) - 1; i >= 0; i-- {
		if len(env[i]) > len(prefix) && env[i][:len(prefix)] == prefix {
			return env[i][len(prefix):]
		}
	}
	return ""
}

// goSeat runs f in a goroutine owned by the Manager (waited for by Close),
// with a recover so one seat's bug never takes the app down. The caller has
// counted it in m.wg under m.mu (goLive; doc.go).
func (m *Manager) goSeat(what string, s *Seat, f func()) {
	go func() {
		defer m.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				m.logger.Error("seat goroutine panic", "what", what, "topic", s.Topic, "account", s.Account, "panic", r, "stack", string(debug.Stack()))
			}
		}()
		f()
	}()
}

// pump feeds the PTY output into the screen until EOF and signals changes.
// Its forwarder of the screen's changed signal lives exactly as long as it.
func (m *Manager) pump(s *Seat) {
	defer close(s.pumped)
	stop := make(chan struct{})
	fwd := make(chan struct{})
	defer func() {
		close(stop)
		<-fwd
	}()
	go func() {
		defer close(fwd)
		defer func() {
			if r := recover(); r != nil {
				m.logger.Error("seat screen forwarder panic", "topic", s.Topic, "account", s.Account, "panic", r)
			}
		}()
		for {
			select {
			case <-s.screen.Changed():
				m.signal()
			case <-stop:
				return
			}
		}
	}()
	if err := terminal.Pump(outputSignal{s}, s.screen); errors.Is(err, terminal.ErrScreenBroken) {
		// The pane is frozen from here on (its title says so): worth a line.
		m.logger.Warn("seat terminal stopped", "topic", s.Topic, "account", s.Account, "err", err)
	} else if err != nil {
		m.logger.Debug("pump ended", "topic", s.Topic, "account", s.Account, "err", err)
	}
	m.signal()
}

func (m *Manager) signal() { m.changed.Notify() }

// wait reaps the child, frees the ledger and applies the resume rule: a
// resumed seat that exits on its own without ever joining the roster loses
// its record; a seat the user stopped never counts as a failure
// (docs/design.md §9).
//
// Order matters: the exit is announced (SeatChanged) before the ledger
// place is freed, so a restart's "starting" event can never precede the old
// seat's "exited" one; the place is freed before done closes, so Stop
// followed at once by Start finds it free.
func (m *Manager) wait(s *Seat, claim Claim) {
	code, err := s.proc.Wait()
	signal := s.proc.Signaled()
	// Let the reader take the child's last output before the PTY closes
	// (bounded, see outputDrain). Closing is still needed: on Windows the
	// ConPTY output never ends by itself, and on Unix it hangs up whatever
	// the child left on the terminal.
	select {
	case <-s.pumped:
	case <-time.After(outputDrain):
	}
	s.ptyMu.Lock() // a resize under way ends first; none starts after
	s.ptyClosed = true
	s.ptyMu.Unlock()
	_ = s.proc.Close()
	s.run.Ended()             // what the kind runs beside the seat ends with it
	queue := s.typist.State() // what Close drops: posts held or not typed yet
	_ = s.typist.Close()
	if s.revoke != nil {
		s.revoke() // the token dies with its seat (idempotent)
	}

	s.mu.Lock()
	joined, requested := s.joined, s.requested
	s.state, s.exitCode, s.err = StateExited, code, exitErr(code, signal, err, requested)
	asks := s.perm.OpenAsks()
	s.mu.Unlock()
	m.closeAsks(s, asks) // no dialog is left to answer

	if s.launch.Resumed && !joined && !requested {
		if dropped, derr := m.opts.Sessions.DropSessionIf(s.Topic, s.Account, s.launch.SessionID); derr != nil {
			m.notice(s.Topic, s.Account, true, "resumed session %s exited before joining the room, and its record could not be dropped: %v", s.launch.SessionID, derr)
		} else if dropped {
			m.notice(s.Topic, s.Account, true, "resumed session %s exited before joining the room; its record was dropped (the next start is fresh)", s.launch.SessionID)
		}
	}
	if joined && queue.Queued == 0 && !queue.Typing && (requested || code == 0) {
		// Every post reached it: a seat that never joined got none, one
		// whose queue still held posts (a permission prompt open, unsent
		// keys of the human) or that crashed mid-turn may have lost some.
		// Without a new mark the last one stands, and its next resume is
		// told of everything since.
		m.recordSeen(s)
	}
	// The seat's .mcp.json entry points at this seat's room only while it
	// runs: leave nothing stale for someone opening the directory later (the
	// next start registers it again).
	m.unregister(m.kinds[s.kind], s.launch)
	m.emit(SeatChanged{Info: s.info()})
	m.ledger.Release(claim)
	close(s.done)
	m.logger.Info("seat exited", "topic", s.Topic, "account", s.Account, "code", code, "requested", requested)
}

// unregister removes l's .mcp.json entry (launch.Prepare registered it for
// kinds that read the file): at the seat's exit, and when its start fails
// after the line was prepared, so no entry is left pointing at a room for
// a seat that does not run there.
func (m *Manager) unregister(k cli.Adapter, l launch.Launch) {
	if k == nil || !k.ReadsMCPJSON() || l.MCPKey == "" || l.Dir == "" {
		return
	}
	if err := launch.Unregister(l.Dir, l.MCPKey, l.MCPCreated); err != nil {
		m.logger.Warn("unregister .mcp.json entry", "dir", l.Dir, "key", l.MCPKey, "err", err)
	}
}

// recordSeen notes how far the topic's log went while s ran (every post
// was typed into it: wait asks first), so its next resume is told of the posts made after
// (UnseenHistory). A deleted topic or a closed store keeps no mark.
func (m *Manager) recordSeen(s *Seat) {
	size, err := m.opts.Sessions.LogSize(s.Topic)
	if err == nil {
		err = m.opts.Sessions.RecordSeen(s.Topic, s.Account, size)
	}
	if err != nil {
		m.logger.Debug("record seen", "topic", s.Topic, "account", s.Account, "err", err)
	}
}

// Stop stops the seat on the user's request (never a failure, docs/design.md
// §9) and waits until its process is reaped (bounded by Proc.Kill's
// escalation).
func (m *Manager) Stop(topicID, accountID string) error {
	// A start under way (an app-server seat's takes seconds) is told to
	// give up: it undoes itself instead of going live.
	starting := m.stopStarting(seatKey{topicID, accountID})
	s, ok := m.Seat(topicID, accountID)
	if !ok {
		if starting {
			return nil
		}
		return fmt.Errorf("stop seat %s in %s: %w", accountID, topicID, ErrNoSeat)
	}
	s.mu.Lock()
	if s.state == StateExited {
		s.mu.Unlock()
		return nil
	}
	s.requested = true
	s.mu.Unlock()
	if err := s.proc.Kill(); err != nil {
		m.logger.Debug("kill", "err", err)
	}
	<-s.done
	return nil
}

// StopTopic stops every seat of topicID (topic delete) and returns the
// accounts that were running.
func (m *Manager) StopTopic(topicID string) []string {
	var accts []string
	for _, in := range m.Seats(topicID) {
		if in.State == StateExited {
			continue
		}
		accts = append(accts, in.Account)
		_ = m.Stop(topicID, in.Account)
	}
	return accts
}

// Forget drops an exited seat's screen (e.g. the topic was deleted).
func (m *Manager) Forget(topicID, accountID string) {
	m.mu.Lock()
	s, ok := m.seats[seatKey{topicID, accountID}]
	if ok && s.State() == StateExited {
		delete(m.seats, seatKey{topicID, accountID})
	}
	m.mu.Unlock()
	if ok && s.State() == StateExited {
		_ = s.screen.Close()
	}
}

// Seat returns the seat of (topic, account), running or exited.
func (m *Manager) Seat(topicID, accountID string) (*Seat, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.seats[seatKey{topicID, accountID}]
	return s, ok
}

// Seats lists topicID's seats ("" = every topic), running or exited.
func (m *Manager) Seats(topicID string) []SeatInfo {
	m.mu.Lock()
	list := make([]*Seat, 0, len(m.seats))
	for k, s := range m.seats {
		if topicID == "" || k.topic == topicID {
			list = append(list, s)
		}
	}
	m.mu.Unlock()
	out := make([]SeatInfo, 0, len(list))
	for _, s := range list {
		in := s.info()
		// A launch shows the figures of the one before until it reports
		// its own (usagebook.go), dated.
		m.usage.fill(seatKey{in.Topic, in.Account}, in.Started, &in.Usage)
		out = append(out, in)
	}
	slices.SortFunc(out, func(a, b SeatInfo) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return cmpString(a.Account, b.Account)
	})
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Running reports whether accountID has a live seat in any topic.
func (m *Manager) Running(accountID string) bool {
	for _, in := range m.Seats("") {
		if in.Account == accountID && in.State != StateExited {
			return true
		}
	}
	return false
}

// Close stops every seat (quit), waits for their goroutines and closes Events.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	for _, ej := range m.starting {
		if ej.cancel != nil {
			ej.cancel() // a start under way gives up; goLive refuses it anyway
		}
	}
	list := make([]*Seat, 0, len(m.seats))
	for _, s := range m.seats {
		list = append(list, s)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = m.Stop(s.Topic, s.Account)
		}()
	}
	wg.Wait()
	m.wg.Wait()
	for _, s := range list {
		_ = s.screen.Close()
	}
	m.events.Close()
	m.changed.Close()
}

func (m *Manager) emit(e Event) { m.events.Publish(e) }

// Restarting tells the UIs that the seat's restart begins (SeatRestart):
// called before the stop, so its exit reads as the restart's.
func (m *Manager) Restarting(topicID, accountID string) {
	m.emit(SeatRestart{Topic: topicID, Account: accountID})
}

// Restarted tells the UIs that the seat's restart ended: back (err nil) or
// why not.
func (m *Manager) Restarted(topicID, accountID string, err error) {
	m.emit(SeatRestart{Topic: topicID, Account: accountID, Done: true, Err: err})
}

func (m *Manager) notice(topic, account string, isErr bool, format string, args ...any) {
	m.emit(SeatNotice{Topic: topic, Account: account, Error: isErr, Text: fmt.Sprintf(format, args...)})
}

// --- room.Terminals ---

var _ room.Terminals = (*Manager)(nil)

// Enqueue queues p for the seat of (topic, account) and never blocks
// (docs/design.md §5). False when that account has no running seat there.
func (m *Manager) Enqueue(topicID, accountID string, p room.Post) bool {
	key := seatKey{topicID, accountID}
	m.mu.Lock()
	if ej := m.starting[key]; ej != nil && !ej.stopped {
		// Its sidecar joined before the seat is listed: held, typed once
		// it is (lifecycle.go earlyJoin.held). A restart's exited seat
		// may still be listed: the new one takes the post.
		ej.hold(p)
		m.mu.Unlock()
		return true
	}
	s, ok := m.seats[key]
	m.mu.Unlock()
	if !ok || s.State() == StateExited {
		return false
	}
	s.typist.Enqueue(p)
	return true
}

// SidecarJoined marks the seat as having joined the roster (the resume rule
// reads it) and starts the typing queue's ready fallback.
func (m *Manager) SidecarJoined(topicID, accountID string) {
	if m.earlySidecar(seatKey{topicID, accountID}, false) {
		return
	}
	s, ok := m.Seat(topicID, accountID)
	if !ok {
		return
	}
	s.mu.Lock()
	first := !s.joined
	s.joined = true
	if s.state == StateStarting {
		s.state = StateRunning
	}
	s.mu.Unlock()
	s.typist.Joined()
	if first {
		m.emit(SeatChanged{Info: s.info()})
	}
}

// SidecarReady releases the seat's typing queue: its CLI has the room tools.
func (m *Manager) SidecarReady(topicID, accountID string) {
	if m.earlySidecar(seatKey{topicID, accountID}, true) {
		return
	}
	if s, ok := m.Seat(topicID, accountID); ok {
		s.typist.Ready()
	}
}

// --- Seat ---

// State is the seat's life stage.
func (s *Seat) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

func (s *Seat) info() SeatInfo {
	var observed cli.Activity
	if s.observed != nil {
		observed = s.observed.activity() // a leaf lock, taken alone
	}
	s.mu.Lock()
	in := SeatInfo{Topic: s.Topic, Account: s.Account, Kind: s.kind, State: s.state, Pid: s.proc.Pid(),
		Started: s.started, Argv: s.launch.Argv, Dir: s.launch.Dir, ExitCode: s.exitCode,
		Requested: s.requested, Err: s.err, SessionID: s.launch.SessionID, PtyID: s.ptyID,
		Activity: s.activity, Usage: s.usage, Warnings: s.launch.Warnings, Limit: s.limit, MayNotJoin: !s.joins,
		Isolation: s.isolation, CLIVersion: s.cliVersion, VersionUnread: s.versionUnread, Size: s.size.have}
	if s.launch.Server != nil {
		in.Remote = remoteOf(s.launch.Argv)
	}
	s.mu.Unlock()
	if s.observed != nil {
		// Its CLI reports nothing: its terminal says what it does.
		in.Activity = observed
	}
	in.Typing = s.typist.State() // the Typist's lock is a leaf: taken after s.mu is free
	return in
}

// remoteOf is the word after --remote in a terminal's line ("" when
// there is none).
func remoteOf(argv []string) string {
	if i := slices.Index(argv, "--remote"); i >= 0 && i+1 < len(argv) {
		return argv[i+1]
	}
	return ""
}

// Screen is the seat's terminal emulator.
func (s *Seat) Screen() *terminal.Screen { return s.screen }

// SessionID is the seat's session id ("" while a fresh Codex seat has none).
func (s *Seat) SessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.launch.SessionID
}

// Done is closed once the seat's process has exited and been reaped.
func (s *Seat) Done() <-chan struct{} { return s.done }

// Input hands the human's key bytes to the seat's writer; the unsent-input
// tracker sees them, except keys typed while the seat shows a permission
// dialog, which go to the dialog (docs/design.md §5). Never blocks.
func (s *Seat) Input(b []byte) error {
	if s.State() == StateExited {
		return ErrNoSeat
	}
	toDialog, changed, closed := s.keysToDialog(b, time.Now())
	if s.asksClosed != nil && len(closed) > 0 {
		s.asksClosed(closed) // answered here: the room's cards close
	}
	if !toDialog {
		s.typist.Human(b)
		return nil
	}
	s.typist.Answer(b)
	if changed && s.updated != nil {
		s.updated()
	}
	return nil
}

// Resize asks for cols×rows cells. The PTY and the emulator take the size
// together once it has held for ResizeQuiet (a burst of resizes is one
// TIOCSWINSZ, the last size wins), or at the child's first output
// (docs/design.md §5 "Resize"). An exited seat's screen takes it at once.
func (s *Seat) Resize(cols, rows int) error {
	if err := pty.CheckSize(cols, rows); err != nil {
		return err
	}
	s.mu.Lock()
	s.size.want = [2]int{cols, rows} // also when exited: the resizer's last act reads it
	exited := s.state == StateExited
	s.mu.Unlock()
	if exited {
		return s.screen.Resize(cols, rows)
	}
	select {
	case s.resizeKick <- struct{}{}:
	default: // one kick pending already reads the newest size
	}
	return nil
}

// previewSessionID stands in for the fresh session id a launch will make.
const previewSessionID = "<new-session-id>"

// previewTopic and previewAccount stand in for a topic and for an account
// not saved yet: a preview is of no seat in particular.
const (
	previewTopic   = "topic"
	previewAccount = "new-account"
)

// Preview returns the exact line account a would run (docs/design.md §9:
// the editor shows it wrapped, never truncated) and the reasons a value will
// be dropped or the launch refused. Env values and the token never appear
// in it; the session id is a placeholder. It reads the working directory's
// .mcp.json, as the launch will, and writes nothing.
func (m *Manager) Preview(a config.Account) (line string, problems []string) {
	if a.ID == "" {
		a.ID = previewAccount
	}
	m.mu.Lock()
	ep := m.room
	m.mu.Unlock()
	in := launch.Input{Account: a, TopicID: previewTopic, PullceptPath: m.opts.PullceptPath,
		RoomURL: ep.URL, HooksURL: ep.HooksURL, CommandPath: launch.ResolveCommand(a.Command), Getenv: m.getenv,
		NewID: func() (string, error) { return previewSessionID, nil }}
	ad := m.kinds[a.Kind] // nil for a kind that does not launch: launch.Build says so
	if ad != nil && ad.ReadsMCPJSON() && a.WorkDir != "" {
		if st, err := launch.InspectMCPJSON(a.WorkDir, launch.MCPKey(a.ID, in.TopicID), in.RoomURL); err == nil {
			in.MCPJSON = &st
		}
	}
	l, err := launch.Build(in, ad)
	if err != nil {
		return "", []string{err.Error()}
	}
	return l.Preview, slices.Concat(l.Warnings, character.PreviewWarnings(a, m.getenv), m.previewIsolation(a))
}
