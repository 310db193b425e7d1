package tui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// topicPicker is the filterable topic finder overlay.
type topicPicker struct {
	in    textinput.Model // the filter
	sel   int             // the highlighted match
	items []TopicInfo     // the topic list when it opened, newest first
}

func newTopicPicker(items []TopicInfo) *topicPicker {
	ti := *newField("")
	ti.Prompt = "› "
	ti.Focus()
	return &topicPicker{in: ti, items: items}
}

// update hands a key or paste to the filter.
func (p *topicPicker) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	return cmd
}

// matches filters topics whose name contains the query (case-insensitive);
// with an empty query every topic matches, newest first.
func (p *topicPicker) matches(e *env) []TopicInfo {
	q := strings.ToLower(strings.TrimSpace(p.in.Value()))
	var out []TopicInfo
	for _, t := range p.items {
		if q == "" || strings.Contains(strings.ToLower(displayName(e, t)), q) {
			out = append(out, t)
		}
	}
	return out
}

func (p *topicPicker) view(e *env, w, h int) string {
	ms := p.matches(e)
	p.sel = clampInt(p.sel, 0, max(len(ms)-1, 0))
	inner := max(w-4, 10)
	p.in.SetWidth(inner - 3)
	lines := []string{e.th.title.Render(e.tr.t(mTopicPickerTitle)), p.in.View(), ""}
	rows := max(h-6, 1)
	start := 0
	if p.sel >= rows {
		start = p.sel - rows + 1
	}
	for i := start; i < len(ms) && i < start+rows; i++ {
		l := fit(" "+displayName(e, ms[i]), inner-8) + " " + fitRight(shortDate(e, ms[i].LastActivity), 6)
		if i == p.sel {
			l = e.th.sel.Render(l)
		}
		lines = append(lines, l)
	}
	if len(ms) == 0 {
		lines = append(lines, e.th.dim.Render(e.tr.t(mTopicPickerEmpty)))
	}
	return modalBox(e, strings.Join(lines, "\n"), inner)
}
