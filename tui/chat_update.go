package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// The chat feature (docs/design.md §2, §10): live posts of the open topic,
// older pages read when the view reaches the top, folds and selection.

// chatWheelRows is how far one wheel notch scrolls the chat (the usual
// terminal convention of three lines).
const chatWheelRows = 3

type historyDoneMsg struct {
	topic   string
	before  string // the page's anchor: the chat's oldest post when asked
	posts   []room.Post
	hasMore bool
	err     error
}

// chatMsg applies the chat's results.
func (m *Model) chatMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	if msg, ok := msg.(historyDoneMsg); ok {
		m.onHistory(msg)
		return nil, true
	}
	return nil, false
}

// historyCmd reads the page before the oldest loaded post, once at a time.
func (m *Model) historyCmd() tea.Cmd {
	if m.chat.loading || !m.chat.hasMore {
		return nil
	}
	m.chat.loading = true
	return m.readPageCmd(m.chat.oldest)
}

// readPageCmd reads the page before post before ("" = the tail).
func (m *Model) readPageCmd(before string) tea.Cmd {
	b, topic := m.backend, m.topics.open
	return func() tea.Msg {
		posts, more, err := b.History(topic, before, historyPage)
		return historyDoneMsg{topic: topic, before: before, posts: posts, hasMore: more, err: err}
	}
}

// catchUp reads the tail again when the reader is back at the live end
// after newer posts were left in the log (chat.add).
func (m *Model) catchUp() tea.Cmd {
	if m.chat.behind == 0 || m.chat.scroll > 0 {
		return nil
	}
	m.chat.resetToTail()
	return m.readPageCmd("")
}

func (m *Model) onHistory(msg historyDoneMsg) {
	if msg.topic != m.topics.open {
		return
	}
	tail := msg.before == "" && m.chat.tail
	if !tail && msg.before != m.chat.oldest {
		// The chat moved on while the page was read (it let the anchor go,
		// or read the tail again): this page would leave a hole.
		m.chat.loading = false
		return
	}
	if msg.err != nil {
		m.chat.loading = false
		m.setStatus(stError, m.env.tr.t(mStHistoryFailed, msg.err))
		return
	}
	m.chat.tail = false
	m.chat.prepend(&m.env, msg.posts, msg.hasMore)
	if n := len(m.chat.posts); tail && n > 0 {
		m.chat.newest = m.chat.posts[n-1].MessageID // what the reader now sees
	}
}

// onPostDelivered shows a post of the open topic, or marks another topic
// unread; either way the list keeps newest activity first.
func (m *Model) onPostDelivered(ev PostDelivered) []tea.Cmd {
	if ev.Topic == m.topics.open {
		m.clearWelcome()
	}
	at, ok := postTime(ev.Post, m.env.loc)
	if !ok {
		at = m.env.now()
	}
	var cmds []tea.Cmd
	// An unnamed row reloads too: a seat's start indexed the topic without
	// a name, and this post may be the first, which names it.
	if !m.topics.touch(ev.Topic, at) || !m.topics.named(ev.Topic) {
		cmds = append(cmds, m.loadTopicsCmd())
	}
	if ev.Topic == m.topics.open {
		m.chat.add(&m.env, ev.Post)
		m.noteOwed(ev.Post)
	} else {
		m.topics.markUnread(ev.Topic, m.addressesSelf(ev.Post))
	}
	return cmds
}

// addressesSelf reports whether p is to this screen's human by name.
func (m *Model) addressesSelf(p room.Post) bool {
	if p.Role == room.RoleAdmin {
		return false
	}
	for _, n := range p.To {
		if strings.EqualFold(strings.TrimSpace(n), m.env.selfName) {
			return true
		}
	}
	return false
}

// scrollChat scrolls the chat and pages in older posts at the top.
func (m *Model) scrollChat(delta int) []tea.Cmd {
	if m.chat.scrollBy(&m.env, delta) {
		return []tea.Cmd{m.historyCmd()}
	}
	return []tea.Cmd{m.catchUp()}
}

// chatKey handles a key while the chat has focus.
func (m *Model) chatKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Up):
		m.chat.moveSel(&m.env, -1)
		if m.chat.sel == 0 && m.chat.atTop(&m.env) && m.chat.hasMore {
			return []tea.Cmd{m.historyCmd()}
		}
	case key.Matches(k, km.Down):
		m.chat.moveSel(&m.env, 1)
	case key.Matches(k, km.Top):
		return m.scrollChat(1 << 20)
	case key.Matches(k, km.Bottom):
		m.chat.toBottom()
		if n := len(m.chat.items); n > 0 {
			m.chat.sel = n - 1
		}
		return []tea.Cmd{m.catchUp()}
	case len(m.chat.chipsOf(&m.env, m.chat.sel)) > 0 && key.Matches(k, km.OpenAttachment):
		return m.openChosenChip()
	case key.Matches(k, km.AttachmentPrev):
		m.chat.moveChip(&m.env, -1)
	case key.Matches(k, km.AttachmentNext):
		m.chat.moveChip(&m.env, 1)
	case key.Matches(k, km.ToggleFold):
		m.chat.toggleFold(m.chat.sel)
		m.chat.revealSel(&m.env)
	}
	return nil
}

// chatClick selects the item under cell (x, y) of the chat: an
// attachment chip there opens (the human's click), a fold opens or
// closes.
func (m *Model) chatClick(x, y int) []tea.Cmd {
	if i, chip, ok := m.chat.chipAt(&m.env, x, y); ok {
		m.chat.sel, m.chat.chip = i, chip
		return m.openChosenChip()
	}
	if i := m.chat.itemAt(y); i >= 0 {
		if i != m.chat.sel {
			m.chat.chip = 0
		}
		m.chat.sel = i
		m.chat.toggleFold(i)
	}
	return nil
}
