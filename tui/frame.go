package tui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// afterUpdate runs after every message: it lays the screen out, asks seats
// to follow their panes' sizes, and re-renders what moved into the
// widgets' caches, so View only assembles (docs/design.md §14).
func (m *Model) afterUpdate() []tea.Cmd {
	var cmds []tea.Cmd
	vis := m.visiblePanes()
	m.applyLayout(len(vis))
	if m.focusLost() {
		cmds = append(cmds, m.setFocus(FocusInput))
	}
	m.resizeSeats(vis)
	cmds = append(cmds, m.flushOps(), m.tickSpinner())
	m.renderWidgets(vis)
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
	m.chat.setSize(m.layout.Chat.W, m.layout.Chat.H)
	m.topics.setSize(m.layout.Topics.W, m.layout.Topics.H)
	m.accounts.panel.setSize(m.layout.Participants.W, m.layout.Participants.H)
}

// renderWidgets refreshes the widgets' cached lines; each skips the work
// when nothing it draws moved.
func (m *Model) renderWidgets(vis []seatKey) {
	for i, k := range vis {
		if i < len(m.layout.Panes) {
			m.seats.panes[k].render(&m.env, m.layout.Panes[i], m.focus == FocusPane && m.focusPane == k)
		}
	}
	m.chat.render(&m.env)
	m.input.render(&m.env, m.layout.Input.H)
	m.topics.render(&m.env)
	m.accounts.panel.render(&m.env, m.partData())
}

// View assembles the cached widget strings into the screen; overlays are
// composited with the Lip Gloss compositor. It never renders widgets.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "Pullcept — " + m.topics.nameOf(&m.env, m.topics.open)
	if m.width <= 0 || m.height <= 0 || m.quitting {
		return v
	}
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
	vis := m.visiblePanes()
	for i, k := range vis {
		if i < len(m.layout.Panes) {
			add(m.layout.Panes[i], m.seats.panes[k].view)
		}
	}
	add(m.layout.Status, []string{m.statusView()})
	content := compose(m.width, m.height, blocks)

	var layers []*lipgloss.Layer
	switch m.overlay.open {
	case ovHelp:
		layers = append(layers, centred(helpView(&m.env, m.width, m.height, m.overlay.helpOff), m.width, m.height))
	case ovPicker:
		layers = append(layers, centred(m.overlay.picker.view(&m.env, min(m.width, 72), min(m.height, 20)), m.width, m.height))
	case ovDialog:
		layers = append(layers, centred(m.overlay.dialog.view(&m.env, m.width), m.width, m.height))
	case ovEditor:
		layers = append(layers, centred(m.overlay.editor.view(&m.env, m.width, m.height), m.width, m.height))
	}
	if m.overlay.open == ovNone && m.focus == FocusInput {
		if box, atX := m.input.popupView(&m.env); box != "" {
			bh := lipgloss.Height(box)
			x := clampInt(m.layout.Input.X+atX, 0, max(m.width-lipgloss.Width(box), 0))
			y := max(m.layout.Input.Y-bh+1, 0)
			layers = append(layers, lipgloss.NewLayer(box).X(x).Y(y).Z(1))
		}
	}
	if len(layers) > 0 {
		base := lipgloss.NewLayer(content)
		content = lipgloss.NewCompositor(append([]*lipgloss.Layer{base}, layers...)...).Render()
	}
	v.SetContent(content)
	v.Cursor = m.cursor()
	return v
}

func centred(box string, w, h int) *lipgloss.Layer {
	bw, bh := lipgloss.Size(box)
	return lipgloss.NewLayer(box).X(max((w-bw)/2, 0)).Y(max((h-bh)/2, 0)).Z(2)
}

// cursor places the real terminal cursor: at the input caret (so an IME
// candidate window follows it) or at the focused seat's cursor.
func (m *Model) cursor() *tea.Cursor {
	if m.overlay.open != ovNone {
		return nil
	}
	switch m.focus {
	case FocusInput:
		if x, y, ok := m.input.caret(); ok {
			c := tea.NewCursor(m.layout.Input.X+x, m.layout.Input.Y+y)
			c.Blink = false
			return c
		}
	case FocusPane:
		for i, k := range m.visiblePanes() {
			if k == m.focusPane && i < len(m.layout.Panes) {
				if x, y, ok := m.seats.panes[k].cursor(m.layout.Panes[i]); ok {
					c := tea.NewCursor(x, y)
					c.Blink = false
					return c
				}
			}
		}
	}
	return nil
}
