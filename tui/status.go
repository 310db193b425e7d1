package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
// A report expires (statusLife) or gives way to a newer one; switching
// topics drops it (the messages overlay keeps it). The welcome hint stays
// while it applies.
type statusLine struct {
	text  string
	level statusLevel
	seq   int       // bumped by every report: a timer of an older one is stale
	at    time.Time // when the report was made (env.now)
	armed bool      // a timer runs for the report seq had then
	// after makes the timer's command (tea.Tick; tests replace it). One
	// timer at a time, so a burst of reports leaves no pile of them.
	after func(d time.Duration, msg tea.Msg) tea.Cmd

	view     string          // the rendered line
	rendered statusRenderKey // what view was rendered from

	// narrowSaid: the narrow panes' hint was given (hintNarrowPanes);
	// narrowShown is its text while the line still shows it.
	narrowSaid  bool
	narrowShown string

	// log is every report made, oldest first, at most statusLogMax: the
	// messages overlay reads them whole (issue 35: a report cut at 80 or
	// 120 columns could not be read).
	log []statusEntry
}

// statusEntry is one report as it was made; seat is the seat ("topic
// account") whose permission cards made it, "" for any other.
type statusEntry struct {
	at    time.Time
	level statusLevel
	text  string
	seat  string
}

// statusLogMax bounds the reports kept for the messages overlay;
// statusSeatMax the reports of one seat's cards among them (twice the
// cards a seat may hold open, asked and gone): a seat that opens and
// closes cards without end pushes out its own, never the rest.
const (
	statusLogMax  = 200
	statusSeatMax = 16
)

// statusRenderKey is everything the status line depends on.
type statusRenderKey struct {
	width, gen int
	text       string
	level      statusLevel
	right      statusRight
	more       string
}

// statusLife is how long a report stays: a few seconds to read a notice,
// longer for an error, which may need acting on.
func statusLife(level statusLevel) time.Duration {
	if level == stError {
		return 20 * time.Second
	}
	return 6 * time.Second
}

// statusExpiredMsg: the status timer armed for report seq fired.
type statusExpiredMsg struct{ seq int }

// setStatus shows a report, and keeps it for the messages overlay: every
// report, not only one drawn cut — whether it is cut changes with every
// resize and with the right-hand part, and this is the one way a report
// reaches the line (issue 35: the new-topic hint was shown cut with
// "F12", and F12 did not have it).
func (m *Model) setStatus(level statusLevel, text string) {
	m.seatStatus("", level, text)
}

// seatStatus is setStatus for a report a seat's permission card made (seat
// "topic account", cardSeat): the log keeps at most statusSeatMax of one
// seat's.
func (m *Model) seatStatus(seat string, level statusLevel, text string) {
	m.status.text, m.status.level = text, level
	m.status.seq++
	m.status.at = m.env.now()
	m.status.keep(statusEntry{at: m.status.at, level: level, text: text, seat: seat})
}

// extendStatus adds more to the report shown: one report, on the line
// and in the log.
func (m *Model) extendStatus(level statusLevel, more string) {
	s := &m.status
	if n := len(s.log); n > 0 && s.text != "" && s.log[n-1].text == s.text {
		s.log = s.log[:n-1]
	}
	m.setStatus(level, s.text+more)
}

// relabel shows the report shown in other words (the welcome hint in
// another language), in the log too.
func (s *statusLine) relabel(text string) {
	if n := len(s.log); n > 0 && s.log[n-1].text == s.text {
		s.log[n-1].text = text
	}
	s.text = text
}

// cardSeat is the seat a card's reports are counted against.
func cardSeat(topic, account string) string { return topic + " " + account }

// keep adds a report to the log (a repeat of the last one only moves its
// time); past statusSeatMax of its seat's, that seat's oldest goes.
func (s *statusLine) keep(e statusEntry) {
	if e.text == "" {
		return
	}
	if n := len(s.log); n > 0 && s.log[n-1].text == e.text && s.log[n-1].level == e.level {
		s.log[n-1].at = e.at
		return
	}
	if e.seat != "" {
		n, oldest := 0, -1
		for i, l := range s.log {
			if l.seat == e.seat {
				n++
				if oldest < 0 {
					oldest = i
				}
			}
		}
		if n >= statusSeatMax {
			s.log = slices.Delete(s.log, oldest, oldest+1)
		}
	}
	if len(s.log) == statusLogMax {
		copy(s.log, s.log[1:])
		s.log = s.log[:statusLogMax-1]
	}
	s.log = append(s.log, e)
}

// statusMsg clears the report its timer was armed for; a newer report gets
// its own timer from armStatus.
func (m *Model) statusMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	ex, ok := msg.(statusExpiredMsg)
	if !ok {
		return nil, false
	}
	m.status.armed = false
	if ex.seq == m.status.seq {
		m.status.text = ""
	}
	return nil, true
}

// armStatus starts the timer of the report shown, if none runs: for what
// is left of its life (a timer that fired for an older report re-arms for
// the newer one).
func (m *Model) armStatus() tea.Cmd {
	s := &m.status
	if s.armed || s.text == "" || s.text == m.env.tr.t(mStWelcome) {
		return nil
	}
	left := statusLife(s.level) - m.env.now().Sub(s.at)
	if left <= 0 {
		s.text = ""
		return nil
	}
	s.armed = true
	return s.after(left, statusExpiredMsg{seq: s.seq})
}

// statusOnSwitch drops the report shown: it is about the topic left
// behind (issue 35: an error stayed, stale, in the next topic). Every
// report stays in the messages overlay (F12), and what needs the human is
// in its own list (F5).
func (m *Model) statusOnSwitch() {
	m.status.text = ""
}

// clearWelcome drops the new-topic hint once it no longer applies (another
// topic opened, or the first post named this one); every other status stays
// until a newer one replaces it.
func (m *Model) clearWelcome() {
	if m.status.text == m.env.tr.t(mStWelcome) {
		m.status.text = ""
	}
}

// hintNarrowPanes says once, when the status line is free, which keys
// hide the side columns while a pane is narrower than narrowPaneCols and a
// side column shows (issue 35: at 80×24 two panes are 16 columns wide and
// nothing said the columns fold away). While it shows it follows what
// applies: hiding one column leaves the other's key, hiding both (or panes
// grown wide enough) takes it away (issue 35: it stayed after both were
// hidden).
func (m *Model) hintNarrowPanes() {
	s := &m.status
	want := m.narrowHint()
	if s.narrowShown != "" && s.text != s.narrowShown {
		s.narrowShown = "" // it expired, or a report took its place
	}
	if s.narrowShown != "" && want != s.narrowShown {
		s.text, s.narrowShown = "", ""
		if want != "" {
			m.setStatus(stInfo, want)
			s.narrowShown = want
		}
		return
	}
	if s.narrowSaid || s.text != "" || want == "" {
		return
	}
	m.setStatus(stInfo, want)
	s.narrowSaid, s.narrowShown = true, want
}

// narrowHint is the narrow panes' hint as it applies now: "" when no pane
// is narrow or no side column shows.
func (m *Model) narrowHint() string {
	if !m.panesNarrow() {
		return ""
	}
	hk := func(b key.Binding) string { return hintKey(firstKey(b)) }
	topics, accounts := hk(m.keys.ToggleTopics), hk(m.keys.ToggleParticipants)
	if m.layout.Topics.empty() {
		topics = ""
	}
	if m.layout.Participants.empty() {
		accounts = ""
	}
	tr := m.env.tr
	switch {
	case topics != "" && accounts != "":
		return tr.t(mStNarrowPanes, topics, accounts)
	case topics != "":
		return tr.t(mStNarrowPanesTopics, topics)
	case accounts != "":
		return tr.t(mStNarrowPanesAccounts, accounts)
	}
	return ""
}

// panesNarrow reports whether a shown pane is narrower than narrowPaneCols
// inside its border.
func (m *Model) panesNarrow() bool {
	for _, r := range m.layout.Panes {
		if cols, _ := innerSize(r); cols < narrowPaneCols {
			return true
		}
	}
	return false
}

// renderStatus refreshes the status line for the open topic.
func (m *Model) renderStatus() {
	tr, km := m.env.tr, &m.keys
	r := statusRight{topic: m.topics.nameOf(&m.env, m.topics.open) + " · "}
	if n := len(m.roster()); n > 0 {
		r.topic += fmt.Sprint(n) + " · "
	}
	help := hintKey(firstKey(km.Help))
	r.help, r.helpShort = tr.t(mStHelpHint, help)+" ", help+" "
	if m.topics.braked[m.topics.open] {
		release := hintKey(firstKey(km.ReleaseBrake))
		r.brake = brakeMark + " " + tr.t(mStBrakeOn, release) + " · "
		r.brakeShort = brakeMark + " " + release + " · "
	}
	if n := m.attn.pending(); n > 0 {
		r.need = m.attentionStatus()
		r.needShort = fmt.Sprintf("%s %d %s · ", attnMark, n, hintKey(firstKey(km.NeedsYou)))
	}
	m.status.render(&m.env, m.width, r, hintKey(firstKey(km.Messages)))
}

// statusRight is the line's right part in its forms, fullest first: the
// need-you count, the brake, the open topic and how many sit in it, the
// help key. While a report shows, the part gives way to it form by form
// (issue 35: at 80×24 it left the report a word): first the topic (the
// window title and the topic list name it), then the words around the
// keys; the need-you count, the brake and the help key stay.
type statusRight struct {
	need, needShort   string // "! 1 need you: F5 · ", "! 1 F5 · "
	brake, brakeShort string // "‖ brake: F9 releases · ", "‖ F9 · "
	topic             string // "リリース準備 · 3 · "
	help, helpShort   string // "F1 help ", "F1 "
}

// statusForms is how many forms statusRight has.
const statusForms = 4

// form is the right part's form i (0 the fullest): its need-you, brake
// and rest.
func (r statusRight) form(i int) (need, brake, rest string) {
	switch i {
	case 0:
		return r.need, r.brake, r.topic + r.help
	case 1:
		return r.need, r.brake, r.help
	case 2:
		return r.needShort, r.brakeShort, r.help
	}
	return r.needShort, r.brakeShort, r.helpShort
}

// width is form i's width in cells.
func (r statusRight) width(i int) int {
	need, brake, rest := r.form(i)
	return ansi.StringWidth(need) + ansi.StringWidth(brake) + ansi.StringWidth(rest)
}

// render draws the line at width cells: the report, then the right part
// in the fullest form that leaves the report whole (the least when none
// does), or the report alone when that leaves too little; a report that
// is cut ends with the messages key (more), which shows it whole.
func (s *statusLine) render(e *env, width int, r statusRight, more string) {
	k := statusRenderKey{width, e.gen, s.text, s.level, r, more}
	if k == s.rendered {
		return
	}
	s.rendered = k
	th := e.th
	left := " " + strings.ReplaceAll(s.text, "\n", " ")
	form := 0
	if s.text != "" {
		for form < statusForms-1 && ansi.StringWidth(left) > width-r.width(form)-1 {
			form++
		}
	}
	need, brake, right := r.form(form)
	leftW := max(width-r.width(form)-1, 0)
	st := th.text
	switch s.level {
	case stWarn:
		st = th.accentS
	case stError:
		st = th.dangerS
	}
	if leftW < 8 {
		s.view = fit(st.Render(left), width)
		return
	}
	if brake != "" {
		brake = th.dangerS.Render(brake)
	}
	if need != "" {
		need = th.accentS.Bold(true).Render(need)
	}
	if ansi.StringWidth(left) > leftW && more != "" {
		tail := " " + more
		s.view = fit(st.Render(cut(left, max(leftW-ansi.StringWidth(tail), 1)))+th.accentS.Render(tail), leftW) + " " + need + brake + th.dim.Render(right)
		return
	}
	s.view = fit(st.Render(cut(left, leftW)), leftW) + " " + need + brake + th.dim.Render(right)
}
