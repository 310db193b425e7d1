package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// screen is what View assembles besides the widgets' cached lines, all of
// it rendered by afterUpdate after every message.
type screen struct {
	panes   []seatKey // the visible panes, in the order of layout.Panes
	title   string    // the terminal window's title
	overlay layer     // the open overlay, centred
	popup   layer     // the @ popup, its left edge under the '@'
	cursor  cursorAt  // where the real cursor goes
	mouse   tea.MouseMode
	cuts    rowCuts // the rows under the overlay, cut (overlayLayers)
}

// layer is a rendered box and where it goes; an empty box is none. w is
// the width of each of its lines when they are all that wide (0: unknown,
// each line is measured).
type layer struct {
	box  string
	x, y int
	w    int
}

// cursorAt is a position for the terminal's real cursor.
type cursorAt struct {
	x, y int
	ok   bool // false: no cursor (an overlay is open, or nothing to type into)
	// bar: the seat's program hid its cursor here (it draws its own caret);
	// the real one is a thin steady bar at its left edge (View).
	bar bool
}

// afterUpdate runs after every message: it lays the screen out, asks seats
// to follow their panes' sizes, and re-renders what moved into the
// widgets' caches, so View only assembles (docs/design.md §14).
func (m *Model) afterUpdate() []tea.Cmd {
	var cmds []tea.Cmd
	vis := m.visiblePanes()
	m.applyLayout(len(vis))
	m.hintNarrowPanes()
	if m.focusLost() {
		cmds = append(cmds, m.setFocus(FocusInput))
	}
	m.resizeSeats(vis)
	cmds = append(cmds, m.flushOps(), m.tickSpinner(), m.armRefresh(vis), m.armStatus(), m.rememberViewCmd(), m.attentionSeen())
	m.topics.setNewBusy(m.newTopicBusy())
	m.refreshMarks()
	m.renderWidgets(vis)
	m.renderScreen(vis)
	return cmds
}

// applyLayout cuts the screen for the current state (layout is a pure
// function of it) and sizes the widgets to their rectangles. The input
// bar's height follows its text at its new width, hence a second cut.
func (m *Model) applyLayout(panes int) {
	m.layoutState.panes = panes
	m.layout = layout(m.width, m.height, m.layoutState)
	m.input.setWidth(m.layout.Input.W)
	if r := m.input.rows(); r != m.layoutState.inputRows {
		m.layoutState.inputRows = r
		m.layout = layout(m.width, m.height, m.layoutState)
	}
	if want := m.cards.wantRows(&m.env, m.layout.Chat.W, m.focus == FocusCard, m.cardInfo()); want != m.layoutState.cardRows {
		// The card's rows follow what it shows at the centre's width.
		m.layoutState.cardRows = want
		m.layout = layout(m.width, m.height, m.layoutState)
	}
	m.chat.setSize(m.layout.Chat.W, m.layout.Chat.H)
	m.topics.setSize(m.layout.Topics.W, m.layout.Topics.H)
	m.accounts.panel.setSize(m.layout.Participants.W, m.layout.Participants.H)
}

// renderWidgets refreshes the widgets' cached lines; each skips the work
// when nothing it draws moved.
func (m *Model) renderWidgets(vis []seatKey) {
	m.paneWords(vis)
	for i, k := range vis {
		if i < len(m.layout.Panes) {
			m.seats.panes[k].render(&m.env, m.layout.Panes[i], m.focus == FocusPane && m.focusPane == k)
		}
	}
	m.chat.render(&m.env)
	m.input.setMentionTargets(m.mentionTargets())
	m.input.render(&m.env, m.layout.Input.H)
	m.topics.render(&m.env)
	m.accounts.panel.render(&m.env, m.partData())
	m.renderCard()
}

// renderScreen renders what View places over and around the widgets: the
// status line, the window title, the open overlay or the @ popup, and the
// real cursor's position. Overlays are only drawn when View shows them.
func (m *Model) renderScreen(vis []seatKey) {
	sc := &m.screen
	sc.panes = vis
	sc.title = m.windowTitle()
	m.renderStatus()
	sc.overlay, sc.popup, sc.cursor = layer{}, layer{}, cursorAt{}
	if m.width <= 0 || m.height <= 0 || m.quitting {
		return
	}
	sc.overlay = m.renderOverlay()
	if m.overlay.open == ovNone && m.focus == FocusInput {
		sc.popup = m.renderPopup()
	}
	sc.cursor = m.placeCursor(vis)
	sc.mouse = m.mouseMode(vis)
}

// windowTitle names the open topic.
func (m *Model) windowTitle() string {
	return "Pullcept — " + m.topics.nameOf(&m.env, m.topics.open)
}

// renderOverlay draws the open overlay, centred on the screen.
func (m *Model) renderOverlay() layer {
	var box string
	switch m.overlay.open {
	case ovHelp:
		box, m.overlay.helpOff = helpView(&m.env, m.width, m.height, m.overlay.helpOff)
	case ovPicker:
		box = m.overlay.picker.view(&m.env, min(m.width, pickerMaxW), min(m.height, 20))
	case ovDialog:
		box = m.overlay.dialog.view(&m.env, m.width, m.height)
	case ovEditor:
		box = m.overlay.editor.view(&m.env, m.width, m.height)
	case ovAttach:
		box = m.overlay.attach.view(&m.env, min(m.width, 76))
	case ovSettings:
		box = m.overlay.settings.view(&m.env, m.settingsData(), m.width, m.height)
	case ovAttention:
		box = m.attentionListView(m.width, m.height)
	case ovMessages:
		box = m.messagesView(m.width, m.height)
	default:
		return layer{}
	}
	// Every overlay is a modalBox: its lines are all as wide as the first.
	first, _, _ := strings.Cut(box, "\n")
	bw, bh := ansi.StringWidth(first), strings.Count(box, "\n")+1
	return layer{box: box, x: max((m.width-bw)/2, 0), y: max((m.height-bh)/2, 0), w: bw}
}

// renderPopup draws the @ popup with its bottom edge on the row above the
// input bar, never over the bar's top border (issue 35: it covered the
// border and its key hint), with as many names as fit above the bar.
func (m *Model) renderPopup() layer {
	box, atX := m.input.popupView(&m.env, m.layout.Input.Y-2)
	if box == "" {
		return layer{}
	}
	bh := lipgloss.Height(box)
	x := clampInt(m.layout.Input.X+atX, 0, max(m.width-lipgloss.Width(box), 0))
	return layer{box: box, x: x, y: m.layout.Input.Y - bh}
}

// placeCursor puts the real terminal cursor at the input caret or the
// topic rename prompt's (so an IME candidate window follows it), at the
// focused seat's cursor — also where
// its program parked it hidden, as tmux does — or at a pane's search
// prompt.
func (m *Model) placeCursor(vis []seatKey) cursorAt {
	if m.overlay.open != ovNone {
		return cursorAt{}
	}
	if tl := m.topics; tl.renaming {
		if !tl.caretOK || m.layout.Topics.empty() {
			return cursorAt{}
		}
		return cursorAt{x: m.layout.Topics.X + tl.caretX, y: m.layout.Topics.Y + tl.caretY, ok: true}
	}
	switch m.focus {
	case FocusInput:
		if x, y, ok := m.input.caret(); ok {
			return cursorAt{x: m.layout.Input.X + x, y: m.layout.Input.Y + y, ok: true}
		}
	case FocusPane:
		for i, k := range vis {
			if k == m.focusPane && i < len(m.layout.Panes) {
				return paneCursor(m.seats.panes[k], m.layout.Panes[i])
			}
		}
	case FocusCard:
		if c := &m.cards; c.caretOK {
			return cursorAt{x: m.layout.Card.X + c.caretX, y: m.layout.Card.Y + c.caretY, ok: true}
		}
	}
	return cursorAt{}
}

// paneCursor is the real cursor for focused pane p at r: at its search
// prompt's caret while that is open, else at its seat's cursor.
func paneCursor(p *pane, r rect) cursorAt {
	if p.find.typing {
		if c := p.find.in.Cursor(); c != nil && r.W >= 8 {
			return cursorAt{x: r.X + 3 + min(c.X, r.W-7), y: r.Y + r.H - 1, ok: true}
		}
		return cursorAt{}
	}
	x, y, hidden, ok := p.cursor(r)
	return cursorAt{x: x, y: y, ok: ok, bar: hidden}
}

// View assembles the cached strings into the screen; overlays are
// drawn over them (overlayLayers). It renders nothing itself.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	// Focus reports (CSI I / CSI O): nothing on the focused screen rings
	// (attention.go).
	v.ReportFocus = true
	v.MouseMode = m.screen.mouse
	if v.MouseMode == tea.MouseModeNone {
		v.MouseMode = tea.MouseModeCellMotion // before the first Update
	}
	v.WindowTitle = m.screen.title
	if m.width <= 0 || m.height <= 0 || m.quitting {
		return v
	}
	content := compose(m.width, m.height, m.blocks())
	var layers []layer
	if p := m.screen.popup; p.box != "" {
		layers = append(layers, p)
	}
	if o := m.screen.overlay; o.box != "" {
		layers = append(layers, o) // on top
	}
	v.SetContent(overlayLayers(content, m.width, m.height, layers, &m.screen.cuts))
	if c := m.screen.cursor; c.ok {
		v.Cursor = tea.NewCursor(c.x, c.y)
		v.Cursor.Blink = false
		if c.bar {
			// Bubble Tea shows the real cursor wherever it puts it (a nil
			// Cursor is hidden and left where the last write ended), so a
			// cursor the seat hid is shown as thin as it gets: inside the
			// seat's own drawn caret it is all but invisible.
			v.Cursor.Shape = tea.CursorBar
		}
	}
	return v
}

// blocks are the widgets' cached lines at their rectangles.
func (m *Model) blocks() []placed {
	blocks := make([]placed, 0, 8)
	add := func(r rect, lines []string) {
		if !r.empty() && len(lines) == r.H {
			blocks = append(blocks, placed{r, lines})
		}
	}
	add(m.layout.Topics, m.topics.view)
	add(m.layout.Chat, m.chat.view)
	add(m.layout.Participants, m.accounts.panel.view)
	add(m.layout.Input, m.input.view)
	add(m.layout.Card, m.cards.view)
	for i, k := range m.screen.panes {
		if i < len(m.layout.Panes) {
			add(m.layout.Panes[i], m.seats.panes[k].view)
		}
	}
	add(m.layout.Status, []string{m.status.view})
	return blocks
}
