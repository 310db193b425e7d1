package tui

import (
	"time"

	"github.com/pullcept/pullcept/room"
)

// Backend is everything the UI asks of the domain (DESIGN §10). It is kept
// narrow so that app.go can satisfy it with thin adapters over room.Hub,
// logstore.Store, config and the seat Manager. The UI calls every method from
// a tea.Cmd, never from Update, so a method may block on a lock or on disk;
// none may block forever. Channels returned by RoomEvents, SeatEvents and
// ScreenChanged are read by exactly one goroutine at a time (see bridge.go).
type Backend interface {
	Rooms
	TopicStore
	SeatControl
	AccountStore
}

// Rooms is the part of room.Hub the UI uses (DESIGN §2, §6, §8).
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
	// RoomEvents is the hub subscription's channel (Subscribe().C()):
	// must-deliver, in order, for every room. Closed when the hub closes.
	RoomEvents() <-chan room.Event
}

// TopicInfo is one topic as the topic list shows it (DESIGN §8).
// LastActivity is the newest post time (or creation time); Running is true
// when any seat runs or starts in it; Indexed is false for a topic that has
// no log file nor index entry yet (lazy creation).
type TopicInfo struct {
	ID           string
	Name         string
	LastActivity time.Time
	Running      bool
	Indexed      bool
}

// TopicStore lists, creates, renames and deletes topics (DESIGN §8).
type TopicStore interface {
	// Topics returns every indexed topic in any order.
	Topics() ([]TopicInfo, error)
	// NewTopic returns the id of a fresh, not-yet-indexed topic.
	NewTopic() (string, error)
	// RenameTopic sets a topic's name in the index.
	RenameTopic(topicID, name string) error
	// DeleteTopic stops the topic's seats, deletes its log, attachments and
	// index entry, and drops its room (DESIGN §8 "Delete").
	DeleteTopic(topicID string) error
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
	Topic    string
	Account  string
	State    SeatState
	ExitCode int
	Model    string
	Effort   string
	FiveHour *float64
	Weekly   *float64
	Context  *float64
	// Err is the reason of a failed launch or of an unrequested exit.
	Err string
}

// SeatStart is what StartSeat reports about a launch: whether the seat
// resumed a recorded session, and a resume record it had to drop (its id),
// both shown on the status line (DESIGN §9).
type SeatStart struct {
	Resumed   bool
	SessionID string
	Dropped   string
}

// PaneSnapshot is one seat terminal's visible screen (DESIGN §10). Rows are
// rendered ANSI rows, each exactly Cols cells wide (the emulator's width
// when the snapshot was taken; 0 = unknown, then the UI measures every row,
// which costs ~1 ms per 4×120×40 frame instead of nothing); CursorX/Y are
// 0-based cells within Rows. Version grows whenever the screen changed, so
// the UI re-renders a pane only when it moved. BracketedPaste and
// AppCursorKeys are the modes the seat's program asked for (?2004, DECCKM).
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
}

// SeatControl starts, stops and talks to seats (DESIGN §5, §9, §10).
type SeatControl interface {
	// Seats returns the seats of topicID that are starting, running or kept
	// after an exit (their output still readable).
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
	// unsent-input tracker, DESIGN §5).
	SendInput(topicID, accountID string, b []byte) error
	// Resize sets the seat's PTY and emulator size in cells.
	Resize(topicID, accountID string, cols, rows int) error
	// ScreenChanged is a capacity-1 signal: some seat's screen changed
	// (coalesced; lossy by design).
	ScreenChanged() <-chan struct{}
	// SeatEvents carries seat life events and app notices (must-deliver,
	// in order): SeatChanged, LinesSkipped, Notice.
	SeatEvents() <-chan AppEvent
}

// AccountInfo is one account with every field the editor shows (DESIGN §9).
// Env holds the raw `NAME=value` lines as the user wrote them. Hue is in
// degrees 0–359, nil when none was declared.
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
}

// Account kinds (DESIGN §0).
const (
	KindAdmin      = "admin"
	KindClaudeCode = "claude_code"
	KindCodexCLI   = "codex_cli"
	KindCLI        = "cli"
	KindMCP        = "mcp"
)

// AccountStore reads and writes accounts and previews launch lines (DESIGN §9).
type AccountStore interface {
	// Accounts returns every configured account.
	Accounts() ([]AccountInfo, error)
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
	// HomeDir is the user's home directory, prefilled as a working directory.
	HomeDir() string
}

// AppEvent is what SeatEvents carries: SeatChanged, LinesSkipped or Notice.
type AppEvent interface{ appEvent() }

// SeatChanged: a seat of (Topic, Account) changed state. Requested is true
// when the user (or a topic delete, or quit) stopped it; ExitCode is valid
// for SeatExited; Err explains SeatFailed or an unrequested exit.
type SeatChanged struct {
	Topic     string
	Account   string
	State     SeatState
	Requested bool
	ExitCode  int
	Err       error
}

// LinesSkipped: reading Topic's log skipped Count unreadable lines (DESIGN §8).
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

func (SeatChanged) appEvent()  {}
func (LinesSkipped) appEvent() {}
func (Notice) appEvent()       {}
