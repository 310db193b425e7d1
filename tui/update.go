package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Routing of the terminal's input: keys, pastes and the mouse go to the
// focused target (docs/design.md §14); the features act on them.

// handleKey routes a key: an open overlay takes it, then the rename
// prompt, then a focused pane (which takes every key but the leave key),
// then the @ popup, the global keys, and finally the focused widget.
func (m *Model) handleKey(k tea.KeyPressMsg) []tea.Cmd {
	if m.dropRepeat(k) {
		return nil
	}
	switch {
	case m.overlay.open != ovNone:
		return m.overlayKey(k)
	case m.topics.renaming:
		return m.renameKey(k)
	case m.focus == FocusPane:
		return m.paneKeyPress(k)
	case m.focus == FocusCard:
		return m.cardKey(k)
	}
	if m.focus == FocusInput && m.input.comp.open() {
		if cmds, ok := m.popupKey(k); ok {
			return cmds
		}
	}
	if cmds, ok := m.globalKey(k); ok {
		return cmds
	}
	return m.focusedKey(k)
}

// globalKey handles the keys that act whatever widget has focus; ok is
// false for any other key. The groups are asked in the order the help
// overlay lists them, so an override that gives two bindings one key
// keeps its meaning.
func (m *Model) globalKey(k tea.KeyPressMsg) (cmds []tea.Cmd, ok bool) {
	if cmds, ok := m.screenKey(k); ok {
		return cmds, true
	}
	if cmds, ok := m.topicNavKey(k); ok {
		return cmds, true
	}
	if cmds, ok := m.attentionKey(k); ok {
		return cmds, true
	}
	if key.Matches(k, m.keys.Messages) {
		m.overlay.open, m.overlay.msgOff = ovMessages, 0
		return nil, true
	}
	if cmds, ok := m.paneAreaKey(k); ok {
		return cmds, true
	}
	if key.Matches(k, m.keys.JumpLatest) && (m.focus != FocusInput || m.input.caretAtLineEnd()) {
		return m.jumpLatest(), true
	}
	if m.focus != FocusInput && key.Matches(k, m.keys.FocusInput) {
		return []tea.Cmd{m.setFocus(FocusInput)}, true
	}
	if key.Matches(k, m.keys.Attach) {
		// The attachments are the input bar's: focus goes there.
		return append(m.openAttach(), m.setFocus(FocusInput)), true
	}
	return nil, false
}

// screenKey: quit, help, focus and which columns show.
func (m *Model) screenKey(k tea.KeyPressMsg) ([]tea.Cmd, bool) {
	km := &m.keys
	switch {
	case key.Matches(k, km.Quit):
		return m.askQuit(), true
	case key.Matches(k, km.Help):
		m.openHelp()
	case key.Matches(k, km.Settings):
		return m.openSettings(), true
	case key.Matches(k, km.Permission):
		return m.focusCard(), true
	case key.Matches(k, km.FocusNext):
		if m.focus == FocusInput && (m.input.value() != "" || len(m.input.chips) > 0) {
			// Text typed next would go to another area and be lost.
			m.setStatus(stInfo, m.env.tr.t(mStTabKeepsText, hintKey(firstKey(km.FocusNext)), hintKey(firstKey(km.FocusPrev))))
			return nil, true
		}
		return []tea.Cmd{m.cycleFocus(1)}, true
	case key.Matches(k, km.FocusPrev):
		return []tea.Cmd{m.cycleFocus(-1)}, true
	case key.Matches(k, km.ToggleTopics):
		m.layoutState.showTopics = !m.layoutState.showTopics
	case key.Matches(k, km.ToggleParticipants):
		m.layoutState.showParticipants = !m.layoutState.showParticipants
	case key.Matches(k, km.TogglePanes):
		return m.togglePanes(), true
	default:
		return nil, false
	}
	return nil, true
}

// topicNavKey: new, find, next, previous, rename and delete the open
// topic, and release its brake.
func (m *Model) topicNavKey(k tea.KeyPressMsg) ([]tea.Cmd, bool) {
	km := &m.keys
	switch {
	case key.Matches(k, km.NewTopic):
		return []tea.Cmd{m.newTopicCmd()}, true
	case key.Matches(k, km.PickTopic):
		m.openPicker()
	case key.Matches(k, km.NextTopic):
		if id, ok := m.topics.neighbour(1); ok {
			return m.switchTopic(id), true
		}
	case key.Matches(k, km.PrevTopic):
		if id, ok := m.topics.neighbour(-1); ok {
			return m.switchTopic(id), true
		}
	case key.Matches(k, km.RenameTopic):
		return m.startRename(m.topics.open), true
	case key.Matches(k, km.DeleteTopic):
		return m.askDeleteTopic(m.topics.open), true
	case key.Matches(k, km.ReleaseBrake):
		return m.releaseBrake(), true
	default:
		return nil, false
	}
	return nil, true
}

// paneAreaKey: the next pane, the pane area's share, and chat paging.
func (m *Model) paneAreaKey(k tea.KeyPressMsg) ([]tea.Cmd, bool) {
	km := &m.keys
	ls := &m.layoutState
	switch {
	case key.Matches(k, km.NextPane):
		return m.focusNextPane(1), true
	case key.Matches(k, km.PrevPane):
		return m.focusNextPane(-1), true
	case key.Matches(k, km.GrowPanes):
		ls.paneShare = clampInt(ls.paneShare+paneShareStep, paneShareMin, paneShareMax)
	case key.Matches(k, km.ShrinkPanes):
		ls.paneShare = clampInt(ls.paneShare-paneShareStep, paneShareMin, paneShareMax)
	case key.Matches(k, km.ScrollUp):
		return m.scrollChat(max(m.layout.Chat.H-1, 1)), true
	case key.Matches(k, km.ScrollDown):
		return m.scrollChat(-max(m.layout.Chat.H-1, 1)), true
	default:
		return nil, false
	}
	return nil, true
}

// focusedKey hands a key no one else took to the focused widget.
func (m *Model) focusedKey(k tea.KeyPressMsg) []tea.Cmd {
	switch m.focus {
	case FocusInput:
		return m.inputKey(k)
	case FocusChat:
		return m.chatKey(k)
	case FocusTopics:
		return m.topicsKey(k)
	case FocusParticipants:
		return m.partsKey(k)
	}
	return nil
}

// handlePaste routes a paste like a key: an overlay, the rename prompt, a
// focused pane's seat, else the input bar.
func (m *Model) handlePaste(msg tea.PasteMsg) []tea.Cmd {
	switch {
	case m.overlay.open != ovNone:
		return m.overlayPaste(msg)
	case m.topics.renaming:
		return []tea.Cmd{m.topics.updateRename(msg)}
	}
	if m.focus == FocusPane {
		return m.pastePane(msg)
	}
	if m.focus == FocusCard {
		return m.cardPaste(msg)
	}
	if looksDropped(msg.Content) {
		// Maybe files dropped on the terminal: the app reads the paste
		// first (docs/design.md §10 "Attachments").
		return []tea.Cmd{m.setFocus(FocusInput), m.dropCmd(msg.Content, false)}
	}
	return m.pasteIntoInput(msg)
}

// pasteIntoInput puts a paste into the input bar as text, unless it is
// more than the bar holds (refused whole, the reason on the status line).
func (m *Model) pasteIntoInput(msg tea.PasteMsg) []tea.Cmd {
	if why := m.input.pasteRefusal(&m.env, msg.Content); why != "" {
		// Refused whole, before the textarea sees it: it keeps at most
		// 10 000 lines and trims a longer paste row by row (minutes for
		// 300 KB of short lines, and the tail silently lost).
		m.setStatus(stWarn, why)
		return nil
	}
	if m.focus == FocusInput {
		return []tea.Cmd{m.input.update(msg, m.roster(), m.env.selfName)}
	}
	// A paste elsewhere lands in the input bar: focus follows it.
	cmd := m.setFocus(FocusInput)
	return []tea.Cmd{cmd, m.input.update(msg, m.roster(), m.env.selfName)}
}

// handleClick focuses what was clicked and acts on rows; a press in a
// seat pane may go to its seat (panePress).
func (m *Model) handleClick(ms tea.Mouse) []tea.Cmd {
	if m.overlay.open != ovNone {
		return nil
	}
	x, y := ms.X, ms.Y
	if k, r, ok := m.paneAt(x, y); ok {
		return m.panePress(k, r, ms)
	}
	if ms.Button != tea.MouseLeft {
		return nil
	}
	l := m.layout
	switch {
	case l.Topics.contains(x, y):
		return m.topicsClick(y - l.Topics.Y)
	case l.Chat.contains(x, y):
		cmds := []tea.Cmd{m.setFocus(FocusChat)}
		return append(cmds, m.chatClick(x-l.Chat.X, y-l.Chat.Y)...)
	case l.Participants.contains(x, y):
		cmds := []tea.Cmd{m.setFocus(FocusParticipants)}
		m.accounts.panel.click(y - l.Participants.Y)
		return cmds
	case l.Card.contains(x, y):
		return m.focusCard()
	case l.Input.contains(x, y):
		m.inputBarClick(x-l.Input.X, y-l.Input.Y)
		return []tea.Cmd{m.setFocus(FocusInput)}
	}
	return nil
}

// topicsClick focuses the list and opens the row at y.
func (m *Model) topicsClick(y int) []tea.Cmd {
	cmds := []tea.Cmd{m.setFocus(FocusTopics)}
	id := m.topics.idAt(y)
	if id == "" {
		return cmds
	}
	m.topics.selectID(id)
	return append(cmds, m.openRow(id)...)
}

// paneAt is the visible pane at cell (x, y) and its rectangle.
func (m *Model) paneAt(x, y int) (seatKey, rect, bool) {
	for i, k := range m.visiblePanes() {
		if i < len(m.layout.Panes) && m.layout.Panes[i].contains(x, y) {
			return k, m.layout.Panes[i], true
		}
	}
	return seatKey{}, rect{}, false
}

// handleWheel scrolls what is under the pointer: the chat (paging older
// posts in at the top), a pane's scrollback (or its seat's own view, when
// it asked for the mouse), or a list.
func (m *Model) handleWheel(ms tea.Mouse) []tea.Cmd {
	if m.overlay.open != ovNone {
		return nil
	}
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = 1
	case tea.MouseWheelDown:
		d = -1
	default:
		return nil
	}
	x, y := ms.X, ms.Y
	l := m.layout
	switch {
	case l.Chat.contains(x, y):
		return m.scrollChat(d * chatWheelRows)
	case l.Topics.contains(x, y):
		m.topics.move(-d)
		return nil
	case l.Participants.contains(x, y):
		m.accounts.panel.move(-d, len(m.partData().rows()))
		return nil
	}
	if k, r, ok := m.paneAt(x, y); ok {
		return m.paneWheel(k, r, ms, d)
	}
	return nil
}
