package room

import "encoding/json"

// Frame types on the room WebSocket (docs/design.md §6). One JSON object per
// WebSocket message; unknown types are ignored by both ends.
const (
	FrameHello         = "hello"
	FramePost          = "post"
	FramePostResult    = "post_result"
	FrameHistory       = "history"
	FrameHistoryResult = "history_result"
	FrameUsage         = "usage"
	FrameUsageResult   = "usage_result"
	FrameReady         = "ready"
	FrameIdentity      = "identity"
)

// Envelope reads only the type of an incoming frame before the full decode.
type Envelope struct {
	Type string `json:"type"`
}

// HelloFrame: sidecar→room. Embeds Hello's fields at top level.
type HelloFrame struct {
	Type string `json:"type"`
	Hello
}

// PostFrame: sidecar→room. Speaker is never sent: the room stamps it.
type PostFrame struct {
	Type      string `json:"type"`
	MessageID string `json:"message_id"`
	Content   string `json:"content"`
	To        ToList `json:"to,omitempty"`
	TS        string `json:"ts,omitempty"`
	LastSeen  string `json:"last_seen,omitempty"`
}

// PostResultFrame: room→sidecar, only to the posting connection. Either
// Delivered (+Missed when false) or Error is set.
type PostResultFrame struct {
	Type      string `json:"type"`
	MessageID string `json:"message_id"`
	Delivered bool   `json:"delivered"`
	Missed    []Post `json:"missed,omitempty"`
	Error     string `json:"error,omitempty"`
}

// HistoryFrame: sidecar→room. Limit 0 means the default (50); at most 200.
type HistoryFrame struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Limit     int    `json:"limit,omitempty"`
	Before    string `json:"before,omitempty"`
}

// History limits (docs/design.md §6).
const (
	HistoryDefault = 50
	HistoryMax     = 200
)

// HistoryResultFrame: room→sidecar. Posts oldest first. Error set instead on
// failure (no room, bad before).
type HistoryResultFrame struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Posts     []Post `json:"posts"`
	HasMore   bool   `json:"has_more"`
	Error     string `json:"error,omitempty"`
}

// IdentityFrame: room→sidecar, unasked: who the room says the connection
// is, sent after each successful hello and whenever a rename of its
// account changes its names (spec «ニックネームと元の名前» #383: a renamed
// seat is told its new name). Name is what the room calls it (the
// addressing name), FullName its original name ("" when the room knows
// none). Optional: a sidecar that ignores it keeps working.
type IdentityFrame struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	FullName string `json:"full_name,omitempty"`
}

// UsageFrame: sidecar→room: the connection's own seat's usage (the frame
// names no seat, docs/design.md §6, §11).
type UsageFrame struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
}

// UsageResultFrame: room→sidecar. FiveHour and SevenDay are
// {"used_percentage", "resets_at" (Unix seconds, omitted when unknown),
// "received_at" (when that figure arrived, omitted when unknown)}, Context
// {"used_percentage", "received_at"}; a key is left out when not reported,
// and an answer with none means nothing was reported yet (docs/design.md
// §11). ReceivedAt is when the newest of them arrived.
type UsageResultFrame struct {
	Type       string          `json:"type"`
	RequestID  string          `json:"request_id"`
	FiveHour   json.RawMessage `json:"five_hour,omitempty"`
	SevenDay   json.RawMessage `json:"seven_day,omitempty"`
	Context    json.RawMessage `json:"context,omitempty"`
	ReceivedAt string          `json:"received_at,omitempty"`
	Error      string          `json:"error,omitempty"`
}

// ToList is `to` on the wire: a single string or a list of strings when
// read, always a list when written (docs/design.md §3, §6).
type ToList []string

// UnmarshalJSON accepts "name", ["a","b"] and null.
func (t *ToList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*t = ToList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*t = ToList(many)
	return nil
}
