package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// topicPicker is the finder overlay (docs/design.md §10 "Find"): topics
// whose name holds the query, then posts of every topic whose body holds
// it, found by a search that runs off the UI goroutine.
type topicPicker struct {
	in    textinput.Model        // the filter
	sel   int                    // the highlighted row: titles, then hits
	items []TopicInfo            // the topic list when it opened, newest first
	name  func(id string) string // a topic's name as the list shows it

	query  string      // what titles and hits are for
	titles []TopicInfo // the topics whose name holds query (all for ""), at most titleLimit
	more   bool        // titles stopped at titleLimit
	hits   []PostHit   // the posts that hold query, once the search answered
	search pickerSearch
}

// titleLimit bounds the titles a query lists, and searchDelay is how long
// a query must stay as typed before the message search starts. With 200 000
// topics each key re-read every name on the UI goroutine and started a
// search of every log: typing ten characters took 23 s to show. Now a key
// reads at most the names the last query kept (when it narrows it) or
// until titleLimit match, and one search runs once typing pauses.
const (
	titleLimit  = 200
	searchDelay = 150 * time.Millisecond
)

// pickerMaxW is the widest the finder gets: the screen's width up to
// this, so a post hit shows its speaker, time and the text around its
// match (issue 35: it was 72 at any width).
const pickerMaxW = 120

// searchStartMsg starts the search seq once its delay passed.
type searchStartMsg struct{ seq int }

// pickerSearch is the message search the finder owns: at most one runs,
// and a new query or closing the finder cancels it.
type pickerSearch struct {
	seq     int // of the newest search; an older one's answer is dropped
	cancel  context.CancelFunc
	running bool
	more    bool // it stopped at searchLimit hits
	err     error
}

// searchLimit bounds the hits of one search: the search stops there.
const searchLimit = 200

// searchDoneMsg is a message search's answer.
type searchDoneMsg struct {
	seq  int
	hits []PostHit
	more bool
	err  error
}

func newTopicPicker(e *env, items []TopicInfo, name func(string) string) *topicPicker {
	ti := *newField(e, "")
	ti.Prompt = "› "
	ti.Focus()
	return &topicPicker{in: ti, items: items, name: name, titles: items}
}

// update hands a key or paste to the filter.
func (p *topicPicker) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	return cmd
}

// filter keeps the topics whose name holds q (smart case, findPattern),
// the first titleLimit of them. A query that holds the last one (typing
// on) looks only at what the last one kept, when it kept them all: a name
// that holds q holds the shorter query too, also once q's capital makes it
// case-sensitive.
func (p *topicPicker) filter(e *env, q string) {
	from := p.items
	if p.query != "" && strings.Contains(q, p.query) && !p.more {
		from = p.titles
	}
	p.query, p.sel, p.more = q, 0, false
	if q == "" {
		p.titles = p.items[:min(len(p.items), titleLimit)]
		p.more = len(p.items) > titleLimit
		return
	}
	re := findPattern(q)
	var kept []TopicInfo
	for _, t := range from {
		name := t.Name
		if strings.TrimSpace(name) == "" {
			name = displayName(e, t)
		}
		if !re.MatchString(name) {
			continue
		}
		if len(kept) == titleLimit {
			p.more = true
			break
		}
		kept = append(kept, t)
	}
	p.titles = kept
}

// stopSearch cancels the search under way, if any.
func (p *topicPicker) stopSearch() {
	if p.search.cancel != nil {
		p.search.cancel()
	}
	p.search.cancel, p.search.running = nil, false
}

// rows counts the selectable rows.
func (p *topicPicker) rows() int { return len(p.titles) + len(p.hits) }

// pickerChanged follows the finder's query: it filters the titles and
// starts the message search for it, cancelling the one under way.
func (m *Model) pickerChanged() tea.Cmd {
	p := m.overlay.picker
	q := strings.TrimSpace(p.in.Value())
	if q == p.query {
		return nil
	}
	p.filter(&m.env, q)
	p.stopSearch()
	p.hits, p.search.more, p.search.err = nil, false, nil
	if q == "" {
		return nil
	}
	p.search.seq++
	p.search.running = true // "searching" shows while typing pauses
	seq := p.search.seq
	return tea.Tick(searchDelay, func(time.Time) tea.Msg { return searchStartMsg{seq: seq} })
}

// onSearchStart starts the search seq if its query is still the finder's.
func (m *Model) onSearchStart(msg searchStartMsg) tea.Cmd {
	p := m.overlay.picker
	if m.overlay.open != ovPicker || p == nil || msg.seq != p.search.seq || !p.search.running || p.search.cancel != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.search.cancel = cancel
	return searchCmd(ctx, m.backend, msg.seq, p.query)
}

// searchCmd runs one search; a panic in it is its answer's error, not the
// end of the program.
func searchCmd(ctx context.Context, b Backend, seq int, q string) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = searchDoneMsg{seq: seq, err: fmt.Errorf("search: panic: %v", r)}
			}
		}()
		hits, more, err := b.SearchPosts(ctx, q, searchLimit)
		return searchDoneMsg{seq: seq, hits: hits, more: more, err: err}
	}
}

// onSearchDone shows the answer of the finder's newest search.
func (m *Model) onSearchDone(msg searchDoneMsg) {
	p := m.overlay.picker
	if m.overlay.open != ovPicker || p == nil || msg.seq != p.search.seq {
		return
	}
	p.search.cancel, p.search.running = nil, false
	if errors.Is(msg.err, context.Canceled) {
		return
	}
	p.hits, p.search.more, p.search.err = msg.hits, msg.more, msg.err
}

// pickerOpen acts on the highlighted row: a topic opens; a post opens its
// topic at that post.
func (m *Model) pickerOpen() []tea.Cmd {
	p := m.overlay.picker
	m.closeOverlay()
	switch {
	case p.sel >= 0 && p.sel < len(p.titles):
		return m.switchTopic(p.titles[p.sel].ID)
	case p.sel >= len(p.titles) && p.sel < p.rows():
		return m.jumpTo(p.hits[p.sel-len(p.titles)])
	}
	return nil
}

func (p *topicPicker) view(e *env, w, h int) string {
	p.sel = clampInt(p.sel, 0, max(p.rows()-1, 0))
	inner := max(w-4, 10)
	p.in.SetWidth(inner - 3)
	lines := []string{e.th.title.Render(e.tr.t(mTopicPickerTitle)), p.in.View(), ""}
	rows := max(h-7, 1) // the title, the filter, a blank, the search's line, the frame
	start := 0
	if p.sel >= rows {
		start = p.sel - rows + 1
	}
	for i := start; i < p.rows() && i < start+rows; i++ {
		if i < len(p.titles) {
			l := fit(" "+displayName(e, p.titles[i]), inner-shortDateW-2) + " " +
				fitRight(shortDate(e, p.titles[i].LastActivity, shortDateW), shortDateW)
			if i == p.sel {
				l = e.th.sel.Render(l)
			}
			lines = append(lines, l)
			continue
		}
		lines = append(lines, p.hitRow(e, p.hits[i-len(p.titles)], inner, i == p.sel))
	}
	if note := p.note(e); note != "" {
		lines = append(lines, note)
	}
	return modalBox(e, strings.Join(lines, "\n"), inner)
}

// note is the line under the rows: the search under way, its bound, its
// failure, or that nothing matched.
func (p *topicPicker) note(e *env) string {
	s := &p.search
	switch {
	case s.err != nil:
		return e.th.dangerS.Render(e.tr.t(mPickerFailed, s.err))
	case s.running:
		return e.th.dim.Render(e.tr.t(mPickerSearching))
	case s.more:
		return e.th.dim.Render(e.tr.t(mPickerMoreHits, len(p.hits)))
	case p.more:
		return e.th.dim.Render(e.tr.t(mPickerMoreTitles, len(p.titles)))
	case p.rows() == 0:
		return e.th.dim.Render(e.tr.t(mTopicPickerEmpty))
	}
	return ""
}

// hitRow is "topic — speaker: …before match after…" and the post's time
// in w cells, the time where the titles have their date; the match is
// highlighted and kept in view (issue 35: hits showed neither speaker nor
// time, and were cut from their left whatever they held).
func (p *topicPicker) hitRow(e *env, h PostHit, w int, selected bool) string {
	base, mark := e.th.text, e.th.accentS.Bold(true).Underline(true)
	if selected {
		base, mark = e.th.sel, e.th.sel.Bold(true).Underline(true)
	}
	left := max(w-shortDateW-2, 1)
	name := cut(" "+oneLine(p.name(h.Topic)), min(max(left/4, 8), left)) + " — "
	who := ""
	if s := oneLine(h.Speaker); s != "" {
		who = cut(s, min(max(left/6, 6), 16)) + ": "
	}
	room := max(left-ansi.StringWidth(name)-ansi.StringWidth(who), 1)
	before, match, after := hitWindow(sanitize(h.Before), sanitize(h.Match), sanitize(h.After), room)
	text := base.Render(name) + base.Bold(true).Render(who) + base.Render(before) + mark.Render(match) + base.Render(after)
	return fit(text, left) + base.Render(" "+fitRight(hitTime(e, h.TS), shortDateW))
}

// hitWindow cuts a hit's text to w cells around its match: the match
// whole when it fits, and the cells beside it shared — a third before and
// the rest after while both sides have more, else what one side leaves to
// the other — each cut side marked "…".
func hitWindow(before, match, after string, w int) (string, string, string) {
	mw := ansi.StringWidth(match)
	if mw >= w {
		return "", cut(match, w), ""
	}
	rest := w - mw
	bw, aw := ansi.StringWidth(before), ansi.StringWidth(after)
	give := min(bw, max(rest/3, rest-aw))
	if give == 0 {
		return "", match, cut(after, rest)
	}
	return fitLeft(before, give), match, cut(after, rest-give)
}

// hitTime is when a hit's post was made as the chat and the topic list
// say it: "14:02" today, else its day ("Oct 1", "2025").
func hitTime(e *env, ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ""
	}
	t = t.In(e.loc)
	now := e.now().In(e.loc)
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04")
	}
	return shortDate(e, t, shortDateW)
}
