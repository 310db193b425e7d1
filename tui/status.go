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

// statusLine is the bottom line: the latest report on the left
// (docs/design.md §10: what happens to seats and logs is never silent),
// then on the right the brake while the open topic's is on (docs/design.md
// §2 "The brake"), the open topic, how many sit in its room and the help key.
// A report stays until a newer one replaces it.
type statusLine struct {
	text  string
	level statusLevel

	view     string          // the rendered line
	rendered statusRenderKey // what view was rendered from
}

// statusRenderKey is everything the status line depends on.
type statusRenderKey struct {
	width, gen int
	text       string
	level      statusLevel
	brake      string
	right      string
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

// renderStatus refreshes the status line for the open topic.
func (m *Model) renderStatus() {
	right := m.topics.nameOf(&m.env, m.topics.open)
	if n := len(m.roster()); n > 0 {
		right += " · " + fmt.Sprint(n)
	}
	right += " · " + m.env.tr.t(mStHelpHint) + " "
	brake := ""
	if m.topics.braked[m.topics.open] {
		brake = brakeMark + " " + m.env.tr.t(mStBrakeOn, keysLabel(m.keys.ReleaseBrake)) + " · "
	}
	m.status.render(&m.env, m.width, brake, right)
}

// render draws the line at width cells: the report cut to what the right
// part (the brake, then the rest) leaves, or alone when that is too little.
func (s *statusLine) render(e *env, width int, brake, right string) {
	k := statusRenderKey{width, e.gen, s.text, s.level, brake, right}
	if k == s.rendered {
		return
	}
	s.rendered = k
	th := e.th
	leftW := max(width-ansi.StringWidth(brake)-ansi.StringWidth(right)-1, 0)
	st := th.text
	switch s.level {
	case stWarn:
		st = th.accentS
	case stError:
		st = th.dangerS
	}
	left := " " + strings.ReplaceAll(s.text, "\n", " ")
	if leftW < 8 {
		s.view = fit(st.Render(left), width)
		return
	}
	if brake != "" {
		brake = th.dangerS.Render(brake)
	}
	s.view = fit(st.Render(fit(left, leftW)), leftW) + " " + brake + th.dim.Render(right)
}
