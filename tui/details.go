package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// The seat details' room and link rows (spec «参加者パネル»: 部屋ソケット,
// 接続方法, ウィンドウ): the room's own address — the same for every seat —
// and whether it answers there, read when the panel takes the focus (the
// backend dials it); how the seat's CLI is reached; the window it sees.
// A room that does not answer turns the details' title to the danger
// colour and says why, so a failure under the fold is never missed.

// roomSocketMsg is the room's address as read.
type roomSocketMsg struct{ socket RoomSocket }

// roomSocketCmd reads where the seats reach the room and whether it
// answers.
func (m *Model) roomSocketCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg { return roomSocketMsg{socket: b.RoomSocket()} }
}

// onRoomSocket keeps the room's address for the details.
func (m *Model) onRoomSocket(msg roomSocketMsg) {
	m.accounts.socket = &msg.socket
	m.accounts.panel.changed()
}

// roomRow is the details' room row, labels lw cells wide, the value vw:
// the room's address keeping its end, in the danger colour when nothing
// answers there; "—" before it was read.
func roomRow(e *env, sock *RoomSocket, lw, vw int) string {
	th := e.th
	head := " " + th.dim.Render(fit(e.tr.t(mDetRoom), lw)) + " "
	switch {
	case sock == nil:
		return head + th.text.Render("—")
	case sock.Err != "":
		return head + th.dangerS.Render(fitLeft(orDash(oneLine(sock.Address)), vw))
	}
	return head + th.text.Render(fitLeft(orDash(oneLine(sock.Address)), vw))
}

// sessionRows are the details' session id and the key that copies it;
// "—" while a start has not answered (spec #139: not known yet), "none"
// when the topic records no id.
func sessionRows(e *env, s SeatInfo, lw, vw int) []string {
	th, tr := e.th, e.tr
	label := th.dim.Render(fit(tr.t(mDetSession), lw))
	switch id := oneLine(s.SessionID); {
	case id != "":
		return []string{" " + label + " " + th.text.Render(cut(id, vw)),
			strings.Repeat(" ", lw+2) + th.dim.Render(cut(tr.t(mDetCopy, keyName(e.keys.CopySessionID)), vw))}
	case s.State == SeatStarting:
		return []string{" " + th.dim.Render(fit(tr.t(mDetSession), lw)+" —")}
	}
	return []string{" " + th.dim.Render(fit(tr.t(mDetSession), lw)+" "+tr.t(mDetNone))}
}

// viaText is how a seat's CLI is reached: its PTY, or its terminal
// attached to its app-server, whose address (Remote) is the second
// value, ""; "—" for an account without a seat.
func viaText(e *env, s SeatInfo) (string, string) {
	switch {
	case s.Remote != "":
		return e.tr.t(mDetViaServer), oneLine(s.Remote)
	case s.State == SeatStarting || s.State == SeatRunning || s.State == SeatExited:
		return e.tr.t(mDetViaPTY), ""
	}
	return "—", ""
}

// windowText is the window a seat's CLI sees, "120×40"; "—" unknown.
func windowText(s SeatInfo) string {
	if s.Cols <= 0 || s.Rows <= 0 {
		return "—"
	}
	return strconv.Itoa(s.Cols) + "×" + strconv.Itoa(s.Rows)
}
