package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// Jumping to a post the finder found (docs/design.md §10 "Find"): its
// topic opens at the page that holds it, and the chat selects it.

// jumpTo opens h's topic at h's post (the open topic too: its chat is
// read again around the post).
func (m *Model) jumpTo(h PostHit) []tea.Cmd {
	m.jump = &h
	if h.Topic != m.topics.open {
		return m.switchTopic(h.Topic)
	}
	m.chat = newChat()
	m.chat.loading = true
	m.chat.focused = m.focus == FocusChat
	return []tea.Cmd{m.openTopicCmd(h.Topic)}
}

func (h *PostHit) id() string {
	if h == nil {
		return ""
	}
	return h.MessageID
}

// readOpening reads what a topic opens with: its tail, or with at the posts
// from the tail back to at when few follow it, else the page that ends at
// at; behind counts the newer posts left in the log then.
func readOpening(b Backend, topic string, at *PostHit) (posts []room.Post, more bool, behind int, err error) {
	if at == nil {
		posts, more, err = b.History(topic, "", historyPage)
		return posts, more, 0, err
	}
	if at.Later < chatKeep {
		before := ""
		for {
			page, m, err := b.History(topic, before, historyPage)
			if err != nil {
				return nil, false, 0, err
			}
			posts, more = append(page, posts...), m
			if len(page) == 0 || !m || len(posts) >= chatKeep || holds(page, at.MessageID) {
				return posts, more, 0, nil
			}
			before = page[0].MessageID
		}
	}
	posts, more, err = b.History(topic, at.Next, historyPage)
	if err != nil {
		// The log moved since the search (the post after it is gone): the tail.
		posts, more, err = b.History(topic, "", historyPage)
		return posts, more, 0, err
	}
	return posts, more, at.Later, nil
}

func holds(posts []room.Post, id string) bool {
	return slices.ContainsFunc(posts, func(p room.Post) bool { return p.MessageID == id })
}

// showJump marks the newer posts a jump left in the log and selects the
// post it was to, with the chat focused so the selection shows.
func (m *Model) showJump(msg topicOpenedMsg) tea.Cmd {
	if msg.at == "" {
		return nil
	}
	m.chat.behind = msg.behind
	i := slices.IndexFunc(m.chat.items, func(it *chatItem) bool { return holds(it.posts, msg.at) })
	if i < 0 {
		return nil
	}
	cmd := m.setFocus(FocusChat)
	m.chat.sel, m.chat.chip = i, 0
	if it := m.chat.items[i]; it.fold && !m.chat.expanded[it.key()] {
		m.chat.toggleFold(i) // a notice folded with others: its fold opens
	}
	m.chat.revealSel(&m.env)
	m.chat.revealPost(&m.env, i, msg.at)
	return cmd
}
