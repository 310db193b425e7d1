package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// Recalling the human's own posts in the input bar (issue 14), as shells
// and chat apps do: ↑ in an empty input brings back the newest of the open
// topic's posts by this screen, ↑ again older ones, ↓ newer ones and then
// the empty input. They come from the chat, which holds the topic's log
// (so this works after a restart too, as far back as the chat has read).

// recallState is where the input bar is in the own posts of a topic.
type recallState struct {
	topic string
	n     int    // how many posts back (1 = the newest); 0 = not recalling
	text  string // what the recall put in the input
}

// ownPosts is the text of up to n of the human's posts in the chat, newest
// first, a repeat of the one before left out. Mentions the room moved out of
// the body come back in front of it; an attachment block is left out.
func (m *Model) ownPosts(n int) []string {
	var out []string
	for i := len(m.chat.posts) - 1; i >= 0 && len(out) < n; i-- {
		p := m.chat.posts[i]
		if p.Role != room.RoleAdmin {
			continue // own by origin, as the chat draws it
		}
		if t := recallText(p); t != "" && (len(out) == 0 || out[len(out)-1] != t) {
			out = append(out, t)
		}
	}
	return out
}

// recallText is a post as it could be sent again.
func recallText(p room.Post) string {
	body := p.Content
	if a, ok := room.SplitAttachments(body); ok {
		body = a.Text
	}
	var b strings.Builder
	for _, to := range p.To {
		b.WriteString("@" + to + " ")
	}
	b.WriteString(sanitize(body))
	return strings.TrimSpace(b.String())
}

// recallKey handles HistoryPrev and HistoryNext in the input bar; ok is
// false when the key is the textarea's (a draft, or a line to move to).
func (m *Model) recallKey(k tea.KeyPressMsg) (cmds []tea.Cmd, ok bool) {
	ib, km := m.input, &m.keys
	r := &ib.recall
	if r.n > 0 && (r.topic != m.topics.open || ib.value() != r.text) {
		*r = recallState{} // edited, sent or another topic: a draft now
	}
	empty := ib.value() == "" && len(ib.chips) == 0
	switch {
	case key.Matches(k, km.HistoryPrev) && (empty || r.n > 0 && ib.ta.Line() == 0):
		posts := m.ownPosts(r.n + 1)
		if len(posts) <= r.n {
			return nil, r.n > 0 // the oldest the chat holds stays
		}
		m.putRecall(r.n+1, posts[r.n])
	case key.Matches(k, km.HistoryNext) && r.n > 0 && ib.ta.Line() == ib.ta.LineCount()-1:
		if posts := m.ownPosts(r.n - 1); r.n > 1 && len(posts) == r.n-1 {
			m.putRecall(r.n-1, posts[r.n-2])
			break
		}
		ib.setValue("")
		*r = recallState{}
	default:
		return nil, false
	}
	ib.refreshCompletion(m.roster(), m.env.selfName)
	return nil, true
}

// putRecall shows the nth own post back in the input.
func (m *Model) putRecall(n int, text string) {
	m.input.setValue(text)
	m.input.recall = recallState{topic: m.topics.open, n: n, text: text}
}

// caretAtLineEnd reports whether the caret is at the end of its line,
// where End would not move it: there End jumps the chat (JumpLatest).
func (ib *inputBar) caretAtLineEnd() bool {
	lines := strings.Split(ib.ta.Value(), "\n")
	row := ib.ta.Line()
	return row < 0 || row >= len(lines) || ib.ta.Column() >= len([]rune(lines[row]))
}

// jumpLatest brings the chat to its newest post (the last one selected
// when the chat has focus), reading the tail again when it was left.
func (m *Model) jumpLatest() []tea.Cmd {
	m.chat.toBottom()
	if n := len(m.chat.items); n > 0 && m.focus == FocusChat {
		m.chat.sel = n - 1
	}
	return []tea.Cmd{m.catchUp()}
}
