package room

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
)

// The seat ↔ sidecar ↔ room contract (docs/design.md §6, §7). A seat is
// three processes that never share memory: the app's room (this package's
// Server), the CLI that seats launches, and the sidecar that CLI starts from
// .mcp.json. Whatever one of them writes and another reads is named here
// once — the environment variables, the tool names, the hook paths, the
// time layouts and the loopback rule — next to the frames in wire.go.

// Environment variables of a seat (docs/design.md §7). The first six go into
// the seat's .mcp.json entry (or Codex's -c server table) and the sidecar
// reads them; EnvRoomToken, EnvRoomSocket and EnvLaunchedAs travel only in the launched
// CLI's process environment, which the CLI's children inherit, so the token
// never lands in a file, argv, preview or log.
const (
	// EnvRoomURL is the room's loopback WebSocket URL (ws://127.0.0.1:<port>/room).
	EnvRoomURL = "PULLCEPT_ROOM_URL"
	// EnvAgentName is the seat's name in the room (hello name; instructions).
	EnvAgentName = "PULLCEPT_AGENT_NAME"
	// EnvAccountID is the account the .mcp.json entry was written for.
	EnvAccountID = "PULLCEPT_ACCOUNT_ID"
	// EnvRoomID is the topic id the seat joins (hello room). The launch also
	// sets it in the process environment, for hooks that read only theirs.
	EnvRoomID = "PULLCEPT_ROOM_ID"
	// EnvHue is the declared hue in degrees, 0–359; unset or invalid = none.
	EnvHue = "PULLCEPT_HUE"
	// EnvUnseenHistory, when non-empty and not "0", says the topic already
	// has posts this seat has not seen (spec «トピック», #133).
	EnvUnseenHistory = "PULLCEPT_UNSEEN_HISTORY"
	// EnvRoomToken is the room's bearer token (process environment only).
	EnvRoomToken = "PULLCEPT_ROOM_TOKEN"
	// EnvRoomSocket is the room's Unix socket (process environment; unset
	// where the room has none): the sidecar, hooks and status line connect
	// there so the kernel names their process (docs/design.md §6).
	EnvRoomSocket = "PULLCEPT_ROOM_SOCKET"
	// EnvLaunchedAs is the account the CLI was launched as (process
	// environment only); it must equal EnvAccountID for the sidecar to join.
	EnvLaunchedAs = "PULLCEPT_LAUNCHED_AS"
)

// The pullcept subcommands a seat's CLI runs: the sidecar (the .mcp.json
// entry's args), the status line (Claude Code's statusLine command) and
// the hooks.
const (
	SidecarCommand    = "sidecar"
	StatusLineCommand = "status-line"
	// HookCommand is a Claude Code command hook (`pullcept hook <url>`),
	// used where the room has a socket (EnvRoomSocket).
	HookCommand = "hook"
)

// UnseenHistoryValue is what EnvUnseenHistory holds when set.
const UnseenHistoryValue = "1"

// The sidecar's MCP tools (docs/design.md §7). Claude Code calls them
// mcp__<.mcp.json key>__<tool>; seats allows them by that name up front.
const (
	// ToolSayToRoom is the only way a seat speaks.
	ToolSayToRoom = "say_to_room"
	// ToolReadRoomHistory reads the topic's log; it never speaks.
	ToolReadRoomHistory = "read_room_history"
	// ToolMyUsage reports the caller's own usage.
	ToolMyUsage = "my_usage"
	// ToolListSessions, ToolControlSession and ToolSessionStatus are the
	// session operations (docs/design.md §15).
	ToolListSessions   = "list_account_sessions"
	ToolControlSession = "control_account_session"
	ToolSessionStatus  = "account_session_status"
)

// RoomTools are every tool the sidecar serves, in the order it lists them.
// Claude seats allow them all in --settings, Codex seats approve them all
// up front.
var RoomTools = []string{ToolSayToRoom, ToolReadRoomHistory, ToolMyUsage, ToolListSessions, ToolControlSession, ToolSessionStatus}

// Time layouts on the wire (docs/design.md §4, §6).
const (
	// TimeLayout is a post's ts: UTC, RFC 3339 with milliseconds
	// ("2026-10-01T16:14:05.123Z"), the layout the log stores. Any RFC 3339
	// time is accepted on read.
	TimeLayout = logstore.TimeLayout
	// TagAtLayout is the tag's "at": local time with offset, minute
	// precision ("2026-10-02T01:14+09:00"); seconds are cut, never rounded
	// (spec «発言は端末へ入る»).
	TagAtLayout = "2006-01-02T15:04-07:00"
)

// The POST hooks a seat's CLI calls (docs/design.md §6, §11): Claude Code's
// status line command posts to HookStatusURL, its http hooks to
// HookActivityURL; Server routes them with ParseHookPath.
const (
	hooksPrefix = "/hooks/"
	// ReportStatus and ReportActivity are the two hook kinds
	// (Hub.Report, Report.Kind).
	ReportStatus   = "status"
	ReportActivity = "activity"
)

// HookEvents are the Claude Code hook events a seat registers and the
// server accepts on /hooks/activity; any other event name is 404.
var HookEvents = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
	"SubagentStart", "SubagentStop", "Stop", "StopFailure", "UserPromptSubmit",
}

// HookStatusURL is the status hook of the seat (topicID, accountID) under
// base (Server.HooksURL): base/hooks/status/<topic>/<account>.
func HookStatusURL(base, topicID, accountID string) string {
	return strings.TrimRight(base, "/") + hooksPrefix + ReportStatus + seatPath(topicID, accountID)
}

// HookActivityURL is the hook of one Claude Code hook event of the seat:
// base/hooks/activity/<event>/<topic>/<account>.
func HookActivityURL(base, event, topicID, accountID string) string {
	return strings.TrimRight(base, "/") + hooksPrefix + ReportActivity + "/" + PathSegment(event) + seatPath(topicID, accountID)
}

// Hook is a parsed hook path: Kind is ReportStatus or ReportActivity, Event
// the activity event name ("" for status).
type Hook struct {
	Kind, Event, Topic, Account string
}

// ParseHookPath reads an escaped request path made by HookStatusURL or
// HookActivityURL. ok is false for any other path, an empty segment or a
// bad escape.
func ParseHookPath(escapedPath string) (h Hook, ok bool) {
	rest, found := strings.CutPrefix(escapedPath, hooksPrefix)
	if !found {
		return Hook{}, false
	}
	segs := strings.Split(rest, "/")
	for i, seg := range segs {
		v, err := url.PathUnescape(seg)
		if err != nil || v == "" {
			return Hook{}, false
		}
		segs[i] = v
	}
	switch {
	case len(segs) == 3 && segs[0] == ReportStatus:
		return Hook{Kind: ReportStatus, Topic: segs[1], Account: segs[2]}, true
	case len(segs) == 4 && segs[0] == ReportActivity && slices.Contains(HookEvents, segs[1]):
		return Hook{Kind: ReportActivity, Event: segs[1], Topic: segs[2], Account: segs[3]}, true
	}
	return Hook{}, false
}

// seatPath is "/<topic>/<account>", each segment percent-encoded.
func seatPath(topicID, accountID string) string {
	return "/" + PathSegment(topicID) + "/" + PathSegment(accountID)
}

// PathSegment percent-encodes everything but ASCII letters, digits and
// . _ - so a URL path segment carries nothing a shell or cmd.exe reacts to
// (spec «セッションは自分の様子をステータスラインで知らせる»: the status line
// command runs in a shell); ParseHookPath decodes it with the standard
// unescape.
func PathSegment(s string) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			out.WriteByte(c)
		} else {
			fmt.Fprintf(&out, "%%%02X", c)
		}
	}
	return out.String()
}

// ErrNotLoopback: a URL that should name this machine does not.
var ErrNotLoopback = errors.New("not a loopback URL")

// IsLoopbackHost reports whether host (no port, no brackets) is "localhost"
// or a loopback IP address: nothing a seat talks to may leave the machine.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckLoopbackURL accepts raw only when it parses, has the given scheme
// (ws for the room, http for hooks) and a loopback host. Errors wrap
// ErrNotLoopback and say which part failed.
func CheckLoopbackURL(raw, scheme string) error {
	if raw == "" {
		return fmt.Errorf("%w: no %s:// URL", ErrNotLoopback, scheme)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNotLoopback, err)
	}
	if u.Scheme != scheme {
		return fmt.Errorf("%w: %q is not a %s:// URL", ErrNotLoopback, raw, scheme)
	}
	if host := u.Hostname(); !IsLoopbackHost(host) {
		return fmt.Errorf("%w: host %q is not a loopback address", ErrNotLoopback, host)
	}
	return nil
}

// MaxFrameBytes is the largest frame a room accepts from a socket by
// default (ServerOptions.MaxFrameBytes): senders check against it before
// sending, so an oversize post is refused clearly instead of dropping the
// connection with an unknown outcome.
const MaxFrameBytes = 1 << 20

// MaxPostBytes bounds a post's content from any sender, the UI's too
// (ErrPostTooLong): a seat's post cannot pass it inside a MaxFrameBytes
// frame either.
const MaxPostBytes = MaxFrameBytes

// EncodeFrame encodes a frame as the wire carries it: JSON without HTML
// escaping (json.Marshal turns each of < > & into six bytes, so a post of
// 180 000 "<" became a 1 MB frame), and without a trailing newline.
func EncodeFrame(v any) ([]byte, error) { return config.MarshalNoEscape(v) }
