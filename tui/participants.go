package tui

import (
	"fmt"
	"strings"

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

func pct(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", *p)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
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
// while no AI account exists.
func (p *participants) render(e *env, d *partData) {
	if k := p.renderKey(e); k == p.rendered && len(p.view) == p.h {
		return
	}
	defer func() { p.rendered = p.renderKey(e) }() // after the cursor is clamped
	if p.w <= 0 || p.h <= 0 {
		p.view, p.rowAt = nil, nil
		return
	}
	var out taggedLines[int]
	out.add(" "+e.th.title.Render(e.tr.t(mPartsTitle)), -1)
	rows := d.rows()
	p.sel = clampInt(p.sel, 0, max(len(rows)-1, 0))
	p.renderRows(e, d, rows, &out)
	if len(rows) == 0 {
		out.add("  "+e.th.dim.Render(e.tr.t(mPartsNone)), -1)
	}
	if !d.hasSeatAccounts() {
		renderQuickHint(e, d, p.w, &out)
	}
	// Scroll so the selected row's first line is visible.
	out.keepVisible(p.sel, p.h)
	p.view, p.rowAt = out.fill(p.w, p.h, -1)
}

// renderRows draws every row, each group of one kind under a header that
// counts it.
func (p *participants) renderRows(e *env, d *partData, rows []partRow, out *taggedLines[int]) {
	group := "\x00"
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
			name := e.th.hueStyle(speakerHue(r.guest.Hue, r.guest.Name, "", nil)).Render(sanitize(r.guest.Name))
			out.add(gutter+" "+name, ri)
			continue
		}
		p.renderAccount(e, d, r.account, gutter, ri, out)
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

// renderAccount draws an account's row: its name (faint while its seat is
// down) and state badge, then a running seat's usage, or the reason its
// start failed.
func (p *participants) renderAccount(e *env, d *partData, a *AccountInfo, gutter string, ri int, out *taggedLines[int]) {
	th := e.th
	hue := speakerHue(a.Hue, displayAccountName(*a), "", nil)
	if a.ID == d.adminID && a.Hue == nil {
		hue = accentHue
	}
	st := d.state(a.ID)
	nameStyle := th.hueStyle(hue)
	if seatKind(a.Kind) && (st == SeatOffline || st == SeatExited || st == SeatFailed) {
		nameStyle = nameStyle.Faint(true)
	}
	badge := p.badge(e, d, a, st)
	bw := ansi.StringWidth(badge)
	name := nameStyle.Render(fit(sanitize(displayAccountName(*a)), max(p.w-3-bw, 1)))
	out.add(gutter+" "+name+" "+badge, ri)
	if s, ok := d.seats[a.ID]; ok && s.State == SeatRunning {
		out.add("   "+th.dim.Render(orDash(s.Model)+" · "+orDash(s.Effort)), ri)
		out.add("   "+th.dim.Render(e.tr.t(mUsage5h)+" "+pct(s.FiveHour)+" "+e.tr.t(mUsageWeek)+" "+pct(s.Weekly)+" "+e.tr.t(mUsageCtx)+" "+pct(s.Context)), ri)
	}
	if msg, ok := d.failed[a.ID]; ok && st == SeatFailed {
		for _, l := range wrapText(msg, max(p.w-4, 4)) {
			out.add("   "+th.dangerS.Render(l), ri)
		}
	}
}

// badge is an account's state label: "(you)" for the screen's admin, its
// seat's state for a seat kind, nothing for the others.
func (p *participants) badge(e *env, d *partData, a *AccountInfo, st SeatState) string {
	th, tr := e.th, e.tr
	switch {
	case a.ID == d.adminID:
		return th.dim.Render(tr.t(mPartsYou))
	case !seatKind(a.Kind):
		return ""
	case st == SeatStarting:
		return th.dim.Render(p.frame + tr.t(mPartsStarting))
	case st == SeatRunning:
		return th.okS.Render(tr.t(mPartsRunning))
	case st == SeatExited:
		return th.dim.Render(tr.t(mPartsExited))
	case st == SeatFailed:
		return th.dangerS.Render(tr.t(mPartsFailed))
	}
	return th.dim.Render(tr.t(mPartsOffline))
}

// renderQuickHint is the first-run hint: the 1/2/3 shortcuts and whether
// each kind's usual command is on PATH.
func renderQuickHint(e *env, d *partData, w int, out *taggedLines[int]) {
	th := e.th
	out.add("", -1)
	for _, l := range wrapText(e.tr.t(mPartsHint), max(w-2, 4)) {
		out.add(" "+th.text.Render(l), -1)
	}
	for i, q := range quickKinds {
		state := e.tr.t(mPartsNotFound)
		if q.command == "" {
			state = "—"
		} else if _, ok := d.found[q.command]; ok {
			state = e.tr.t(mPartsFound)
		}
		out.add(" "+th.accentS.Render(fmt.Sprint(i+1))+" "+th.text.Render(e.tr.t(mPartsQuick, e.tr.t(q.label), state)), -1)
	}
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
