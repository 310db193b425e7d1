package tui

import tea "charm.land/bubbletea/v2"

// The mouse over a seat pane (docs/design.md §10 "Mouse"). A pane whose
// program asked for mouse reports (the emulator's modes, PaneMouse) gets
// the human's presses, releases, drags and wheel as its program asked for
// them, like a terminal would send them; with Shift held, or when its
// program asked for nothing, the mouse stays the UI's: a click focuses, a
// drag selects cells (copied on release), the wheel scrolls the scrollback.
// Only the human's events are forwarded: nothing a seat writes moves
// anyone's mouse.

// paneDrag is a press in a pane until its release: the pane it belongs to,
// and whether it goes to the seat (forward) or selects.
type paneDrag struct {
	on      bool
	key     seatKey
	forward bool
}

// paneRect is the rectangle of visible pane k.
func (m *Model) paneRect(k seatKey) (rect, bool) {
	for i, v := range m.visiblePanes() {
		if v == k && i < len(m.layout.Panes) {
			return m.layout.Panes[i], true
		}
	}
	return rect{}, false
}

// forwardsMouse reports whether pane p's seat gets the event ms: its
// program asked for mouse reports, it runs and shows its live screen, and
// Shift (the human's own selection) is not held.
func forwardsMouse(p *pane, ms tea.Mouse) bool {
	return p.wheelToSeat() && !p.scrolling && !ms.Mod.Contains(tea.ModShift)
}

// wheelToSeat reports whether the wheel (without Shift) over pane p goes
// to its seat once p shows its live screen: its program asked for the
// mouse and runs.
func (p *pane) wheelToSeat() bool {
	return p.has && p.live() && p.snap.Mouse.Tracking != MouseOff
}

// ownView reports that p is in scrollback and has none to show because its
// program draws on the alternate screen (Claude Code does; so does any
// full-screen program): there the wheel scrolls the program's own view,
// when it asked for the mouse. sbWant is set from entering scrollback
// until the scrollback was read.
func (p *pane) ownView() bool {
	return p.scrolling && p.sbWant == 0 && len(p.sb) == 0 && p.snap.AltScreen
}

// innerCell is (x, y) in the inner coordinates of a pane at r, clamped to
// its terminal area; in reports whether it was inside.
func innerCell(r rect, x, y int) (ix, iy int, in bool) {
	cols, rows := innerSize(r)
	ix, iy = x-r.X-1, y-r.Y-1
	in = ix >= 0 && iy >= 0 && ix < cols && iy < rows
	return clampInt(ix, 0, cols-1), clampInt(iy, 0, rows-1), in
}

// sendMouse queues the report of ms for p's seat, in order with its keys.
func (m *Model) sendMouse(p *pane, kind mouseKind, ms tea.Mouse, x, y int) {
	if r, ok := m.paneRect(p.key); ok {
		_, rows := innerSize(r)
		y += p.liveTop(rows) // the row of the seat's screen, when panned
	}
	if b := encodeMouse(p.snap.Mouse, kind, ms, x, y); len(b) > 0 {
		m.seats.writes = append(m.seats.writes, seatOp{seat: p.key, input: b})
	}
}

// panePress is a button pressed over pane k at r: it focuses the pane, and
// the press goes to its seat or begins a selection.
func (m *Model) panePress(k seatKey, r rect, ms tea.Mouse) []tea.Cmd {
	p := m.seats.panes[k]
	if m.focus != FocusPane || m.focusPane != k {
		m.sayEnded(p)
	}
	m.focusPane = k
	cmds := []tea.Cmd{m.setFocus(FocusPane)}
	ix, iy, in := innerCell(r, ms.X, ms.Y)
	if !in {
		return cmds
	}
	if forwardsMouse(p, ms) {
		m.seats.drag = paneDrag{on: true, key: k, forward: true}
		m.sendMouse(p, reportPress, ms, ix, iy)
		return cmds
	}
	if ms.Button == tea.MouseLeft {
		p.sel = selection{on: true, ax: ix, ay: iy, hx: ix, hy: iy}
		p.local++
		m.seats.drag = paneDrag{on: true, key: k}
	}
	return cmds
}

// handleMotion follows a drag that began in a pane (to its seat, or
// extending the selection), and hands a seat that asked for every motion
// the pointer's moves over its pane.
func (m *Model) handleMotion(ms tea.Mouse) []tea.Cmd {
	if m.overlay.open != ovNone {
		return nil
	}
	if d := m.seats.drag; d.on {
		p, ok := m.seats.panes[d.key]
		r, shown := m.paneRect(d.key)
		if !ok || !shown {
			m.seats.drag = paneDrag{}
			return nil
		}
		ix, iy, _ := innerCell(r, ms.X, ms.Y)
		if d.forward {
			m.sendMouse(p, reportMotion, ms, ix, iy)
		} else if p.sel.hx != ix || p.sel.hy != iy {
			p.sel.hx, p.sel.hy = ix, iy
			p.local++
		}
		return nil
	}
	if k, r, ok := m.paneAt(ms.X, ms.Y); ok {
		p := m.seats.panes[k]
		if ix, iy, in := innerCell(r, ms.X, ms.Y); in && forwardsMouse(p, ms) {
			m.sendMouse(p, reportMotion, ms, ix, iy)
		}
	}
	return nil
}

// handleRelease ends a drag that began in a pane: the seat gets the
// release, or the selection is copied.
func (m *Model) handleRelease(ms tea.Mouse) []tea.Cmd {
	d := m.seats.drag
	m.seats.drag = paneDrag{}
	if !d.on {
		return nil
	}
	p, ok := m.seats.panes[d.key]
	r, shown := m.paneRect(d.key)
	if !ok || !shown {
		return nil
	}
	ix, iy, _ := innerCell(r, ms.X, ms.Y)
	if d.forward {
		m.sendMouse(p, reportRelease, ms, ix, iy)
		return nil
	}
	p.sel.hx, p.sel.hy = ix, iy
	p.local++
	if p.sel.empty() {
		p.sel = selection{}
		return nil
	}
	text, n := p.selectionText(r)
	return m.copyText(p, text, n)
}

// paneWheel is a wheel notch over pane k at r: to the seat when it asked
// for the mouse, else through the scrollback. In a scrollback that has
// nothing (ownView) the wheel without Shift leaves it and goes to the
// seat, as its title says.
func (m *Model) paneWheel(k seatKey, r rect, ms tea.Mouse, d int) []tea.Cmd {
	p := m.seats.panes[k]
	if p.ownView() && p.wheelToSeat() && !p.find.typing && !ms.Mod.Contains(tea.ModShift) {
		m.leaveScrollback(p)
	}
	if ix, iy, in := innerCell(r, ms.X, ms.Y); in && forwardsMouse(p, ms) {
		m.sendMouse(p, reportWheel, ms, ix, iy)
		return nil
	}
	return m.wheelPane(k, r, d)
}

// mouseMode is the mouse reporting the UI asks of the terminal: every
// motion while a shown pane's seat asked for it, else presses, releases
// and drags.
func (m *Model) mouseMode(vis []seatKey) tea.MouseMode {
	for _, k := range vis {
		if p := m.seats.panes[k]; p.live() && p.snap.Mouse.Tracking == MouseAnyMotion {
			return tea.MouseModeAllMotion
		}
	}
	return tea.MouseModeCellMotion
}
