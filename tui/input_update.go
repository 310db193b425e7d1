package tui

import (
	"errors"
	"slices"
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
	original string // the text as typed, put back on a refusal
	chips    []chip // the attachments, with where this send saved them
	size     int    // the body's bytes, block included
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

// postCmd sends the input's text and attachments as the admin's post.
// LastSeen is the newest message the chat rendered (docs/design.md §2).
// Each chip not yet saved under this topic is copied there first, one by
// one; only when all are does the post go, its body ending in the block of
// their paths (docs/design.md §8 "Attachments"). The command works on its
// own copy of the chips and hands them back in postDoneMsg.
func (m *Model) postCmd(text string, chips []chip) tea.Cmd {
	b, topic := m.backend, m.topics.open
	d := room.Draft{
		TS:       m.env.now().UTC().Format(room.TimeLayout),
		LastSeen: m.chat.newest,
	}
	block := room.AttachmentBlock{Text: text, Label: attachmentLabel(&m.env)}
	chips = slices.Clone(chips)
	return func() tea.Msg {
		done := postDoneMsg{topic: topic, original: text, chips: chips}
		for i := range chips {
			if chips[i].topic != topic {
				saved, err := b.SaveAttachment(topic, chips[i].file.Path)
				if err != nil {
					done.err = &attachSendError{err: err}
					return done
				}
				chips[i].topic, chips[i].saved = topic, saved
			}
			block.Paths = append(block.Paths, chips[i].saved)
		}
		d.Content = block.String()
		d.MessageID = uuid.NewString()
		done.size = len(d.Content)
		done.res, done.err = b.Post(topic, d)
		return done
	}
}

// attachSendError: an attachment could not be saved at send time; nothing
// was posted.
type attachSendError struct{ err error }

func (e *attachSendError) Error() string { return e.err.Error() }
func (e *attachSendError) Unwrap() error { return e.err }

// onPostDone handles Deliver's answer: a refusal or rejection puts the
// original text back; a rejection also renders the missed posts (deduped)
// so the next try's last_seen covers them (docs/design.md §2, §3).
func (m *Model) onPostDone(msg postDoneMsg) []tea.Cmd {
	tr := m.env.tr
	m.input.sending = false
	var ae *attachSendError
	switch {
	case msg.err != nil:
		m.input.restore(msg.original)
		m.input.restoreChips(msg.chips)
		switch {
		case errors.As(msg.err, &ae):
			m.setStatus(stWarn, tr.t(mStSendAttachFailed, refusalText(&m.env, ae.err), hintKey(firstKey(m.keys.Detach))))
		case errors.Is(msg.err, room.ErrPostTooLong):
			m.setStatus(stWarn, tr.t(mStPostTooLong, byteSize(max(msg.size, len(msg.original)))))
		case errors.Is(msg.err, room.ErrOnlyMentions) || errors.Is(msg.err, room.ErrEmptyPost):
			m.setStatus(stWarn, tr.t(mStSendRefused, msg.err))
		default:
			m.setStatus(stError, tr.t(mStPostFailed, msg.err))
		}
		return nil
	case !msg.res.Delivered:
		m.input.restore(msg.original)
		m.input.restoreChips(msg.chips)
		if msg.topic == m.topics.open {
			m.chat.toBottom()
			m.chat.add(&m.env, msg.res.Missed...)
		}
		m.setStatus(stWarn, tr.tn(mStRejected, len(msg.res.Missed), len(msg.res.Missed)))
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

// inputKey handles a key while the input bar has focus: send, clear,
// recall an own post, else the textarea's.
func (m *Model) inputKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	if cmds, ok := m.recallKey(k); ok {
		return cmds
	}
	switch {
	case key.Matches(k, km.Send):
		text := m.input.value()
		if strings.TrimSpace(text) == "" && len(m.input.chips) == 0 || m.input.sending {
			return nil
		}
		m.input.setValue("")
		m.input.sending = true
		m.input.refreshCompletion(m.roster(), m.env.selfName)
		return []tea.Cmd{m.postCmd(text, m.input.takeChips())}
	case key.Matches(k, km.Clear):
		if m.input.value() == "" && len(m.input.chips) == 0 {
			// Never a quit (issue 14): Ctrl+C clears in shells and chat
			// apps, and a second press must not lose the seats.
			hint := mStClearQuitHint
			if m.opts.Served {
				hint = mStClearDetachHint
			}
			m.setStatus(stInfo, m.env.tr.t(hint, hintKey(firstKey(km.Quit))))
			return nil
		}
		m.input.setValue("")
		m.input.takeChips()
		m.input.refreshCompletion(m.roster(), m.env.selfName)
		return nil
	case key.Matches(k, km.Detach),
		key.Matches(k, m.input.ta.KeyMap.DeleteCharacterBackward) && m.input.value() == "":
		// Backspace in an empty bar takes the last chip, as chat apps do.
		m.detachLast()
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
