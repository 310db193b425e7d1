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
	// dialogLeave: quitting a served UI while seats run (detach, or stop
	// everything).
	dialogLeave
)

// A dialog's answers, as its buttons stand left to right; answerSafe only
// in a dialog with a safe answer.
const (
	answerCancel = iota
	answerSafe
	answerAction
)

// confirmDialog is a two-answer question (spec «診断面»: Cancel has the
// focus, Esc is Cancel, the dangerous answer must be chosen explicitly),
// or three with a safe answer between them, which then has the focus.
type confirmDialog struct {
	kind    dialogKind
	title   string
	lines   []string
	safe    string // the safe answer's label, "" none
	action  string // the dangerous answer's label
	choice  int    // the focused answer (answerCancel, …)
	topic   string
	account string
}

// switchAnswer moves the focus to the next answer, round.
func (d *confirmDialog) switchAnswer() {
	switch {
	case d.choice == answerCancel && d.safe != "":
		d.choice = answerSafe
	case d.choice == answerAction:
		d.choice = answerCancel
	default:
		d.choice = answerAction
	}
}

// confirmAnswer is what the Confirm key answers: the safe answer where
// there is one (a "y" must never stop everything), else the action.
func (d *confirmDialog) confirmAnswer() int {
	if d.safe != "" {
		return answerSafe
	}
	return answerAction
}

// dialogChrome is the rows a dialog has besides its lines: frame, title,
// two blanks and the buttons.
const dialogChrome = 6

func (d *confirmDialog) view(e *env, maxW, maxH int) string {
	inner := clampInt(maxW-4, 20, 64)
	var body []string
	for _, l := range d.lines {
		for _, wl := range wrapText(l, inner) {
			body = append(body, e.th.text.Render(wl))
		}
	}
	// Too tall for the screen: the last lines give way, never the buttons.
	if room := max(maxH-dialogChrome, 1); len(body) > room {
		body = append(body[:room-1], e.th.text.Render("…"))
	}
	b := append([]string{e.th.title.Render(d.title), ""}, body...)
	b = append(b, "")
	cancel := dialogButton(e, e.tr.t(mDlgCancel), d.choice == answerCancel)
	act := " " + d.action + " "
	if d.choice == answerAction {
		act = lipgloss.NewStyle().Foreground(e.th.selBg).Background(e.th.danger).Render(act)
	} else {
		act = e.th.dangerS.Render(act)
	}
	buttons := cancel + "  "
	if d.safe != "" {
		buttons += dialogButton(e, d.safe, d.choice == answerSafe) + "  "
	}
	buttons += act
	b = append(b, fitRight(buttons, inner))
	return modalBox(e, strings.Join(b, "\n"), inner)
}

// dialogButton is a harmless answer's button, highlighted when focused.
func dialogButton(e *env, label string, focused bool) string {
	s := "[ " + label + " ]"
	if focused {
		return e.th.sel.Render(s)
	}
	return e.th.text.Render(s)
}
