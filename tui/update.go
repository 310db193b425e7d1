package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// chatWheelRows is how far one wheel notch scrolls the chat (the usual
// terminal convention of three lines).
const chatWheelRows = 3

// handleKey routes a key: an overlay first, then a focused pane (which
// takes every key but the leave key), then the @ popup, global keys, and
// finally the focused widget.
func (m *Model) handleKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch m.overlay.open {
	case ovHelp:
		switch {
		case key.Matches(k, km.Cancel, km.Help, km.Quit):
			m.closeOverlay()
		case key.Matches(k, km.Up):
			m.overlay.helpOff = max(m.overlay.helpOff-1, 0)
		case key.Matches(k, km.Down):
			m.overlay.helpOff++
		case key.Matches(k, km.ScrollUp):
			m.overlay.helpOff = max(m.overlay.helpOff-10, 0)
		case key.Matches(k, km.ScrollDown):
			m.overlay.helpOff += 10
		}
		return nil
	case ovPicker:
		return m.pickerKey(k)
	case ovDialog:
		return m.dialogKey(k)
	case ovEditor:
		return m.editorKey(k)
	}
	if m.topics.renaming {
		return m.renameKey(k)
	}
	if m.focus == FocusPane {
		return m.paneKeyPress(k)
	}
	if m.focus == FocusInput && m.input.comp.open() {
		switch {
		case key.Matches(k, km.PopupUp):
			m.input.movePopup(-1)
			m.input.dirty = true
			return nil
		case key.Matches(k, km.PopupDown):
			m.input.movePopup(1)
			m.input.dirty = true
			return nil
		case key.Matches(k, km.Pick):
			m.input.pick(m.accounts.rosters[m.topics.open], m.env.selfName)
			return nil
		case key.Matches(k, km.Cancel):
			m.input.closePopup()
			return nil
		}
	}

	switch {
	case key.Matches(k, km.Quit):
		return m.askQuit()
	case key.Matches(k, km.Help):
		m.overlay.open, m.overlay.helpOff = ovHelp, 0
		return nil
	case key.Matches(k, km.FocusNext):
		return []tea.Cmd{m.cycleFocus(1)}
	case key.Matches(k, km.FocusPrev):
		return []tea.Cmd{m.cycleFocus(-1)}
	case key.Matches(k, km.ToggleTopics):
		m.layoutState.showTopics = !m.layoutState.showTopics
		return nil
	case key.Matches(k, km.ToggleParticipants):
		m.layoutState.showParticipants = !m.layoutState.showParticipants
		return nil
	case key.Matches(k, km.TogglePanes):
		m.seats.shown = !m.seats.shown
		if m.seats.shown && len(m.topicPanes()) == 0 {
			m.setStatus(stInfo, m.env.tr.t(mStNoSeatForPane))
		}
		return []tea.Cmd{m.snapshotCmd()}
	case key.Matches(k, km.NewTopic):
		return []tea.Cmd{m.newTopicCmd()}
	case key.Matches(k, km.PickTopic):
		m.overlay.picker = newTopicPicker(m.topics.items)
		m.overlay.open = ovPicker
		return nil
	case key.Matches(k, km.NextTopic):
		if id, ok := m.topics.neighbour(1); ok {
			return m.switchTopic(id)
		}
		return nil
	case key.Matches(k, km.PrevTopic):
		if id, ok := m.topics.neighbour(-1); ok {
			return m.switchTopic(id)
		}
		return nil
	case key.Matches(k, km.RenameTopic):
		m.startRename(m.topics.open)
		return nil
	case key.Matches(k, km.DeleteTopic):
		return m.askDeleteTopic(m.topics.open)
	case key.Matches(k, km.NextPane):
		return m.focusNextPane()
	case key.Matches(k, km.GrowPanes):
		m.layoutState.paneShare = clampInt(m.layoutState.paneShare+paneShareStep, paneShareMin, paneShareMax)
		return nil
	case key.Matches(k, km.ShrinkPanes):
		m.layoutState.paneShare = clampInt(m.layoutState.paneShare-paneShareStep, paneShareMin, paneShareMax)
		return nil
	case key.Matches(k, km.ScrollUp):
		return m.scrollChat(max(m.layout.Chat.H-1, 1))
	case key.Matches(k, km.ScrollDown):
		return m.scrollChat(-max(m.layout.Chat.H-1, 1))
	case m.focus != FocusInput && key.Matches(k, km.FocusInput):
		return []tea.Cmd{m.setFocus(FocusInput)}
	}

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

func (m *Model) inputKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Send):
		text := m.input.value()
		if strings.TrimSpace(text) == "" || m.input.sending {
			return nil
		}
		m.input.setValue("")
		m.input.sending = true
		m.input.refreshCompletion(m.accounts.rosters[m.topics.open], m.env.selfName)
		return []tea.Cmd{m.postCmd(text)}
	case key.Matches(k, km.Clear):
		if m.input.value() == "" {
			return m.askQuit()
		}
		m.input.setValue("")
		m.input.refreshCompletion(m.accounts.rosters[m.topics.open], m.env.selfName)
		return nil
	}
	return []tea.Cmd{m.input.update(k, m.accounts.rosters[m.topics.open], m.env.selfName)}
}

// scrollChat scrolls the chat and pages in older posts at the top.
func (m *Model) scrollChat(delta int) []tea.Cmd {
	if m.chat.scrollBy(&m.env, delta) {
		return []tea.Cmd{m.historyCmd()}
	}
	return nil
}

func (m *Model) chatKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Up):
		m.chat.moveSel(&m.env, -1)
		if m.chat.sel == 0 && m.chat.atTop(&m.env) && m.chat.hasMore {
			return []tea.Cmd{m.historyCmd()}
		}
	case key.Matches(k, km.Down):
		m.chat.moveSel(&m.env, 1)
	case key.Matches(k, km.Top):
		return m.scrollChat(1 << 20)
	case key.Matches(k, km.Bottom):
		m.chat.toBottom()
		if n := len(m.chat.items); n > 0 {
			m.chat.sel = n - 1
		}
	case key.Matches(k, km.ToggleFold):
		m.chat.toggleFold(m.chat.sel)
		m.chat.revealSel(&m.env)
	}
	return nil
}

func (m *Model) topicsKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Up):
		m.topics.move(-1)
	case key.Matches(k, km.Down):
		m.topics.move(1)
	case key.Matches(k, km.Select):
		id := m.topics.cursorID()
		if id == newRowID {
			if m.topics.indexed(m.topics.open) {
				return []tea.Cmd{m.newTopicCmd()}
			}
			return nil
		}
		return m.switchTopic(id)
	case key.Matches(k, km.TopicNew):
		return []tea.Cmd{m.newTopicCmd()}
	case key.Matches(k, km.TopicRename):
		if id := m.topics.cursorID(); id != newRowID {
			m.startRename(id)
		}
	case key.Matches(k, km.TopicDelete):
		if id := m.topics.cursorID(); id != newRowID {
			return m.askDeleteTopic(id)
		}
	}
	return nil
}

// startRename opens the inline name prompt on an indexed topic (an
// unindexed one has no entry to rename yet); it switches to it first.
func (m *Model) startRename(id string) {
	i := m.topics.find(id)
	if i < 0 {
		return
	}
	if id != m.topics.open {
		m.switchTopic(id)
	}
	m.topics.renaming = true
	m.topics.rename.SetValue(m.topics.items[i].Name)
	m.topics.rename.CursorEnd()
	m.topics.rename.Focus()
	m.topics.dirty = true
}

func (m *Model) renameKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	tl := m.topics
	switch {
	case key.Matches(k, km.Cancel):
		tl.renaming = false
		tl.rename.Blur()
		tl.dirty = true
		return nil
	case key.Matches(k, km.RenameSave):
		tl.renaming = false
		tl.rename.Blur()
		tl.dirty = true
		name := strings.TrimSpace(tl.rename.Value())
		if name == "" {
			return nil // an empty name keeps the old one, like Esc
		}
		id, b := m.topics.open, m.backend
		if i := tl.find(id); i >= 0 {
			tl.items[i].Name = name
		}
		return []tea.Cmd{func() tea.Msg { return renameDoneMsg{topic: id, name: name, err: b.RenameTopic(id, name)} }}
	}
	var cmd tea.Cmd
	tl.rename, cmd = tl.rename.Update(k)
	tl.dirty = true
	return []tea.Cmd{cmd}
}

// askDeleteTopic asks before deleting; the question names the seats that
// will stop, only when some run (DESIGN §8).
func (m *Model) askDeleteTopic(id string) []tea.Cmd {
	if !m.topics.indexed(id) {
		return nil
	}
	name := m.topics.nameOf(&m.env, id)
	lines := []string{m.env.tr.t(mTopicDeleteLine, name)}
	if id == m.topics.open {
		var running []string
		for _, k := range m.topicPanes() {
			if p := m.seats.panes[k]; p.state == SeatRunning || p.state == SeatStarting {
				running = append(running, p.name)
			}
		}
		if len(running) > 0 {
			lines = append(lines, m.env.tr.t(mTopicDeleteSeats, strings.Join(running, ", ")))
		}
	} else if i := m.topics.find(id); i >= 0 && m.topics.items[i].Running {
		lines = append(lines, m.env.tr.t(mTopicDeleteSeats, "●"))
	}
	m.overlay.dialog = &confirmDialog{kind: dialogDeleteTopic, title: m.env.tr.t(mTopicDeleteTitle), lines: lines, action: m.env.tr.t(mDlgDelete), topic: id}
	m.overlay.open = ovDialog
	return nil
}

// askQuit quits at once when no seat runs, else asks first (spec «アプリの
// 終了»: closing stops every running seat).
func (m *Model) askQuit() []tea.Cmd {
	var running []string
	for _, k := range m.topicPanes() {
		if p := m.seats.panes[k]; p.state == SeatRunning || p.state == SeatStarting {
			running = append(running, p.name)
		}
	}
	for _, t := range m.topics.items {
		if t.Running && t.ID != m.topics.open {
			running = append(running, displayName(&m.env, t))
		}
	}
	if len(running) == 0 {
		m.quitting = true
		return []tea.Cmd{tea.Quit}
	}
	m.overlay.dialog = &confirmDialog{kind: dialogQuit, title: m.env.tr.t(mQuitTitle), lines: []string{m.env.tr.t(mQuitLine, strings.Join(running, ", "))}, action: m.env.tr.t(mDlgQuit)}
	m.overlay.open = ovDialog
	return nil
}

func (m *Model) closeOverlay() {
	m.overlay.open = ovNone
	m.overlay.dialog, m.overlay.picker, m.overlay.editor = nil, nil, nil
}

func (m *Model) dialogKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	d := m.overlay.dialog
	switch {
	case key.Matches(k, km.Cancel, km.Deny):
		m.closeOverlay()
		return nil
	case key.Matches(k, km.SwitchAnswer):
		d.onYes = !d.onYes
		return nil
	case key.Matches(k, km.Confirm):
		return m.answerDialog(true)
	case key.Matches(k, km.ChooseAnswer):
		return m.answerDialog(d.onYes)
	}
	return nil
}

func (m *Model) answerDialog(yes bool) []tea.Cmd {
	d := m.overlay.dialog
	m.closeOverlay()
	if !yes {
		return nil
	}
	switch d.kind {
	case dialogQuit:
		m.quitting = true
		return []tea.Cmd{tea.Quit}
	case dialogStopSeat:
		return []tea.Cmd{m.stopCmd(seatKey{d.topic, d.account})}
	case dialogDeleteTopic:
		id, name, b := d.topic, m.topics.nameOf(&m.env, d.topic), m.backend
		return []tea.Cmd{func() tea.Msg { return deleteTopicDoneMsg{topic: id, name: name, err: b.DeleteTopic(id)} }}
	}
	return nil
}

func (m *Model) pickerKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	p := m.overlay.picker
	switch {
	case key.Matches(k, km.Cancel):
		m.closeOverlay()
		return nil
	case key.Matches(k, km.PickerUp):
		p.sel = max(p.sel-1, 0)
		return nil
	case key.Matches(k, km.PickerDown):
		p.sel++
		return nil
	case key.Matches(k, km.PickerOpen):
		ms := p.matches(&m.env)
		m.closeOverlay()
		if p.sel >= 0 && p.sel < len(ms) {
			return m.switchTopic(ms[p.sel].ID)
		}
		return nil
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(k)
	p.sel = 0
	return []tea.Cmd{cmd}
}

// selectedRow is the participant row under the panel's cursor.
func (m *Model) selectedRow() (partRow, bool) {
	rows := m.partData().rows()
	if m.accounts.panel.sel < 0 || m.accounts.panel.sel >= len(rows) {
		return partRow{}, false
	}
	return rows[m.accounts.panel.sel], true
}

func (m *Model) partsKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Up):
		m.accounts.panel.sel = max(m.accounts.panel.sel-1, 0)
		m.accounts.panel.dirty = true
		return nil
	case key.Matches(k, km.Down):
		m.accounts.panel.sel = min(m.accounts.panel.sel+1, max(len(m.partData().rows())-1, 0))
		m.accounts.panel.dirty = true
		return nil
	case key.Matches(k, km.AccountNew):
		return m.openEditor(AccountInfo{Kind: KindClaudeCode, Name: m.accounts.uniqueName("Claude Code"), Command: "claude", Dir: m.accounts.home}, true)
	case key.Matches(k, km.QuickClaude), key.Matches(k, km.QuickCodex), key.Matches(k, km.QuickCLI):
		if m.partData().hasSeatAccounts() {
			return nil
		}
		i := 0
		switch {
		case key.Matches(k, km.QuickCodex):
			i = 1
		case key.Matches(k, km.QuickCLI):
			i = 2
		}
		return m.quickCreate(quickKinds[i])
	}
	r, ok := m.selectedRow()
	if !ok || r.account == nil {
		return nil
	}
	a := *r.account
	st := m.partData().state(a.ID)
	switch {
	case key.Matches(k, km.SeatStart):
		return m.startSeat(a)
	case key.Matches(k, km.SeatStop):
		return m.askStop(a)
	case key.Matches(k, km.AccountEdit):
		return m.openEditor(a, false)
	case key.Matches(k, km.SeatOpenPane):
		switch {
		case !seatKind(a.Kind):
			return m.openEditor(a, false)
		case st == SeatRunning || st == SeatStarting || st == SeatExited:
			if _, ok := m.seats.panes[seatKey{m.topics.open, a.ID}]; ok {
				m.seats.shown = true
				m.focusPane = seatKey{m.topics.open, a.ID}
				return []tea.Cmd{m.setFocus(FocusPane), m.snapshotCmd()}
			}
			return nil
		default:
			return m.startSeat(a)
		}
	}
	return nil
}

func (m *Model) startSeat(a AccountInfo) []tea.Cmd {
	if !seatKind(a.Kind) {
		m.setStatus(stWarn, m.env.tr.t(mStNotStartable, displayAccountName(a)))
		return nil
	}
	if st := m.partData().state(a.ID); st == SeatRunning || st == SeatStarting {
		return nil
	}
	return []tea.Cmd{m.startCmd(a.ID)}
}

func (m *Model) askStop(a AccountInfo) []tea.Cmd {
	if st := m.partData().state(a.ID); st != SeatRunning && st != SeatStarting {
		return nil
	}
	name := displayAccountName(a)
	m.overlay.dialog = &confirmDialog{kind: dialogStopSeat, title: m.env.tr.t(mStopTitle), lines: []string{m.env.tr.t(mStopLine, name)},
		action: m.env.tr.t(mDlgStop), topic: m.topics.open, account: a.ID}
	m.overlay.open = ovDialog
	return nil
}

// quickCreate opens the editor prefilled for a first-run kind: the command
// found on PATH when it is, the home directory as the working directory.
func (m *Model) quickCreate(q quickKind) []tea.Cmd {
	cmd := q.command
	if p, ok := m.accounts.found[q.command]; ok {
		cmd = p
	}
	a := AccountInfo{Kind: q.kind, Name: m.accounts.uniqueName(m.env.tr.t(q.label)), Command: cmd, Dir: m.accounts.home}
	return m.openEditor(a, true)
}

func (m *Model) openEditor(a AccountInfo, isNew bool) []tea.Cmd {
	st := m.partData().state(a.ID)
	running := !isNew && (st == SeatRunning || st == SeatStarting)
	m.overlay.editor = newEditor(a, isNew, running, a.ID != "" && a.ID == m.opts.AdminID)
	m.overlay.open = ovEditor
	return []tea.Cmd{m.previewCmd()}
}

func (m *Model) editorKey(k tea.KeyPressMsg) []tea.Cmd {
	act, cmd := m.overlay.editor.update(&m.env, k)
	switch act {
	case edCancel:
		m.closeOverlay()
		return nil
	case edChanged:
		return []tea.Cmd{cmd, m.previewCmd()}
	case edSave:
		if m.overlay.editor.saving {
			return nil
		}
		m.overlay.editor.saving = true
		acc, b := m.overlay.editor.collect(), m.backend
		return []tea.Cmd{func() tea.Msg {
			saved, err := b.SaveAccount(acc)
			return accountSavedMsg{acc: saved, err: err}
		}}
	case edDelete:
		id, name, b := m.overlay.editor.acc.ID, displayAccountName(m.overlay.editor.acc), m.backend
		return []tea.Cmd{func() tea.Msg { return accountDeletedMsg{id: id, name: name, err: b.DeleteAccount(id)} }}
	}
	return []tea.Cmd{cmd}
}

func (m *Model) focusNextPane() []tea.Cmd {
	if !m.seats.shown {
		m.seats.shown = true
	}
	keys := m.topicPanes()
	if len(keys) == 0 {
		m.setStatus(stInfo, m.env.tr.t(mStNoSeatForPane))
		return nil
	}
	i := -1
	if m.focus == FocusPane {
		for j, k := range keys {
			if k == m.focusPane {
				i = j
			}
		}
	}
	m.focusPane = keys[(i+1)%len(keys)]
	return []tea.Cmd{m.setFocus(FocusPane), m.snapshotCmd()}
}

// seatKey handles a key while a seat pane has focus: the leave key and the
// scrollback keys stay here, everything else goes to the seat as bytes.
func (m *Model) paneKeyPress(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	p, ok := m.seats.panes[m.focusPane]
	if !ok {
		return []tea.Cmd{m.setFocus(FocusInput)}
	}
	if key.Matches(k, km.LeavePane) {
		p.scrolling = false
		return []tea.Cmd{m.setFocus(FocusInput)}
	}
	_, rows := p.rows, p.rows
	if p.scrolling {
		switch {
		case key.Matches(k, km.ScrollbackExit):
			p.scrolling, p.sbOff = false, 0
		case key.Matches(k, km.Up):
			p.scrollBy(1, rows)
		case key.Matches(k, km.Down):
			p.scrollBy(-1, rows)
		case key.Matches(k, km.ScrollbackPageUp):
			p.scrollBy(max(rows-1, 1), rows)
		case key.Matches(k, km.ScrollbackPageDown):
			p.scrollBy(-max(rows-1, 1), rows)
		case key.Matches(k, km.Top):
			p.scrollBy(1<<20, rows)
		case key.Matches(k, km.Bottom):
			p.scrollBy(-(1 << 20), rows)
		}
		return nil
	}
	if key.Matches(k, km.Scrollback) {
		p.scrolling, p.sbOff = true, 0
		return []tea.Cmd{m.scrollbackCmd(p.key)}
	}
	b := encodeKey(k.Key(), p.snap.AppCursorKeys)
	if len(b) == 0 {
		return nil
	}
	m.seats.writes = append(m.seats.writes, seatOp{seat: p.key, input: b})
	return nil
}

func (m *Model) handlePaste(msg tea.PasteMsg) []tea.Cmd {
	switch m.overlay.open {
	case ovEditor:
		act, cmd := m.overlay.editor.update(&m.env, msg)
		if act == edChanged {
			return []tea.Cmd{cmd, m.previewCmd()}
		}
		return []tea.Cmd{cmd}
	case ovPicker:
		var cmd tea.Cmd
		m.overlay.picker.in, cmd = m.overlay.picker.in.Update(msg)
		return []tea.Cmd{cmd}
	case ovNone:
	default:
		return nil
	}
	if m.topics.renaming {
		var cmd tea.Cmd
		m.topics.rename, cmd = m.topics.rename.Update(msg)
		m.topics.dirty = true
		return []tea.Cmd{cmd}
	}
	switch m.focus {
	case FocusPane:
		if p, ok := m.seats.panes[m.focusPane]; ok && !p.scrolling {
			m.seats.writes = append(m.seats.writes, seatOp{seat: p.key, input: encodePaste(msg.Content, p.snap.BracketedPaste)})
		}
		return nil
	case FocusInput:
		return []tea.Cmd{m.input.update(msg, m.accounts.rosters[m.topics.open], m.env.selfName)}
	}
	// A paste elsewhere lands in the input bar: focus follows it.
	cmd := m.setFocus(FocusInput)
	return []tea.Cmd{cmd, m.input.update(msg, m.accounts.rosters[m.topics.open], m.env.selfName)}
}

// handleClick focuses what was clicked and acts on rows.
func (m *Model) handleClick(ms tea.Mouse) []tea.Cmd {
	if m.overlay.open != ovNone || ms.Button != tea.MouseLeft {
		return nil
	}
	x, y := ms.X, ms.Y
	l := m.layout
	switch {
	case l.Topics.contains(x, y):
		cmds := []tea.Cmd{m.setFocus(FocusTopics)}
		id := m.topics.idAt(y - l.Topics.Y)
		if id == "" {
			return cmds
		}
		m.topics.selectID(id)
		if id == newRowID {
			if m.topics.indexed(m.topics.open) {
				return append(cmds, m.newTopicCmd())
			}
			return cmds
		}
		return append(cmds, m.switchTopic(id)...)
	case l.Chat.contains(x, y):
		cmds := []tea.Cmd{m.setFocus(FocusChat)}
		if i := m.chat.itemAt(y - l.Chat.Y); i >= 0 {
			m.chat.sel = i
			m.chat.toggleFold(i)
			m.chat.dirty = true
		}
		return cmds
	case l.Participants.contains(x, y):
		cmds := []tea.Cmd{m.setFocus(FocusParticipants)}
		if r := m.accounts.panel.rowAt; y-l.Participants.Y < len(r) && r[y-l.Participants.Y] >= 0 {
			m.accounts.panel.sel = r[y-l.Participants.Y]
		}
		return cmds
	case l.Input.contains(x, y):
		return []tea.Cmd{m.setFocus(FocusInput)}
	}
	for i, k := range m.visiblePanes() {
		if i < len(l.Panes) && l.Panes[i].contains(x, y) {
			m.focusPane = k
			return []tea.Cmd{m.setFocus(FocusPane)}
		}
	}
	return nil
}

// handleWheel scrolls what is under the pointer: the chat (paging older
// posts in at the top), a pane's scrollback, or a list.
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
		m.accounts.panel.sel = clampInt(m.accounts.panel.sel-d, 0, max(len(m.partData().rows())-1, 0))
		m.accounts.panel.dirty = true
		return nil
	}
	for i, k := range m.visiblePanes() {
		if i < len(l.Panes) && l.Panes[i].contains(x, y) {
			p := m.seats.panes[k]
			_, rows := innerSize(l.Panes[i])
			if !p.scrolling {
				if d < 0 {
					return nil
				}
				p.scrolling, p.sbOff = true, 0
				p.scrollBy(chatWheelRows, rows)
				return []tea.Cmd{m.scrollbackCmd(k)}
			}
			p.scrollBy(d*chatWheelRows, rows)
			if p.sbOff == 0 && d < 0 {
				p.scrolling = false
			}
			return nil
		}
	}
	return nil
}
