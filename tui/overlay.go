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
	ovSettings
	ovAttention // what needs the human (attention.go)
	ovMessages  // the status line's reports, whole (messages.go)
)

// overlays is the modal layer: at most one of help, the topic finder, a
// confirmation dialog, the account editor, the attach prompt and the
// settings is open at a time.
type overlays struct {
	open    overlayKind    // which one shows; ovNone for none
	helpOff int            // the help overlay's scroll offset in rows
	msgOff  int            // the messages overlay's scroll offset in rows
	picker  *topicPicker   // set while open == ovPicker
	dialog  *confirmDialog // set while open == ovDialog
	editor  *accountEditor // set while open == ovEditor
	attach  *attachPicker  // set while open == ovAttach
	// settings is set while open == ovSettings.
	settings *settingsOverlay
}

// modalBox frames content (lines no wider than inner cells) as a modal: a
// rounded border in the accent colour and one cell of padding each side.
// The frame is drawn here around the fitted lines rather than by a Lip
// Gloss border style, which measures and pads every line again: under the
// account editor that was a third of each key's cost (BenchmarkTypeKey).
func modalBox(e *env, content string, inner int) string {
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		lines[i] = fit(l, inner)
	}
	return modalFrame(e, lines, inner)
}

// modalFrame is modalBox for lines already exactly inner cells wide.
func modalFrame(e *env, lines []string, inner int) string {
	bs := lipgloss.NewStyle().Foreground(e.th.accent)
	rb := lipgloss.RoundedBorder()
	side := bs.Render(rb.Left)
	content := 0
	for _, l := range lines {
		content += len(l)
	}
	var b strings.Builder
	b.Grow(content + len(lines)*(2*len(side)+8) + 2*(inner+4)*3)
	b.WriteString(bs.Render(rb.TopLeft + strings.Repeat(rb.Top, inner+2) + rb.TopRight))
	for _, l := range lines {
		b.WriteString("\n")
		b.WriteString(side)
		b.WriteString(" ")
		b.WriteString(l)
		b.WriteString(sgrReset + " ")
		b.WriteString(side)
	}
	b.WriteString("\n")
	b.WriteString(bs.Render(rb.BottomLeft + strings.Repeat(rb.Bottom, inner+2) + rb.BottomRight))
	return b.String()
}
