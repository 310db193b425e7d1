package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// fieldWindow is the part of a one-line field's value that shows in w
// cells around its caret at rune pos, as the real cursor wants it (the
// topic rename prompt; issue 35: a name longer than the row was edited
// blind, the caret and the letters Backspace took out of sight). start is
// the first rune shown last time: the window moves only as far as the caret
// needs, keeps the rune before the caret in sight (Backspace deletes what
// shows), shows more of the left once the rest fits, and never shows half
// of a wide character. Each rune is drawn sanitized (a control character
// of a name a seat gave is never written). It returns the text, exactly w
// cells, the caret's cell in it, and the new start.
func fieldWindow(value string, pos, w, start int) (text string, caretX, newStart int) {
	w = max(w, 1)
	var units []string
	for _, r := range value {
		units = append(units, fieldUnit(r))
	}
	pos = clampInt(pos, 0, len(units))
	// at[i] is the width of units[:i]; the caret takes a cell after the end.
	at := make([]int, len(units)+1)
	for i, u := range units {
		at[i+1] = at[i] + ansi.StringWidth(u)
	}
	caretEnd := at[pos] + 1
	if pos < len(units) {
		caretEnd = max(at[pos+1], caretEnd)
	}
	end := at[len(units)]
	if pos == len(units) {
		end++
	}
	start = clampInt(start, 0, max(pos-1, 0))
	for start < pos && caretEnd-at[start] > w {
		start++
	}
	for start > 0 && end-at[start-1] <= w {
		start--
	}
	var b strings.Builder
	used := 0
	for _, u := range units[start:] {
		uw := ansi.StringWidth(u)
		if used+uw > w {
			break
		}
		b.WriteString(u)
		used += uw
	}
	return fit(b.String(), w), at[pos] - at[start], start
}

// fieldUnit is rune r as a field draws it: a control character as nothing,
// a line break as a space, what draws nothing as its code.
func fieldUnit(r rune) string {
	if r == '\n' || r == '\r' || r == '\t' {
		return " "
	}
	return sanitize(string(r))
}
