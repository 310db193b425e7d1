package tui

import tea "charm.land/bubbletea/v2"

// bridgeMsg applies what the bridge's waits return (bridge.go) and re-arms
// exactly one wait per source.
func (m *Model) bridgeMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case eventsMsg:
		cmds := []tea.Cmd{waitEvents(m.backend)}
		for _, ev := range msg.evs {
			cmds = append(cmds, m.onEvent(ev)...)
		}
		return cmds, true
	case eventsClosedMsg:
		m.setStatus(stError, m.env.tr.t(mStRoomClosed))
		return nil, true
	case screenChangedMsg:
		m.seats.screenGen = msg.gen
		return []tea.Cmd{waitScreens(m.backend, m.seats.screenGen), m.snapshotCmd()}, true
	}
	return nil, false
}

// onEvent hands one event to the feature it concerns. Room events for other
// topics only touch the topic list (unread marker, order), and the status
// line says what happened to seats and logs (never silent).
func (m *Model) onEvent(ev Event) []tea.Cmd {
	tr := m.env.tr
	switch ev := ev.(type) {
	case PostDelivered:
		return m.onPostDelivered(ev)
	case LogFailed:
		m.setStatus(stError, tr.t(mStLogFailed, m.topics.nameOf(&m.env, ev.Topic), ev.Err))
	case RosterChanged:
		m.onRosterChanged(ev)
	case SeatUpdated:
		if ev.Topic == m.topics.open {
			return []tea.Cmd{m.seatsCmd()}
		}
	case BrakeChanged:
		m.onBrakeChanged(ev)
	case SeatChanged:
		return m.onSeatChanged(ev)
	case SeatRestart:
		m.onSeatRestart(ev)
	case LinesSkipped:
		m.setStatus(stWarn, tr.tn(mStSkipped, ev.Count, ev.Count, m.topics.nameOf(&m.env, ev.Topic)))
	case Notice:
		lvl := stInfo
		if ev.Error {
			lvl = stError
		}
		m.setStatus(lvl, sanitize(ev.Text))
	case TerminalAttached:
		m.setStatus(stInfo, m.env.tr.t(mStTerminalAttached, ev.Client, sanitize(ev.Peer)))
	case AttachRefused:
		m.setStatus(stError, m.env.tr.t(mStSeatAttachRefused, sanitize(ev.Peer)))
	case MCPServerChanged:
		return m.onServerChanged(ev)
	case PermissionAsked:
		m.onPermissionAsked(ev)
	case PermissionClosed:
		return m.onPermissionClosed(ev)
	case AttentionChanged:
		return m.onAttentionChanged(ev)
	case Resynced:
		return m.resync()
	}
	return nil
}

// resync reloads everything the UI derived from the event stream after
// events were lost (Resynced): the lists, the open topic and its seats.
func (m *Model) resync() []tea.Cmd {
	m.setStatus(stWarn, m.env.tr.t(mStResynced))
	m.chat = newChat()
	m.chat.loading = true
	m.chat.focused = m.focus == FocusChat
	return []tea.Cmd{m.loadTopicsCmd(), m.loadAccountsCmd(), m.openTopicCmd(m.topics.open), m.loadCardsCmd(), m.loadAttentionCmd()}
}
