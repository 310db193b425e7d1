package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// overlayKind names the modal layer over the screen; an open one takes
// every key.
type overlayKind int

const (
	ovNone overlayKind = iota
	ovHelp
	ovPicker
	ovDialog
	ovEditor
	ovAttach
)

// overlays is the modal layer: at most one of help, the topic finder, a
// confirmation dialog and the account editor is open at a time.
type overlays struct {
	open    overlayKind    // which one shows; ovNone for none
	helpOff int            // the help overlay's scroll offset in rows
	picker  *topicPicker   // set while open == ovPicker
	dialog  *confirmDialog // set while open == ovDialog
	editor  *accountEditor // set while open == ovEditor
	attach  *attachPicker  // set while open == ovAttach
}

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
