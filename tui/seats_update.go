package tui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
)

// The seats feature (docs/design.md §5, §9, §10): starting and stopping the
// open topic's seats, their panes, typing into them, and scrollback.

type seatsLoadedMsg struct {
	topic string
	seats []SeatInfo
}

type startDoneMsg struct {
	seat  seatKey
	start SeatStart
	err   error
}

type stopDoneMsg struct {
	seat seatKey
	err  error
}

type snapshotsDoneMsg struct {
	snaps map[seatKey]PaneSnapshot
}

type scrollbackDoneMsg struct {
	seat  seatKey
	lines []string
}

type opsDoneMsg struct {
	errs []opErr
}

// forgetDoneMsg: the backend dropped the exited seat whose pane the human
// closed.
type forgetDoneMsg struct {
	seat seatKey
}

// opErr is a write that failed, kept to say which seat and why.
type opErr struct {
	op  seatOp
	err error
}

// seatMsg applies the seats feature's results and spinner ticks.
func (m *Model) seatMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case seatsLoadedMsg:
		return m.onSeatsLoaded(msg), true
	case startDoneMsg:
		return m.onStartDone(msg), true
	case stopDoneMsg:
		return m.onStopDone(msg), true
	case snapshotsDoneMsg:
		return m.onSnapshots(msg), true
	case scrollbackDoneMsg:
		if p, ok := m.seats.panes[msg.seat]; ok && p.scrolling {
			p.sb = msg.lines
			p.view = nil
			if p.sbWant > 0 {
				// The move that entered scrollback, now that there is
				// something above the screen to move to.
				p.scrollBy(p.sbWant, m.viewRows(p))
				p.sbWant = 0
			}
		}
		return nil, true
	case opsDoneMsg:
		return m.onOpsDone(msg), true
	case forgetDoneMsg:
		delete(m.seats.closing, msg.seat)
		m.accounts.panel.changed()
		if msg.seat.topic == m.topics.open {
			return []tea.Cmd{m.seatsCmd()}, true
		}
		return nil, true
	case spinner.TickMsg:
		return m.onSpinnerTick(msg), true
	case textTickMsg:
		if msg.seq == m.seats.clock.seq {
			m.seats.clock.armed = false
			m.accounts.panel.changed() // its relative texts moved; afterUpdate re-arms
		}
		return nil, true
	}
	return nil, false
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
		return scrollbackDoneMsg{seat: k, lines: b.Scrollback(k.topic, k.account)}
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

// startCmd starts accountID's seat in the open topic at the size its pane
// will have; a start already asked is not asked twice.
func (m *Model) startCmd(accountID string) tea.Cmd {
	k := seatKey{m.topics.open, accountID}
	if m.seats.starting[k] {
		return nil
	}
	m.seats.starting[k] = true
	delete(m.seats.failed, k)
	m.accounts.panel.changed()
	cols, rows := m.prospectiveSize()
	b := m.backend
	return func() tea.Msg {
		st, err := b.StartSeat(k.topic, k.account, cols, rows)
		return startDoneMsg{seat: k, start: st, err: err}
	}
}

func (m *Model) stopCmd(k seatKey) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		return stopDoneMsg{seat: k, err: b.StopSeat(k.topic, k.account)}
	}
}

func (m *Model) onSeatsLoaded(msg seatsLoadedMsg) []tea.Cmd {
	var cmds []tea.Cmd
	if m.seats.listing.done() {
		cmds = append(cmds, m.seatsCmd())
	}
	if msg.topic == m.topics.open {
		m.applySeats(msg.seats)
		cmds = append(cmds, m.snapshotCmd())
		cmds = append(cmds, m.cardPaneArrived()...)
	}
	return cmds
}

// onStartDone reports how a start went: refused, resumed, fresh, or fresh
// after dropping a stale resume record (docs/design.md §9).
func (m *Model) onStartDone(msg startDoneMsg) []tea.Cmd {
	tr := m.env.tr
	delete(m.seats.starting, msg.seat)
	name := m.accounts.name(msg.seat.account)
	switch {
	case msg.err != nil:
		why := startErrText(tr, msg.err)
		m.seats.failed[msg.seat] = why
		m.setStatus(stError, tr.t(mStStartFailed, name, why))
	case msg.start.Dropped != "":
		m.setStatus(stWarn, tr.t(mStDropped, msg.start.Dropped, name)+" "+tr.t(mStFresh, name))
	case msg.start.Resumed:
		m.setStatus(stInfo, tr.t(mStResumed, name, msg.start.SessionID))
	default:
		m.setStatus(stInfo, tr.t(mStFresh, name))
	}
	if ws := launchWarnings(seatWarnings(tr, SeatInfo{Warnings: msg.start.Warnings, VersionUnread: msg.start.VersionUnread})); msg.err == nil && ws != "" {
		// After what the start did, so neither is lost; the row and its
		// details keep them.
		m.extendStatus(stWarn, " "+tr.t(mStLaunchWarnings, ws))
	}
	if msg.err == nil {
		m.topics.setRunning(msg.seat.topic, true)
	}
	m.accounts.panel.changed()
	if msg.seat.topic == m.topics.open {
		return []tea.Cmd{m.seatsCmd()}
	}
	return nil
}

func (m *Model) onStopDone(msg stopDoneMsg) []tea.Cmd {
	if msg.err != nil {
		m.setStatus(stError, m.env.tr.t(mStStopFailed, m.accounts.name(msg.seat.account), msg.err))
	}
	var cmds []tea.Cmd
	if msg.seat.topic == m.topics.open {
		cmds = append(cmds, m.seatsCmd())
	}
	return append(cmds, m.loadTopicsCmd())
}

func (m *Model) onSnapshots(msg snapshotsDoneMsg) []tea.Cmd {
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
}

// onOpsDone reports failed writes and sends what queued meanwhile.
func (m *Model) onOpsDone(msg opsDoneMsg) []tea.Cmd {
	tr := m.env.tr
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
}

func (m *Model) onSpinnerTick(msg spinner.TickMsg) []tea.Cmd {
	if !m.seats.anyStarting() {
		m.seats.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.seats.spin, cmd = m.seats.spin.Update(msg)
	return []tea.Cmd{cmd} // tickSpinner hands the panel the new frame
}

// launchWarnings joins a launch's warnings for the status line.
func launchWarnings(ws []string) string {
	parts := make([]string, 0, len(ws))
	for _, w := range ws {
		if w = oneLine(w); w != "" {
			parts = append(parts, w)
		}
	}
	return strings.Join(parts, " · ")
}

// paneWords tells the visible panes what their seats are doing, for their
// titles.
func (m *Model) paneWords(vis []seatKey) {
	now := m.env.now()
	for _, k := range vis {
		p := m.seats.panes[k]
		p.word, p.tone = "", toneDim
		if s, ok := m.seats.infos[k.account]; ok && s.State == SeatRunning {
			p.word, p.tone = fullWord(&m.env, s, m.seats.owed[k.account], now)
		}
	}
}

// noteOwed keeps the screen's record of the accounts that owe the open
// topic an answer (spec «走っているアカウントが何をしているか»: a seat
// addressed and writing is "thinking…"): a live post addressed to a name
// of the roster records its holders — both, when two hold it; a name
// nobody holds records nothing — and a post of an account ends its
// record. Only posts that arrive while this screen shows the topic count:
// the room's history is not replayed, and what was owed before is not
// known.
func (m *Model) noteOwed(p room.Post) {
	changed := false
	if p.Account != "" && m.seats.owed[p.Account] {
		delete(m.seats.owed, p.Account)
		changed = true
	}
	for _, mb := range m.roster() {
		if mb.AccountID == "" || mb.AccountID == p.Account || m.seats.owed[mb.AccountID] {
			continue
		}
		if slices.ContainsFunc(p.To, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), mb.Name) }) {
			m.seats.owed[mb.AccountID] = true
			changed = true
		}
	}
	if changed {
		m.accounts.panel.changed()
	}
}

// armRefresh arms the text clock for the next change of a relative text
// the screen shows: the panel's (idle minutes, reset texts) while it is
// shown, the titles of the visible panes vis (idle minutes).
func (m *Model) armRefresh(vis []seatKey) tea.Cmd {
	now := m.env.now()
	panel := !m.layout.Participants.empty()
	panes := make(map[string]bool, len(vis))
	for _, k := range vis {
		panes[k.account] = true
	}
	var next time.Time
	found := false
	for acc, s := range m.seats.infos {
		if !panel && !panes[acc] {
			continue
		}
		if t, ok := textChange(s, now, panel); ok && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	c := &m.seats.clock
	if !found || (c.armed && !next.Before(c.at)) {
		return nil
	}
	d := max(next.Sub(now), time.Second)
	c.seq++
	c.armed, c.at = true, now.Add(d)
	return c.after(d, textTickMsg{seq: c.seq})
}

// tickSpinner keeps the "starting" spinner turning while any seat starts,
// and hands the panel its frame.
func (m *Model) tickSpinner() tea.Cmd {
	var cmd tea.Cmd
	if m.seats.anyStarting() && !m.seats.spinning {
		m.seats.spinning = true
		cmd = m.seats.spin.Tick
	}
	frame := ""
	if m.seats.spinning && m.seats.anyStarting() {
		frame = m.seats.spin.View() + " "
	}
	m.accounts.panel.frame = frame
	return cmd
}

// onSeatRestart says where a seat's restart is (issue 35: its stop read
// "Stopped Claude." and nothing followed): restarting, then back or why
// not.
func (m *Model) onSeatRestart(ev SeatRestart) {
	k, tr := seatKey{ev.Topic, ev.Account}, m.env.tr
	name := m.accounts.name(ev.Account)
	switch {
	case !ev.Done:
		m.seats.restarting[k] = true
		m.setStatus(stInfo, tr.t(mStRestarting, name))
	case ev.Err != "":
		delete(m.seats.restarting, k)
		m.setStatus(stError, tr.t(mStRestartFailed, name, sanitize(oneLine(ev.Err))))
	default:
		delete(m.seats.restarting, k)
		m.setStatus(stInfo, tr.t(mStRestarted, name))
	}
}

// onSeatChanged applies a seat's state change.
func (m *Model) onSeatChanged(ev SeatChanged) []tea.Cmd {
	tr := m.env.tr
	name := m.accounts.name(ev.Account)
	if ev.State == SeatStarting || ev.State == SeatRunning {
		m.topics.setRunning(ev.Topic, true)
	}
	// A seat's first start indexes a topic that had no post yet (lazy
	// creation, docs/design.md §8): reload so it is listed and reachable.
	cmds := []tea.Cmd{m.loadTopicsCmd()}
	switch {
	case ev.State == SeatExited && m.seats.restarting[seatKey{ev.Topic, ev.Account}]:
		// The restart's stop: "Restarting…" stays until it ends.
	case ev.State == SeatExited && ev.Requested:
		m.setStatus(stInfo, tr.t(mStStopped, name))
	case ev.State == SeatExited && ev.Err != "":
		m.setStatus(stError, tr.t(mStExitedErr, name, ev.Err))
	case ev.State == SeatExited:
		m.setStatus(stError, tr.t(mStExited, name, ev.ExitCode))
	case ev.State == SeatFailed:
		m.setStatus(stError, tr.t(mStFailed, name, ev.Err))
	}
	if ev.Topic == m.topics.open {
		if ev.State == SeatExited && !ev.Requested {
			// Its last output says why it fell (spec «診断面»).
			m.seats.shown = true
		}
		if ev.State == SeatExited && m.focus == FocusPane && m.focusPane == (seatKey{ev.Topic, ev.Account}) {
			// Nothing reads the keys any more: the next ones go to the
			// input bar, not to a dead terminal — and the status line says
			// so (issue 35: they moved silently).
			cmds = append(cmds, m.setFocus(FocusInput))
			m.extendStatus(m.status.level, tr.t(mStKeysBack))
		}
		cmds = append(cmds, m.seatsCmd())
	}
	return cmds
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
	m.markUntaken()
	m.accounts.panel.changed()
}

// markUntaken hands the chat the posts the open topic's seats did not take
// (SeatInfo.Unconfirmed) with the names of those seats, as the chat says
// speakers: built when the seats or the accounts change, never per frame.
func (m *Model) markUntaken() {
	var out map[string][]string
	for acc, s := range m.seats.infos {
		if !s.Confirming {
			continue
		}
		for _, id := range s.Unconfirmed {
			if out == nil {
				out = map[string][]string{}
			}
			if name := m.accounts.name(acc); !slices.Contains(out[id], name) {
				out[id] = append(out[id], name)
			}
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	m.chat.setUntaken(out)
}

// syncPanes keeps one pane per seat of the open topic (starting, running or
// exited with output to read, until the human closes it). The focused pane
// whose seat just exited leaves typing mode: focus goes to the input bar.
func (m *Model) syncPanes() {
	live := map[seatKey]bool{}
	ended := false
	for acc, s := range m.seats.infos {
		k := seatKey{m.topics.open, acc}
		if s.State == SeatOffline || s.State == SeatFailed || m.seats.closing[k] {
			continue
		}
		live[k] = true
		p, ok := m.seats.panes[k]
		if !ok {
			p = m.newPane(k)
			m.seats.panes[k] = p
		}
		if ok && p.state != SeatExited && s.State == SeatExited && k == m.focusPane {
			ended = true
		}
		p.state, p.end = s.State, seatEnd{requested: s.Requested, signal: s.Signal, code: s.ExitCode}
	}
	for k := range m.seats.panes {
		if k.topic == m.topics.open && !live[k] {
			delete(m.seats.panes, k)
		}
	}
	if m.focus == FocusPane {
		if _, ok := m.seats.panes[m.focusPane]; !ok || !m.seats.shown || ended {
			m.setFocus(FocusInput)
		}
	}
}

// newPane is a pane for seat k, named and coloured like its account.
func (m *Model) newPane(k seatKey) *pane {
	name := m.accounts.name(k.account)
	hue, kind := nameHue(name), ""
	if a, ok := m.accounts.find(k.account); ok {
		hue, kind = speakerHue(a.Hue, name, "", nil), a.Kind
	}
	return &pane{key: k, name: name, hue: hue, kind: kind}
}

// visiblePanes lists the open topic's panes in participant order when the
// pane area is shown.
func (m *Model) visiblePanes() []seatKey {
	if !m.seats.shown {
		return nil
	}
	return m.topicPanes()
}

// topicPanes lists the open topic's panes in participant order, then those
// of accounts no longer known.
func (m *Model) topicPanes() []seatKey {
	var out []seatKey
	for _, r := range m.partData().rows() {
		if r.account == nil {
			continue
		}
		k := seatKey{m.topics.open, r.account.ID}
		if _, ok := m.seats.panes[k]; ok {
			out = append(out, k)
		}
	}
	for k := range m.seats.panes {
		if k.topic == m.topics.open {
			if _, known := m.accounts.find(k.account); !known {
				out = append(out, k)
			}
		}
	}
	return out
}

// runningSeatNames names the open topic's seats that run or start.
func (m *Model) runningSeatNames() []string {
	var running []string
	for _, k := range m.topicPanes() {
		if p := m.seats.panes[k]; p.state == SeatRunning || p.state == SeatStarting {
			running = append(running, p.name)
		}
	}
	return running
}

// prospectiveSize is the PTY size a new seat of the open topic gets: the
// size its pane will have once shown (spec «診断面»: the PTY starts at the
// pane's size even while the area is folded).
func (m *Model) prospectiveSize() (cols, rows int) {
	s := m.layoutState
	s.panes = len(m.topicPanes()) + 1
	l := layout(m.width, m.height, s)
	if len(l.Panes) == 0 {
		return 80, 24
	}
	return innerSize(l.Panes[len(l.Panes)-1])
}

// resizeSeats queues a resize for every visible pane whose terminal size
// moved (an exited seat keeps the size it ended at).
func (m *Model) resizeSeats(vis []seatKey) {
	for i, k := range vis {
		if i >= len(m.layout.Panes) {
			break
		}
		p := m.seats.panes[k]
		cols, rows := innerSize(m.layout.Panes[i])
		if (p.cols != cols || p.rows != rows) && p.state != SeatExited {
			p.cols, p.rows = cols, rows
			m.seats.writes = append(m.seats.writes, seatOp{seat: k, resize: true, cols: cols, rows: rows})
		}
	}
}

// startSeat starts a's seat unless it runs or starts already.
func (m *Model) startSeat(a AccountInfo) []tea.Cmd {
	if !seatKind(a.Kind) {
		m.setStatus(stWarn, m.env.tr.t(mStNotStartable, displayAccountName(a)))
		return nil
	}
	if st := m.partData().state(a.ID); st == SeatRunning || st == SeatStarting {
		return nil
	}
	if strings.TrimSpace(a.Dir) == "" {
		return m.editDirFirst(a)
	}
	return []tea.Cmd{m.startCmd(a.ID)}
}

// editDirFirst is a start of an account without a working directory: it
// is not started (Pullcept never falls back to its own folder), and its
// editor opens on that field saying why (spec «作業ディレクトリ»:
// 未設定のアカウントの起動は拒否し、モーダルを開く).
func (m *Model) editDirFirst(a AccountInfo) []tea.Cmd {
	cmds := m.openEditor(a, false)
	if ed := m.overlay.editor; ed != nil {
		ed.field = fDir
		ed.focusField()
		ed.msg, ed.msgErr = m.env.tr.t(mEdNeedDir, displayAccountName(a)), true
	}
	return cmds
}

// askStop asks before stopping a's seat in the open topic.
func (m *Model) askStop(a AccountInfo) []tea.Cmd {
	if st := m.partData().state(a.ID); st != SeatRunning && st != SeatStarting {
		return nil
	}
	tr := m.env.tr
	m.openDialog(&confirmDialog{kind: dialogStopSeat, title: tr.t(mStopTitle), lines: []string{tr.t(mStopLine, displayAccountName(a))},
		action: tr.t(mDlgStop), topic: m.topics.open, account: a.ID})
	return nil
}

// togglePanes opens or folds the pane area.
func (m *Model) togglePanes() []tea.Cmd {
	m.seats.shown = !m.seats.shown
	if m.seats.shown && len(m.topicPanes()) == 0 {
		m.setStatus(stInfo, m.env.tr.t(mStNoSeatForPane))
	}
	return []tea.Cmd{m.snapshotCmd()}
}

// focusNextPane opens the pane area and moves to the pane d away (1 next,
// -1 previous) in the panes' order, wrapping; from outside the panes, the
// first (or the last). Every pane is a stop, an exited one too (to read or
// close it).
func (m *Model) focusNextPane(d int) []tea.Cmd {
	m.seats.shown = true
	keys := m.topicPanes()
	if len(keys) == 0 {
		m.setStatus(stInfo, m.env.tr.t(mStNoSeatForPane))
		return nil
	}
	i := -1
	if d < 0 {
		i = len(keys)
	}
	if m.focus == FocusPane {
		for j, k := range keys {
			if k == m.focusPane {
				i = j
			}
		}
	}
	m.focusPane = keys[((i+d)%len(keys)+len(keys))%len(keys)]
	m.sayEnded(m.seats.panes[m.focusPane])
	return []tea.Cmd{m.setFocus(FocusPane), m.snapshotCmd()}
}

// sayEnded tells on the status line how the seat of exited pane p ended
// and which key closes it (a narrow pane's title has no room for it).
func (m *Model) sayEnded(p *pane) {
	if p.state == SeatExited {
		w, _ := endWords(&m.env, p.end)
		m.setStatus(stInfo, m.env.tr.t(mStPaneEnded, p.name, w, keysLabel(m.keys.ClosePane)))
	}
}

// closePane closes exited pane p (spec «診断面»: an exited terminal stays
// until its tab is closed): the backend forgets its seat, the account
// shows offline again. A pane whose seat runs is not closed.
func (m *Model) closePane(p *pane) []tea.Cmd {
	if p.state != SeatExited {
		return nil
	}
	k := p.key
	delete(m.seats.panes, k)
	m.seats.closing[k] = true
	m.setStatus(stInfo, m.env.tr.t(mStPaneClosed, p.name))
	b := m.backend
	return []tea.Cmd{m.setFocus(FocusInput), func() tea.Msg {
		b.ForgetSeat(k.topic, k.account)
		return forgetDoneMsg{seat: k}
	}}
}

// focusSeatPane opens the pane area and types into seat k's pane, if any.
func (m *Model) focusSeatPane(k seatKey) []tea.Cmd {
	if _, ok := m.seats.panes[k]; !ok {
		return nil
	}
	m.seats.shown = true
	m.focusPane = k
	return []tea.Cmd{m.setFocus(FocusPane), m.snapshotCmd()}
}

// paneKeyPress handles a key while a seat pane has focus: the leave key,
// the next and previous pane, the jump to what needs the human, and the
// scrollback keys stay here; in a pane
// whose seat runs everything else goes to the seat as bytes, in an exited
// one (read, not typed into) the close key and the global keys act
// (docs/design.md §10).
func (m *Model) paneKeyPress(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	p, ok := m.seats.panes[m.focusPane]
	if !ok {
		return []tea.Cmd{m.setFocus(FocusInput)}
	}
	switch {
	case key.Matches(k, km.LeavePane):
		m.leaveScrollback(p)
		return []tea.Cmd{m.setFocus(FocusInput)}
	case key.Matches(k, km.NextPane):
		return m.focusNextPane(1)
	case key.Matches(k, km.PrevPane):
		return m.focusNextPane(-1)
	case key.Matches(k, km.NeedsYou):
		m.leaveScrollback(p)
		return m.jumpNext()
	case p.find.typing:
		return m.findKey(p, k)
	case p.scrolling:
		return m.scrollbackKey(p, k)
	case key.Matches(k, km.Scrollback):
		// Like tmux's copy-mode -u: the key that enters scrollback also
		// pages up, once the scrollback is read.
		p.scrolling, p.sbOff, p.sbWant = true, 0, max(m.viewRows(p)-1, 1)
		p.clearSel()
		return []tea.Cmd{m.scrollbackCmd(p.key)}
	case !p.live():
		if key.Matches(k, km.ClosePane) {
			return m.closePane(p)
		}
		cmds, _ := m.globalKey(k)
		return cmds
	}
	if b := encodeKey(k.Key(), p.snap.AppCursorKeys); len(b) > 0 {
		p.clearSel()
		m.seats.writes = append(m.seats.writes, seatOp{seat: p.key, input: b})
	}
	return nil
}

// viewRows is the height of pane p's terminal area as shown.
func (m *Model) viewRows(p *pane) int {
	if r, ok := m.paneRect(p.key); ok {
		_, rows := innerSize(r)
		return rows
	}
	return max(p.rows, 1)
}

// leaveScrollback returns pane p to its live screen, its search and count
// dropped.
func (m *Model) leaveScrollback(p *pane) {
	p.scrolling, p.sbOff, p.sbWant, p.count = false, 0, 0, 0
	p.find = paneFind{}
	p.clearSel()
	p.local++
}

// scrollbackKey moves a pane's scrollback view, searches it, counts and
// copies lines; other keys do nothing there.
func (m *Model) scrollbackKey(p *pane, k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	rows := m.viewRows(p)
	if d, ok := countDigit(k); ok && (p.count > 0 || d > 0) {
		p.count = min(p.count*10+d, maxCount)
		p.local++
		return nil
	}
	before := p.sbOff
	switch {
	case key.Matches(k, km.ScrollbackExit):
		m.leaveScrollback(p)
	case key.Matches(k, km.ScrollbackSearch):
		p.find.open(&m.env)
		p.local++
	case key.Matches(k, km.SearchNext):
		p.findStep(-1, rows)
	case key.Matches(k, km.SearchPrev):
		p.findStep(1, rows)
	case key.Matches(k, km.CopyLines):
		return m.copyLines(p)
	case key.Matches(k, km.Up):
		p.scrollBy(1, rows)
	case key.Matches(k, km.Down):
		p.scrollBy(-1, rows)
	case key.Matches(k, km.ScrollbackPageUp):
		p.scrollBy(max(rows-1, 1), rows)
	case key.Matches(k, km.ScrollbackPageDown):
		p.scrollBy(-max(rows-1, 1), rows)
	case key.Matches(k, km.Top):
		p.scrollBy(1<<20, rows)
	case key.Matches(k, km.Bottom):
		p.scrollBy(-(1 << 20), rows)
	}
	if p.sbOff != before {
		p.clearSel() // the cells under it moved
	}
	return nil
}

// countDigit is the digit a plain digit key types, for the copy count.
func countDigit(k tea.KeyPressMsg) (int, bool) {
	if len(k.Text) == 1 && k.Text[0] >= '0' && k.Text[0] <= '9' && k.Mod == 0 {
		return int(k.Text[0] - '0'), true
	}
	return 0, false
}

// findKey edits the search prompt: the run key searches, the cancel key
// closes it, every other key edits the query.
func (m *Model) findKey(p *pane, k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	p.local++
	switch {
	case key.Matches(k, km.SearchRun):
		p.find.typing = false
		if q := p.find.in.Value(); q != "" {
			p.search(q, m.viewRows(p))
		}
		return nil
	case key.Matches(k, km.Cancel):
		p.find.typing = false
		return nil
	}
	var cmd tea.Cmd
	p.find.in, cmd = p.find.in.Update(k)
	return []tea.Cmd{cmd}
}

// pastePane sends a paste to the focused pane's seat, bracketed when its
// program asked; in scrollback it goes into the search prompt if open, or
// nowhere.
func (m *Model) pastePane(msg tea.PasteMsg) []tea.Cmd {
	p, ok := m.seats.panes[m.focusPane]
	switch {
	case !ok:
		return nil
	case p.find.typing:
		var cmd tea.Cmd
		p.find.in, cmd = p.find.in.Update(msg)
		p.local++
		return []tea.Cmd{cmd}
	case p.scrolling || !p.live():
		return nil
	}
	m.seats.writes = append(m.seats.writes, seatOp{seat: p.key, input: encodePaste(msg.Content, p.snap.BracketedPaste)})
	return nil
}

// wheelPane scrolls pane k (at r) by d notches: up enters scrollback, down
// leaves it at the live bottom.
func (m *Model) wheelPane(k seatKey, r rect, d int) []tea.Cmd {
	p := m.seats.panes[k]
	_, rows := innerSize(r)
	if !p.scrolling {
		if d < 0 {
			return nil
		}
		p.scrolling, p.sbOff, p.sbWant = true, 0, chatWheelRows
		return []tea.Cmd{m.scrollbackCmd(k)}
	}
	p.scrollBy(d*chatWheelRows, rows)
	p.clearSel()
	if p.sbOff == 0 && d < 0 && !p.find.typing {
		m.leaveScrollback(p)
	}
	return nil
}
