package tui

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/pullcept/pullcept/room"
)

// The input feature (docs/design.md §2, §3): the admin's posts, the @
// popup, and a refused post's text put back.

type postDoneMsg struct {
	topic    string
	original string
	res      room.Result
	err      error
}

// inputMsg applies the input bar's results.
func (m *Model) inputMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	if msg, ok := msg.(postDoneMsg); ok {
		return m.onPostDone(msg), true
	}
	return nil, false
}

// postCmd sends the input's text as the admin's post. LastSeen is the
// newest message the chat rendered (docs/design.md §2).
func (m *Model) postCmd(text string) tea.Cmd {
	b, topic := m.backend, m.topics.open
	d := room.Draft{
		Content:  text,
		TS:       m.env.now().UTC().Format(room.TimeLayout),
		LastSeen: m.chat.newest,
	}
	return func() tea.Msg {
		d.MessageID = uuid.NewString()
		res, err := b.Post(topic, d)
		return postDoneMsg{topic: topic, original: text, res: res, err: err}
	}
}

// onPostDone handles Deliver's answer: a refusal or rejection puts the
// original text back; a rejection also renders the missed posts (deduped)
// so the next try's last_seen covers them (docs/design.md §2, §3).
func (m *Model) onPostDone(msg postDoneMsg) []tea.Cmd {
	tr := m.env.tr
	m.input.sending = false
	switch {
	case msg.err != nil:
		m.input.restore(msg.original)
		if errors.Is(msg.err, room.ErrPostTooLong) {
			m.setStatus(stWarn, tr.t(mStPostTooLong, byteSize(len(msg.original))))
		} else if errors.Is(msg.err, room.ErrOnlyMentions) || errors.Is(msg.err, room.ErrEmptyPost) {
			m.setStatus(stWarn, tr.t(mStSendRefused, msg.err))
		} else {
			m.setStatus(stError, tr.t(mStPostFailed, msg.err))
		}
		return nil
	case !msg.res.Delivered:
		m.input.restore(msg.original)
		if msg.topic == m.topics.open {
			m.chat.toBottom()
			m.chat.add(&m.env, msg.res.Missed...)
		}
		m.setStatus(stWarn, tr.t(mStRejected, len(msg.res.Missed)))
		return []tea.Cmd{m.catchUp()}
	}
	var cmds []tea.Cmd
	if msg.topic == m.topics.open {
		m.chat.toBottom()
		m.chat.add(&m.env, msg.res.Post)
		cmds = append(cmds, m.catchUp())
	}
	if msg.res.LogErr == nil && !m.topics.named(msg.topic) {
		// The first post indexed and named the topic (a seat started
		// before it may have indexed it unnamed).
		cmds = append(cmds, m.loadTopicsCmd())
	}
	return cmds
}

// inputKey handles a key while the input bar has focus: send, clear (or
// quit from an empty bar), else the textarea's.
func (m *Model) inputKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Send):
		text := m.input.value()
		if strings.TrimSpace(text) == "" || m.input.sending {
			return nil
		}
		m.input.setValue("")
		m.input.sending = true
		m.input.refreshCompletion(m.roster(), m.env.selfName)
		return []tea.Cmd{m.postCmd(text)}
	case key.Matches(k, km.Clear):
		if m.input.value() == "" {
			return m.askQuit()
		}
		m.input.setValue("")
		m.input.refreshCompletion(m.roster(), m.env.selfName)
		return nil
	}
	return []tea.Cmd{m.input.update(k, m.roster(), m.env.selfName)}
}

// popupKey handles the keys of the open @ popup; ok is false for any
// other key, which goes on to the global keys and the input bar.
func (m *Model) popupKey(k tea.KeyPressMsg) (cmds []tea.Cmd, ok bool) {
	km := &m.keys
	switch {
	case key.Matches(k, km.PopupUp):
		m.input.movePopup(-1)
	case key.Matches(k, km.PopupDown):
		m.input.movePopup(1)
	case key.Matches(k, km.Pick):
		m.input.pick(m.roster(), m.env.selfName)
	case key.Matches(k, km.Cancel):
		m.input.closePopup()
	default:
		return nil, false
	}
	return nil, true
}
