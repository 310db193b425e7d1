package emu

import "github.com/charmbracelet/x/ansi"

// Resize sets the size to cols×rows (each clamped to 1…32767) as x/vt does
// and seats/terminal has always shown it (docs/dependencies.md §2.4):
// nothing reflows; each row is cut or padded on the right, rows are cut or
// added at the bottom (the cursor's row too, when it falls off), the
// cursor is clamped to the screen, a pending wrap becomes the column after
// the last character when the row grew, the margins are reset and the tab
// stops are every eighth column again. Full-screen programs redraw on their
// SIGWINCH.
func (t *Terminal) Resize(cols, rows int) {
	cols, rows = clampSize(cols), clampSize(rows)
	t.flushPending()
	if t.wrapNext && t.x < cols-1 {
		t.x++
	}
	t.wrapNext = false
	t.pri = resizeScreen(t.pri, cols, rows)
	if t.alt.lines != nil {
		t.alt = resizeScreen(t.alt, cols, rows)
	}
	t.cols, t.rows = cols, rows
	t.x, t.y = min(t.x, cols-1), min(t.y, rows-1)
	t.resetMargins()
	t.resetTabs()
	t.dirty = make([]bool, rows)
	t.allDirty = true
	if v, ok := t.m.other[2048]; ok && v {
		t.sendReply(ansi.InBandResize(rows, cols, 0, 0))
	}
}

func resizeScreen(s screen, cols, rows int) screen {
	s.linearize()
	lines := s.lines
	if rows < len(lines) {
		lines = lines[:rows]
	}
	for i := range lines {
		lines[i].cells = resizeCells(lines[i].cells, cols)
	}
	for len(lines) < rows {
		lines = append(lines, line{cells: make([]cell, cols)})
	}
	return screen{lines: lines}
}

// resizeCells cuts or pads cells to cols, blanking a wide character cut in
// half.
func resizeCells(cells []cell, cols int) []cell {
	n := len(cells)
	switch {
	case cols <= n:
		cells = cells[:cols]
		repair(cells, cols)
	case cols <= cap(cells):
		cells = cells[:cols]
		fill(cells[n:], 0)
	default:
		grown := make([]cell, cols)
		copy(grown, cells)
		cells = grown
	}
	return cells
}
