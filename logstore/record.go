package logstore

import "encoding/json"

// Record is one line of a topic's JSONL log (docs/design.md §8): absent keys are
// omitted, from_app only when true, to written as a list and read as a string
// or a list. TS is the post time in UTC, RFC 3339 as the room stamped it.
// Hue, role and "own" are never stored.
type Record struct {
	MessageID string `json:"message_id"`
	Speaker   string `json:"speaker"`
	FullName  string `json:"full_name,omitempty"`
	// Signed is an mcp notice's signature as the app read it (room.Post.Signed).
	Signed  string `json:"signed,omitempty"`
	Account string `json:"account,omitempty"`
	FromApp bool   `json:"from_app,omitempty"`
	Content string `json:"content"`
	To      Names  `json:"to,omitempty"`
	TS      string `json:"ts"`
	// BodyFile names the file in attachments/<topic>/ that holds the whole
	// body of a long post (SaveBody, BodyPath); "" for other posts.
	BodyFile string `json:"body_file,omitempty"`
	// Size is the byte length of the whole body when Page clipped Content
	// to BodyInline (ClipBody); 0 when Content is whole. Never written.
	Size int `json:"-"`
}

// Names is a `to` field: written as a JSON list, read from a string or a list.
type Names []string

// UnmarshalJSON accepts "name", ["a","b"] and null.
func (n *Names) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		if one == "" {
			*n = nil
		} else {
			*n = Names{one}
		}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*n = Names(many)
	return nil
}
