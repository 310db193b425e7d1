package room

import (
	"encoding/json"
	"time"

	"github.com/pullcept/pullcept/logstore"
)

// Role is the weight of a post's speaker as the room stamps it from the entry
// point, never from text (docs/design.md §4). It is the tag's "role" key.
type Role string

// Roles (docs/design.md §4). RoleAdmin comes only from the UI entry point.
const (
	RoleAdmin      Role = "admin"
	RoleClaudeCode Role = "claude_code"
	RoleCodexCLI   Role = "codex_cli"
	RoleCLI        Role = "cli"
	RoleMCP        Role = "mcp"
	RoleApp        Role = "app"
	RoleUnknown    Role = "unknown"
)

// AI reports whether r is the role of an AI seat's posts (claude_code,
// codex_cli, cli): the posts the brake counts and holds back
// (docs/design.md §2 "The brake").
func (r Role) AI() bool {
	return r == RoleClaudeCode || r == RoleCodexCLI || r == RoleCLI
}

// AppSpeaker is the speaker name of Pullcept's own notices (role app,
// docs/design.md §4).
const AppSpeaker = "Pullcept"

// Protocol is the wire protocol version carried in hello (docs/design.md §6).
const Protocol = 12

// FloorWindow is how many recent posts each room keeps for the floor (docs/design.md §2).
const FloorWindow = 512

// Post is one post as the room holds it and sends it on the wire
// (missed posts, history_result) and to subscribers (docs/design.md §0, §2).
// TS is the room's UTC time in RFC 3339 with milliseconds
// ("2026-10-01T16:14:05.123Z"); To is nil when the post addresses the whole
// room (the key is then omitted, never null or []). Hue is in degrees 0–359 and
// nil when the speaker declared none. Hue and Role are never written to the log.
type Post struct {
	MessageID string `json:"message_id"`
	Role      Role   `json:"role"`
	Speaker   string `json:"speaker"`
	FullName  string `json:"full_name,omitempty"`
	// Signed is the signature the app read for an MCP notice (the name on
	// the last line of the event's body, docs/design.md §6 "Local MCP
	// servers"): set only by Hub.MCPNotice from MCPNote.Signer, never from
	// a post's text, so a body that starts "Signed: …" cannot pass for it.
	Signed  string   `json:"signed,omitempty"`
	Account string   `json:"account,omitempty"`
	FromApp bool     `json:"from_app,omitempty"`
	Hue     *int     `json:"hue,omitempty"`
	Content string   `json:"content"`
	To      []string `json:"to,omitempty"`
	TS      string   `json:"ts"`
	// Size is the byte length of the whole body of a long post, whose
	// Content is then its first logstore.BodyInline bytes; 0 when Content
	// is whole (docs/design.md §8 "Long posts").
	Size int `json:"size,omitempty"`
	// BodyFile is the absolute path of the file holding a long post's whole
	// body; "" when there is none (ClipNote says where to read it then).
	BodyFile string `json:"body_file,omitempty"`
	// You and YourFullName are set only on the copy of an addressed post
	// handed to one seat's terminal (Terminals.Enqueue): what the room
	// calls that seat now and its original name, so a seat renamed since
	// its launch reads which `to` name is its own (the tag's "you", spec
	// «ニックネームと元の名前» #383). Never on the wire, in the log or in
	// events.
	You          string `json:"-"`
	YourFullName string `json:"-"`
}

// Draft is what a sender hands to the room (Hub.deliver): the sender never names itself
// (the room stamps speaker, role, account from the connection). MessageID is
// made by the sender (UUID v4) and kept as is; the room makes one when empty.
// TS is kept when it parses as RFC 3339, else the room stamps its own time.
// LastSeen is the newest message_id the sender actually saw ("" = none).
type Draft struct {
	MessageID string
	Content   string
	To        []string
	TS        string
	LastSeen  string
}

// Result is the room's answer to a Draft. Delivered is false only for a floor rejection;
// then Missed holds the posts the sender had not seen (oldest first, full
// fields). Post is the post as delivered (addressees resolved, mentions
// removed). LogErr is non-nil when the post was delivered but its log append
// failed (a LogFailed event is also emitted).
type Result struct {
	Delivered bool
	Post      Post
	Missed    []Post
	LogErr    error
}

// Hello is a participant's declaration when it takes its seat in a room
// (docs/design.md §6 `hello`). Room is the topic id. AccountID is optional; it selects
// the terminal posts are typed into and the role (socket entry point).
type Hello struct {
	Protocol  int    `json:"protocol"`
	Name      string `json:"name"`
	Room      string `json:"room"`
	Hue       *int   `json:"hue,omitempty"`
	AccountID string `json:"account_id,omitempty"`
	FullName  string `json:"full_name,omitempty"`
	// Instance is the sidecar process's own random id, the same on its
	// reconnects: a seat launch is one member, its first instance's
	// (place.go). Optional (in-process callers send none).
	Instance string `json:"instance,omitempty"`
}

// Member is one connection in a room's roster (docs/design.md §0 "connection").
// Names may repeat across members; the UI deduplicates for completion.
type Member struct {
	Name      string `json:"name"`
	FullName  string `json:"full_name,omitempty"`
	AccountID string `json:"account_id,omitempty"`
	Hue       *int   `json:"hue,omitempty"`
	Role      Role   `json:"role"`
	// Local is true for the UI's own in-process connection.
	Local bool `json:"local,omitempty"`
}

// Terminals is how the room types posts into seats' terminals. The seats
// package implements it; the room calls Enqueue inside the room lock, so it
// must never block (docs/design.md §5 "Deliver only enqueues").
type Terminals interface {
	// Enqueue queues p (tag line + body, see Tag) for the running seat of
	// (topicID, accountID). It reports false when that account has no running
	// seat in that topic (nothing is typed).
	Enqueue(topicID, accountID string, p Post) bool
	// SidecarJoined reports that a connection of accountID took its seat in
	// topicID (a resumed seat that never joins loses its record, docs/design.md §9).
	SidecarJoined(topicID, accountID string)
	// SidecarReady reports the sidecar's `ready` frame: its CLI has listed the
	// tools, so typing may start (docs/design.md §7 "Startup race").
	SidecarReady(topicID, accountID string)
	// Reported hands the seat (topicID, accountID) a hook report its CLI
	// sent (docs/design.md §6, §11). It reports false when no seat of that
	// topic and account runs, or its kind sends no hooks: the room then
	// refuses the hook and keeps nothing. It must not block long: the
	// hook's CLI waits for the answer.
	Reported(topicID, accountID string, r Report) bool
	// PermissionAnswered tells the seat (topicID, accountID) that the
	// human answered card ask (Report.Ask) in the room, allowing or
	// denying: its dialog is answered (docs/design.md §11). It must not
	// block long.
	PermissionAnswered(topicID, accountID string, ask uint64, allowed bool)
	// Usage is the seat (topicID, accountID)'s own last reported usage for
	// its usage frame (docs/design.md §6, §11); ok is false when nothing was
	// reported. Figures outlive the seat's exit until its topic is deleted.
	Usage(topicID, accountID string) (u SeatUsage, ok bool)
}

// SeatUsage is a seat's own usage as the usage frame answers it: the used
// percentages of its plan's 5-hour and 7-day windows with their reset times
// and of its context window, each nil when not reported (never 0 %), each
// with when it arrived (ContextAt for the context; zero: not known), and
// when the newest of them arrived (ReceivedAt).
type SeatUsage struct {
	FiveHour, SevenDay *UsageWindow
	Context            *float64
	ContextAt          time.Time
	ReceivedAt         time.Time
}

// UsageWindow is one plan window: the used percentage, when known when it
// starts over, and when it arrived (zero: not known).
type UsageWindow struct {
	UsedPercentage float64
	ResetsAt       time.Time
	ReceivedAt     time.Time
}

// Report is one POST hook a seat's CLI sent: Kind is ReportStatus or
// ReportActivity, Event the activity's hook event name ("" for status),
// Body the JSON as received (at most the server's MaxHookBytes).
type Report struct {
	Kind, Event string
	Body        json.RawMessage
	// Ask names the card a PermissionRequest is held open for
	// (Hub.AskPermission); 0 for every other report, and for a request the
	// room answers {} at once. The seat closes the card with Hub.AskClosed
	// when its dialog is answered in the pane or its CLI goes on.
	Ask uint64
}

// Accounts tells the room the kind of an account id named in hello, which
// sets the role of socket posts (docs/design.md §4). ok is false for unknown ids.
type Accounts interface {
	AccountKind(accountID string) (kind string, ok bool)
}

// Identities tells the room what an account is called now (docs/design.md
// §3, §6 "Names"; spec «ニックネームと元の名前»): name is its display name
// (the nickname when set, else the name) — the roster name, a post's
// speaker, the tag's from, what @mentions match; fullName is its original
// name when that differs from name, else ""; hue its declared colour, nil
// for none. ok is false for an id it does not know. The room calls it
// without holding a room lock; it must not call back into the room.
type Identities interface {
	AccountIdentity(accountID string) (name, fullName string, hue *int, ok bool)
}

// Log is the topic log the room appends to and pages from. *logstore.Store
// implements it (docs/design.md §8).
type Log interface {
	// Append writes one line to the topic's JSONL, creating the file lazily.
	// Called inside the room lock.
	Append(topicID string, rec logstore.Record) error
	// NoteFirstPost names and indexes the topic from its first post. Called
	// outside the room lock (index writes never happen under it).
	NoteFirstPost(topicID string, rec logstore.Record) error
	// Page returns up to limit records older than the record with message_id
	// before ("" = from the end), oldest first, and whether older ones exist.
	Page(topicID, before string, limit int) (recs []logstore.Record, hasMore bool, err error)
	// SaveBody writes a long post's whole body to a new file and returns
	// its name (kept in the log line) and path. Called before the room
	// lock is taken, never under it.
	SaveBody(topicID, messageID, body string) (name, path string, err error)
	// DropBody removes a body file SaveBody wrote for a post that was not
	// delivered with it. Called after the room lock is released.
	DropBody(topicID, name string) error
	// BodyPath is the path of a body file name, "" when it is gone.
	BodyPath(topicID, name string) string
}

// Event is what a Subscription carries (must-deliver, in order).
type Event interface{ event() }

// PostDelivered: a post went through Deliver in room Topic. Seq is the room's
// order (1, 2, …) for this app run.
type PostDelivered struct {
	Topic string
	Seq   uint64
	Post  Post
}

// LogFailed: appending a delivered post to the topic log failed; the post was
// still delivered (docs/design.md §2). The UI shows it on the status line.
type LogFailed struct {
	Topic     string
	MessageID string
	Err       error
}

// RosterChanged: a connection joined, renamed or left room Topic.
type RosterChanged struct {
	Topic  string
	Roster []Member
}

// BrakeChanged: the brake of room Topic engaged (On, after Count AI posts
// in a row with no post from the human: AI posts are no longer typed into
// its seats) or was released (On false, Count 0): by Hub.ReleaseBrake
// (Released), which typed the Typed posts it held back, or by the human's
// post, which leaves them in the history. Dropped counts the held posts
// not typed (past the bounds, or left by the human's post).
// docs/design.md §2 "The brake".
type BrakeChanged struct {
	Topic    string
	On       bool
	Count    int
	Released bool
	Typed    int
	Dropped  int
}

func (PostDelivered) event() {}
func (LogFailed) event()     {}
func (RosterChanged) event() {}
func (BrakeChanged) event()  {}
