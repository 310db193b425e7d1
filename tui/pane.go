package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// pane is one seat's terminal in the split area (docs/design.md §10): the seat's
// latest snapshot inside a border that carries its name and state. Rows
// come from the emulator already rendered (run-length SGR), so a pane
// re-renders only when the snapshot's version, its size, focus or state
// moved, and never styles cells one by one (docs/design.md §14).
type pane struct {
	key   seatKey
	name  string    // the account's display name, in the border
	kind  string    // the account's kind (KindClaudeCode…), "" when it is gone
	hue   int       // the account's colour for the name
	state SeatState // as the last Seats() said
	end   seatEnd   // how it ended, shown while state is SeatExited
	word  string    // what the seat is doing (activityWord), "" unknown
	tone  tone      // the word's colour

	snap PaneSnapshot // the seat's screen as last read
	has  bool         // snap holds a real snapshot (the cursor shows)

	// Scrollback mode: sb holds the lines above the screen, sbOff how many
	// rows the view sits above the live bottom.
	scrolling bool
	sb        []string
	sbOff     int
	sbWant    int // rows to scroll up once the scrollback arrives (the move that entered it)

	// Reading (pane_read.go): the mouse selection, the scrollback search,
	// and a count typed before the copy key. local grows whenever one of
	// them moved, so the render key sees it.
	sel   selection
	find  paneFind
	count int
	local int

	// cols×rows last asked of the seat (Resize / StartSeat).
	cols, rows int

	view     []string      // the rendered pane, nil to force a redraw
	rendered paneRenderKey // what view was rendered from
}

// seatEnd is how an exited seat ended (SeatInfo.Requested, Signal,
// ExitCode).
type seatEnd struct {
	requested bool
	signal    int
	code      int
}

// paneRenderKey is what a pane's view is rendered from besides the rows
// of its snapshot, which Version stands for. The hue is not in it (as
// before keys had a type): a change to it alone shows at the pane's next
// redraw.
type paneRenderKey struct {
	version uint64 // the snapshot's
	w, h    int
	focused bool
	state   SeatState
	end     seatEnd
	gen     int
	scroll  int // sbOff while scrolling, -1 otherwise
	local   int // the pane's selection, search and count
	name    string
	word    string
	tone    tone
}

// innerSize is the terminal area inside a pane's border.
func innerSize(r rect) (cols, rows int) { return max(r.W-2, 1), max(r.H-2, 1) }

// live reports whether keys typed into the pane reach a program: its seat
// starts or runs. An exited pane is only read (and closed).
func (p *pane) live() bool { return p.state == SeatStarting || p.state == SeatRunning }

// endWords says how a seat ended: "stopped" when the human (or a topic
// delete, or quit) asked, "killed by signal 9" when a signal nobody in the
// app sent ended it, else "exited 3" (docs/design.md §10). Only an end
// nobody asked for that was not a clean exit is in the danger colour.
func endWords(e *env, end seatEnd) (string, tone) {
	switch {
	case end.requested:
		return e.tr.t(mPaneStopped), toneDim
	case end.signal > 0:
		return e.tr.t(mPaneKilled, end.signal), toneDanger
	case end.code != 0:
		return e.tr.t(mPaneExited, end.code), toneDanger
	}
	return e.tr.t(mPaneExited, 0), toneDim
}

// paneStateLabel is the title's word: the seat's state, or what a
// running seat is doing once its CLI said (the participant row's word,
// with its subagents).
func paneStateLabel(e *env, p *pane) (string, tone) {
	switch p.state {
	case SeatStarting:
		return e.tr.t(mPaneStarting), toneDim
	case SeatExited:
		return endWords(e, p.end)
	case SeatFailed:
		return e.tr.t(mPaneFailed), toneDanger
	}
	if p.word != "" {
		return p.word, p.tone
	}
	return e.tr.t(mPaneRunning), toneDim
}

// render draws the pane at r; focused adds the accent border and the leave
// key in the lower border. Cached until something it shows changed.
func (p *pane) render(e *env, r rect, focused bool) []string {
	scroll := -1
	if p.scrolling {
		scroll = p.sbOff
	}
	k := paneRenderKey{p.snap.Version, r.W, r.H, focused, p.state, p.end, e.gen, scroll, p.local, p.name, p.word, p.tone}
	if p.view != nil && k == p.rendered {
		return p.view
	}
	p.rendered = k
	w, h := r.W, r.H
	if w < 4 || h < 3 {
		p.view = block(nil, w, h)
		return p.view
	}
	bs := e.th.border
	if focused {
		bs = e.th.borderFocus
	}
	title, tight := p.title(e, focused, r)
	tw := ansi.StringWidth(title)
	out := make([]string, 0, h)
	if tight {
		out = append(out, bs.Render("╭")+title+sgrReset+bs.Render(strings.Repeat("─", max(w-2-tw, 0))+"╮"))
	} else {
		out = append(out, bs.Render("╭─ ")+title+sgrReset+bs.Render(" "+strings.Repeat("─", max(w-5-tw, 0))+"╮"))
	}
	left, right := bs.Render("│"), bs.Render("│")
	for _, row := range p.bodyRows(e, r) {
		out = append(out, left+row+sgrReset+right)
	}
	out = append(out, p.bottom(e, bs, w, focused))
	p.view = out
	return out
}

// bottom is the pane's lower border, which holds the search prompt while
// it is open, in a scrollback that has nothing where the program's own
// view is (ownViewWhy), and in a pane typed into the key that leaves it:
// the title gives its hints way first, and at 80×24 nothing on screen said
// how to get out (issue 35).
func (p *pane) bottom(e *env, bs lipgloss.Style, w int, focused bool) string {
	var text string
	switch {
	case w < 8:
	case p.find.typing:
		text = p.find.promptView(w - 6)
	case p.ownView():
		text = e.th.accentS.Render(titleCut(p.ownViewWhy(e), w-5))
	case focused && p.live() && !p.scrolling:
		text = e.th.accentS.Render(titleCut(e.tr.t(mPaneLeaves, keysLabel(e.keys.LeavePane)), w-5))
	}
	if text == "" {
		return bs.Render("╰" + strings.Repeat("─", w-2) + "╯")
	}
	return bs.Render("╰─ ") + text + sgrReset + bs.Render(" "+strings.Repeat("─", max(w-5-ansi.StringWidth(text), 0))+"╯")
}

// title is the border's text, fitted to the border of a pane at r
// (titleParts, fitTitle). tight: the name and what says the pane has the
// keys did not fit between "╭─ " and " ─╮", so the title takes all but the
// corners (tightTitle).
func (p *pane) title(e *env, focused bool, r rect) (title string, tight bool) {
	_, rows := innerSize(r)
	parts := p.titleParts(e, focused, rows)
	if kw, n := keptWidth(parts); n > 1 && kw > r.W-5 {
		return tightTitle(parts, r.W-2), true
	}
	return fitTitle(parts, r.W-5), false
}

// bodyRows are the terminal's rows for a pane at r, exactly its inner
// width each: the live screen, or the scrollback window above it, with the
// selection and the search's matches highlighted. Rows the emulator
// rendered at exactly this width need no measuring (docs/design.md §14: a
// frame only joins cached row strings).
func (p *pane) bodyRows(e *env, r rect) []string {
	cols, rows := innerSize(r)
	src, first := p.window(rows)
	exact := p.snap.Cols == cols && !p.scrolling
	out := make([]string, rows)
	blank := strings.Repeat(" ", cols)
	for i := range out {
		switch {
		case i >= len(src):
			out[i] = blank
		case exact:
			out[i] = src[i]
		default:
			out[i] = fit(src[i], cols)
		}
		if i < len(src) {
			out[i] = p.highlight(e, out[i], i, first+i, cols)
		}
	}
	return out
}

// window is the rows the pane shows for rows rows: the live screen, or
// while scrolling the window of scrollback and screen sbOff rows above the
// bottom; first is the index of its first row in scrollback + screen.
func (p *pane) window(rows int) (src []string, first int) {
	if !p.scrolling {
		top := p.liveTop(rows)
		return p.snap.Rows[top:], len(p.sb) + top
	}
	all := p.lines()
	end := len(all) - p.sbOff
	start := max(end-rows, 0)
	return all[start:end], start
}

// liveTop is the first row of the seat's screen a pane of rows rows
// shows: 0 when the screen fits; else it pans to keep the seat's cursor in
// view, as tmux does for a client smaller than its window — the seat's
// size follows another attached terminal (docs/serve.md "Two UIs, one
// room"), and a CLI's prompt at the bottom stays visible.
func (p *pane) liveTop(rows int) int {
	n := len(p.snap.Rows)
	if rows <= 0 || n <= rows {
		return 0
	}
	return clampInt(p.snap.CursorY-rows+1, 0, n-rows)
}

// lines is the scrollback followed by the screen.
func (p *pane) lines() []string {
	all := make([]string, 0, len(p.sb)+len(p.snap.Rows))
	all = append(all, p.sb...)
	return append(all, p.snap.Rows...)
}

// scrollBy moves the scrollback view up (positive) or down, clamped.
func (p *pane) scrollBy(delta, rows int) {
	total := len(p.sb) + len(p.snap.Rows)
	p.sbOff = clampInt(p.sbOff+delta, 0, max(total-rows, 0))
}

// cursor is where the seat's cursor is on screen for a pane at r: also
// while its program hides it (hidden), where the program parked it — a
// CLI that draws its own caret (Claude Code) parks its hidden cursor
// there, and an input method puts its window at the real cursor
// (docs/design.md §10 "The real cursor"). None while the pane shows
// scrollback, before its first snapshot, or outside its area.
func (p *pane) cursor(r rect) (x, y int, hidden, ok bool) {
	if !p.has || p.scrolling || !p.live() {
		return 0, 0, false, false
	}
	cols, rows := innerSize(r)
	y = p.snap.CursorY - p.liveTop(rows)
	if p.snap.CursorX < 0 || y < 0 || p.snap.CursorX >= cols || y >= rows {
		return 0, 0, false, false
	}
	return r.X + 1 + p.snap.CursorX, r.Y + 1 + y, !p.snap.CursorVisible, true
}
