package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// The topic feature (docs/design.md §8, §10): listing, opening, switching,
// renaming and deleting topics. Its results name the topic they concern;
// those for a topic that is no longer open are dropped.

type newTopicDoneMsg struct {
	id  string
	err error
}

type topicOpenedMsg struct {
	topic   string
	posts   []room.Post
	hasMore bool
	behind  int    // newer posts left in the log (opened at a post far back)
	at      string // the post it was opened at (jumpTo), "" for the tail
	roster  []room.Member
	seats   []SeatInfo
	err     error
}

type topicsLoadedMsg struct {
	topics []TopicInfo
	err    error
}

type renameDoneMsg struct {
	topic, name string
	err         error
}

type deleteTopicDoneMsg struct {
	topic, name string
	err         error
}

// deleteSeatsMsg carries the seats of a topic that is not open, read to
// name the ones its delete will stop (askDeleteTopic).
type deleteSeatsMsg struct {
	topic string
	seats []SeatInfo
}

type brakeReleasedMsg struct {
	topic string
	err   error
}

type topicRememberedMsg struct{ err error }

// topicMsg applies the topic feature's results.
func (m *Model) topicMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case newTopicDoneMsg:
		return m.onNewTopic(msg), true
	case topicOpenedMsg:
		return m.onTopicOpened(msg), true
	case topicsLoadedMsg:
		return m.onTopicsLoaded(msg), true
	case renameDoneMsg:
		return m.onRenamed(msg), true
	case deleteTopicDoneMsg:
		return m.onTopicDeleted(msg), true
	case deleteSeatsMsg:
		m.onDeleteSeats(msg)
		return nil, true
	case searchDoneMsg:
		m.onSearchDone(msg)
		return nil, true
	case searchStartMsg:
		return []tea.Cmd{m.onSearchStart(msg)}, true
	case brakeReleasedMsg:
		if msg.err != nil {
			m.setStatus(stError, m.env.tr.t(mStReleaseFailed, m.topics.nameOf(&m.env, msg.topic), msg.err))
		}
		return nil, true
	case topicRememberedMsg:
		if msg.err != nil {
			m.setStatus(stError, msg.err.Error())
		}
		if m.topics.remembers.done() {
			return []tea.Cmd{m.rememberTopicCmd()}, true
		}
		return nil, true
	}
	return nil, false
}

// loadTopicsCmd re-reads the topic list; requests while one runs coalesce
// into one more (a burst of first posts reads it twice).
func (m *Model) loadTopicsCmd() tea.Cmd {
	if !m.topics.reloads.start() {
		return nil
	}
	b := m.backend
	return func() tea.Msg {
		ts, err := b.Topics()
		return topicsLoadedMsg{topics: ts, err: err}
	}
}

func (m *Model) newTopicCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		id, err := b.NewTopic()
		return newTopicDoneMsg{id: id, err: err}
	}
}

// openTopicCmd joins the topic's room and reads its tail (or the page
// holding the post jumpTo asked for), roster and seats.
func (m *Model) openTopicCmd(topic string) tea.Cmd {
	b, at := m.backend, m.jump
	m.jump = nil
	return func() tea.Msg {
		if err := b.OpenRoom(topic); err != nil {
			return topicOpenedMsg{topic: topic, err: err}
		}
		posts, more, behind, err := readOpening(b, topic, at)
		if err != nil {
			return topicOpenedMsg{topic: topic, err: err}
		}
		roster, err := b.Roster(topic)
		if err != nil {
			return topicOpenedMsg{topic: topic, err: err}
		}
		return topicOpenedMsg{topic: topic, posts: posts, hasMore: more, behind: behind, at: at.id(), roster: roster, seats: b.Seats(topic)}
	}
}

// rememberTopicCmd records the open topic for the next start; switches
// while one write runs coalesce into one more, of the topic open then.
func (m *Model) rememberTopicCmd() tea.Cmd {
	if !m.topics.remembers.start() {
		return nil
	}
	id, b := m.topics.open, m.backend
	return func() tea.Msg { return topicRememberedMsg{err: b.RememberTopic(id)} }
}

func (m *Model) renameTopicCmd(id, name string) tea.Cmd {
	b := m.backend
	return func() tea.Msg { return renameDoneMsg{topic: id, name: name, err: b.RenameTopic(id, name)} }
}

func (m *Model) deleteTopicCmd(id string) tea.Cmd {
	name, b := m.topics.nameOf(&m.env, id), m.backend
	return func() tea.Msg { return deleteTopicDoneMsg{topic: id, name: name, err: b.DeleteTopic(id)} }
}

// releaseBrakeCmd releases the topic's brake; BrakeChanged shows the result.
func (m *Model) releaseBrakeCmd(id string) tea.Cmd {
	b := m.backend
	return func() tea.Msg { return brakeReleasedMsg{topic: id, err: b.ReleaseBrake(id)} }
}

func (m *Model) closeRoomCmd(id string) tea.Cmd {
	b := m.backend
	return func() tea.Msg { b.CloseRoom(id); return nil }
}

func (m *Model) onNewTopic(msg newTopicDoneMsg) []tea.Cmd {
	if msg.err != nil {
		m.setStatus(stError, m.env.tr.t(mStTopicFailed, msg.err))
		return nil
	}
	cmds := m.switchTopic(msg.id)
	m.setStatus(stInfo, m.env.tr.t(mStWelcome))
	return cmds
}

// onTopicOpened fills the chat, roster and seats of the topic just opened.
func (m *Model) onTopicOpened(msg topicOpenedMsg) []tea.Cmd {
	if msg.topic != m.topics.open {
		return nil
	}
	if msg.err != nil {
		m.chat.loading = false
		m.chat.loaded = true
		m.setStatus(stError, m.env.tr.t(mStTopicFailed, msg.err))
		return nil
	}
	m.chat.prepend(&m.env, msg.posts, msg.hasMore)
	m.chat.markNew()
	m.accounts.rosters[msg.topic] = msg.roster
	m.input.refreshCompletion(msg.roster, m.env.selfName)
	m.applySeats(msg.seats)
	return append([]tea.Cmd{m.snapshotCmd(), m.showJump(msg)}, m.cardPaneArrived()...)
}

func (m *Model) onTopicsLoaded(msg topicsLoadedMsg) []tea.Cmd {
	var again []tea.Cmd
	if m.topics.reloads.done() {
		again = append(again, m.loadTopicsCmd())
	}
	if msg.err != nil {
		m.topics.setError(msg.err)
		return append(again, m.reopen()...)
	}
	m.topics.setTopics(msg.topics)
	return append(again, m.reopen()...)
}

// reopen opens the first topic of a start with Options.Reopen, once the
// list is known: the topic open last if it is still there, else the
// newest, else a new one (a blank "New topic" at every start hid where
// the human was).
func (m *Model) reopen() []tea.Cmd {
	if !m.topics.reopening {
		return nil
	}
	m.topics.reopening = false
	switch {
	case m.opts.LastTopic != "" && m.topics.indexed(m.opts.LastTopic):
		return m.switchTopic(m.opts.LastTopic)
	case len(m.topics.items) > 0:
		return m.switchTopic(m.topics.items[0].ID)
	}
	return []tea.Cmd{m.newTopicCmd()}
}

// onRenamed reloads the list either way: on failure it showed the new name
// already and must go back to the stored one.
func (m *Model) onRenamed(msg renameDoneMsg) []tea.Cmd {
	if msg.err != nil {
		m.setStatus(stError, m.env.tr.t(mStRenameFailed, msg.err))
	} else {
		m.setStatus(stInfo, m.env.tr.t(mTopicRenamed, msg.name))
	}
	return []tea.Cmd{m.loadTopicsCmd()}
}

// onTopicDeleted drops the topic's panes and its row; deleting the open
// topic opens its neighbour in the list (the one below, else the one
// above), a new topic only when it was the last.
func (m *Model) onTopicDeleted(msg deleteTopicDoneMsg) []tea.Cmd {
	if msg.err != nil {
		m.setStatus(stError, m.env.tr.t(mStDeleteFailed, msg.err))
		return []tea.Cmd{m.loadTopicsCmd()}
	}
	for k := range m.seats.panes {
		if k.topic == msg.topic {
			delete(m.seats.panes, k)
		}
	}
	next := ""
	if msg.topic == m.topics.open {
		if id, ok := m.topics.neighbourOf(msg.topic, 1); ok {
			next = id
		} else if id, ok := m.topics.neighbourOf(msg.topic, -1); ok {
			next = id
		}
	}
	m.topics.remove(msg.topic)
	cmds := []tea.Cmd{m.loadTopicsCmd()}
	switch {
	case msg.topic != m.topics.open:
	case next != "":
		cmds = append(cmds, m.switchTopic(next)...)
	default:
		cmds = append(cmds, m.newTopicCmd())
	}
	m.setStatus(stInfo, m.env.tr.t(mTopicDeleted, msg.name))
	return cmds
}

// onBrakeChanged marks the topic and says on the status line what the
// room did (docs/design.md §2 "The brake": AI posts are not typed into the
// seats while braked; §10: never silent).
func (m *Model) onBrakeChanged(ev BrakeChanged) {
	m.topics.setBraked(ev.Topic, ev.On)
	name := m.topics.nameOf(&m.env, ev.Topic)
	if ev.On {
		m.setStatus(stWarn, m.env.tr.tn(mStBraked, ev.Count, name, ev.Count, keyName(m.keys.ReleaseBrake)))
		return
	}
	tr := m.env.tr
	switch {
	case ev.Released && ev.Typed > 0 && ev.Dropped > 0:
		m.setStatus(stInfo, tr.t(mStBrakeTypedCut, name, ev.Typed, ev.Dropped))
	case ev.Released && ev.Typed > 0:
		m.setStatus(stInfo, tr.tn(mStBrakeTyped, ev.Typed, name, ev.Typed))
	case ev.Released:
		m.setStatus(stInfo, tr.t(mStBrakeNoneHeld, name))
	case ev.Dropped > 0:
		m.setStatus(stInfo, tr.tn(mStBrakeLeft, ev.Dropped, name, ev.Dropped))
	default:
		m.setStatus(stInfo, tr.t(mStBrakeReleased, name))
	}
}

// releaseBrake is the release key: it releases the open topic's brake, or
// says there is none to release.
func (m *Model) releaseBrake() []tea.Cmd {
	id := m.topics.open
	if !m.topics.braked[id] {
		m.setStatus(stInfo, m.env.tr.t(mStNotBraked))
		return nil
	}
	return []tea.Cmd{m.releaseBrakeCmd(id)}
}

// switchTopic opens another topic; seats keep running where they are
// (docs/design.md §10 "switching never stops seats"). A topic left behind
// that was never indexed and has no seats gives up its room.
func (m *Model) switchTopic(id string) []tea.Cmd {
	if id == "" || id == m.topics.open {
		return nil
	}
	var cmds []tea.Cmd
	old := m.topics.open
	if old != "" && !m.topics.indexed(old) && len(m.seats.infos) == 0 && !m.seats.anyStartingIn(old) {
		cmds = append(cmds, m.closeRoomCmd(old))
	}
	unread := m.topics.unreadN[id] // openTopic marks them read
	m.topics.openTopic(id)
	m.clearWelcome()
	m.chat = newChat()
	m.chat.loading = true
	m.chat.unread = unread
	m.chat.focused = m.focus == FocusChat
	m.seats.infos = map[string]SeatInfo{}
	m.seats.owed = map[string]bool{} // made of the posts seen here only
	if m.focus == FocusPane {
		m.setFocus(FocusInput)
	}
	m.input.refreshCompletion(nil, m.env.selfName)
	m.accounts.panel.changed()
	m.statusOnSwitch()
	return append(cmds, m.openTopicCmd(id), m.rememberTopicCmd())
}

// openRow acts on a list row: a topic opens; "+ New topic" makes a new
// topic unless the open one is that unindexed new topic already.
func (m *Model) openRow(id string) []tea.Cmd {
	if id != newRowID {
		return m.switchTopic(id)
	}
	if m.topics.indexed(m.topics.open) {
		return []tea.Cmd{m.newTopicCmd()}
	}
	return nil
}

// topicsKey handles a key while the topic list has focus.
func (m *Model) topicsKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Up):
		m.topics.move(-1)
	case key.Matches(k, km.Down):
		m.topics.move(1)
	case key.Matches(k, km.Select):
		return m.openRow(m.topics.cursorID())
	case key.Matches(k, km.TopicNew):
		return []tea.Cmd{m.newTopicCmd()}
	case key.Matches(k, km.TopicRename):
		switch id := m.topics.cursorID(); {
		case id != newRowID:
			return m.startRename(id)
		case !m.topics.indexed(m.topics.open): // the row stands for the open topic
			return m.startRename(m.topics.open)
		}
	case key.Matches(k, km.TopicDelete):
		if id := m.topics.cursorID(); id != newRowID {
			return m.askDeleteTopic(id)
		}
	}
	return nil
}

// startRename opens the inline name prompt on topic id; it switches to it
// first and returns the commands that open it. The open topic before its
// first post is named on its "+ New topic" row (the index takes it then:
// logstore.Rename; issue 35: F2 did nothing there). With the topic list
// hidden the status line says how to show it, rather than editing a name
// nobody sees.
func (m *Model) startRename(id string) []tea.Cmd {
	if m.layout.Topics.empty() {
		m.setStatus(stInfo, m.env.tr.t(mStRenameListHidden, hintKey(firstKey(m.keys.ToggleTopics))))
		return nil
	}
	name := ""
	if i := m.topics.find(id); i >= 0 {
		name = m.topics.items[i].Name
	} else if id != m.topics.open {
		return nil
	}
	var cmds []tea.Cmd
	if id != m.topics.open {
		cmds = m.switchTopic(id)
	}
	m.topics.startRename(name)
	m.setStatus(stInfo, m.renameHow())
	return cmds
}

// renameHow is the status line's word while the prompt is open: which keys
// keep the name and which cancel.
func (m *Model) renameHow() string {
	return m.env.tr.t(mStRenameHow, hintKey(firstKey(m.keys.RenameSave)), hintKey(firstKey(m.keys.Cancel)))
}

// renameKey handles a key while the rename prompt is open: it takes every
// key. An empty name keeps the old one, like Cancel.
func (m *Model) renameKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	tl := m.topics
	if key.Matches(k, km.Cancel, km.RenameSave) && m.status.text == m.renameHow() {
		m.status.text = "" // the prompt it was about closes
	}
	switch {
	case key.Matches(k, km.Cancel):
		tl.endRename()
		return nil
	case key.Matches(k, km.RenameSave):
		tl.endRename()
		name := strings.TrimSpace(tl.rename.Value())
		if name == "" {
			return nil
		}
		id := m.topics.open
		if i := tl.find(id); i >= 0 {
			tl.items[i].Name = name // shown at once; onRenamed reloads
		}
		return []tea.Cmd{m.renameTopicCmd(id, name)}
	}
	return []tea.Cmd{tl.updateRename(k)}
}

// newTopicBusy reports whether a seat starts or runs in the open topic
// while it is not indexed yet: the "+ New topic" row says so (topicList
// newRow) until the start's index entry lists the topic.
func (m *Model) newTopicBusy() bool {
	open := m.topics.open
	if open == "" || m.topics.indexed(open) {
		return false
	}
	if m.seats.anyStartingIn(open) {
		return true
	}
	for _, s := range m.seats.infos {
		if s.Topic == open && (s.State == SeatStarting || s.State == SeatRunning) {
			return true
		}
	}
	return false
}

// askDeleteTopic asks before deleting; the question names the seats that
// will stop, only when some run (docs/design.md §8). The open topic's are
// its panes; another topic's are read first (a Backend call, so in a
// command: the dialog opens with its answer, deleteSeatsMsg).
func (m *Model) askDeleteTopic(id string) []tea.Cmd {
	if !m.topics.indexed(id) {
		return nil
	}
	if id == m.topics.open {
		m.openDeleteDialog(id, m.runningSeatNames())
		return nil
	}
	if i := m.topics.find(id); i < 0 || !m.topics.items[i].Running {
		m.openDeleteDialog(id, nil)
		return nil
	}
	b := m.backend
	return []tea.Cmd{func() tea.Msg { return deleteSeatsMsg{topic: id, seats: b.Seats(id)} }}
}

// onDeleteSeats opens the delete question of a topic that is not open,
// naming its running seats, unless the topic went or another question
// opened meanwhile.
func (m *Model) onDeleteSeats(msg deleteSeatsMsg) {
	if !m.topics.indexed(msg.topic) || m.overlay.open != ovNone {
		return
	}
	var running []string
	for _, s := range msg.seats {
		if s.State == SeatRunning || s.State == SeatStarting {
			running = append(running, m.accounts.name(s.Account))
		}
	}
	m.openDeleteDialog(msg.topic, running)
}

// openDeleteDialog asks whether to delete topic id; running are the names
// of the seats that will stop (no line when none).
func (m *Model) openDeleteDialog(id string, running []string) {
	tr := m.env.tr
	lines := []string{tr.t(mTopicDeleteLine, m.topics.nameOf(&m.env, id))}
	if len(running) > 0 {
		lines = append(lines, tr.t(mTopicDeleteSeats, strings.Join(running, ", ")))
	}
	m.openDialog(&confirmDialog{kind: dialogDeleteTopic, title: tr.t(mTopicDeleteTitle), lines: lines, action: tr.t(mDlgDelete), topic: id})
}

// openPicker opens the topic finder over the list as it is now.
func (m *Model) openPicker() {
	m.overlay.picker = newTopicPicker(&m.env, m.topics.items, func(id string) string { return m.topics.nameOf(&m.env, id) })
	m.overlay.open = ovPicker
}
