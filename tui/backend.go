package tui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/pullcept/pullcept/room"
)

// Backend is everything one UI asks of the domain (docs/design.md §10). The
// app package satisfies it with thin adapters over room.Hub, logstore.Store,
// config.Book and the seat Manager; each UI gets its own Backend (its own
// event subscriptions), so several UIs can share one domain.
//
// The seam is shaped so it could be served over a socket later: calls take
// and return plain data (strings, numbers, room's wire types such as
// room.Post and room.Member, this package's structs), events are plain
// values with errors as text, and nothing hands the UI a channel, a lock or
// a pointer into domain state (values are copies the UI may keep).
//
// The UI calls every method from a tea.Cmd, never from Update, so a method
// may block on a lock or on disk; none may block forever, except the two
// waits of Events, which return when the backend closes.
type Backend interface {
	Rooms
	TopicStore
	PostSearch
	SeatControl
	AccountStore
	AccountFiles
	Attachments
	Settings
	Permissions
	Attention
	Events
}

// Events is how the domain reaches the UI (bridge.go runs one wait of each
// at a time, in a tea.Cmd).
type Events interface {
	// NextEvents blocks until at least one event is queued for this UI and
	// returns up to max of them in order: must-deliver. If the UI fell so far
	// behind that its queue was cut off (room/pubsub), the batch holds
	// Resynced, and the UI reloads what it shows. ok is false once the
	// backend closed: no event follows.
	NextEvents(max int) (evs []Event, ok bool)
	// WaitScreens blocks until some seat's screen changed since generation
	// seen (0 at first) and returns the new generation: coalesced, the UI
	// then snapshots the panes it shows. ok is false once the backend closed.
	WaitScreens(seen uint64) (gen uint64, ok bool)
}

// Rooms is the part of room.Hub the UI uses (docs/design.md §2, §6, §8).
type Rooms interface {
	// Post delivers the admin's draft into topicID's room through Deliver.
	// A floor rejection is Result.Delivered == false with Result.Missed set;
	// room.ErrOnlyMentions and room.ErrEmptyPost are refusals (nothing sent).
	Post(topicID string, d room.Draft) (room.Result, error)
	// History returns up to limit posts older than message_id before
	// ("" = the newest), oldest first, and whether older ones exist.
	History(topicID, before string, limit int) ([]room.Post, bool, error)
	// Roster returns the connections sitting in topicID's room.
	Roster(topicID string) ([]room.Member, error)
	// OpenRoom makes sure topicID has a live room (the UI joins it as admin).
	OpenRoom(topicID string) error
	// CloseRoom drops topicID's room; the UI only closes a topic it leaves
	// that was never indexed and has no seats.
	CloseRoom(topicID string)
	// ReleaseBrake releases topicID's brake on AI-to-AI loops, as the
	// human's next post would (docs/design.md §2 "The brake"): AI posts are
	// typed into its seats again from the next one on. BrakeChanged follows.
	ReleaseBrake(topicID string) error
	// RoomSocket says where the seats reach the room and whether it answers
	// there now (it dials it: call it from a command).
	RoomSocket() RoomSocket
}

// RoomSocket is the room's own address as the seats' details show it
// (spec «参加者パネル» 部屋ソケット): Address is the room socket (a named
// pipe on Windows; the room's URL when it has none), Err why nothing
// answered there ("" when it listens).
type RoomSocket struct {
	Address string
	Err     string
}

// TopicInfo is one topic as the topic list shows it (docs/design.md §8).
// LastActivity is the newest post time (or creation time); Running is true
// when any seat runs or starts in it; Indexed is false for a topic that has
// no log file nor index entry yet (lazy creation); Braked is true while its
// room types no AI post into its seats (docs/design.md §2 "The brake").
type TopicInfo struct {
	ID           string
	Name         string
	LastActivity time.Time
	Running      bool
	Indexed      bool
	Braked       bool
}

// TopicStore lists, creates, renames and deletes topics (docs/design.md §8).
type TopicStore interface {
	// Topics returns every indexed topic in any order.
	Topics() ([]TopicInfo, error)
	// NewTopic returns the id of a fresh, not-yet-indexed topic.
	NewTopic() (string, error)
	// RenameTopic sets a topic's name in the index.
	RenameTopic(topicID, name string) error
	// DeleteTopic stops the topic's seats, deletes its log, attachments and
	// index entry, and drops its room (docs/design.md §8 "Delete").
	DeleteTopic(topicID string) error
	// RememberTopic records topicID as the topic open last, which the next
	// start opens (Options.LastTopic).
	RememberTopic(topicID string) error
}

// PostHit is one post a message search found: where it is (Topic, and
// in its log Next, the message_id of the post after it, "" for the newest,
// and After, how many posts follow it) and a line of its body around the
// first match, cut into the text before it, the match and the text after.
type PostHit struct {
	Topic     string
	MessageID string
	Speaker   string
	TS        string
	Before    string
	Match     string
	After     string
	Next      string
	Later     int
}

// PostSearch searches the posts of every topic (docs/design.md §10 "Find").
type PostSearch interface {
	// SearchPosts returns up to limit posts whose body holds query,
	// literally, ignoring case unless query holds an upper-case letter:
	// the topics written last first, the newest posts first in each. more
	// is true when it stopped at limit. It returns ctx's error soon after
	// ctx ends.
	SearchPosts(ctx context.Context, query string, limit int) (hits []PostHit, more bool, err error)
}

// SeatState is a seat's life stage as the participant panel shows it.
type SeatState int

// Seat states (spec «参加者パネル»: 未起動 / 起動中 / 終了 / 起動失敗).
const (
	SeatOffline SeatState = iota
	SeatStarting
	SeatRunning
	SeatExited
	SeatFailed
)

// SeatInfo describes one seat (topic, account) as the participant panel and
// the panes need it. The five usage fields are "unknown" while nil or empty
// (shown as "—", never 0%); percentages are 0–100 and may exceed 100.
type SeatInfo struct {
	Topic   string
	Account string
	State   SeatState
	// Resumable: an offline seat that ran when Pullcept last ended (a
	// crash, a reboot); the start key resumes its conversation, the stop
	// key stops offering it. Started is when it had started.
	Resumable bool
	ExitCode  int
	Model     string
	Effort    string
	FiveHour  *float64
	Weekly    *float64
	Context   *float64
	// FiveHourResets and WeeklyResets are when the plan's windows start
	// over (zero: unknown); UsageAt is when the usage figures arrived (zero:
	// none yet). After the seat's exit they are the last known.
	FiveHourResets time.Time
	WeeklyResets   time.Time
	UsageAt        time.Time
	// FiveHourAt, WeeklyAt and ContextAt are when each figure arrived
	// (zero: not known). One that arrived before Started is a launch
	// before's, kept until this one reports it: shown as the last known.
	FiveHourAt, WeeklyAt, ContextAt time.Time
	// Err is the reason of a failed launch or of an unrequested exit.
	Err string
	// Requested is true for an exited seat the user (or a topic delete, or
	// quit) stopped; Signal is the signal that ended one nobody asked to
	// stop, 0 otherwise. The pane says "stopped", "killed by signal 9" or
	// "exited 3" from them (docs/design.md §10).
	Requested bool
	Signal    int
	// Activity is what the seat's CLI last reported doing.
	Activity Activity
	// Limited: the seat stopped on its plan's usage limit, as its own
	// record says (never inferred from the percentages); LimitResets is
	// when the limit is said to lift (zero: unknown); LookAtTerminal: a
	// resume prompt went unanswered.
	Limited        bool
	LimitResets    time.Time
	LookAtTerminal bool
	// SessionID is the conversation id the topic's index records for the
	// account (spec «参加者パネル» #139): what a manual resume takes; never
	// the launch's own id, and "" when none is recorded.
	SessionID string
	// Command is the line the seat runs (no env values, no token), Dir its
	// working directory, Started when it started.
	Command string
	Dir     string
	Started time.Time
	// Cols and Rows are the window its CLI sees, its PTY's size (0:
	// unknown); Remote is where an app-server seat's terminal reaches its
	// server ("" for a CLI that runs alone in its PTY).
	Cols, Rows int
	Remote     string
	// Held counts room posts waiting to be typed into the seat; HeldFor says
	// why (the first reason that applies).
	Held    int
	HeldFor HoldReason
	// Folded counts room posts not typed into the seat because its queue
	// was full (docs/design.md §5 "The queue"); the seat was told how many.
	Folded int
	// Warnings are the launch's, as StartSeat returned them.
	Warnings []string
	// VersionUnread says why the CLI's version could not be read before
	// the seat started (SeatStart.VersionUnread; "" when it was).
	VersionUnread string
	// NotIsolated is why the seat's processes are not separated from the
	// other seats' and Pullcept's (docs/design.md §16); "" when they are.
	// Isolated: they run in namespaces of their own (the details say so).
	NotIsolated string
	Isolated    bool
	// Delivery (docs/design.md §5): Confirming is true for a seat whose CLI
	// confirms each post typed into it; the fields below are kept only then.
	Confirming bool
	// Pending is the message id of the post typed and not confirmed yet
	// ("" none); Stuck the one the CLI did not take in time, which holds the
	// queue until the human submits or clears the seat's input line.
	Pending string
	Stuck   string
	// Confirmed is the newest post the CLI took (its message id), and when.
	Confirmed   string
	ConfirmedAt time.Time
	// Unconfirmed are the posts the CLI never took, oldest first: the chat
	// marks them.
	Unconfirmed []string
	// Fused counts submits that held more than one post typed into it.
	Fused int
}

// ActivityKind is the stage of a seat's turn as its CLI reports it.
type ActivityKind int

// Activity kinds (spec «走っているアカウントが何をしているか»): Unknown
// until the CLI reported anything. A seat whose CLI reports nothing (a
// generic CLI) is Output while its terminal gets output and Idle after a
// second without any (read off its terminal; Unknown for its first
// second).
const (
	ActivityUnknown ActivityKind = iota
	ActivityThinking
	ActivityTool
	ActivityPermission
	ActivityIdle
	ActivityOutput
)

// Activity is a seat's last reported activity: Tool names the tool running
// or waiting for permission, Subagents counts running subagents, Since is
// when Kind began (for idle: when the turn ended).
type Activity struct {
	Kind      ActivityKind
	Tool      string
	Subagents int
	Since     time.Time
}

// HoldReason is why room posts wait before a seat's terminal.
type HoldReason int

// Hold reasons, in the order they are checked.
const (
	HoldNone       HoldReason = iota
	HoldNotReady              // its sidecar has not listed the room tools yet
	HoldPermission            // its CLI waits for a permission answer
	HoldAnswered              // answered in the pane; waits for the CLI to go on
	HoldUnsent                // the human has unsent text in its terminal
	HoldStuck                 // it did not take the last post; the queue waits for the human
	HoldConfirm               // waits for it to take the last post typed
	HoldTurn                  // waits for its turn to end
)

// SeatStart is what StartSeat reports about a launch: whether the seat
// resumed a recorded session, and a resume record it had to drop (its id),
// both shown on the status line (docs/design.md §9).
type SeatStart struct {
	Resumed   bool
	SessionID string
	Dropped   string
	// Warnings are the launch's: values it dropped, a room key the seat's
	// directory disabled (then it can never join) …
	Warnings []string
	// VersionUnread says why the CLI's version could not be read before
	// the start ("" when it was, or its kind needs none): the seat started
	// without the check (CLITooOldError).
	VersionUnread string
}

// CLITooOldError is a start refused because the seat's CLI is older than
// its launch line needs (docs/clis.md §6): CLI is its name
// ("Claude Code"), Have the version installed at Path, Need the oldest
// that works, Uses what the line uses that needs it (code words).
type CLITooOldError struct {
	CLI, Path, Have, Need, Uses string
}

func (e *CLITooOldError) Error() string {
	return e.CLI + " " + e.Have + " (" + e.Path + ") is too old: its launch line needs " + e.Need + " or newer (" + e.Uses + ")"
}

// PaneSnapshot is one seat terminal's visible screen (docs/design.md §10). Rows are
// rendered ANSI rows, each exactly Cols cells wide (the emulator's width
// when the snapshot was taken; 0 = unknown, then the UI measures every row,
// which costs ~1 ms per 4×120×40 frame instead of nothing); CursorX/Y are
// 0-based cells within Rows (CursorVisible false: the program hid it, and
// it is still where the program parked it). Version grows whenever the
// screen changed, so the UI re-renders a pane only when it moved.
// BracketedPaste and AppCursorKeys are the modes the seat's program asked
// for (?2004, DECCKM); Mouse the mouse reports it asked for.
type PaneSnapshot struct {
	Rows           []string
	Cols           int
	CursorX        int
	CursorY        int
	CursorVisible  bool
	Version        uint64
	Title          string
	BracketedPaste bool
	AppCursorKeys  bool
	Mouse          PaneMouse
	Broken         string // why the emulator stopped on the seat's output ("" while it runs): the pane is frozen
	// AltScreen: the seat's program draws on the alternate screen (Claude
	// Code does), which keeps no scrollback.
	AltScreen bool
}

// MouseTracking is which mouse events a seat's program asked its terminal
// to report (xterm's DECSET 9, 1000, 1002, 1003), each value reporting what
// the one before it does and more.
type MouseTracking int

// Mouse tracking modes, none first.
const (
	MouseOff          MouseTracking = iota
	MouseX10                        // ?9: button presses only, no modifiers
	MouseNormal                     // ?1000: presses, releases and the wheel
	MouseButtonMotion               // ?1002: and motion while a button is down
	MouseAnyMotion                  // ?1003: and every motion
)

// PaneMouse is a seat's mouse reporting: what to report, and whether in SGR
// encoding (?1006) rather than the legacy bytes. The UI forwards the human's
// mouse into a pane only while Tracking is not MouseOff (docs/design.md §10).
type PaneMouse struct {
	Tracking MouseTracking
	SGR      bool
}

// SeatControl starts, stops and talks to seats (docs/design.md §5, §9, §10).
type SeatControl interface {
	// Seats returns the seats of topicID that are starting, running or kept
	// after an exit (their output still readable), then offline ones: those
	// a crash left (Resumable) and every account with a session the topic
	// records (SessionID), so the id can be read after a restart (#144).
	Seats(topicID string) []SeatInfo
	// StartSeat launches accountID in topicID with a PTY of cols×rows cells.
	StartSeat(topicID, accountID string, cols, rows int) (SeatStart, error)
	// StopSeat stops the seat on the user's request (never a failure).
	StopSeat(topicID, accountID string) error
	// Snapshot returns the seat's current screen; ok is false when it has none.
	Snapshot(topicID, accountID string) (snap PaneSnapshot, ok bool)
	// Scrollback returns the lines scrolled off the top, oldest first, as
	// rendered ANSI rows.
	Scrollback(topicID, accountID string) []string
	// SendInput hands the human's key bytes to the seat's writer (and its
	// unsent-input tracker, docs/design.md §5).
	SendInput(topicID, accountID string, b []byte) error
	// Resize sets the seat's PTY and emulator size in cells.
	Resize(topicID, accountID string, cols, rows int) error
	// ForgetSeat drops an exited seat and its screen (its pane closes, its
	// account shows offline again); a seat that runs or starts is left
	// alone.
	ForgetSeat(topicID, accountID string)
	// QuitOutlook lists every seat that runs or starts, in every topic, with
	// what its next start in that topic would do with its conversation
	// (docs/design.md §9): the quit dialog says which seats resume.
	QuitOutlook() []SeatOutlook
}

// SeatOutlook is a running seat and what starting it again in its topic
// would do, as the resume rule judges it now.
type SeatOutlook struct {
	Topic   string
	Account string
	Next    NextStart
}

// NextStart is a seat's next start: its conversation resumes, or it starts
// fresh for the reason given.
type NextStart int

// Next starts (docs/design.md §9 "Resume").
const (
	NextFreshNoSession    NextStart = iota // nothing recorded yet
	NextResumes                            // the recorded conversation resumes
	NextFreshNoResumeLine                  // a generic CLI without a resume line
	NextFreshGone                          // the recorded conversation is not on disk
)

// AccountInfo is one account with every field the editor shows (docs/design.md §9).
// Env is the env field as the editor holds it: the `NAME=<mask>` rows
// AccountEnv drew, some perhaps retyped (Accounts leaves it empty: values
// are opened only when an editor asks). KeepEnv tells SaveAccount to keep
// the stored variables as they are and not read Env: the field was not
// drawn (still loading, or it failed) or not changed. Hue is in degrees
// 0–359, nil when none was declared. AppServer is a Codex CLI account's
// seat mode: one app-server per seat with the real TUI attached (true, the
// default) or hook mode (false, compatibility); false for other kinds.
// PermissionMode is a Claude Code account's mode (PermissionModes; "" the
// CLI's own).
type AccountInfo struct {
	ID         string
	Kind       string
	Name       string
	Nickname   string
	Hue        *int
	Dir        string
	Command    string
	Options    string
	ResumeLine string
	Character  string
	Env        string
	KeepEnv    bool
	AppServer  bool

	PermissionMode string
}

// EnvField is an account's env field as the editor draws it (AccountEnv):
// one `NAME=<mask>` row per variable, values never whole. Unreadable names
// the variables whose values cannot be opened (drawn with a marker; left
// as they are they are kept, and a seat of the account is refused).
type EnvField struct {
	Text       string
	Unreadable []string
}

// Account kinds (docs/design.md §0).
const (
	KindAdmin      = "admin"
	KindClaudeCode = "claude_code"
	KindCodexCLI   = "codex_cli"
	KindCLI        = "cli"
	KindMCP        = "mcp"
)

// AccountStore reads and writes accounts and previews launch lines (docs/design.md §9).
type AccountStore interface {
	// Accounts returns every configured account.
	Accounts() ([]AccountInfo, error)
	// AccountEnv draws the env field of account id (opening its values,
	// which may take a keyring's time). An error means the field cannot be
	// drawn: the editor keeps it read-only and a save keeps the variables.
	AccountEnv(id string) (EnvField, error)
	// SaveAccount creates (ID == "") or updates an account and returns it as
	// stored (with its id). Validation failures are returned as errors.
	SaveAccount(a AccountInfo) (AccountInfo, error)
	// DeleteAccount removes an account from config.json.
	DeleteAccount(id string) error
	// Preview returns the exact launch line the account would run (env values
	// never included) and the reasons a value will be dropped or a launch
	// refused.
	Preview(a AccountInfo) (line string, problems []string)
	// LookPath reports whether command is found on PATH and where.
	LookPath(command string) (path string, ok bool)
	// StartDir is the folder a new account's working directory is prefilled
	// with: where Pullcept was started (a project, as a CLI is started in
	// one), else the home directory.
	StartDir() string
}

// Desktop is the desktop notifications of the machine the app runs on
// (docs/notifications.md "Desktop"): in a served UI the server's machine,
// which is the human's only when they are not remote. The terminal's own
// ring needs no backend: it is bytes on the UI's output (notify_term.go).
//
// It is not part of Backend: the UI asks for it with a type assertion
// and rings only the terminal when the backend lacks it.
type Desktop interface {
	// DesktopNotify shows title and body (cleaned and capped by the
	// backend) and returns within a few seconds; an error says it was
	// not shown. Call it from a command.
	DesktopNotify(title, body string) error
	// DesktopHere reports whether a desktop notification would reach
	// the human of this UI: false when they came over ssh, or on a
	// Linux without a desktop session.
	DesktopHere() bool
}

// MCPServers is the local MCP servers the app runs (spec «ローカル MCP
// サーバ»): each is an mcp account, whose entry in mcp-servers.json says
// what runs (command, args, env) while the account says who speaks. The
// account editor shows an mcp account's server: its state, a restart, its
// fields and its stderr log. The fields are text as typed; the backend
// reads them (args one per line, never split; env NAME=value per line,
// split at the first "=", one pair of quotes around a whole value taken
// off) and refuses what it cannot read with the line at fault.
//
// It is not part of Backend yet: the UI asks for it with a type assertion
// (mcpServersOf) and shows no server section when the backend lacks it.
type MCPServers interface {
	// MCPServer returns the server of mcp account accountID: its entry
	// and its state in this app run.
	MCPServer(accountID string) (MCPServerInfo, error)
	// MCPServerLog returns the server's stderr and the app's own lines
	// about it, oldest first (the last 1000, kept across restarts).
	MCPServerLog(accountID string) []LogLine
	// SaveMCPServer writes command, args and env into the account's entry
	// (the entry's other keys, the other entries and the file's other keys
	// stay as written); a running server keeps running as it started. A
	// refusal that names lines is a *MCPServerRefused; nothing is written
	// then.
	SaveMCPServer(accountID, command, args, env string) error
	// RestartMCPServer ends the server's run and starts it again from the
	// file (never from unsaved fields); a server whose entry is gone is
	// only stopped. MCPServerChanged follows each change of its state.
	RestartMCPServer(accountID string) error
	// CreateMCPAccount makes a new mcp account: it writes a new entry with
	// command, args and env (named from a.Name), then saves a as the
	// entry's account, then starts the server, and returns the account as
	// stored. a.ID is "" for a new account, or an existing account's id
	// whose kind the editor changed to mcp. A refusal of the fields is a
	// *MCPServerRefused and nothing is written; a server that then fails
	// to start leaves the account made (its editor shows why).
	CreateMCPAccount(a AccountInfo, command, args, env string) (AccountInfo, error)
}

// MCPServerState is a local MCP server's life in this app run.
type MCPServerState int

// MCP server states (spec: 未起動 / 起動中 / 実行中 / 終了 / 失敗 / 停止).
const (
	MCPNotStarted MCPServerState = iota // not started in this run
	MCPStarting                         // waiting for its initialize answer
	MCPRunning
	MCPExited  // it ran, then its process ended (ExitCode, Reason)
	MCPFailed  // it never got to run (Reason)
	MCPStopped // its entry left the file and it was stopped
)

// MCPServerInfo is one mcp account's server: its entry as the file has it
// now (Registered false: the file no longer has the entry; the account
// stays as the speaker of what it said), and its state. Args holds one
// argument per line, Env one NAME=value per line, values as written.
// Stale: the entry changed since the running server started from it (a
// restart applies it). File is mcp-servers.json's path. Warnings are what
// the editor should say about the entry as drawn (an argument the args
// field cannot hold as written: empty, with a line break or end spaces).
type MCPServerInfo struct {
	Entry      string
	Registered bool
	Command    string
	Args       string
	Env        string
	State      MCPServerState
	ExitCode   int
	Reason     string
	Stale      bool
	File       string
	Warnings   []string
}

// LogLine is one line of a server's log and when it arrived.
type LogLine struct {
	At   time.Time
	Text string
}

// Field names of an MCPServerRefused problem.
const (
	FieldServerCommand = "server_command"
	FieldServerArgs    = "server_args"
	FieldServerEnv     = "server_env"
)

// MCPServerRefused is a refusal of a server's fields: each problem names
// its field (FieldServer…) and, for args and env, its 1-based line.
type MCPServerRefused struct {
	Problems []FieldProblem
}

func (e *MCPServerRefused) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(strings.TrimPrefix(p.Field, "server_"))
		if p.Line > 0 {
			b.WriteString(" line " + strconv.Itoa(p.Line))
		}
		b.WriteString(": " + p.Text)
	}
	return b.String()
}

// Event is what NextEvents carries: PostDelivered, LogFailed,
// RosterChanged, BrakeChanged, PermissionAsked, PermissionClosed (the
// room's), SeatChanged (a seat's life), SeatUpdated, LinesSkipped, Notice
// (the app's), MCPServerChanged, and Resynced.
type Event interface{ event() }

// PostDelivered: a post went through the room of Topic (docs/design.md §2).
// Seq is the room's order (1, 2, …) for this app run.
type PostDelivered struct {
	Topic string
	Seq   uint64
	Post  room.Post
}

// LogFailed: appending a delivered post to Topic's log failed; the post was
// still delivered (docs/design.md §2). Err is the reason as text.
type LogFailed struct {
	Topic     string
	MessageID string
	Err       string
}

// RosterChanged: a connection joined, renamed or left the room of Topic.
type RosterChanged struct {
	Topic  string
	Roster []room.Member
}

// SeatUpdated: a seat of (Topic, Account) reported its activity or usage,
// or its held posts changed; its SeatInfo, read again, says how.
type SeatUpdated struct {
	Topic   string
	Account string
}

// BrakeChanged: the brake of Topic's room engaged (On, after Count AI
// posts in a row with no post from the human: AI posts are no longer typed
// into its seats) or was released (On false): by the release key
// (Released), which typed the Typed posts it held, or by the human's post,
// which leaves them in the history; Dropped counts the held posts not
// typed (docs/design.md §2 "The brake").
type BrakeChanged struct {
	Topic    string
	On       bool
	Count    int
	Released bool
	Typed    int
	Dropped  int
}

// SeatChanged: a seat of (Topic, Account) changed state. Requested is true
// when the user (or a topic delete, or quit) stopped it; ExitCode is valid
// for SeatExited; Err explains SeatFailed or an unrequested exit ("" for
// none).
type SeatChanged struct {
	Topic     string
	Account   string
	State     SeatState
	Requested bool
	ExitCode  int
	Err       string
}

// SeatRestart: a seat's restart (a session operation, docs/design.md §15)
// began — the exit that follows is the restart's — or, Done, ended: the
// seat is back, or Err says why not.
type SeatRestart struct {
	Topic   string
	Account string
	Done    bool
	Err     string
}

// LinesSkipped: reading Topic's log skipped Count unreadable lines
// (docs/design.md §8: skipped lines are reported, never silent).
type LinesSkipped struct {
	Topic string
	Count int
}

// Notice is a free-form status from the domain (e.g. "seat cannot reach the
// room: disabled in .claude/settings.local.json"), shown as written.
type Notice struct {
	Text  string
	Error bool
}

// MCPServerChanged: the local MCP server of mcp account AccountID changed
// state, wrote to its log, or its entry changed: an editor open on it
// reads it again.
type MCPServerChanged struct {
	AccountID string
}

// TerminalAttached: another terminal attached to this UI's server
// (docs/serve.md "Seats and the socket"); Peer says whose process it is
// (pid, executable, tty), as the server saw it. Told, so no attach goes
// unseen.
type TerminalAttached struct {
	Client int
	Peer   string
}

// AttachRefused: a seat's process tried to attach to this UI's server and
// was refused; Peer says which process.
type AttachRefused struct {
	Peer string
}

// Resynced: events were lost (this UI fell behind and its queue was cut
// off) and the stream starts afresh; the UI reloads topics, accounts, the
// open topic and its seats.
type Resynced struct{}

func (PostDelivered) event()    {}
func (LogFailed) event()        {}
func (RosterChanged) event()    {}
func (SeatUpdated) event()      {}
func (BrakeChanged) event()     {}
func (SeatChanged) event()      {}
func (SeatRestart) event()      {}
func (LinesSkipped) event()     {}
func (Notice) event()           {}
func (MCPServerChanged) event() {}
func (Resynced) event()         {}
func (TerminalAttached) event() {}
func (AttachRefused) event()    {}
