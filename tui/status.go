package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// statusLevel colours the status line.
type statusLevel int

const (
	stInfo statusLevel = iota
	stWarn
	stError
)

// statusLine is the bottom line's report: the latest thing that happened
// (docs/design.md §10: what happens to seats and logs is never silent). A
// report stays until a newer one replaces it.
type statusLine struct {
	text  string
	level statusLevel
}

func (m *Model) setStatus(level statusLevel, text string) {
	m.status.text, m.status.level = text, level
}

// clearWelcome drops the new-topic hint once it no longer applies (another
// topic opened, or the first post named this one); every other status stays
// until a newer one replaces it.
func (m *Model) clearWelcome() {
	if m.status.text == m.env.tr.t(mStWelcome) {
		m.status.text = ""
	}
}

// statusView is the bottom line: the latest status on the left, the open
// topic, how many sit in its room, and the help key on the right.
func (m *Model) statusView() string {
	th := m.env.th
	right := m.topics.nameOf(&m.env, m.topics.open)
	if n := len(m.accounts.rosters[m.topics.open]); n > 0 {
		right += " · " + fmt.Sprint(n)
	}
	right += " · " + m.env.tr.t(mStHelpHint) + " "
	rw := ansi.StringWidth(right)
	leftW := max(m.width-rw-1, 0)
	st := th.text
	switch m.status.level {
	case stWarn:
		st = th.accentS
	case stError:
		st = th.dangerS
	}
	left := " " + strings.ReplaceAll(m.status.text, "\n", " ")
	if leftW < 8 {
		return fit(st.Render(left), m.width)
	}
	return fit(st.Render(fit(left, leftW)), leftW) + " " + th.dim.Render(right)
}
