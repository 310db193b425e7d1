package room

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room/textcut"
)

// Permission cards (docs/design.md §6 "Permission requests", §11; spec
// «PermissionRequest だけは部屋の答えを待つ（#336）»): a Claude Code seat's
// PermissionRequest hook is held open while the human reads a card in the
// room and answers it; the answer goes back as the hook's decision. The
// terminal's own dialog shows meanwhile, and whatever the human does there
// wins: the card then closes and the hook answers {} (no decision).
//
// The room keeps a request only while it waits: what the card shows is
// read from the hook's body once (the tool, its MCP server, a summary of
// its input, the CLI's own permission_suggestions), handed to the UI in
// PermissionAsked and dropped when the card closes. Nothing of it is
// logged, typed into a seat or kept after.

// HookPermissionRequest is the hook event the room holds open (HookEvents).
const HookPermissionRequest = "PermissionRequest"

// Bounds of the permission cards. A seat is hostile: each request it can
// hold open costs a goroutine (the hook's handler) and the card's text.
const (
	// DefaultPermissionWait is how long a request is held for the human's
	// answer (spec: 180 s) when config.json's "permission_wait" does not
	// say (config.DefaultPermissionWait).
	DefaultPermissionWait = config.DefaultPermissionWait * time.Second
	// MaxPermissionWait is the longest wait the hub takes
	// (config.MaxPermissionWait says where the bound comes from). Claude
	// Code's launch gives the hook this plus a margin as its timeout
	// (seats/cli/claude/line.go), so the room answers {} before the CLI
	// gives up on it, whatever wait the human chose while the seat ran.
	MaxPermissionWait = config.MaxPermissionWait * time.Second
	// maxAsksPerSeat and maxAsks bound the requests held at once: Claude
	// Code asks for the tools of one answer together ("1 of 2") and its
	// subagents ask too, a handful at a time. A request over either bound
	// is answered {} at once: its seat's posts are still held and its
	// terminal dialog decides.
	maxAsksPerSeat = 8
	maxAsks        = 64
	// maxAskSummary bounds the summary of a tool input kept for the card
	// (the command, the path, or the input as compact JSON); the card
	// shows a few lines of it and says how many more there are.
	maxAskSummary = 16 << 10
	// maxAskLabel bounds the tool, MCP server and agent names (runes).
	maxAskLabel = 96
	// maxSuggestions and maxSuggestionBytes bound the CLI's
	// permission_suggestions a card offers: more, or longer, and the card
	// offers none (the human uses the pane's dialog for them). Claude Code
	// sends one to three short ones.
	maxSuggestions     = 16
	maxSuggestionBytes = 16 << 10
	// MaxDenyReason bounds the human's reason for a denial (bytes); a
	// longer one is cut.
	MaxDenyReason = 1024
	// askWriteGrace is added to the wait for the held request's read and
	// write deadlines: the answer is written after the wait.
	askWriteGrace = 10 * time.Second
)

// ErrNoAsk: no permission request with that id is open (it was answered,
// timed out, or answered in the pane). ErrNoSuggestion: "allow always" for
// a request whose card offers no suggestion.
var (
	ErrNoAsk        = errors.New("no such permission request: it is closed")
	ErrNoSuggestion = errors.New("this permission request has no suggestion to apply")
)

// PermissionAsk is one permission request held open for the human's
// answer: a card (docs/design.md §10, §11). ID names it in
// Hub.AnswerPermission and PermissionClosed; ids grow in arrival order.
// Tool is the tool's name as the CLI sent it (mcp__server__tool for an MCP
// tool), MCPServer the tool's MCP server ("" for a built-in tool) and
// Agent the subagent's type when a subagent asks ("" for the seat
// itself); all three have no control characters and at most 96 runes.
// Summary is what the tool would do, as the CLI sent it: a shell tool's
// command, a file tool's path, else the input as compact JSON — cut to
// 16 KiB (SummaryCut) and with its control characters still in it (the UI
// shows them as codes, never obeys them); SummaryLines counts the lines of
// the whole summary. Suggestions are the CLI's own permission_suggestions
// (nil when it sent none, or more than a card offers: SuggestionsCut).
// Until is when the room stops waiting and answers {}.
type PermissionAsk struct {
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
	At, Until      time.Time
}

// PermissionSuggestion is one of the CLI's permission_suggestions as a card
// shows it (Claude Code's permission update): Type is addRules,
// replaceRules, removeRules, setMode, addDirectories or removeDirectories;
// Behavior the rules' (allow, deny, ask); Rules each "Tool" or
// "Tool(content)"; Mode the permission mode setMode sets; Directories the
// folders; Destination where the CLI keeps it (session, localSettings,
// projectSettings, userSettings, cliArg). A type this room does not know
// has only Type and Other, the suggestion as compact JSON.
type PermissionSuggestion struct {
	Type        string
	Behavior    string
	Rules       []string
	Mode        string
	Directories []string
	Destination string
	Other       string
}

// PermissionAnswer is the human's answer to a card. Allow false denies;
// Always (with Allow) also applies the CLI's suggestions, as its dialog's
// "Yes, and don't ask again" does; Reason is the human's reason for a
// denial, sent to the CLI as the decision's message (one line, at most
// MaxDenyReason bytes; never logged, typed or kept).
type PermissionAnswer struct {
	Allow  bool
	Always bool
	Reason string
}

// AskEnd is why a card closed.
type AskEnd int

// Why cards close.
const (
	// AskAnswered: the human answered on the card; its decision went back.
	AskAnswered AskEnd = iota + 1
	// AskTimedOut: the wait passed; the hook answered {} and the
	// terminal's dialog decides.
	AskTimedOut
	// AskElsewhere: answered in the seat's pane, or the CLI went on or
	// dropped the request, or the seat ended.
	AskElsewhere
	// AskShutdown: the room closed.
	AskShutdown
)

// PermissionAsked: a permission request waits for the human's answer on a
// card (Hub.AnswerPermission). Ask is the room's own copy: the UI may keep
// it.
type PermissionAsked struct {
	Ask PermissionAsk
}

// PermissionClosed: the card ID of the seat (Topic, Account) closed and
// its request was answered: by the human on the card (End AskAnswered,
// Allowed says how), or with {} (the other ends).
type PermissionClosed struct {
	ID             uint64
	Topic, Account string
	End            AskEnd
	Allowed        bool
}

func (PermissionAsked) event()  {}
func (PermissionClosed) event() {}

// HeldAsk is one PermissionRequest hook as the room holds it
// (Hub.AskPermission); Wait gives the hook's answer.
type HeldAsk struct {
	hub  *Hub
	p    *pendingAsk // nil: answered {} at once
	wait time.Duration
}

// askDesk is the hub's open permission requests. Its lock is a leaf but
// for the event broker: PermissionAsked and PermissionClosed are queued
// under it, so no subscriber ever sees a card close before it opened.
type askDesk struct {
	mu      sync.Mutex
	next    uint64
	open    map[uint64]*pendingAsk
	perSeat map[[2]string]int
	closed  bool
}

// pendingAsk is one open request: its card, the suggestions as the CLI
// sent them (what "always" sends back), whether its card was published,
// and, once done is closed, the hook's answer (nil: {}) and why.
type pendingAsk struct {
	ask    PermissionAsk
	raw    []json.RawMessage
	listed bool
	done   chan struct{}
	reply  []byte
	end    AskEnd
	allow  bool
}

// AskPermission takes a PermissionRequest hook of the seat (topicID,
// accountID): it hands it to the seat like any hook (Terminals.Reported,
// with Report.Ask naming its card, so its posts are held) and, when the
// room can hold it, opens its card (PermissionAsked). HeldAsk.Wait then
// waits for the answer. A body the card cannot show (no tool name), or a
// request over the bounds (maxAsksPerSeat, maxAsks), gets no card: Wait
// answers {} at once. Errors: ErrNoSeat, ErrClosed, as Report.
func (h *Hub) AskPermission(topicID, accountID string, body json.RawMessage) (*HeldAsk, error) {
	ask, raw, ok := parseAsk(body)
	ask.Topic, ask.Account = topicID, accountID
	var p *pendingAsk
	if ok {
		if p = h.asks.reserve(ask, raw); p == nil {
			// Debug: a seat sending requests in a loop must not fill the log.
			h.logger.Debug("room: a permission request gets no card: too many open", "topic", topicID, "account", accountID)
		}
	}
	var id uint64
	if p != nil {
		id = p.ask.ID
	}
	if err := h.report(topicID, accountID, Report{Kind: ReportActivity, Event: HookPermissionRequest, Body: body, Ask: id}); err != nil {
		if p != nil {
			h.finishAsk(id, AskElsewhere, nil, false)
		}
		return nil, err
	}
	if p == nil {
		return &HeldAsk{}, nil
	}
	// The wait in force now: SetPermissionWait applies to the cards
	// opened after it; this one keeps what its card says (Until).
	wait := h.PermissionWait()
	now := h.now()
	h.asks.list(h, p, now, now.Add(wait))
	return &HeldAsk{hub: h, p: p, wait: wait}, nil
}

// PermissionWait is how long the next permission card will wait for the
// human (HubOptions.PermissionWait, then SetPermissionWait's).
func (h *Hub) PermissionWait() time.Duration { return time.Duration(h.askWait.Load()) }

// SetPermissionWait sets how long the permission cards opened from now on
// wait for the human's answer, as config.json's "permission_wait" changed
// in the settings while the app runs (and at start, from the file). A card
// already open keeps the wait it was shown with. A wait of 0 or less, or
// over MaxPermissionWait, is refused (ErrBadPermissionWait) and changes
// nothing.
func (h *Hub) SetPermissionWait(d time.Duration) error {
	if d <= 0 || d > MaxPermissionWait {
		return fmt.Errorf("set permission wait %s: %w", d, ErrBadPermissionWait)
	}
	h.askWait.Store(int64(d))
	return nil
}

// Wait holds the request until the human answers its card, the seat
// closes it (Hub.AskClosed), the wait passes (AskTimedOut), ctx ends (the
// CLI dropped the request: AskElsewhere) or the hub closes. It returns
// the hook's answer body: the decision, or {} for every end but an answer.
func (a *HeldAsk) Wait(ctx context.Context) []byte {
	if a.p == nil {
		return []byte("{}")
	}
	t := time.NewTimer(a.wait)
	defer t.Stop()
	select {
	case <-a.p.done:
	case <-t.C:
		a.hub.finishAsk(a.p.ask.ID, AskTimedOut, nil, false)
	case <-ctx.Done():
		a.hub.finishAsk(a.p.ask.ID, AskElsewhere, nil, false)
	}
	<-a.p.done
	if a.p.reply == nil {
		return []byte("{}")
	}
	return a.p.reply
}

// Holds is how long Wait may hold the request (0 when it answers at once).
func (a *HeldAsk) Holds() time.Duration {
	if a.p == nil {
		return 0
	}
	return a.wait
}

// AnswerPermission answers card id with the human's answer: the held hook
// gets the decision in the shape Claude Code 2.1.328 reads
// (docs/clis.md §2.10), the card closes (PermissionClosed, AskAnswered),
// and the seat learns its dialog was answered (Terminals.PermissionAnswered:
// posts wait on for the CLI to go on, not for the dialog). Errors: ErrNoAsk
// when the card is closed, ErrNoSuggestion for Always without suggestions.
func (h *Hub) AnswerPermission(id uint64, a PermissionAnswer) error {
	d := &h.asks
	d.mu.Lock()
	p := d.open[id]
	if p == nil || !p.listed {
		d.mu.Unlock()
		return fmt.Errorf("answer permission request %d: %w", id, ErrNoAsk)
	}
	if a.Allow && a.Always && len(p.raw) == 0 {
		d.mu.Unlock()
		return fmt.Errorf("answer permission request %d: %w", id, ErrNoSuggestion)
	}
	reply := decision(a, p.raw)
	d.finishLocked(h, p, AskAnswered, reply, a.Allow)
	d.mu.Unlock()
	if h.terms != nil {
		h.terms.PermissionAnswered(p.ask.Topic, p.ask.Account, id, a.Allow)
	}
	return nil
}

// AskClosed closes card id of the seat (topicID, accountID) with {}: the
// seat saw its dialog answered in the pane, its CLI go on past it or drop
// it, or the seat ended (seats.ManagerOptions.AskClosed). Unknown ids and
// another seat's are ignored.
func (h *Hub) AskClosed(topicID, accountID string, id uint64) {
	d := &h.asks
	d.mu.Lock()
	defer d.mu.Unlock()
	if p := d.open[id]; p != nil && p.ask.Topic == topicID && p.ask.Account == accountID {
		d.finishLocked(h, p, AskElsewhere, nil, false)
	}
}

// PermissionAsks are the cards open now, oldest first (a UI that
// resynchronises reads them again). Copies.
func (h *Hub) PermissionAsks() []PermissionAsk {
	d := &h.asks
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []PermissionAsk
	for _, p := range d.open {
		if p.listed {
			out = append(out, copyAsk(p.ask))
		}
	}
	slices.SortFunc(out, func(a, b PermissionAsk) int { return compareID(a.ID, b.ID) })
	return out
}

func compareID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// finishAsk closes request id with reply (nil: {}) and why, if it is open.
func (h *Hub) finishAsk(id uint64, end AskEnd, reply []byte, allow bool) {
	d := &h.asks
	d.mu.Lock()
	defer d.mu.Unlock()
	if p := d.open[id]; p != nil {
		d.finishLocked(h, p, end, reply, allow)
	}
}

// closeAsks answers every open request {} (AskShutdown) and takes no more.
func (h *Hub) closeAsks() {
	d := &h.asks
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	for _, p := range d.open {
		d.finishLocked(h, p, AskShutdown, nil, false)
	}
}

// reserve numbers a new request and counts it against the bounds; nil
// when it is over them or the hub closed. Its card is not published yet.
func (d *askDesk) reserve(ask PermissionAsk, raw []json.RawMessage) *pendingAsk {
	key := [2]string{ask.Topic, ask.Account}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || len(d.open) >= maxAsks || d.perSeat[key] >= maxAsksPerSeat {
		return nil
	}
	if d.open == nil {
		d.open, d.perSeat = map[uint64]*pendingAsk{}, map[[2]string]int{}
	}
	d.next++
	ask.ID = d.next
	p := &pendingAsk{ask: ask, raw: raw, done: make(chan struct{})}
	d.open[ask.ID] = p
	d.perSeat[key]++
	return p
}

// list publishes p's card, unless the seat closed it meanwhile.
func (d *askDesk) list(h *Hub, p *pendingAsk, at, until time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.open[p.ask.ID] != p {
		return
	}
	p.ask.At, p.ask.Until = at, until
	p.listed = true
	h.emit(PermissionAsked{Ask: copyAsk(p.ask)})
}

// finishLocked ends p: its answer, why, its card closed. Caller holds
// d.mu.
func (d *askDesk) finishLocked(h *Hub, p *pendingAsk, end AskEnd, reply []byte, allow bool) {
	delete(d.open, p.ask.ID)
	key := [2]string{p.ask.Topic, p.ask.Account}
	if d.perSeat[key]--; d.perSeat[key] <= 0 {
		delete(d.perSeat, key)
	}
	p.reply, p.end, p.allow = reply, end, allow
	close(p.done)
	if p.listed {
		h.emit(PermissionClosed{ID: p.ask.ID, Topic: p.ask.Topic, Account: p.ask.Account, End: end, Allowed: allow})
	}
}

func copyAsk(a PermissionAsk) PermissionAsk {
	a.Suggestions = slices.Clone(a.Suggestions)
	for i, s := range a.Suggestions {
		a.Suggestions[i].Rules = slices.Clone(s.Rules)
		a.Suggestions[i].Directories = slices.Clone(s.Directories)
	}
	return a
}

// decision is the hook's answer for a: Claude Code 2.1.328's
// PermissionRequest output, {"hookSpecificOutput": {"hookEventName":
// "PermissionRequest", "decision": {"behavior": "allow",
// "updatedPermissions": [...]}}} or {..."decision": {"behavior": "deny",
// "message": "..."}} (read from its hook output schema, docs/clis.md
// §2.10). Always sends back the suggestions exactly as the CLI sent them.
func decision(a PermissionAnswer, raw []json.RawMessage) []byte {
	type decided struct {
		Behavior           string            `json:"behavior"`
		UpdatedPermissions []json.RawMessage `json:"updatedPermissions,omitempty"`
		Message            string            `json:"message,omitempty"`
	}
	d := decided{Behavior: "deny", Message: DenyReason(a.Reason)}
	if a.Allow {
		d = decided{Behavior: "allow"}
		if a.Always {
			d.UpdatedPermissions = raw
		}
	}
	out := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": HookPermissionRequest, "decision": d}}
	b, err := EncodeFrame(out)
	if err != nil { // plain strings and raw JSON that parsed: cannot fail
		return nil
	}
	return b
}

// DenyReason is the human's reason as it goes to the CLI: one line (line
// breaks and tabs become spaces, other control and bidi characters are
// dropped), trimmed, valid UTF-8, at most MaxDenyReason bytes.
func DenyReason(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case hiddenRune(r):
			return -1
		}
		return r
	}, s)
	return textcut.Bytes(strings.TrimSpace(s), MaxDenyReason)
}

// label keeps a name for the card: no hidden characters, at most
// maxAskLabel runes.
func label(s string) string {
	s = strings.Map(func(r rune) rune {
		if hiddenRune(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if utf8.RuneCountInString(s) > maxAskLabel {
		s = textcut.Runes(s, maxAskLabel) + "…"
	}
	return s
}

// parseAsk reads what a card shows from a PermissionRequest body: tool_name,
// tool_input, mcp_server.name, agent_type and permission_suggestions
// (spec: the three fields read for the card, besides the activity's). ok
// is false when the body names no tool: no card is shown for it. Each
// field is read on its own, so one odd field blanks only itself.
func parseAsk(body json.RawMessage) (ask PermissionAsk, raw []json.RawMessage, ok bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return ask, nil, false
	}
	str := func(v json.RawMessage) string {
		var s string
		_ = json.Unmarshal(v, &s)
		return s
	}
	if str(top["hook_event_name"]) != HookPermissionRequest {
		return ask, nil, false
	}
	tool := str(top["tool_name"])
	if tool == "" {
		return ask, nil, false
	}
	ask.Tool, ask.Agent = label(tool), label(str(top["agent_type"]))
	var server map[string]json.RawMessage
	if json.Unmarshal(top["mcp_server"], &server) == nil {
		ask.MCPServer = label(str(server["name"]))
	}
	if rest, found := strings.CutPrefix(tool, "mcp__"); found && ask.MCPServer == "" {
		if srv, _, two := strings.Cut(rest, "__"); two {
			ask.MCPServer = label(srv)
		}
	}
	sum := inputSummary(tool, top["tool_input"])
	ask.SummaryLines = strings.Count(sum, "\n") + 1
	if len(sum) > maxAskSummary {
		sum, ask.SummaryCut = textcut.Bytes(sum, maxAskSummary), true
	}
	ask.Summary = strings.ToValidUTF8(sum, "\uFFFD")
	ask.Suggestions, raw, ask.SuggestionsCut = parseSuggestions(top["permission_suggestions"])
	return ask, raw, true
}

// inputFields are, per tool, the input fields that say what it would do:
// the command of a shell, the path of a file tool. Any other tool's input
// is summarised as compact JSON.
var inputFields = map[string][]string{
	"Bash": {"command"}, "PowerShell": {"command"},
	"Read": {"file_path"}, "Write": {"file_path"}, "Edit": {"file_path"}, "MultiEdit": {"file_path"},
	"NotebookEdit": {"notebook_path"}, "NotebookRead": {"notebook_path"},
}

// inputSummary is the card's summary of a tool input: the field that says
// what the tool would do, else the input as compact JSON ("" when it is
// neither).
func inputSummary(tool string, input json.RawMessage) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(input, &fields) == nil {
		for _, name := range inputFields[tool] {
			var s string
			if json.Unmarshal(fields[name], &s) == nil && s != "" {
				return s + otherFields(fields, name)
			}
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, input) != nil {
		return ""
	}
	return b.String()
}

// otherFields are the input's fields besides the one shown first and the
// model's own description, one "name: value" line each in name order: what
// decides what the tool does must be on the card too — a Bash call's
// dangerouslyDisableSandbox, what a Write writes (breaker review: only the
// path was shown).
func otherFields(fields map[string]json.RawMessage, shown string) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		if n != shown && n != "description" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		v := fields[n]
		var s string
		if json.Unmarshal(v, &s) != nil {
			var c bytes.Buffer
			if json.Compact(&c, v) != nil {
				continue
			}
			s = c.String()
		}
		b.WriteString("\n" + n + ": " + s)
		if b.Len() > maxAskSummary {
			break
		}
	}
	return b.String()
}

// parseSuggestions reads permission_suggestions: each as the card shows it
// and as the CLI sent it (compacted). cut is true when there were more or
// longer ones than a card offers (then none is offered).
func parseSuggestions(v json.RawMessage) (out []PermissionSuggestion, raw []json.RawMessage, cut bool) {
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil || len(list) == 0 {
		return nil, nil, false
	}
	if len(list) > maxSuggestions {
		return nil, nil, true
	}
	total := 0
	for _, item := range list {
		var b bytes.Buffer
		if json.Compact(&b, item) != nil {
			continue
		}
		total += b.Len()
		if total > maxSuggestionBytes {
			return nil, nil, true
		}
		s, ok := readSuggestion(b.Bytes())
		if !ok {
			continue
		}
		out = append(out, s)
		raw = append(raw, json.RawMessage(b.Bytes()))
	}
	return out, raw, false
}

// readSuggestion reads one permission update (Claude Code's schema:
// addRules, replaceRules, removeRules with rules [{toolName,
// ruleContent?}], behavior and destination; setMode with mode;
// addDirectories, removeDirectories with directories). ok is false for
// something that is not an object with a "type", and for one whose keys a
// case-sensitive reader could take otherwise than we do (distinctKeys).
// Keys are read exactly as written, as the CLI reads them: encoding/json
// matches struct fields case-insensitively, the last key winning, so
// {"type":"addRules","Type":"setMode"} drew a setMode card while the CLI,
// sent the same bytes back, read addRules (issue 32).
func readSuggestion(b []byte) (PermissionSuggestion, bool) {
	var obj map[string]json.RawMessage
	if !distinctKeys(b) || json.Unmarshal(b, &obj) != nil {
		return PermissionSuggestion{}, false
	}
	var typ string
	if json.Unmarshal(obj["type"], &typ) != nil || typ == "" {
		return PermissionSuggestion{}, false
	}
	other := PermissionSuggestion{Type: label(typ), Other: string(b)}
	var behavior, destination, mode string
	var dirs []string
	var rules []map[string]json.RawMessage
	if !exact(obj, "behavior", &behavior) || !exact(obj, "destination", &destination) || !exact(obj, "mode", &mode) ||
		!exact(obj, "directories", &dirs) || !exact(obj, "rules", &rules) {
		return other, true // a known key of another shape: shown as the JSON it is
	}
	out := PermissionSuggestion{Type: other.Type, Behavior: label(behavior), Destination: label(destination)}
	switch typ {
	case "addRules", "replaceRules", "removeRules":
		for _, r := range rules {
			var tool, content string
			if !exact(r, "toolName", &tool) || !exact(r, "ruleContent", &content) {
				return other, true
			}
			if content != "" {
				tool += "(" + content + ")"
			}
			out.Rules = append(out.Rules, tool)
		}
	case "setMode":
		out.Mode = label(mode)
	case "addDirectories", "removeDirectories":
		out.Directories = dirs
	default:
		return other, true
	}
	return out, true
}

// exact decodes obj[key] — that key exactly, as a case-sensitive reader
// takes it — into v; true when the key is absent, null or of v's shape.
func exact(obj map[string]json.RawMessage, key string, v any) bool {
	raw, ok := obj[key]
	return !ok || json.Unmarshal(raw, v) == nil
}

// distinctKeys reports whether no object in the JSON value b has two keys
// that are equal or equal with case folded as encoding/json folds them
// (unicode.ToUpper of unicode.ToLower, rune by rune: the Kelvin sign is
// k). Where it holds, our reading and a case-sensitive reader's agree.
func distinctKeys(b []byte) bool {
	type object struct {
		keys    map[string]bool
		wantKey bool
	}
	var stack []*object // nil entries: arrays
	d := json.NewDecoder(bytes.NewReader(b))
	for {
		t, err := d.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		var top *object
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, isStr := t.(string); isStr && top != nil && top.wantKey {
			f := strings.Map(func(r rune) rune { return unicode.ToUpper(unicode.ToLower(r)) }, k)
			if top.keys[f] {
				return false
			}
			top.keys[f], top.wantKey = true, false
			continue
		}
		switch t {
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil {
			top.wantKey = true // a value ends at this level once its tokens are read
		}
		switch t {
		case json.Delim('{'):
			stack = append(stack, &object{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, nil)
		}
	}
}
