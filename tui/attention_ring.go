package tui

import tea "charm.land/bubbletea/v2"

// ringTitle heads every notification.
const ringTitle = "Pullcept"

// ringCmd rings for text: a desktop notification when the settings ask
// for one and it would reach the human here (Desktop.DesktopHere: not
// over SSH, a desktop session to show it), else — and when it fails — the
// terminal's sequence, written to this UI's own terminal only.
func (m *Model) ringCmd(cfg attnNotify, text string) tea.Cmd {
	kind, _ := chooseRing(cfg.sequence, m.opts.Getenv, m.env.tr)
	seq := ringSequence(kind, ringTitle, text, m.opts.Getenv("TMUX") != "")
	if d, ok := m.backend.(Desktop); ok && cfg.mode == NotifyDesktop && d.DesktopHere() {
		return func() tea.Msg {
			return ringedMsg{err: d.DesktopNotify(ringTitle, text), ring: seq}
		}
	}
	return tea.Raw(seq)
}
