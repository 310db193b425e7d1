package tui

import (
	"errors"
	"fmt"
	"strings"

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
	key   paneKey
	start SeatStart
	err   error
}

type stopDoneMsg struct {
	key paneKey
	err error
}

type snapshotsDoneMsg struct {
	snaps map[paneKey]PaneSnapshot
}

type scrollbackDoneMsg struct {
	key   paneKey
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
	if m.topicsBusy {
		m.topicsDirty = true
		return nil
	}
	m.topicsBusy = true
	b := m.b
	return func() tea.Msg {
		ts, err := b.Topics()
		return topicsLoadedMsg{topics: ts, err: err}
	}
}

func (m *Model) loadAccountsCmd() tea.Cmd {
	b := m.b
	return func() tea.Msg {
		as, err := b.Accounts()
		return accountsLoadedMsg{accounts: as, err: err}
	}
}

func (m *Model) lookPathCmd() tea.Cmd {
	b := m.b
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
	b := m.b
	return func() tea.Msg {
		id, err := b.NewTopic()
		return newTopicDoneMsg{id: id, err: err}
	}
}

// openTopicCmd joins the topic's room and reads its tail, roster and seats.
func (m *Model) openTopicCmd(topic string) tea.Cmd {
	b := m.b
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
	b, topic, before := m.b, m.topic, m.chat.oldest
	return func() tea.Msg {
		posts, more, err := b.History(topic, before, historyPage)
		return historyDoneMsg{topic: topic, posts: posts, hasMore: more, err: err}
	}
}

// seatsCmd refreshes the open topic's seats; at most one runs at a time and
// requests meanwhile coalesce into one more.
func (m *Model) seatsCmd() tea.Cmd {
	if m.seatsBusy {
		m.seatsDirty = true
		return nil
	}
	m.seatsBusy = true
	b, topic := m.b, m.topic
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
	if m.snapBusy {
		m.snapDirty = true
		return nil
	}
	m.snapBusy = true
	b := m.b
	return func() tea.Msg {
		out := make(map[paneKey]PaneSnapshot, len(keys))
		for _, k := range keys {
			if s, ok := b.Snapshot(k.topic, k.account); ok {
				out[k] = s
			}
		}
		return snapshotsDoneMsg{snaps: out}
	}
}

func (m *Model) scrollbackCmd(k paneKey) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		return scrollbackDoneMsg{key: k, lines: b.Scrollback(k.topic, k.account)}
	}
}

// flushOps sends queued seat writes in order, one batch at a time.
func (m *Model) flushOps() tea.Cmd {
	if m.opsBusy || len(m.ops) == 0 {
		return nil
	}
	batch := m.ops
	m.ops = nil
	m.opsBusy = true
	b := m.b
	return func() tea.Msg {
		var errs []opErr
		for _, op := range batch {
			var err error
			if op.resize {
				err = b.Resize(op.key.topic, op.key.account, op.cols, op.rows)
			} else {
				err = b.SendInput(op.key.topic, op.key.account, op.input)
			}
			if err != nil {
				errs = append(errs, opErr{op, err})
			}
		}
		return opsDoneMsg{errs: errs}
	}
}

func (m *Model) startCmd(accountID string) tea.Cmd {
	k := paneKey{m.topic, accountID}
	if m.starting[k] {
		return nil
	}
	m.starting[k] = true
	delete(m.failed, k)
	m.parts.dirty = true
	cols, rows := m.prospectiveSize()
	b := m.b
	return func() tea.Msg {
		st, err := b.StartSeat(k.topic, k.account, cols, rows)
		return startDoneMsg{key: k, start: st, err: err}
	}
}

func (m *Model) stopCmd(k paneKey) tea.Cmd {
	b := m.b
	return func() tea.Msg {
		return stopDoneMsg{key: k, err: b.StopSeat(k.topic, k.account)}
	}
}

func (m *Model) previewCmd() tea.Cmd {
	if m.editor == nil {
		return nil
	}
	m.editor.previewSeq++
	seq, acc, b := m.editor.previewSeq, m.editor.collect(), m.b
	return func() tea.Msg {
		line, problems := b.Preview(acc)
		return previewDoneMsg{seq: seq, line: line, problems: problems}
	}
}

// postCmd sends the input's text as the admin's post. LastSeen is the
// newest message the chat rendered (DESIGN §2).
func (m *Model) postCmd(text string) tea.Cmd {
	b, topic := m.b, m.topic
	d := room.Draft{
		Content:  text,
		TS:       m.e.now().UTC().Format(room.TimeLayout),
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
	tr := m.e.tr
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
		if msg.topic != m.topic {
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
		m.roster[msg.topic] = msg.roster
		m.input.refreshCompletion(msg.roster, m.e.selfName)
		m.applySeats(msg.seats)
		return []tea.Cmd{m.snapshotCmd()}
	case historyDoneMsg:
		if msg.topic != m.topic {
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
		m.topicsBusy = false
		var again []tea.Cmd
		if m.topicsDirty {
			m.topicsDirty = false
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
		for k := range m.panes {
			if k.topic == msg.topic {
				delete(m.panes, k)
			}
		}
		delete(m.topics.unread, msg.topic)
		m.setStatus(stInfo, tr.t(mTopicDeleted, msg.name))
		cmds := []tea.Cmd{m.loadTopicsCmd()}
		if msg.topic == m.topic {
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
		m.found, m.home = msg.found, msg.home
		m.parts.dirty = true
		return nil
	case seatsLoadedMsg:
		m.seatsBusy = false
		var cmds []tea.Cmd
		if m.seatsDirty {
			m.seatsDirty = false
			cmds = append(cmds, m.seatsCmd())
		}
		if msg.topic == m.topic {
			m.applySeats(msg.seats)
			cmds = append(cmds, m.snapshotCmd())
		}
		return cmds
	case startDoneMsg:
		delete(m.starting, msg.key)
		name := m.accountName(msg.key.account)
		if msg.err != nil {
			m.failed[msg.key] = msg.err.Error()
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
		m.parts.dirty = true
		if msg.key.topic == m.topic {
			return []tea.Cmd{m.seatsCmd()}
		}
		return nil
	case stopDoneMsg:
		if msg.err != nil {
			m.setStatus(stError, tr.t(mStStopFailed, m.accountName(msg.key.account), msg.err))
		}
		var cmds []tea.Cmd
		if msg.key.topic == m.topic {
			cmds = append(cmds, m.seatsCmd())
		}
		return append(cmds, m.loadTopicsCmd())
	case snapshotsDoneMsg:
		m.snapBusy = false
		for k, s := range msg.snaps {
			if p, ok := m.panes[k]; ok {
				p.snap, p.has = s, true
			}
		}
		if m.snapDirty {
			m.snapDirty = false
			return []tea.Cmd{m.snapshotCmd()}
		}
		return nil
	case scrollbackDoneMsg:
		if p, ok := m.panes[msg.key]; ok && p.scrolling {
			p.sb = msg.lines
			p.view = nil
		}
		return nil
	case opsDoneMsg:
		m.opsBusy = false
		for _, e := range msg.errs {
			name := m.accountName(e.op.key.account)
			if e.op.resize {
				m.setStatus(stError, tr.t(mStResizeFailed, name, e.err))
			} else {
				m.setStatus(stError, tr.t(mStInputFailed, name, e.err))
			}
		}
		return []tea.Cmd{m.flushOps()}
	case previewDoneMsg:
		if m.editor != nil && msg.seq == m.editor.previewSeq {
			m.editor.preview, m.editor.problems = msg.line, msg.problems
		}
		return nil
	case accountSavedMsg:
		if m.editor != nil {
			m.editor.saving = false
		}
		if msg.err != nil {
			if m.editor != nil {
				m.editor.msg, m.editor.msgErr = tr.t(mEdFailed, msg.err), true
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
			if m.editor != nil {
				m.editor.msg, m.editor.msgErr = tr.t(mEdFailed, msg.err), true
			} else {
				m.setStatus(stError, tr.t(mStDeleteFailed, msg.err))
			}
			return nil
		}
		m.closeOverlay()
		m.setStatus(stInfo, tr.t(mEdDeleted, msg.name))
		return []tea.Cmd{m.loadAccountsCmd()}
	}
	if m.ov == ovEditor && m.editor != nil {
		// Cursor blinks and other widget-internal messages.
		_, cmd := m.editor.update(&m.e, msg)
		return []tea.Cmd{cmd}
	}
	return nil
}

// applySeats stores the open topic's seats and keeps panes in step.
func (m *Model) applySeats(ss []SeatInfo) {
	m.seats = map[string]SeatInfo{}
	for _, s := range ss {
		m.seats[s.Account] = s
		if s.State == SeatFailed && s.Err != "" {
			m.failed[paneKey{m.topic, s.Account}] = s.Err
		}
	}
	m.syncPanes()
	m.parts.dirty = true
}

// onPostDone handles Deliver's answer: a refusal or rejection puts the
// original text back; a rejection also renders the missed posts (deduped)
// so the next try's last_seen covers them (DESIGN §2, §3).
func (m *Model) onPostDone(msg postDoneMsg) []tea.Cmd {
	tr := m.e.tr
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
		if msg.topic == m.topic {
			m.chat.add(&m.e, msg.res.Missed...)
			m.chat.toBottom()
		}
		m.setStatus(stWarn, tr.t(mStRejected, len(msg.res.Missed)))
		return nil
	}
	var cmds []tea.Cmd
	if msg.topic == m.topic {
		m.chat.add(&m.e, msg.res.Post)
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
	if id == "" || id == m.topic {
		return nil
	}
	var cmds []tea.Cmd
	old := m.topic
	if old != "" && !m.topics.indexed(old) && len(m.seats) == 0 && !m.anyStartingIn(old) {
		b := m.b
		cmds = append(cmds, func() tea.Msg { b.CloseRoom(old); return nil })
	}
	m.topic = id
	m.topics.open = id
	m.clearWelcome()
	delete(m.topics.unread, id)
	m.topics.renaming = false
	m.topics.dirty = true
	m.chat = newChat()
	m.chat.loading = true
	m.chat.focused = m.focus == FocusChat
	m.seats = map[string]SeatInfo{}
	if m.focus == FocusPane {
		m.setFocus(FocusInput)
	}
	m.input.refreshCompletion(nil, m.e.selfName)
	m.parts.dirty = true
	cmds = append(cmds, m.openTopicCmd(id))
	return cmds
}

func (m *Model) anyStartingIn(topic string) bool {
	for k := range m.starting {
		if k.topic == topic {
			return true
		}
	}
	return false
}

// uniqueName returns base, or "base 2", "base 3"… so a new account's
// default name does not repeat an existing one (spec «アカウント»).
func (m *Model) uniqueName(base string) string {
	taken := map[string]bool{}
	for _, a := range m.accounts {
		taken[strings.ToLower(a.Name)] = true
	}
	if !taken[strings.ToLower(base)] {
		return base
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s %d", base, i)
		if !taken[strings.ToLower(n)] {
			return n
		}
	}
}
