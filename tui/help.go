package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// helpMinColW is the narrowest help column that still reads (a key name
// and a short description); helpMinDescW the narrowest description next to
// the widest key label: below it the overlay scrolls instead of adding a
// column of cut words.
const (
	helpMinColW  = 36
	helpMinDescW = 18
)

// helpView lists every binding of the key map by group (docs/design.md
// §10: every action has a key and the help overlay lists it), flowed into
// as many columns as the screen needs and allows; off scrolls it when even
// that is too tall (↑/↓ while it is open). It returns off clamped to the
// rows there are, which the overlay keeps, so scrolling back up answers at
// once however far down the keys went.
func helpView(e *env, maxW, maxH, off int) (string, int) {
	entries := e.keys.grouped()
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
	minCol := max(helpMinColW, keyW+2+helpMinDescW)
	cols := clampInt((len(lines)+rowsAvail-1)/rowsAvail, 1, max((maxW-4)/minCol, 1))
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
	return modalBox(e, strings.Join(out, "\n"), inner), off
}
