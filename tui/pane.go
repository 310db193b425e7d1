package tui

import (
	"strings"

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
	hue   int       // the account's colour for the name
	state SeatState // as the last Seats() said
	exit  int       // exit code, shown while state is SeatExited
	word  string    // what the seat is doing (activityWord), "" unknown
	tone  tone      // the word's colour

	snap PaneSnapshot // the seat's screen as last read
	has  bool         // snap holds a real snapshot (the cursor shows)

	// Scrollback mode: sb holds the lines above the screen, sbOff how many
	// rows the view sits above the live bottom.
	scrolling bool
	sb        []string
	sbOff     int

	// cols×rows last asked of the seat (Resize / StartSeat).
	cols, rows int

	view     []string      // the rendered pane, nil to force a redraw
	rendered paneRenderKey // what view was rendered from
}

// paneRenderKey is what a pane's view is rendered from besides the rows
// of its snapshot, which Version stands for. The hue and exit code are not
// in it (as before keys had a type): a change to either alone shows at the
// pane's next redraw.
type paneRenderKey struct {
	version uint64 // the snapshot's
	w, h    int
	focused bool
	state   SeatState
	gen     int
	scroll  int // sbOff while scrolling, -1 otherwise
	name    string
	word    string
	tone    tone
}

// innerSize is the terminal area inside a pane's border.
func innerSize(r rect) (cols, rows int) { return max(r.W-2, 1), max(r.H-2, 1) }

// paneStateLabel is the title's word: the seat's state, or what a
// running seat is doing once its CLI said (the participant row's word,
// with its subagents).
func paneStateLabel(e *env, p *pane) (string, tone) {
	switch p.state {
	case SeatStarting:
		return e.tr.t(mPaneStarting), toneDim
	case SeatExited:
		return e.tr.t(mPaneExited, p.exit), toneDim
	case SeatFailed:
		return e.tr.t(mPaneFailed), toneDanger
	}
	if p.word != "" {
		return p.word, p.tone
	}
	return e.tr.t(mPaneRunning), toneDim
}

// render draws the pane at r; focused adds the accent border and the leave
// hint. Cached until something it shows changed.
func (p *pane) render(e *env, r rect, focused bool) []string {
	scroll := -1
	if p.scrolling {
		scroll = p.sbOff
	}
	k := paneRenderKey{p.snap.Version, r.W, r.H, focused, p.state, e.gen, scroll, p.name, p.word, p.tone}
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
	title := p.title(e, focused, r)
	tw := ansi.StringWidth(title)
	out := make([]string, 0, h)
	out = append(out, bs.Render("╭─ ")+title+sgrReset+bs.Render(" "+strings.Repeat("─", max(w-5-tw, 0))+"╮"))
	left, right := bs.Render("│"), bs.Render("│")
	for _, row := range p.bodyRows(r) {
		out = append(out, left+row+sgrReset+right)
	}
	out = append(out, bs.Render("╰"+strings.Repeat("─", w-2)+"╯"))
	p.view = out
	return out
}

// title is the border's text: name and state, then the scrollback position
// or the focused pane's leave hint, cut to fit the border of a pane at r.
func (p *pane) title(e *env, focused bool, r rect) string {
	_, rows := innerSize(r)
	w := r.W
	title := e.th.hueStyle(p.hue).Bold(true).Render(oneLine(p.name))
	if label, tn := paneStateLabel(e, p); tn == toneDim {
		title += e.th.dim.Render(" · " + label)
	} else {
		title += e.th.dim.Render(" · ") + tn.style(e.th).Render(label)
	}
	if p.scrolling {
		total := len(p.sb) + len(p.snap.Rows)
		title += e.th.accentS.Render(" · " + e.tr.t(mPaneScrollback, p.sbOff, max(total-rows, 0)))
	} else if focused {
		title += e.th.accentS.Render(" · " + e.tr.t(mPaneFocused))
	}
	if ansi.StringWidth(title) > w-5 {
		title = ansi.Truncate(title, w-5, "…")
	}
	return title
}

// bodyRows are the terminal's rows for a pane at r, exactly its inner
// width each: the live screen, or the scrollback window above it. Rows the
// emulator rendered at exactly this width need no measuring
// (docs/design.md §14: a frame only joins cached row strings).
func (p *pane) bodyRows(r rect) []string {
	cols, rows := innerSize(r)
	src := p.snap.Rows
	exact := p.snap.Cols == cols
	if p.scrolling {
		exact = false
		all := make([]string, 0, len(p.sb)+len(p.snap.Rows))
		all = append(all, p.sb...)
		all = append(all, p.snap.Rows...)
		end := len(all) - p.sbOff
		start := max(end-rows, 0)
		src = all[start:end]
	}
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
	}
	return out
}

// scrollBy moves the scrollback view up (positive) or down, clamped.
func (p *pane) scrollBy(delta, rows int) {
	total := len(p.sb) + len(p.snap.Rows)
	p.sbOff = clampInt(p.sbOff+delta, 0, max(total-rows, 0))
}

// cursor is the seat's cursor on screen for a pane at r, when it shows.
func (p *pane) cursor(r rect) (x, y int, ok bool) {
	if !p.has || p.scrolling || !p.snap.CursorVisible {
		return 0, 0, false
	}
	cols, rows := innerSize(r)
	if p.snap.CursorX < 0 || p.snap.CursorY < 0 || p.snap.CursorX >= cols || p.snap.CursorY >= rows {
		return 0, 0, false
	}
	return r.X + 1 + p.snap.CursorX, r.Y + 1 + p.snap.CursorY, true
}
