package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// helpMinColW is the narrowest help column that still reads (a key name
// and a short description).
const helpMinColW = 36

// modalBox frames content (lines no wider than inner cells) as a modal.
func modalBox(e *env, content string, inner int) string {
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		lines[i] = fit(l, inner)
	}
	return lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(e.th.accent).
		Padding(0, 1).
		Render(strings.Join(lines, "\n"))
}

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

// helpView lists the key map's bindings by group (DESIGN §10; the modal
// keys are left out, see KeyMap.modalEntries),
// flowed into as many columns as the screen needs and allows; off scrolls
// it when even that is too tall (↑/↓ while it is open).
func helpView(e *env, maxW, maxH, off int) string {
	entries := e.keys.helpEntries()
	keyW, descW := 0, 0
	for _, en := range entries {
		keyW = max(keyW, ansi.StringWidth(keysLabel(*en.b)))
		descW = max(descW, ansi.StringWidth(e.tr.t(en.help)))
	}
	keyW = min(keyW, 32) // the longest default label; longer overrides are cut
	colW := keyW + 2 + descW + 2
	var lines []string
	var group msgKey = -1
	for _, en := range entries {
		if en.group != group {
			if group >= 0 {
				lines = append(lines, "")
			}
			group = en.group
			lines = append(lines, e.th.accentS.Render(e.tr.t(group)))
		}
		lines = append(lines, e.th.text.Render(fit(keysLabel(*en.b), keyW))+"  "+e.th.dim.Render(e.tr.t(en.help)))
	}
	rowsAvail := max(maxH-6, 4)
	cols := clampInt((len(lines)+rowsAvail-1)/rowsAvail, 1, max((maxW-4)/helpMinColW, 1))
	perCol := (len(lines) + cols - 1) / cols
	cw := min(colW, max(maxW-4, 20)/cols)
	inner := cw * cols
	off = clampInt(off, 0, max(perCol-rowsAvail, 0))
	title := e.tr.t(mHelpTitle)
	if perCol > rowsAvail {
		title += fmt.Sprintf("  (%d–%d / %d ↑↓)", off+1, min(off+rowsAvail, perCol), perCol)
	}
	out := []string{e.th.title.Render(title), ""}
	for r := off; r < perCol && r < off+rowsAvail; r++ {
		var b strings.Builder
		for c := 0; c < cols; c++ {
			if i := c*perCol + r; i < len(lines) {
				b.WriteString(fit(lines[i], cw-1) + " ")
			}
		}
		out = append(out, b.String())
	}
	out = append(out, "", e.th.dim.Render(e.tr.t(mHelpFooter)))
	return modalBox(e, strings.Join(out, "\n"), inner)
}
