package tui

import "time"

// Permissions is how the UI answers seats' permission requests from the
// room (docs/design.md §10 "Permission cards", §11; spec «PermissionRequest
// だけは部屋の答えを待つ（#336）»): a Claude Code seat's PermissionRequest
// is held open while a card waits for the human; the terminal's own dialog
// shows meanwhile, and answering there closes the card (PermissionClosed).
type Permissions interface {
	// PermissionCards are the cards waiting now, oldest first: the UI reads
	// them at start and after Resynced; PermissionAsked and
	// PermissionClosed keep them current.
	PermissionCards() []PermissionCard
	// AnswerPermission answers card id. The error (as text in the UI) says
	// the card had closed meanwhile — answered in the pane, the wait over —
	// or that "allow always" had no suggestion to apply.
	AnswerPermission(id uint64, a PermissionAnswer) error
}

// PermissionCard is one permission request waiting for the human: the seat
// (Topic, Account) asking, Tool (mcp__server__tool for an MCP tool) and
// MCPServer ("" for a built-in tool), Agent the subagent that asks ("" the
// seat itself), Summary what the tool would do as the CLI sent it (a
// command, a path, or the input as compact JSON; at most 16 KiB of it,
// SummaryCut when more was sent; its control characters are still in it
// and are shown as codes), SummaryLines the lines of the whole summary,
// Suggestions the CLI's own permission_suggestions ("allow always" applies
// them all; none when SuggestionsCut: more than a card offers), and Until
// when the room stops waiting (the terminal's dialog then decides).
type PermissionCard struct {
	ID             uint64
	Topic, Account string
	Tool           string
	MCPServer      string
	Agent          string
	Summary        string
	SummaryLines   int
	SummaryCut     bool
	Suggestions    []PermissionSuggestion
	SuggestionsCut bool
	Until          time.Time
}

// PermissionSuggestion is one of the CLI's permission_suggestions: Type
// addRules, replaceRules or removeRules (Rules, each "Tool" or
// "Tool(content)", with Behavior allow, deny or ask), setMode (Mode),
// addDirectories or removeDirectories (Directories); Destination is where
// the CLI keeps it (session, localSettings, projectSettings,
// userSettings, cliArg). Another type has Other, the suggestion as
// compact JSON.
type PermissionSuggestion struct {
	Type        string
	Behavior    string
	Rules       []string
	Mode        string
	Directories []string
	Destination string
	Other       string
}

// PermissionAnswer is the human's answer to a card: Allow (false denies),
// Always (with Allow: apply the card's suggestions too), Reason (a
// denial's one-line reason, sent to the CLI; never logged or kept).
type PermissionAnswer struct {
	Allow  bool
	Always bool
	Reason string
}

// PermissionEnd is why a card closed.
type PermissionEnd int

// Why cards close.
const (
	PermissionAnswered  PermissionEnd = iota + 1 // answered on the card
	PermissionTimedOut                           // the room stopped waiting: the terminal's dialog decides
	PermissionElsewhere                          // answered in the pane, or the CLI went on, or the seat ended
	PermissionShutdown                           // the room closed
)

// PermissionAsked: a seat's permission request waits for the human on a
// card.
type PermissionAsked struct {
	Card PermissionCard
}

// PermissionClosed: card ID of the seat (Topic, Account) closed; End says
// why, Allowed how it was answered on the card.
type PermissionClosed struct {
	ID             uint64
	Topic, Account string
	End            PermissionEnd
	Allowed        bool
}

func (PermissionAsked) event()  {}
func (PermissionClosed) event() {}
