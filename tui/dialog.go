package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// dialogKind says what a confirmation answers.
type dialogKind int

const (
	dialogDeleteTopic dialogKind = iota
	dialogStopSeat
	dialogQuit
)

// confirmDialog is a two-answer question (spec «診断面»: Cancel has the
// focus, Esc is Cancel, the dangerous answer must be chosen explicitly).
type confirmDialog struct {
	kind    dialogKind
	title   string
	lines   []string
	action  string // the dangerous answer's label
	onYes   bool   // focus on the action (false = on Cancel)
	topic   string
	account string
}

func (d *confirmDialog) view(e *env, maxW int) string {
	inner := clampInt(maxW-4, 20, 64)
	var b []string
	b = append(b, e.th.title.Render(d.title), "")
	for _, l := range d.lines {
		for _, wl := range wrapText(l, inner) {
			b = append(b, e.th.text.Render(wl))
		}
	}
	b = append(b, "")
	cancel := " " + e.tr.t(mDlgCancel) + " "
	act := " " + d.action + " "
	if d.onYes {
		act = lipgloss.NewStyle().Foreground(e.th.selBg).Background(e.th.danger).Render(act)
		cancel = e.th.text.Render("[" + cancel + "]")
	} else {
		cancel = e.th.sel.Render("[" + cancel + "]")
		act = e.th.dangerS.Render(act)
	}
	buttons := cancel + "  " + act
	b = append(b, fitRight(buttons, inner))
	return modalBox(e, strings.Join(b, "\n"), inner)
}
