package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// kindOrder is the participant panel's group order (spec «参加者パネル»:
// admin, Claude Code, Codex, CLI, MCP, then guests).
var kindOrder = []string{KindAdmin, KindClaudeCode, KindCodexCLI, KindCLI, KindMCP}

// seatKinds are the kinds that run in a seat (start/stop apply).
func seatKind(kind string) bool {
	return kind == KindClaudeCode || kind == KindCodexCLI || kind == KindCLI
}

func kindLabel(e *env, kind string) string {
	switch kind {
	case KindAdmin:
		return e.tr.t(mKindAdmin)
	case KindClaudeCode:
		return e.tr.t(mKindClaude)
	case KindCodexCLI:
		return e.tr.t(mKindCodex)
	case KindCLI:
		return e.tr.t(mKindCLI)
	case KindMCP:
		return e.tr.t(mKindMCP)
	}
	return kind
}

// partRow is one selectable row: an account or a guest connection.
type partRow struct {
	account *AccountInfo
	guest   *room.Member
}

// quickKind is one first-run shortcut (1/2/3): a kind and its usual command.
type quickKind struct {
	kind, command string
	label         msgKey
}

var quickKinds = []quickKind{
	{KindClaudeCode, "claude", mKindClaude},
	{KindCodexCLI, "codex", mKindCodex},
	{KindCLI, "", mKindCLI},
}

// participants is the right column: accounts grouped by kind with their
// seat state in the open topic, usage fields per running seat, and guests.
type participants struct {
	sel     int // cursor row among partData.rows()
	focused bool
	frame   string // spinner frame while any seat starts

	w, h     int
	version  int            // bumped when what partData holds changed
	view     []string       // h rendered lines of w cells
	rowAt    []int          // selectable row index per view row, -1 none
	rendered panelRenderKey // what view was rendered from
}

// panelRenderKey is everything the panel's view depends on; the data it
// draws is owned elsewhere, whose changes bump version.
type panelRenderKey struct {
	w, h, gen int
	focused   bool
	sel       int
	frame     string
	version   int
}

func (p *participants) renderKey(e *env) panelRenderKey {
	return panelRenderKey{p.w, p.h, e.gen, p.focused, p.sel, p.frame, p.version}
}

// changed marks the accounts, roster or seats it draws as moved.
func (p *participants) changed() { p.version++ }

// partData is what the panel draws, gathered by the root model.
type partData struct {
	accounts []AccountInfo
	roster   []room.Member
	seats    map[string]SeatInfo // by account id, open topic
	starting map[string]bool     // start pressed, no answer yet
	failed   map[string]string   // last start's refusal, by account
	adminID  string
	found    map[string]string // command → path for the first-run hint
	// asking are the accounts whose seat in the open topic has a
	// permission card waiting (permission.go): highlighted.
	asking map[string]bool
	owed   map[string]bool // addressed, not answered yet (noteOwed)
	// post looks a post of the open topic's chat up by message id (its
	// body), for the details' delivery section; nil: none.
	post func(id string) (string, bool)
	// servers are the mcp accounts' servers, by account id (mcprows.go).
	servers map[string]MCPServerInfo
	// socket is where the seats reach the room (details.go); nil unread.
	socket *RoomSocket
}

// postBody is the body of the chat's post id, "" when the chat does not
// hold it.
func (d *partData) postBody(id string) string {
	if d.post == nil {
		return ""
	}
	b, _ := d.post(id)
	return b
}

// rows lists the selectable rows in display order.
func (d *partData) rows() []partRow {
	var out []partRow
	for _, k := range kindOrder {
		for i := range d.accounts {
			if d.accounts[i].Kind == k {
				out = append(out, partRow{account: &d.accounts[i]})
			}
		}
	}
	for i := range d.accounts {
		if !knownKind(d.accounts[i].Kind) {
			out = append(out, partRow{account: &d.accounts[i]})
		}
	}
	for i := range d.guests() {
		g := d.guests()[i]
		out = append(out, partRow{guest: &g})
	}
	return out
}

func knownKind(k string) bool {
	for _, x := range kindOrder {
		if x == k {
			return true
		}
	}
	return false
}

// guests are roster members without a known account (never the UI itself).
func (d *partData) guests() []room.Member {
	known := map[string]bool{}
	for _, a := range d.accounts {
		known[a.ID] = true
	}
	var out []room.Member
	for _, m := range d.roster {
		if m.Local || (m.AccountID != "" && known[m.AccountID]) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// hasSeatAccounts reports whether any account runs in a seat.
func (d *partData) hasSeatAccounts() bool {
	for _, a := range d.accounts {
		if seatKind(a.Kind) {
			return true
		}
	}
	return false
}

// state is an account's seat state in the open topic.
func (d *partData) state(id string) SeatState {
	if d.starting[id] {
		return SeatStarting
	}
	if s, ok := d.seats[id]; ok {
		return s.State
	}
	if _, ok := d.failed[id]; ok {
		return SeatFailed
	}
	return SeatOffline
}

// move moves the cursor by delta among n rows.
func (p *participants) move(delta, n int) {
	p.sel = clampInt(p.sel+delta, 0, max(n-1, 0))
}

// click moves the cursor to the row drawn at view row y, if any.
func (p *participants) click(y int) {
	if y < len(p.rowAt) && p.rowAt[y] >= 0 {
		p.sel = p.rowAt[y]
	}
}

// setSize changes the panel's rectangle.
func (p *participants) setSize(w, h int) { p.w, p.h = w, h }

// render rebuilds the cached panel (h lines of w cells) when its key moved: the
// title, each kind's group of accounts, guests, and the first-run hint
// while no AI account exists; while the panel has focus, the selected
// seat's details are pinned under the list.
func (p *participants) render(e *env, d *partData) {
	if k := p.renderKey(e); k == p.rendered && len(p.view) == p.h {
		return
	}
	defer func() { p.rendered = p.renderKey(e) }() // after the cursor is clamped
	if p.w <= 0 || p.h <= 0 {
		p.view, p.rowAt = nil, nil
		return
	}
	now := e.now()
	var out taggedLines[int]
	out.add(" "+e.th.title.Render(e.tr.t(mPartsTitle)), -1)
	rows := d.rows()
	p.sel = clampInt(p.sel, 0, max(len(rows)-1, 0))
	p.renderRows(e, d, rows, now, &out)
	if len(rows) == 0 {
		out.add("  "+e.th.dim.Render(e.tr.t(mPartsNone)), -1)
	}
	if !d.hasSeatAccounts() {
		renderQuickHint(e, d, p.w, &out)
	}
	var details []string
	if a := p.selected(rows); a != nil {
		// An account of a seat kind has details without a seat too: the
		// session its topic records, to resume by hand after a restart
		// (spec «参加者パネル» #144).
		if s, ok := d.seats[a.ID]; ok || seatKind(a.Kind) {
			details = detailLines(e, displayAccountName(*a), s, d.socket, d.postBody(s.Confirmed), p.w, p.h/2)
		}
	}
	listH := p.h - len(details)
	// Scroll so the selected row's first line is visible.
	out.keepVisible(p.sel, listH)
	p.view, p.rowAt = out.fill(p.w, listH, -1)
	for _, l := range details {
		p.view = append(p.view, fit(l, p.w))
		p.rowAt = append(p.rowAt, -1)
	}
}

// selected is the account under the cursor while the panel has focus,
// nil otherwise.
func (p *participants) selected(rows []partRow) *AccountInfo {
	if !p.focused || p.sel >= len(rows) {
		return nil
	}
	return rows[p.sel].account
}

// renderRows draws every row, each group of one kind under a header that
// counts it.
func (p *participants) renderRows(e *env, d *partData, rows []partRow, now time.Time, out *taggedLines[int]) {
	group := "\x00"
	markW := rowMarkWidth(e, rows)
	for ri, r := range rows {
		if g := r.group(); g != group {
			group = g
			out.add(groupHeader(e, rows, r), -1)
		}
		gutter := " "
		if p.focused && p.sel == ri {
			gutter = e.th.accentS.Render("›")
		}
		if r.guest != nil {
			hue := speakerHue(r.guest.Hue, r.guest.Name, "", nil)
			tag, _ := rowMark(e, r.markKey(), e.th.markStyle(hue), markW, p.w-2)
			name := e.th.hueStyle(hue).Render(sanitize(r.guest.Name))
			out.add(gutter+" "+tag+name, ri)
			continue
		}
		p.renderAccount(e, d, r.account, gutter, markW, ri, now, out)
	}
}

// group is the kind a row is listed under; guests have their own.
func (r partRow) group() string {
	if r.account != nil {
		return r.account.Kind
	}
	return "guest"
}

// groupHeader is "<kind> — <count>" for the group that r opens.
func groupHeader(e *env, rows []partRow, r partRow) string {
	g := r.group()
	label := e.tr.t(mPartsGuests)
	if r.account != nil {
		label = kindLabel(e, g)
	}
	n := 0
	for _, x := range rows {
		if x.group() == g {
			n++
		}
	}
	return " " + e.th.dim.Render(label+" — "+fmt.Sprint(n))
}

// minNameW is how many cells of a long name a row keeps ("Cl…") before
// its word is cut: the word (a state, an activity) is what the row is
// read for, so the name gives way first.
const minNameW = 3

// renderAccount draws an account's row: its mark (avatars.go; markW cells)
// and its name (both faint while its seat is down) and its word (state or
// activity), then the seat's running
// subagents, held posts, launch warning and usage, or the reason its start
// failed.
func (p *participants) renderAccount(e *env, d *partData, a *AccountInfo, gutter string, markW, ri int, now time.Time, out *taggedLines[int]) {
	th := e.th
	st := d.state(a.ID)
	hue := accountHue(*a, d.adminID)
	nameStyle, markStyle := th.hueStyle(hue), th.markStyle(hue)
	if seatKind(a.Kind) && (st == SeatOffline || st == SeatExited || st == SeatFailed) ||
		a.Kind == KindMCP && d.serverDown(a.ID) {
		nameStyle, markStyle = nameStyle.Faint(true), markStyle.Faint(true)
	}
	tag, tagW := rowMark(e, markAccountKey(a.ID), markStyle, markW, p.w-2)
	if d.asking[a.ID] {
		// A permission card waits for this seat: its name stands out, and
		// the gutter says so unless the cursor is there.
		nameStyle = nameStyle.Reverse(true).Bold(true)
		if strings.TrimSpace(gutter) == "" {
			gutter = th.accentS.Render("!")
		}
	}
	s, hasSeat := d.seats[a.ID]
	word, tn := p.badge(e, d, a, st, s, now)
	out.add(gutter+" "+tag+nameAndWord(e, nameStyle, oneLine(displayAccountName(*a)), word, tn, p.w-2-tagW), ri)
	if sub := subagentWord(e, s); hasSeat && st == SeatRunning && sub != "" {
		out.add("   "+toneBusy.style(th).Render(cut(sub, p.w-3)), ri)
	}
	if hasSeat {
		for _, l := range seatLines(e, s, p.w, now, a.Kind != KindCLI) {
			out.add(l, ri)
		}
	}
	if msg, ok := d.failed[a.ID]; ok && st == SeatFailed {
		for _, l := range wrapCut(oneLine(msg), max(p.w-4, 4), 4) {
			out.add("   "+th.dangerS.Render(l), ri)
		}
	}
	if why, failed := serverWhy(e, d, a.ID); a.Kind == KindMCP && why != "" {
		st := th.dim
		if failed {
			st = th.dangerS
		}
		for _, l := range wrapCut(why, max(p.w-4, 4), 2) {
			out.add("   "+st.Render(l), ri)
		}
	}
}

// nameAndWord is a row's first line, w cells: the name on the left and its
// word on the right, whole; a long name is cut with "…" first, and the
// word only once the name is down to minNameW cells.
func nameAndWord(e *env, nameStyle lipgloss.Style, name, word string, tn tone, w int) string {
	if word == "" {
		return nameStyle.Render(fit(cut(name, max(w-1, 1)), max(w-1, 1))) + " "
	}
	keep := min(ansi.StringWidth(name), minNameW)
	word = cut(word, max(w-keep-1, 1))
	nameW := max(w-ansi.StringWidth(word)-1, 1)
	return nameStyle.Render(fit(cut(name, nameW), nameW)) + " " + tn.style(e.th).Render(word)
}

// seatLines are the lines under a seat's name: posts held before its
// terminal, its launch warning (the first, with how many more), and its
// usage while it runs or, dimmed, the last known after it ended; meters
// false (a generic CLI) leaves out usage it never reported.
func seatLines(e *env, s SeatInfo, w int, now time.Time, meters bool) []string {
	th := e.th
	var out []string
	if h := heldText(e, s); h != "" {
		for _, l := range wrapCut(h, max(w-4, 4), 3) {
			out = append(out, "   "+th.accentS.Render(l))
		}
	}
	if s.Folded > 0 {
		for _, l := range wrapCut(e.tr.tn(mFolded, s.Folded, s.Folded), max(w-4, 4), 2) {
			out = append(out, "   "+th.dim.Render(l))
		}
	}
	if ws := seatWarnings(e.tr, s); len(ws) > 0 {
		more := ""
		if n := len(ws) - 1; n > 0 {
			more = fmt.Sprintf(" +%d", n)
		}
		first := cut("! "+oneLine(ws[0]), max(w-4-len(more), 1))
		out = append(out, "   "+th.accentS.Render(first)+th.dim.Render(more))
	}
	if s.NotIsolated != "" && s.State != SeatOffline {
		// The reason is in its details (detailLines).
		out = append(out, "   "+th.dim.Render(cut(e.tr.t(mPartsNotIsolated), max(w-3, 1))))
	}
	// A generic CLI reports no plan or context figures: its rows would only
	// ever be dashes (unless it did report some).
	if !meters && !usageKnown(s) {
		return out
	}
	switch s.State {
	case SeatRunning:
		out = append(out, usageLines(e, s, w, now, false)...)
	case SeatExited:
		out = append(out, usageLines(e, s, w, now, true)...)
	}
	return out
}

// badge is an account's word: "(you)" for the screen's admin, for a seat
// kind its seat's state or, while it runs, what it is doing ("running"
// until its CLI reported anything), nothing for the others.
func (p *participants) badge(e *env, d *partData, a *AccountInfo, st SeatState, s SeatInfo, now time.Time) (string, tone) {
	tr := e.tr
	switch {
	case a.ID == d.adminID:
		return tr.t(mPartsYou), toneDim
	case a.Kind == KindMCP:
		return serverBadge(e, d, a.ID)
	case !seatKind(a.Kind):
		return "", toneDim
	case st == SeatStarting:
		return p.frame + tr.t(mPartsStarting), toneDim
	case st == SeatRunning:
		if w, tn := activityWord(e, s, d.owed[a.ID], now); w != "" {
			return w, tn
		}
		// No report yet (a generic CLI never sends one): the state, which
		// is observed, claims no activity and is not coloured.
		return tr.t(mPartsRunning), toneDim
	case st == SeatExited && s.Requested:
		return tr.t(mPartsStopped), toneDim
	case st == SeatExited:
		return tr.t(mPartsExited), toneDim
	case st == SeatFailed:
		return tr.t(mPartsFailed), toneDanger
	}
	if s.Resumable {
		return tr.t(mPartsResumable), toneBusy
	}
	return tr.t(mPartsOffline), toneDim
}

// detailLines are the selected seat's details, at most maxH lines of w
// cells (spec «参加者パネル»: the room's address sock — in the danger
// colour, the title too, when it does not answer — the session id — the
// topic's record, also for an account without a seat — how the CLI is
// reached, command line, working directory, start time, window): a rule
// with its name, then each value on one line — the command on two, the
// directory keeping its end — the delivery of posts
// to a seat whose CLI confirms them (taken is the body of the last post it
// took, "" when the chat does not hold it), and its launch warnings in
// full.
func detailLines(e *env, name string, s SeatInfo, sock *RoomSocket, taken string, w, maxH int) []string {
	th, tr := e.th, e.tr
	title := " " + tr.t(mDetTitle, oneLine(name)) + " "
	rule, head := th.dim, th.title
	if sock != nil && sock.Err != "" {
		rule, head = th.dangerS, th.dangerS // a failure under the fold shows on its title
	}
	out := []string{rule.Render("─") + head.Render(cut(title, max(w-2, 1))) +
		rule.Render(strings.Repeat("─", max(w-1-ansi.StringWidth(title), 0)))}
	labels := []msgKey{mDetRoom, mDetSession, mDetVia, mDetCommand, mDetDir, mDetStarted, mDetWindow}
	if s.Isolated {
		labels = append(labels, mDetIsolation)
	}
	if s.Confirming {
		labels = append(labels, deliveryLabels...)
	}
	lw := 0
	for _, k := range labels {
		lw = max(lw, ansi.StringWidth(tr.t(k)))
	}
	vw := max(w-lw-2, 1)
	indent := strings.Repeat(" ", lw+2)
	row := func(label msgKey, v string) string {
		return " " + th.dim.Render(fit(tr.t(label), lw)) + " " + th.text.Render(v)
	}
	out = append(out, roomRow(e, sock, lw, vw))
	out = append(out, sessionRows(e, s, lw, vw)...)
	via, addr := viaText(e, s)
	out = append(out, row(mDetVia, cut(via, vw)))
	if addr != "" {
		out = append(out, indent+th.text.Render(fitLeft(addr, vw))) // its end names the seat
	}
	for i, l := range commandLines(orDash(oneLine(s.Command)), vw) {
		if i == 0 {
			out = append(out, row(mDetCommand, l))
		} else {
			out = append(out, indent+th.text.Render(l))
		}
	}
	out = append(out, row(mDetDir, fitLeft(orDash(oneLine(s.Dir)), vw)), row(mDetStarted, startedText(e, s.Started)),
		row(mDetWindow, windowText(s)))
	if s.Isolated {
		out = append(out, row(mDetIsolation, cut(tr.t(mDetIsolated), vw)))
	}
	if s.Confirming {
		out = append(out, deliveryLines(e, s, taken, w, lw)...)
	}
	var warnings []string
	if sock != nil && sock.Err != "" {
		warnings = append(warnings, tr.t(mDetRoomDown, sock.Err))
	}
	warnings = append(warnings, seatWarnings(tr, s)...)
	if s.NotIsolated != "" {
		warnings = append(warnings, tr.t(mDetNotIsolated, s.NotIsolated))
	}
	for _, wn := range warnings {
		for i, l := range wrapCut(oneLine(wn), w-4, 8) {
			mark := "  "
			if i == 0 {
				mark = "! "
			}
			out = append(out, " "+th.accentS.Render(mark+l))
		}
	}
	if len(out) > maxH {
		out = out[:max(maxH, 0)]
	}
	return out
}

// deliveryLabels are the delivery section's labels (deliveryLines).
var deliveryLabels = []msgKey{mDetStuck, mDetPending, mDetTaken, mDetMissed, mDetFused}

// deliveryLines are the details' section on the posts typed into a seat
// whose CLI confirms each one (docs/design.md §5), values lw+2 cells in,
// most pressing first: the post it did not take and what the human can do
// (the queue waits for it), the post typed and not taken yet, the last
// post it took (when, and the start of its body, taken, when the chat
// holds it), how many it never took, and submits that held several posts.
func deliveryLines(e *env, s SeatInfo, taken string, w, lw int) []string {
	th, tr := e.th, e.tr
	vw := max(w-lw-2, 1)
	label := " ─ " + tr.t(mDetDelivery) + " "
	out := []string{th.dim.Render(ansi.Truncate(label+strings.Repeat("─", max(w-ansi.StringWidth(label), 0)), w, ""))}
	rows := func(k msgKey, text string, n int, st lipgloss.Style) {
		for i, l := range wrapCut(text, vw, n) {
			head := strings.Repeat(" ", lw)
			if i == 0 {
				head = th.dim.Render(fit(tr.t(k), lw))
			}
			out = append(out, " "+head+" "+st.Render(l))
		}
	}
	if s.Stuck != "" {
		rows(mDetStuck, tr.t(mDetStuckText), 6, th.accentS)
	}
	if s.Pending != "" {
		rows(mDetPending, tr.t(mDetPendingText), 2, th.text)
	}
	when := tr.t(mDetNone)
	if s.Confirmed != "" {
		when = startedText(e, s.ConfirmedAt)
		if b := oneLine(taken); b != "" {
			room := vw - ansi.StringWidth(tr.t(mDetTakenPost, when, ""))
			if room >= 4 {
				when = tr.t(mDetTakenPost, when, cut(b, room))
			}
		}
	}
	rows(mDetTaken, when, 1, th.text)
	if n := len(s.Unconfirmed); n > 0 {
		rows(mDetMissed, tr.t(mDetMissedText, n), 2, th.accentS)
	}
	if s.Fused > 0 {
		rows(mDetFused, tr.t(mDetFusedText, s.Fused), 2, th.text)
	}
	return out
}

// firstKey is a binding's first key, as a hint names it.
func firstKey(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return ""
}

// startedText is when a seat started, in the UI's time format: "14:02"
// today, "10/1 14:02" this year, with the year before.
func startedText(e *env, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	t = t.In(e.loc)
	now := e.now().In(e.loc)
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("1/2 15:04")
	}
	return t.Format("2006/1/2 15:04")
}

// renderQuickHint is the first-run hint: the 1/2/3 shortcuts and whether
// each kind's usual command is on PATH.
func renderQuickHint(e *env, d *partData, w int, out *taggedLines[int]) {
	th := e.th
	out.add("", -1)
	for _, l := range wrapWords(e.tr.t(mPartsHint), max(w-2, 4)) {
		out.add(" "+th.text.Render(l), -1)
	}
	for i, q := range quickKinds {
		state := e.tr.t(mPartsNotFound)
		if q.command == "" {
			state = "—"
		} else if _, ok := d.found[q.command]; ok {
			state = e.tr.t(mPartsFound)
		}
		// Wrapped under its text, never cut: "(not on PATH)" is the point.
		for j, l := range wrapText(e.tr.t(mPartsQuick, e.tr.t(q.label), state), max(w-3, 4)) {
			num := " "
			if j == 0 {
				num = th.accentS.Render(fmt.Sprint(i + 1))
			}
			out.add(" "+num+" "+th.text.Render(l), -1)
		}
	}
}

// commandLines are a seat's command line in at most two lines of w
// cells, wrapped; a program's path too wide for a line is cut in its
// middle to keep its file name, and its arguments take the second line.
func commandLines(cmd string, w int) []string {
	prog, args, _ := strings.Cut(cmd, " ")
	if ansi.StringWidth(prog) <= w || strings.HasPrefix(prog, "'") || strings.HasPrefix(prog, `"`) {
		return wrapCut(cmd, w, 2)
	}
	out := []string{cutPath(prog, w)}
	if args = strings.TrimSpace(args); args != "" {
		out = append(out, cut(args, w))
	}
	return out
}

// displayAccountName is the name shown and addressed: nickname, else name.
func displayAccountName(a AccountInfo) string {
	if strings.TrimSpace(a.Nickname) != "" {
		return a.Nickname
	}
	if strings.TrimSpace(a.Name) != "" {
		return a.Name
	}
	return a.ID
}
