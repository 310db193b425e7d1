package tui

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// A pane's title is built from parts that give way in a fixed order when
// its border is too short (docs/design.md §10 "Pane titles"): at 120×40 the
// end of a long title was cut, and with it the word that says which pane
// has the keys. The seat's name and that word stay; hints go first, then
// the state, then the rest; each is cut before it is dropped.

// titleGive is how early a title part gives way: the highest first.
type titleGive int

const (
	giveKept  titleGive = iota // the name and what says the pane has the keys
	giveLate                   // the pane frozen
	giveRead                   // a search's result, a count, why there is no scrollback
	giveState                  // the seat's state word
	giveHint                   // a key hint
)

// titleMinCut is the fewest cells a part is cut to before it is dropped
// (three of its cells and "…").
const titleMinCut = 4

// titlePart is one piece of a pane's title: its text, drawn in st after
// sep (" · " unless set), the separator in sepSt when set, else in st;
// with along, in one piece with the part before it, in that part's style.
type titlePart struct {
	text  string
	st    lipgloss.Style
	sep   string
	sepSt *lipgloss.Style
	along bool
	give  titleGive
}

// sepText is what comes before the part.
func (p titlePart) sepText() string {
	if p.sep != "" {
		return p.sep
	}
	return " · "
}

// titleWidth is the cells the parts take, separators included.
func titleWidth(parts []titlePart) int {
	n := 0
	for i, p := range parts {
		n += ansi.StringWidth(p.text)
		if i > 0 {
			n += ansi.StringWidth(p.sepText())
		}
	}
	return n
}

// fitTitle renders parts in w cells: the part that gives way first (the
// later one of two alike) is cut, or dropped when too little of it would
// be left, until they fit. The first part is the name;
// what is left when only kept parts remain is fitted by cutting the name,
// down to one cell and "…", then the whole.
func fitTitle(parts []titlePart, w int) string {
	for over := titleWidth(parts) - w; over > 0; over = titleWidth(parts) - w {
		i := -1
		for j := len(parts) - 1; j > 0; j-- {
			if parts[j].give > giveKept && (i < 0 || parts[j].give > parts[i].give) {
				i = j
			}
		}
		if i < 0 {
			break
		}
		p := &parts[i]
		keep := ansi.StringWidth(p.text) - over
		if keep < titleMinCut {
			parts = slices.Delete(parts, i, i+1)
			continue
		}
		p.text = titleCut(p.text, keep)
	}
	if over := titleWidth(parts) - w; over > 0 && len(parts) > 0 {
		parts[0].text = titleCut(parts[0].text, max(ansi.StringWidth(parts[0].text)-over, 2))
	}
	title := renderTitle(parts)
	if ansi.StringWidth(title) > w {
		title = ansi.Truncate(title, max(w, 0), "…")
	}
	return title
}

// titleCut cuts s to w cells ending in "…", without the blanks,
// separators and "…" it would end on.
func titleCut(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return strings.TrimRight(ansi.Truncate(s, max(w-1, 0), ""), " ·:…") + "…"
}

// tightTitle is the title of a pane too narrow for its name and what says
// it has the keys inside the usual border: only those, joined by "·", in
// all but the border's corners.
func tightTitle(parts []titlePart, w int) string {
	kept := parts[:0:0]
	for i, p := range parts {
		if p.give == giveKept {
			if i > 0 {
				p.sep, p.sepSt, p.along = "·", nil, false
			}
			kept = append(kept, p)
		}
	}
	return fitTitle(kept, w)
}

// keptWidth is the cells the parts that never give way take.
func keptWidth(parts []titlePart) (width, n int) {
	for _, p := range parts {
		if p.give == giveKept {
			width += ansi.StringWidth(p.text)
			if n > 0 {
				width += ansi.StringWidth(p.sepText())
			}
			n++
		}
	}
	return width, n
}

// renderTitle draws parts after one another.
func renderTitle(parts []titlePart) string {
	var b strings.Builder
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		text := p.text
		if i > 0 {
			text = p.sepText() + text
			if p.sepSt != nil {
				b.WriteString(p.sepSt.Render(p.sepText()))
				text = p.text
			}
		}
		for i+1 < len(parts) && parts[i+1].along {
			i++
			text += parts[i].sepText() + parts[i].text
		}
		b.WriteString(p.st.Render(text))
	}
	return b.String()
}

// titleParts are the parts of the pane's title: its name, the emulator's
// failure, its state, then where its keys go — scrollback and its search,
// typing (the leave key is in the lower border), or how to close it — and
// the hints.
func (p *pane) titleParts(e *env, focused bool, rows int) []titlePart {
	dim := e.th.dim
	parts := []titlePart{{text: oneLine(p.name), st: e.th.hueStyle(p.hue).Bold(true)}}
	if p.snap.Broken != "" {
		// The emulator failed on the seat's output: what the pane shows is
		// frozen, whatever the seat does next.
		parts = append(parts, titlePart{text: e.tr.t(mPaneBroken), st: toneDanger.style(e.th), sepSt: &dim, give: giveLate})
	}
	label, tn := paneStateLabel(e, p)
	state := titlePart{text: label, st: tn.style(e.th), give: giveState}
	if tn != toneDim {
		state.sepSt = &dim
	}
	parts = append(parts, state)
	km := e.keys
	accent := e.th.accentS
	switch {
	case p.scrolling:
		parts = append(parts, p.scrollParts(e, rows)...)
		parts = append(parts, p.readingParts(e)...)
	case focused && p.live():
		// The key that leaves is in the lower border (pane.bottom).
		parts = append(parts, titlePart{text: e.tr.t(mPaneTyping), st: accent})
	case focused && p.state == SeatExited:
		parts = append(parts, titlePart{text: e.tr.t(mPaneClosable, keysLabel(km.ClosePane)), st: accent})
	case p.state == SeatExited:
		// x acts only in a focused pane: say how to get there.
		parts = append(parts, titlePart{text: e.tr.t(mPaneClosableUnfocused, keysLabel(km.NextPane), keysLabel(km.ClosePane)), st: dim, give: giveHint})
	}
	return parts
}

// scrollParts is where the scrollback view sits, "scrollback 3/40", or
// "no scrollback" when the seat's program draws on the alternate screen
// (ownView; the lower border says where its own view is).
func (p *pane) scrollParts(e *env, rows int) []titlePart {
	accent := e.th.accentS
	if p.ownView() {
		return []titlePart{{text: e.tr.t(mPaneNoScrollback), st: accent}}
	}
	total := len(p.sb) + len(p.snap.Rows)
	return []titlePart{{text: e.tr.t(mPaneScrollback, p.sbOff, max(total-rows, 0)), st: accent}}
}

// ownViewWhy is what the lower border of a pane without scrollback
// (ownView) says: the wheel scrolls the program's own view — Claude's, for
// a Claude Code seat — when it asked for the mouse; else that it draws on
// a screen of its own (issue 35: Claude Code's pane said "scrollback 0/0",
// nothing of the wheel scrolling Claude's own transcript).
func (p *pane) ownViewWhy(e *env) string {
	claude := p.kind == KindClaudeCode
	switch {
	case p.wheelToSeat() && claude:
		return e.tr.t(mPaneWheelClaude)
	case p.wheelToSeat():
		return e.tr.t(mPaneWheelCLI)
	case claude:
		return e.tr.t(mPaneOwnScreenClaude)
	}
	return e.tr.t(mPaneOwnScreenCLI)
}
