package tui

// Layout tuning (docs/design.md §10). Widths are in terminal cells.
const (
	// The topic list is a quarter of the screen within topicsMinW..topicsMaxW
	// (the most it grew to before),
	// whatever its names say (issue 35: it followed the widest name, so a
	// first post's rename resized every seat's terminal; issue 14: at 250
	// columns 48 cells show a name made from a first post whole).
	topicsMaxW = 48
	topicsMinW = 16
	partsMaxW  = 30 // name + state badge + the five usage fields on two lines
	partsMinW  = 24
	// chatMinW: below this the centre column is unusable; side columns give
	// way (topics first) to keep it.
	chatMinW = 36
	// chatMinH: the chat keeps at least this many rows when panes are open.
	chatMinH = 3
	// paneMinH: a pane's height including its border; below this the pane
	// area is not shown (a CLI cannot draw in fewer than 3 rows).
	paneMinH = 5
	// narrowPaneCols: a pane narrower than this inside its border wraps a
	// CLI's prompt and status lines; while side columns show, the status
	// line names the keys that hide them (hintNarrowPanes).
	narrowPaneCols = 30
	// paneCellRatio weighs a pane's width against its height when choosing
	// the grid: terminal cells are about twice as tall as wide and CLIs are
	// designed for ~80×24, so a pane "counts" as its width/3 vs its height.
	paneCellRatio = 3
	// Pane share of the centre column's height, in percent.
	paneShareDefault = 55
	paneShareMin     = 20
	paneShareMax     = 90
	paneShareStep    = 5
	// maxInputRows: the input bar grows with its text up to this many rows.
	maxInputRows = 6
	// maxInputBarRows: the text's rows and the attachment chips' row above
	// them (docs/design.md §10).
	maxInputBarRows = maxInputRows + 1
)

// rect is a rectangle of terminal cells; W or H of 0 means "not shown".
type rect struct{ X, Y, W, H int }

func (r rect) empty() bool { return r.W <= 0 || r.H <= 0 }

// contains reports whether cell (x, y) is inside r.
func (r rect) contains(x, y int) bool {
	return !r.empty() && x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// layoutState is everything besides the window size that moves rectangles.
type layoutState struct {
	showTopics       bool
	showParticipants bool
	panes            int // seat panes to show; 0 hides the pane area
	paneShare        int // percent of the centre column's height for panes
	inputRows        int // rows inside the input bar's frame (1..maxInputBarRows)
	cardRows         int // rows the permission card would like (0: no card)
}

// screenLayout is the screen cut into rectangles. Side columns span the
// whole height above the status line; the centre column stacks chat, seat
// panes and the input bar (spec «画面»: the terminals sit between the room
// and the composer).
type screenLayout struct {
	Topics       rect
	Chat         rect
	Participants rect
	Input        rect
	Status       rect
	PaneArea     rect
	Panes        []rect
	// Card is the permission card's (permission.go), between the chat
	// and the panes; empty while none waits.
	Card rect
}

// layout cuts a w×h screen for state s. It is a pure function
// (docs/design.md §14): the same inputs always give the same rectangles,
// which tile the screen without overlap.
func layout(w, h int, s layoutState) screenLayout {
	var l screenLayout
	if w <= 0 || h <= 0 {
		return l
	}
	l.Status = rect{0, h - 1, w, 1}
	bodyH := h - 1
	if bodyH <= 0 {
		return l
	}

	tw, pw := 0, 0
	if s.showTopics {
		tw = topicsWidth(w)
	}
	if s.showParticipants {
		pw = clampInt(w/4, partsMinW, partsMaxW)
	}
	if w-tw-pw < chatMinW {
		tw = 0
	}
	if w-tw-pw < chatMinW {
		pw = 0
	}
	cw := w - tw - pw
	if tw > 0 {
		l.Topics = rect{0, 0, tw, bodyH}
	}
	if pw > 0 {
		l.Participants = rect{tw + cw, 0, pw, bodyH}
	}

	inRows := clampInt(s.inputRows, 1, maxInputBarRows)
	inH := inRows + 2
	if inH > bodyH {
		inH = bodyH
	}
	l.Input = rect{tw, bodyH - inH, cw, inH}
	centreH := bodyH - inH

	paneH := 0
	if s.panes > 0 {
		share := clampInt(s.paneShare, paneShareMin, paneShareMax)
		paneH = centreH * share / 100
		if centreH-paneH < chatMinH {
			paneH = centreH - chatMinH
		}
		if paneH < paneMinH {
			paneH = 0
		}
	}
	chatH := centreH - paneH
	chatH, cardH, paneH := cardSplit(chatH, paneH, cardRowsFor(s.cardRows, centreH))
	if chatH > 0 {
		l.Chat = rect{tw, 0, cw, chatH}
	}
	if cardH > 0 {
		l.Card = rect{tw, chatH, cw, cardH}
	}
	if paneH > 0 {
		l.PaneArea = rect{tw, chatH + cardH, cw, paneH}
		l.Panes = paneGrid(l.PaneArea, s.panes)
	}
	return l
}

// cardSplit gives the permission card its rows: from the chat first, down
// to chatMinH (the panes keep their size: a resize makes every CLI redraw),
// then from the panes, which fold when they no longer fit (their rows go
// back to the chat).
func cardSplit(chatH, paneH, cardH int) (chat, card, panes int) {
	fromChat := min(cardH, max(chatH-chatMinH, 0))
	chatH -= fromChat
	rest := cardH - fromChat
	switch {
	case rest > 0 && paneH > 0:
		paneH -= rest
		if paneH < paneMinH {
			chatH += max(paneH, 0)
			paneH = 0
		}
	case rest > 0:
		chatH -= rest
	}
	return max(chatH, 0), cardH, paneH
}

// paneGrid places n panes in area: side by side when wide, stacked when
// narrow, a grid in between. It picks the column count whose smallest pane
// is the most usable (width/paneCellRatio vs height), then spreads any
// remainder cells so the panes exactly fill the area; a short last row's
// panes share the full width.
func paneGrid(area rect, n int) []rect {
	if n <= 0 || area.empty() {
		return nil
	}
	bestC, bestScore := 1, -1
	for c := 1; c <= n; c++ {
		rows := (n + c - 1) / c
		cellW, cellH := area.W/c, area.H/rows
		if cellH < paneMinH && c < n {
			continue
		}
		score := min(cellW/paneCellRatio, cellH)
		if score > bestScore {
			bestC, bestScore = c, score
		}
	}
	rows := (n + bestC - 1) / bestC
	out := make([]rect, 0, n)
	y := area.Y
	for r := 0; r < rows; r++ {
		rh := area.H / rows
		if r < area.H%rows {
			rh++
		}
		inRow := bestC
		if r == rows-1 {
			inRow = n - bestC*(rows-1)
		}
		x := area.X
		for c := 0; c < inRow; c++ {
			cw := area.W / inRow
			if c < area.W%inRow {
				cw++
			}
			out = append(out, rect{x, y, cw, rh})
			x += cw
		}
		y += rh
	}
	return out
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// topicsWidth is the topic list's width on a w-cell screen: a share of the
// screen, never of its names, so no rename resizes the panes.
func topicsWidth(w int) int {
	return clampInt(w/4, topicsMinW, topicsMaxW)
}
