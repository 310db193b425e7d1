package tui

import tea "charm.land/bubbletea/v2"

// setFocus moves keyboard focus; the widgets draw it (it is part of their
// render keys) and the input bar's textarea follows.
func (m *Model) setFocus(f Focus) tea.Cmd {
	if f != FocusCard {
		m.cards.dropReason() // a reason typed is never kept past the card's focus
	}
	prev := m.focus
	m.focus = f
	m.chat.focused = f == FocusChat
	m.topics.focused = f == FocusTopics
	m.accounts.panel.focused = f == FocusParticipants
	if f == FocusChat && m.chat.sel < 0 {
		m.chat.sel = len(m.chat.items) - 1
	}
	cmd := m.input.setFocus(f == FocusInput)
	if f == FocusParticipants && prev != f {
		// The details show the room's address: whether it answers now.
		cmd = tea.Batch(cmd, m.roomSocketCmd())
	}
	return cmd
}

// focusTarget is one stop of the Tab cycle.
type focusTarget struct {
	focus Focus
	pane  seatKey // the pane, for FocusPane
}

// focusOrder is the Tab cycle: input, chat, topics, accounts and the
// permission card while one shows; hidden columns drop out. The seat
// panes are not in it: a focused pane takes every key, Tab included (the
// CLIs use it), so Tab into a pane was a door with no way back but
// Ctrl+] (newcomer reviews, stops 25 and 26). F6 enters them on purpose.
func (m *Model) focusOrder() []focusTarget {
	out := []focusTarget{{focus: FocusInput}, {focus: FocusChat}}
	if !m.layout.Topics.empty() {
		out = append(out, focusTarget{focus: FocusTopics})
	}
	if !m.layout.Participants.empty() {
		out = append(out, focusTarget{focus: FocusParticipants})
	}
	if !m.layout.Card.empty() {
		out = append(out, focusTarget{focus: FocusCard})
	}
	return out
}

func (m *Model) cycleFocus(delta int) tea.Cmd {
	order := m.focusOrder()
	i := 0
	for j, o := range order {
		if o.focus == m.focus && (o.focus != FocusPane || o.pane == m.focusPane) {
			i = j
		}
	}
	next := order[(i+delta+len(order))%len(order)]
	if next.focus == FocusCard {
		m.cards.back = focusTarget{focus: FocusInput}
	}
	m.focusPane = next.pane
	return m.setFocus(next.focus)
}

// focusLost moves focus back to the input bar when its target is no longer
// on screen (a column hidden, the pane area folded).
func (m *Model) focusLost() bool {
	switch m.focus {
	case FocusTopics:
		return m.layout.Topics.empty()
	case FocusParticipants:
		return m.layout.Participants.empty()
	case FocusPane:
		return len(m.layout.Panes) == 0
	case FocusCard:
		return m.layout.Card.empty()
	}
	return false
}
