package emu

// Scrolling and editing. New and erased cells take the pen's background
// (background colour erase, as xterm and tmux do).

// scrollUp scrolls the scroll region up n rows. On the primary screen the
// rows leaving the region's top go to the scrollback when the region spans
// every column (tmux 3.3 keeps them from any region, x/vt from any
// full-width one); a full-screen scroll only turns the ring.
func (t *Terminal) scrollUp(n int) {
	h := t.bottom - t.top + 1
	n = min(n, h)
	if n <= 0 {
		return
	}
	bg := t.blank()
	if t.left != 0 || t.right != t.cols-1 {
		t.scrollCells(n, bg)
		return
	}
	s := t.scr
	keep := s == &t.pri
	if t.top == 0 && t.bottom == t.rows-1 {
		t.cost += n * (1 + t.cols)
		for range n {
			l := s.row(0)
			*l = line{cells: blankCells(t.retire(*l, keep), t.cols, bg)}
			s.top++
			if s.top == len(s.lines) {
				s.top = 0
			}
		}
		t.allDirty = true
		return
	}
	gone := t.spare(n)
	for done := 0; done < n; {
		k := min(n-done, len(gone))
		t.cost += h + k*t.cols
		for i := range k {
			gone[i] = *s.row(t.top + i)
		}
		for y := t.top; y+k <= t.bottom; y++ {
			*s.row(y) = *s.row(y + k)
		}
		for i := range k {
			*s.row(t.bottom - k + 1 + i) = line{cells: blankCells(t.retire(gone[i], keep), t.cols, bg)}
		}
		done += k
	}
	t.touchRows(t.top, t.bottom)
}

// spare is scratch room for the n rows a region scroll moves out, so that
// the region's rows move once (in steps of a fixed size, a scroll of n
// rows in a region of h cost n/step × h row moves: 16 million for one
// "CSI 32767 S" on a 32 767-row screen). It grows to the rows a scroll
// moved at most, never past the screen's.
func (t *Terminal) spare(n int) []line {
	if len(t.scratch) < n {
		t.scratch = make([]line, n)
	}
	return t.scratch[:n]
}

// retire disposes of a row leaving the screen: into the scrollback when
// keep. It returns cells the screen may reuse (nil: none).
func (t *Terminal) retire(l line, keep bool) []cell {
	if !keep {
		return l.cells
	}
	return t.sb.push(l)
}

// scrollDown scrolls the region down n rows (RI at the top margin, SD, IL).
func (t *Terminal) scrollDown(n int) {
	t.scrollDownFrom(t.top, n)
}

// scrollDownFrom scrolls rows y…bottom down n rows, blank rows entering at y.
func (t *Terminal) scrollDownFrom(y0, n int) {
	h := t.bottom - y0 + 1
	n = min(n, h)
	if n <= 0 {
		return
	}
	bg := t.blank()
	if t.left != 0 || t.right != t.cols-1 {
		t.shiftCellsDown(y0, n, bg)
		return
	}
	s := t.scr
	gone := t.spare(n)
	for done := 0; done < n; {
		k := min(n-done, len(gone))
		t.cost += h + k*t.cols
		for i := range k {
			gone[i] = *s.row(t.bottom - i)
		}
		for y := t.bottom; y-k >= y0; y-- {
			*s.row(y) = *s.row(y - k)
		}
		for i := range k {
			*s.row(y0 + i) = line{cells: blankCells(gone[i].cells, t.cols, bg)}
		}
		done += k
	}
	t.touchRows(y0, t.bottom)
}

// scrollUpFrom scrolls rows y0…bottom up n rows (DL), nothing to the
// scrollback.
func (t *Terminal) scrollUpFrom(y0, n int) {
	top, sbMax := t.top, t.sb.max
	t.top, t.sb.max = y0, 0 // scrollUp would keep the rows: DL never does
	t.scrollUp(n)
	t.top, t.sb.max = top, sbMax
}

// scrollCells scrolls the region up n rows inside the left/right margins.
func (t *Terminal) scrollCells(n int, bg uint32) {
	t.cost += (t.bottom - t.top + 1) * (t.right - t.left + 1)
	for y := t.top; y <= t.bottom; y++ {
		dst := t.scr.row(y).cells[t.left : t.right+1]
		if y+n <= t.bottom {
			copy(dst, t.scr.row(y + n).cells[t.left:t.right+1])
		} else {
			fill(dst, bg)
		}
		t.repairMargins(y)
	}
	t.touchRows(t.top, t.bottom)
}

// shiftCellsDown scrolls rows y0…bottom down n rows inside the margins.
func (t *Terminal) shiftCellsDown(y0, n int, bg uint32) {
	t.cost += (t.bottom - y0 + 1) * (t.right - t.left + 1)
	for y := t.bottom; y >= y0; y-- {
		dst := t.scr.row(y).cells[t.left : t.right+1]
		if y-n >= y0 {
			copy(dst, t.scr.row(y - n).cells[t.left:t.right+1])
		} else {
			fill(dst, bg)
		}
		t.repairMargins(y)
	}
	t.touchRows(y0, t.bottom)
}

// repairMargins fixes the wide characters an edit inside the margins cut.
func (t *Terminal) repairMargins(y int) {
	cells := t.scr.row(y).cells
	repair(cells, t.left)
	repair(cells, t.right+1)
}

func (t *Terminal) touchRows(a, b int) {
	for y := a; y <= b; y++ {
		t.dirty[y] = true
	}
}

// erase blanks columns a…b-1 of row y.
func (t *Terminal) erase(y, a, b int) {
	a, b = max(a, 0), min(b, t.cols)
	if a >= b {
		return
	}
	l := t.scr.row(y)
	fill(l.cells[a:b], t.blank())
	repair(l.cells, a)
	repair(l.cells, b)
	if b == t.cols {
		l.wrapped = false
	}
	t.touch(y)
}

// eraseDisplay is ED.
func (t *Terminal) eraseDisplay(n int) {
	switch n {
	case 0:
		t.erase(t.y, t.x, t.cols)
		for y := t.y + 1; y < t.rows; y++ {
			t.erase(y, 0, t.cols)
		}
	case 1:
		for y := range t.y {
			t.erase(y, 0, t.cols)
		}
		t.erase(t.y, 0, t.x+1)
	case 2:
		t.clearScreen()
	case 3:
		t.sb.clear()
	}
}

// clearScreen erases the whole screen (ED 2). On the primary screen the
// rows down to the last one with anything on it first scroll into the
// scrollback, as tmux's scroll-on-clear (on by default) does, so a program
// that clears the screen leaves what it showed scrollable. (tmux also takes
// ED 0 from the top-left corner for a clear; xterm and x/vt erase, as emu
// does.)
func (t *Terminal) clearScreen() {
	if t.scr == &t.pri && t.sb.max > 0 {
		last := -1
		for y := range t.rows {
			for _, c := range t.scr.row(y).cells {
				if c.ch != 0 || c.sid != 0 {
					last = y
					break
				}
			}
		}
		if last >= 0 {
			top, bottom, left, right := t.top, t.bottom, t.left, t.right
			t.top, t.bottom, t.left, t.right = 0, t.rows-1, 0, t.cols-1
			t.scrollUp(last + 1)
			t.top, t.bottom, t.left, t.right = top, bottom, left, right
		}
	}
	for y := range t.rows {
		t.erase(y, 0, t.cols)
	}
}

// eraseLine is EL; like ECH it ends a pending wrap, so the next character
// lands in the last column (DEC STD 070, xterm, x/vt).
func (t *Terminal) eraseLine(n int) {
	t.wrapNext = false
	switch n {
	case 0:
		t.erase(t.y, t.x, t.cols)
	case 1:
		t.erase(t.y, 0, t.x+1)
	case 2:
		t.erase(t.y, 0, t.cols)
	}
}

// insideMargins reports whether the cursor is inside the left/right
// margins (ICH, DCH, IL, DL work only there).
func (t *Terminal) insideMargins() bool { return t.x >= t.left && t.x <= t.right }

// insertCells shifts the cells from the cursor to the right margin right by
// n, blanks at the cursor (ICH, and insert mode).
func (t *Terminal) insertCells(n int) {
	if !t.insideMargins() {
		return
	}
	t.cost += t.right + 1 - t.x
	cells := t.scr.row(t.y).cells[:t.right+1]
	n = min(n, len(cells)-t.x)
	copy(cells[t.x+n:], cells[t.x:])
	fill(cells[t.x:t.x+n], t.blank())
	all := t.scr.row(t.y).cells
	repair(all, t.x)
	repair(all, t.x+n)
	repair(all, t.right+1)
	t.touch(t.y)
}

// deleteCells removes n cells at the cursor, the rest of the row up to the
// right margin moving left and blanks entering at the margin (DCH).
func (t *Terminal) deleteCells(n int) {
	if !t.insideMargins() {
		return
	}
	cells := t.scr.row(t.y).cells[:t.right+1]
	n = min(n, len(cells)-t.x)
	copy(cells[t.x:], cells[t.x+n:])
	fill(cells[len(cells)-n:], t.blank())
	all := t.scr.row(t.y).cells
	repair(all, t.x)
	repair(all, len(cells)-n)
	repair(all, t.right+1)
	t.touch(t.y)
}

// insertLines is IL: inside the scroll region and the margins, rows from
// the cursor's down n, the cursor to the left margin.
func (t *Terminal) insertLines(n int) {
	if t.y < t.top || t.y > t.bottom || !t.insideMargins() {
		return
	}
	t.scrollDownFrom(t.y, n)
	t.x, t.wrapNext = t.left, false
}

// deleteLines is DL.
func (t *Terminal) deleteLines(n int) {
	if t.y < t.top || t.y > t.bottom || !t.insideMargins() {
		return
	}
	t.scrollUpFrom(t.y, n)
	t.x, t.wrapNext = t.left, false
}

// eraseChars is ECH: n cells from the cursor blanked, never past the row.
func (t *Terminal) eraseChars(n int) {
	t.wrapNext = false
	t.erase(t.y, t.x, t.x+n)
}
