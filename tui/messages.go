package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The messages overlay (docs/design.md §10 "Status line"): every report
// the status line made, newest first, each wrapped whole with its time —
// a report cut at 80 or 120 columns is read here (issue 35). The messages
// key (F12) opens and closes it; ↑/↓ and PgUp/PgDn scroll.

// messagesView draws the overlay in at most maxW×maxH cells.
func (m *Model) messagesView(maxW, maxH int) string {
	e := &m.env
	inner := max(min(maxW, 100)-4, 20)
	rows := m.messageRows(inner)
	page := max(min(maxH, 40)-6, 1)
	m.overlay.msgOff = clampInt(m.overlay.msgOff, 0, max(len(rows)-page, 0))
	lines := []string{e.th.accentS.Bold(true).Render(e.tr.t(mMsgTitle)), ""}
	if len(rows) == 0 {
		lines = append(lines, e.th.dim.Render(e.tr.t(mMsgEmpty)))
	}
	end := min(m.overlay.msgOff+page, len(rows))
	lines = append(lines, rows[m.overlay.msgOff:end]...)
	more := ""
	if n := len(rows) - end; n > 0 {
		more = fmt.Sprintf("+%d · ", n)
	}
	lines = append(lines, "", e.th.dim.Render(cut(more+e.tr.t(mMsgFooter, hintKey(firstKey(m.keys.Cancel)), hintKey(firstKey(m.keys.Messages))), inner)))
	return modalBox(e, strings.Join(lines, "\n"), inner)
}

// messageRows are the reports, newest first, wrapped at w cells: the time
// on the first row, the text in its level's colour.
func (m *Model) messageRows(w int) []string {
	e := &m.env
	log := m.status.log
	rows := make([]string, 0, len(log))
	for i := len(log) - 1; i >= 0; i-- {
		en := log[i]
		at := en.at.In(e.loc).Format("15:04:05") + " "
		st := e.th.text
		switch en.level {
		case stWarn:
			st = e.th.accentS
		case stError:
			st = e.th.dangerS
		}
		indent := strings.Repeat(" ", len(at))
		for j, l := range wrapText(strings.ReplaceAll(en.text, "\n", " "), max(w-len(at), 8)) {
			lead := e.th.dim.Render(at)
			if j > 0 {
				lead = indent
			}
			rows = append(rows, lead+st.Render(l))
		}
	}
	return rows
}

// messagesKey scrolls or closes the overlay.
func (m *Model) messagesKey(k tea.KeyPressMsg) {
	km := &m.keys
	switch {
	case key.Matches(k, km.Cancel), key.Matches(k, km.Messages):
		m.closeOverlay()
	case key.Matches(k, km.Up):
		m.overlay.msgOff--
	case key.Matches(k, km.Down):
		m.overlay.msgOff++
	case key.Matches(k, km.ScrollUp):
		m.overlay.msgOff -= 10
	case key.Matches(k, km.ScrollDown):
		m.overlay.msgOff += 10
	case key.Matches(k, km.Top):
		m.overlay.msgOff = 0
	}
}
