package emu

// cell is one column of a row: what it shows (ch) and its style id (sid,
// an index into the Terminal's style table, which also holds the link).
//
// ch is 0 for a blank cell (never written or erased: shown as a space), a
// rune, or chCluster with an index into the cluster table; chWide marks the
// left half of a two-column character, whose right half is a cell of
// exactly chTail.
type cell struct {
	ch  uint32
	sid uint32
}

const (
	chWide    uint32 = 1 << 31
	chTail    uint32 = 1 << 30
	chCluster uint32 = 1 << 29
	chValue   uint32 = chCluster - 1
)

func (c cell) wide() bool { return c.ch&chWide != 0 }
func (c cell) tail() bool { return c.ch == chTail }

// line is one row of cells; wrapped is set when the text ran on into the
// next row (an autowrap left it), for copying and a future reflow.
type line struct {
	cells   []cell
	wrapped bool
}

// screen is the primary or the alternate screen: rows kept as a ring, so
// that a full-screen scroll only moves top. Row y is lines[(top+y) mod n].
type screen struct {
	lines []line
	top   int
}

func newScreen(cols, rows int) screen {
	s := screen{lines: make([]line, rows)}
	backing := make([]cell, cols*rows)
	for y := range s.lines {
		s.lines[y].cells = backing[y*cols : (y+1)*cols : (y+1)*cols]
	}
	return s
}

// row is screen row y (0 ≤ y < rows).
func (s *screen) row(y int) *line {
	i := s.top + y
	if i >= len(s.lines) {
		i -= len(s.lines)
	}
	return &s.lines[i]
}

// linearize makes the ring start at lines[0] (before a resize).
func (s *screen) linearize() {
	if s.top == 0 {
		return
	}
	n := len(s.lines)
	out := make([]line, n)
	for y := range n {
		out[y] = *s.row(y)
	}
	s.lines, s.top = out, 0
}

// blankCells returns cells (reused when large enough) holding cols cells
// of the erase style sid.
func blankCells(cells []cell, cols int, sid uint32) []cell {
	if cap(cells) < cols {
		cells = make([]cell, cols)
	} else {
		cells = cells[:cols]
	}
	fill(cells, sid)
	return cells
}

// fill blanks cells in style sid: memclr for the default style (a new row
// in a flood), else by doubling copies.
func fill(cells []cell, sid uint32) {
	if sid == 0 {
		clear(cells)
		return
	}
	if len(cells) == 0 {
		return
	}
	cells[0] = cell{sid: sid}
	for n := 1; n < len(cells); n *= 2 {
		copy(cells[n:], cells[:n])
	}
}

// scrollback keeps the rows that left the top of the primary screen, the
// newest last, as a ring of at most max rows. A row enters as it is (its
// cell slice moves, nothing is copied); once full, push hands back the
// oldest row's cells for the screen to reuse as its new blank row.
type scrollback struct {
	lines []line
	head  int // index of the oldest row once len(lines) == max
	max   int
}

// push appends l and returns cells that left the scrollback (nil while it
// grows; l's own cells when it keeps nothing).
func (sb *scrollback) push(l line) []cell {
	if sb.max <= 0 {
		return l.cells
	}
	if len(sb.lines) < sb.max {
		sb.lines = append(sb.lines, l)
		return nil
	}
	old := sb.lines[sb.head].cells
	sb.lines[sb.head] = l
	sb.head++
	if sb.head == sb.max {
		sb.head = 0
	}
	return old
}

func (sb *scrollback) len() int { return len(sb.lines) }

// at is row i, 0 the oldest.
func (sb *scrollback) at(i int) *line {
	i += sb.head
	if i >= len(sb.lines) {
		i -= len(sb.lines)
	}
	return &sb.lines[i]
}

func (sb *scrollback) clear() {
	clear(sb.lines)
	sb.lines, sb.head = sb.lines[:0], 0
}

// repair blanks the half of a wide character that an edit at column i of
// cells separated from its other half: a tail at i whose head is gone, or
// a head at i-1 whose tail is gone.
func repair(cells []cell, i int) {
	if i <= 0 || i > len(cells) {
		if i == 0 && len(cells) > 0 && cells[0].tail() {
			cells[0] = cell{}
		}
		return
	}
	if i < len(cells) && cells[i].tail() && !cells[i-1].wide() {
		cells[i] = cell{sid: cells[i].sid}
	}
	if cells[i-1].wide() && (i == len(cells) || !cells[i].tail()) {
		cells[i-1] = cell{sid: cells[i-1].sid}
	}
}
