package tui

import (
	"cmp"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The overlays' keys: an open overlay takes every key (and every paste).

// overlayKey hands a key to the open overlay.
func (m *Model) overlayKey(k tea.KeyPressMsg) []tea.Cmd {
	switch m.overlay.open {
	case ovHelp:
		m.helpKey(k)
	case ovPicker:
		return m.pickerKey(k)
	case ovDialog:
		return m.dialogKey(k)
	case ovEditor:
		return m.editorUpdate(k)
	case ovAttach:
		return m.attachKey(k)
	case ovSettings:
		return m.settingsKey(k)
	case ovAttention:
		return m.attentionListKey(k)
	case ovMessages:
		m.messagesKey(k)
	}
	return nil
}

// overlayPaste hands a paste to the open overlay; help, dialogs and the
// settings drop it.
func (m *Model) overlayPaste(msg tea.PasteMsg) []tea.Cmd {
	switch m.overlay.open {
	case ovEditor:
		return m.editorUpdate(msg)
	case ovPicker:
		return []tea.Cmd{m.overlay.picker.update(msg), m.pickerChanged()}
	case ovAttach:
		return m.attachPaste(msg)
	}
	return nil
}

func (m *Model) closeOverlay() {
	if m.overlay.picker != nil {
		m.overlay.picker.stopSearch()
	}
	m.overlay = overlays{}
}

func (m *Model) openHelp() {
	m.overlay.open, m.overlay.helpOff = ovHelp, 0
}

func (m *Model) openDialog(d *confirmDialog) {
	m.overlay.dialog = d
	m.overlay.open = ovDialog
}

// helpKey scrolls or closes the help overlay: a row, a page, or to an end.
func (m *Model) helpKey(k tea.KeyPressMsg) {
	km := &m.keys
	o := &m.overlay
	l := layoutHelp(&m.env, m.width, m.height)
	off := o.helpOff
	switch {
	case key.Matches(k, km.Cancel, km.Help, km.Quit):
		m.closeOverlay()
		return
	case key.Matches(k, km.Up):
		off--
	case key.Matches(k, km.Down):
		off++
	case key.Matches(k, km.ScrollUp):
		off -= l.page
	case key.Matches(k, km.ScrollDown):
		off += l.page
	case key.Matches(k, km.Top):
		off = 0
	case key.Matches(k, km.Bottom, km.JumpLatest):
		off = l.maxOff()
	}
	o.helpOff = clampInt(off, 0, l.maxOff())
}

// pickerKey moves in the topic finder, opens the chosen topic, or types
// into its filter.
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
		return m.pickerOpen()
	}
	cmd := p.update(k)
	return []tea.Cmd{cmd, m.pickerChanged()}
}

// dialogKey answers a confirmation: Deny and Cancel close it, Confirm says
// yes (the safe answer where there is one), ChooseAnswer presses the
// focused button (Cancel at first, or the safe answer).
func (m *Model) dialogKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	d := m.overlay.dialog
	switch {
	case key.Matches(k, km.Cancel, km.Deny):
		m.closeOverlay()
		return nil
	case key.Matches(k, km.SwitchAnswer):
		d.switchAnswer()
		return nil
	case key.Matches(k, km.Confirm):
		return m.answerDialog(d.confirmAnswer())
	case key.Matches(k, km.ChooseAnswer):
		return m.answerDialog(d.choice)
	}
	return nil
}

// answerDialog closes the dialog and does what the answer chose.
func (m *Model) answerDialog(choice int) []tea.Cmd {
	d := m.overlay.dialog
	m.closeOverlay()
	if choice == answerCancel {
		return nil
	}
	switch d.kind {
	case dialogLeave:
		m.quitting = true
		if choice == answerSafe {
			return []tea.Cmd{tea.Quit} // detach: the server keeps the seats
		}
		return []tea.Cmd{stopAllCmd(m.opts.StopAll)}
	case dialogQuit:
		m.quitting = true
		return []tea.Cmd{tea.Quit}
	case dialogStopSeat:
		return []tea.Cmd{m.stopCmd(seatKey{d.topic, d.account})}
	case dialogDeleteTopic:
		return []tea.Cmd{m.deleteTopicCmd(d.topic)}
	}
	return nil
}

// askQuit quits at once when no seat runs, else asks first (spec «アプリの
// 終了»: closing stops every running seat); the question is asked once the
// backend said which seats run and which of them resume next time. A
// served UI's quit detaches: with seats running it asks whether to stop
// everything instead.
func (m *Model) askQuit() []tea.Cmd {
	running := len(m.runningSeatNames()) > 0
	for _, t := range m.topics.items {
		running = running || t.Running
	}
	if !running {
		m.quitting = true
		return []tea.Cmd{tea.Quit}
	}
	b := m.backend
	return []tea.Cmd{func() tea.Msg { return quitOutlookMsg{seats: b.QuitOutlook()} }}
}

// quitOutlookMsg carries the seats quitting would stop.
type quitOutlookMsg struct{ seats []SeatOutlook }

// quitMsg routes the answer askQuit waits for.
func (m *Model) quitMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	if q, ok := msg.(quitOutlookMsg); ok {
		return m.onQuitOutlook(q), true
	}
	return nil, false
}

// onQuitOutlook asks before quitting: quitting stops every seat, named
// with its topic, and says which resume their conversation when started
// again in that topic and which start fresh, and why (docs/design.md §9).
// A served UI asks whether to detach or stop everything. Nothing running
// by now quits at once.
func (m *Model) onQuitOutlook(msg quitOutlookMsg) []tea.Cmd {
	if len(msg.seats) == 0 {
		m.quitting = true
		return []tea.Cmd{tea.Quit}
	}
	if m.overlay.open != ovNone {
		return nil // something else opened meanwhile: that wins
	}
	seats := slices.Clone(msg.seats)
	open := m.topics.open
	slices.SortStableFunc(seats, func(a, b SeatOutlook) int {
		if (a.Topic == open) != (b.Topic == open) {
			if a.Topic == open {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(m.topics.nameOf(&m.env, a.Topic), m.topics.nameOf(&m.env, b.Topic)); c != 0 {
			return c
		}
		return cmp.Compare(m.accounts.name(a.Account), m.accounts.name(b.Account))
	})
	tr := m.env.tr
	d := &confirmDialog{kind: dialogQuit, title: tr.t(mQuitTitle), action: tr.t(mDlgQuit)}
	d.lines = []string{tr.t(mQuitLine)}
	if m.opts.Served {
		// Detach has the focus: leaving the seats running is the safe way
		// out (and what a tmux user expects).
		d = &confirmDialog{kind: dialogLeave, title: tr.t(mLeaveTitle), safe: tr.t(mDlgDetach), action: tr.t(mDlgStopAll), choice: answerSafe}
		d.lines = []string{tr.t(mLeaveDetachLine), tr.t(mLeaveStopLine)}
	}
	for _, s := range seats {
		d.lines = append(d.lines, tr.t(mQuitSeat, m.accounts.name(s.Account), m.topics.nameOf(&m.env, s.Topic), tr.t(nextStartText(s.Next))))
	}
	m.openDialog(d)
	return nil
}

// stopAllCmd stops every seat and ends the server (Options.StopAll), then
// this program. StopAll is I/O, so it runs in a command.
func stopAllCmd(stopAll func()) tea.Cmd {
	return func() tea.Msg {
		if stopAll != nil {
			stopAll()
		}
		return tea.Quit()
	}
}

// nextStartText says what a seat's next start does.
func nextStartText(n NextStart) msgKey {
	switch n {
	case NextResumes:
		return mQuitResumes
	case NextFreshNoResumeLine:
		return mQuitNoResumeLine
	case NextFreshGone:
		return mQuitGone
	}
	return mQuitNoSession
}
