package tui

import "time"

// Attention is the part of the Backend that keeps what needs the human
// (docs/design.md §17 "Attention"): one list for every attached UI, which
// each shows, rings its own terminal for, and clears as its human sees
// items.
type Attention interface {
	// Attention returns the list, oldest first, and how many items its
	// bound dropped so far. AttentionChanged carries the same after each
	// change.
	Attention() (items []AttentionItem, dropped uint64, err error)
	// SeenAttention records that this UI's human saw the items ids: a card
	// stays (marked seen) until it closes, every other item leaves.
	SeenAttention(ids []uint64) error
}

// AttentionKind is what an item asks of the human.
type AttentionKind int

// Attention kinds (app/attention's, in its order).
const (
	AttnCard         AttentionKind = iota + 1 // a permission card waits (Ref: its id)
	AttnCardTimedOut                          // a card went unanswered: answer in the pane
	AttnAddressed                             // a post names the human (Ref: its message id)
	AttnLimited                               // a seat stopped on its usage limit (Detail: resets, RFC 3339)
	AttnResumed                               // it runs again
	AttnExited                                // a seat ended on its own with an error (Detail: why)
	AttnBraked                                // the topic's brake engaged (Count)
	AttnOpFailed                              // a session operation failed (Detail: action: reason)
	AttnMCPDied                               // a local MCP server ended (Account: its mcp account)
)

// AttentionItem is one thing that needs the human. Topic is "" for an item
// of no topic; Account is the seat's (or the speaker's, or the mcp
// account's); Detail is seat-written text for some kinds: shown sanitized.
type AttentionItem struct {
	ID      uint64
	Kind    AttentionKind
	Topic   string
	Account string
	Ref     string
	Detail  string
	Count   int
	At      time.Time
	Seen    bool
}

// AttentionChanged: the list changed; Items is all of it now.
type AttentionChanged struct {
	Items   []AttentionItem
	Dropped uint64
}

func (AttentionChanged) event() {}
