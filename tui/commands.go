package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/pullcept/pullcept/room"
)

// Async results (STYLE §4: slow work is a tea.Cmd returning a …DoneMsg with
// Err; results go to their owner by id, whatever has focus).

type topicOpenedMsg struct {
	topic   string
	posts   []room.Post
	hasMore bool
	roster  []room.Member
	seats   []SeatInfo
	err     error
}

type historyDoneMsg struct {
	topic   string
	posts   []room.Post
	hasMore bool
	err     error
}

type postDoneMsg struct {
	topic    string
	original string
	res      room.Result
	err      error
}

type topicsLoadedMsg struct {
	topics []TopicInfo
	err    error
}

type newTopicDoneMsg struct {
	id  string
	err error
}

type renameDoneMsg struct {
	topic, name string
	err         error
}

type deleteTopicDoneMsg struct {
	topic, name string
	err         error
}

type accountsLoadedMsg struct {
	accounts []AccountInfo
	err      error
}

type lookPathDoneMsg struct {
	found map[string]string
	home  string
}

type seatsLoadedMsg struct {
	topic string
	seats []SeatInfo
}

type startDoneMsg struct {
	key   seatKey
	start SeatStart
	err   error
}

type stopDoneMsg struct {
	key seatKey
	err error
}

type snapshotsDoneMsg struct {
	snaps map[seatKey]PaneSnapshot
}

type scrollbackDoneMsg struct {
	key   seatKey
	lines []string
}

type opsDoneMsg struct {
	errs []opErr
}

type opErr struct {
	op  seatOp
	err error
}

type previewDoneMsg struct {
	seq      int
	line     string
	problems []string
}

type accountSavedMsg struct {
	acc AccountInfo
	err error
}

type accountDeletedMsg struct {
	id, name string
	err      error
}

// loadTopicsCmd re-reads the topic list; like seatsCmd, requests while one
// runs coalesce into one more (a burst of first posts reads it twice).
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

func (m *Model) loadAccountsCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		as, err := b.Accounts()
		return accountsLoadedMsg{accounts: as, err: err}
	}
}

func (m *Model) lookPathCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		found := map[string]string{}
		for _, q := range quickKinds {
			if q.command == "" {
				continue
			}
			if p, ok := b.LookPath(q.command); ok {
				found[q.command] = p
			}
		}
		return lookPathDoneMsg{found: found, home: b.HomeDir()}
	}
}

func (m *Model) newTopicCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		id, err := b.NewTopic()
		return newTopicDoneMsg{id: id, err: err}
	}
}

// openTopicCmd joins the topic's room and reads its tail, roster and seats.
func (m *Model) openTopicCmd(topic string) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		if err := b.OpenRoom(topic); err != nil {
			return topicOpenedMsg{topic: topic, err: err}
		}
		posts, more, err := b.History(topic, "", historyPage)
		if err != nil {
			return topicOpenedMsg{topic: topic, err: err}
		}
		roster, err := b.Roster(topic)
		if err != nil {
			return topicOpenedMsg{topic: topic, err: err}
		}
		return topicOpenedMsg{topic: topic, posts: posts, hasMore: more, roster: roster, seats: b.Seats(topic)}
	}
}

func (m *Model) historyCmd() tea.Cmd {
	if m.chat.loading || !m.chat.hasMore {
		return nil
	}
	m.chat.loading = true
	m.chat.dirty = true
	b, topic, before := m.backend, m.topics.open, m.chat.oldest
	return func() tea.Msg {
		posts, more, err := b.History(topic, before, historyPage)
		return historyDoneMsg{topic: topic, posts: posts, hasMore: more, err: err}
	}
}

// seatsCmd refreshes the open topic's seats; at most one runs at a time and
// requests meanwhile coalesce into one more.
func (m *Model) seatsCmd() tea.Cmd {
	if !m.seats.listing.start() {
		return nil
	}
	b, topic := m.backend, m.topics.open
	return func() tea.Msg {
		return seatsLoadedMsg{topic: topic, seats: b.Seats(topic)}
	}
}

// snapshotCmd reads the visible panes' screens; like seatsCmd it coalesces.
func (m *Model) snapshotCmd() tea.Cmd {
	keys := m.visiblePanes()
	if len(keys) == 0 {
		return nil
	}
	if !m.seats.snapshots.start() {
		return nil
	}
	b := m.backend
	return func() tea.Msg {
		out := make(map[seatKey]PaneSnapshot, len(keys))
		for _, k := range keys {
			if s, ok := b.Snapshot(k.topic, k.account); ok {
				out[k] = s
			}
		}
		return snapshotsDoneMsg{snaps: out}
	}
}

func (m *Model) scrollbackCmd(k seatKey) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		return scrollbackDoneMsg{key: k, lines: b.Scrollback(k.topic, k.account)}
	}
}

// flushOps sends queued seat writes in order, one batch at a time.
func (m *Model) flushOps() tea.Cmd {
	if m.seats.writing || len(m.seats.writes) == 0 {
		return nil
	}
	batch := m.seats.writes
	m.seats.writes = nil
	m.seats.writing = true
	b := m.backend
	return func() tea.Msg {
		var errs []opErr
		for _, op := range batch {
			var err error
			if op.resize {
				err = b.Resize(op.seat.topic, op.seat.account, op.cols, op.rows)
			} else {
				err = b.SendInput(op.seat.topic, op.seat.account, op.input)
			}
			if err != nil {
				errs = append(errs, opErr{op, err})
			}
		}
		return opsDoneMsg{errs: errs}
	}
}

func (m *Model) startCmd(accountID string) tea.Cmd {
	k := seatKey{m.topics.open, accountID}
	if m.seats.starting[k] {
		return nil
	}
	m.seats.starting[k] = true
	delete(m.seats.failed, k)
	m.accounts.panel.dirty = true
	cols, rows := m.prospectiveSize()
	b := m.backend
	return func() tea.Msg {
		st, err := b.StartSeat(k.topic, k.account, cols, rows)
		return startDoneMsg{key: k, start: st, err: err}
	}
}

func (m *Model) stopCmd(k seatKey) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		return stopDoneMsg{key: k, err: b.StopSeat(k.topic, k.account)}
	}
}

func (m *Model) previewCmd() tea.Cmd {
	if m.overlay.editor == nil {
		return nil
	}
	m.overlay.editor.previewSeq++
	seq, acc, b := m.overlay.editor.previewSeq, m.overlay.editor.collect(), m.backend
	return func() tea.Msg {
		line, problems := b.Preview(acc)
		return previewDoneMsg{seq: seq, line: line, problems: problems}
	}
}

// postCmd sends the input's text as the admin's post. LastSeen is the
// newest message the chat rendered (DESIGN §2).
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

// handleDone applies async results.
func (m *Model) handleDone(msg tea.Msg) []tea.Cmd {
	tr := m.env.tr
	switch msg := msg.(type) {
	case newTopicDoneMsg:
		if msg.err != nil {
			m.setStatus(stError, tr.t(mStTopicFailed, msg.err))
			return nil
		}
		cmds := m.switchTopic(msg.id)
		m.setStatus(stInfo, tr.t(mStWelcome))
		return cmds
	case topicOpenedMsg:
		if msg.topic != m.topics.open {
			return nil
		}
		if msg.err != nil {
			m.chat.loading = false
			m.chat.loaded = true
			m.chat.dirty = true
			m.setStatus(stError, tr.t(mStTopicFailed, msg.err))
			return nil
		}
		m.chat.prepend(msg.posts, msg.hasMore)
		m.accounts.rosters[msg.topic] = msg.roster
		m.input.refreshCompletion(msg.roster, m.env.selfName)
		m.applySeats(msg.seats)
		return []tea.Cmd{m.snapshotCmd()}
	case historyDoneMsg:
		if msg.topic != m.topics.open {
			return nil
		}
		if msg.err != nil {
			m.chat.loading = false
			m.chat.dirty = true
			m.setStatus(stError, tr.t(mStHistoryFailed, msg.err))
			return nil
		}
		m.chat.prepend(msg.posts, msg.hasMore)
		return nil
	case postDoneMsg:
		return m.onPostDone(msg)
	case topicsLoadedMsg:
		var again []tea.Cmd
		if m.topics.reloads.done() {
			again = append(again, m.loadTopicsCmd())
		}
		if msg.err != nil {
			m.topics.err = msg.err
			m.topics.dirty = true
			return again
		}
		m.topics.setTopics(msg.topics)
		return again
	case renameDoneMsg:
		if msg.err != nil {
			m.setStatus(stError, tr.t(mStRenameFailed, msg.err))
			// The list showed the new name at once: reload the stored one.
			return []tea.Cmd{m.loadTopicsCmd()}
		}
		m.setStatus(stInfo, tr.t(mTopicRenamed, msg.name))
		return []tea.Cmd{m.loadTopicsCmd()}
	case deleteTopicDoneMsg:
		if msg.err != nil {
			m.setStatus(stError, tr.t(mStDeleteFailed, msg.err))
			return []tea.Cmd{m.loadTopicsCmd()}
		}
		for k := range m.seats.panes {
			if k.topic == msg.topic {
				delete(m.seats.panes, k)
			}
		}
		delete(m.topics.unread, msg.topic)
		m.setStatus(stInfo, tr.t(mTopicDeleted, msg.name))
		cmds := []tea.Cmd{m.loadTopicsCmd()}
		if msg.topic == m.topics.open {
			cmds = append(cmds, m.newTopicCmd())
		}
		return cmds
	case accountsLoadedMsg:
		if msg.err != nil {
			m.setStatus(stError, tr.t(mStAccountsFailed, msg.err))
			return nil
		}
		m.setAccounts(msg.accounts)
		if !m.partData().hasSeatAccounts() {
			m.setStatus(stInfo, tr.t(mStNoAccounts))
		}
		return nil
	case lookPathDoneMsg:
		m.accounts.found, m.accounts.home = msg.found, msg.home
		m.accounts.panel.dirty = true
		return nil
	case seatsLoadedMsg:
		var cmds []tea.Cmd
		if m.seats.listing.done() {
			cmds = append(cmds, m.seatsCmd())
		}
		if msg.topic == m.topics.open {
			m.applySeats(msg.seats)
			cmds = append(cmds, m.snapshotCmd())
		}
		return cmds
	case startDoneMsg:
		delete(m.seats.starting, msg.key)
		name := m.accounts.name(msg.key.account)
		if msg.err != nil {
			m.seats.failed[msg.key] = msg.err.Error()
			m.setStatus(stError, tr.t(mStStartFailed, name, msg.err))
		} else {
			switch {
			case msg.start.Dropped != "":
				m.setStatus(stWarn, tr.t(mStDropped, msg.start.Dropped, name)+" "+tr.t(mStFresh, name))
			case msg.start.Resumed:
				m.setStatus(stInfo, tr.t(mStResumed, name, msg.start.SessionID))
			default:
				m.setStatus(stInfo, tr.t(mStFresh, name))
			}
			m.topics.setRunning(msg.key.topic, true)
		}
		m.accounts.panel.dirty = true
		if msg.key.topic == m.topics.open {
			return []tea.Cmd{m.seatsCmd()}
		}
		return nil
	case stopDoneMsg:
		if msg.err != nil {
			m.setStatus(stError, tr.t(mStStopFailed, m.accounts.name(msg.key.account), msg.err))
		}
		var cmds []tea.Cmd
		if msg.key.topic == m.topics.open {
			cmds = append(cmds, m.seatsCmd())
		}
		return append(cmds, m.loadTopicsCmd())
	case snapshotsDoneMsg:
		again := m.seats.snapshots.done()
		for k, s := range msg.snaps {
			if p, ok := m.seats.panes[k]; ok {
				p.snap, p.has = s, true
			}
		}
		if again {
			return []tea.Cmd{m.snapshotCmd()}
		}
		return nil
	case scrollbackDoneMsg:
		if p, ok := m.seats.panes[msg.key]; ok && p.scrolling {
			p.sb = msg.lines
			p.view = nil
		}
		return nil
	case opsDoneMsg:
		m.seats.writing = false
		for _, e := range msg.errs {
			name := m.accounts.name(e.op.seat.account)
			if e.op.resize {
				m.setStatus(stError, tr.t(mStResizeFailed, name, e.err))
			} else {
				m.setStatus(stError, tr.t(mStInputFailed, name, e.err))
			}
		}
		return []tea.Cmd{m.flushOps()}
	case previewDoneMsg:
		if m.overlay.editor != nil && msg.seq == m.overlay.editor.previewSeq {
			m.overlay.editor.preview, m.overlay.editor.problems = msg.line, msg.problems
		}
		return nil
	case accountSavedMsg:
		if m.overlay.editor != nil {
			m.overlay.editor.saving = false
		}
		if msg.err != nil {
			if m.overlay.editor != nil {
				m.overlay.editor.msg, m.overlay.editor.msgErr = tr.t(mEdFailed, msg.err), true
			} else {
				m.setStatus(stError, tr.t(mEdFailed, msg.err))
			}
			return nil
		}
		m.closeOverlay()
		m.setStatus(stInfo, tr.t(mEdSaved, displayAccountName(msg.acc)))
		return []tea.Cmd{m.loadAccountsCmd()}
	case accountDeletedMsg:
		if msg.err != nil {
			if m.overlay.editor != nil {
				m.overlay.editor.msg, m.overlay.editor.msgErr = tr.t(mEdFailed, msg.err), true
			} else {
				m.setStatus(stError, tr.t(mStDeleteFailed, msg.err))
			}
			return nil
		}
		m.closeOverlay()
		m.setStatus(stInfo, tr.t(mEdDeleted, msg.name))
		return []tea.Cmd{m.loadAccountsCmd()}
	}
	if m.overlay.open == ovEditor && m.overlay.editor != nil {
		// Cursor blinks and other widget-internal messages.
		_, cmd := m.overlay.editor.update(&m.env, msg)
		return []tea.Cmd{cmd}
	}
	return nil
}

// applySeats stores the open topic's seats and keeps panes in step.
func (m *Model) applySeats(ss []SeatInfo) {
	m.seats.infos = map[string]SeatInfo{}
	for _, s := range ss {
		m.seats.infos[s.Account] = s
		if s.State == SeatFailed && s.Err != "" {
			m.seats.failed[seatKey{m.topics.open, s.Account}] = s.Err
		}
	}
	m.syncPanes()
	m.accounts.panel.dirty = true
}

// onPostDone handles Deliver's answer: a refusal or rejection puts the
// original text back; a rejection also renders the missed posts (deduped)
// so the next try's last_seen covers them (DESIGN §2, §3).
func (m *Model) onPostDone(msg postDoneMsg) []tea.Cmd {
	tr := m.env.tr
	m.input.sending = false
	m.input.dirty = true
	switch {
	case msg.err != nil:
		m.input.restore(msg.original)
		if errors.Is(msg.err, room.ErrOnlyMentions) || errors.Is(msg.err, room.ErrEmptyPost) {
			m.setStatus(stWarn, tr.t(mStSendRefused, msg.err))
		} else {
			m.setStatus(stError, tr.t(mStPostFailed, msg.err))
		}
		return nil
	case !msg.res.Delivered:
		m.input.restore(msg.original)
		if msg.topic == m.topics.open {
			m.chat.add(&m.env, msg.res.Missed...)
			m.chat.toBottom()
		}
		m.setStatus(stWarn, tr.t(mStRejected, len(msg.res.Missed)))
		return nil
	}
	var cmds []tea.Cmd
	if msg.topic == m.topics.open {
		m.chat.add(&m.env, msg.res.Post)
		m.chat.toBottom()
	}
	if msg.res.LogErr == nil && !m.topics.indexed(msg.topic) {
		// The first post indexed and named the topic.
		cmds = append(cmds, m.loadTopicsCmd())
	}
	return cmds
}

// switchTopic opens another topic; seats keep running where they are
// (DESIGN §10 "switching never stops seats").
func (m *Model) switchTopic(id string) []tea.Cmd {
	if id == "" || id == m.topics.open {
		return nil
	}
	var cmds []tea.Cmd
	old := m.topics.open
	if old != "" && !m.topics.indexed(old) && len(m.seats.infos) == 0 && !m.seats.anyStartingIn(old) {
		b := m.backend
		cmds = append(cmds, func() tea.Msg { b.CloseRoom(old); return nil })
	}
	m.topics.open = id
	m.topics.open = id
	m.clearWelcome()
	delete(m.topics.unread, id)
	m.topics.renaming = false
	m.topics.dirty = true
	m.chat = newChat()
	m.chat.loading = true
	m.chat.focused = m.focus == FocusChat
	m.seats.infos = map[string]SeatInfo{}
	if m.focus == FocusPane {
		m.setFocus(FocusInput)
	}
	m.input.refreshCompletion(nil, m.env.selfName)
	m.accounts.panel.dirty = true
	cmds = append(cmds, m.openTopicCmd(id))
	return cmds
}
