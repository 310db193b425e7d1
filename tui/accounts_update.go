package tui

import (
	"errors"
	"maps"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/textcut"
)

// The accounts feature (docs/design.md §9): the account list and who this
// screen is, the participant panel's keys, and the account editor's
// preview, save and delete.

type accountsLoadedMsg struct {
	accounts []AccountInfo
	err      error
}

type lookPathDoneMsg struct {
	found map[string]string
	home  string
}

type previewDoneMsg struct {
	ed       *accountEditor // the editor that asked
	seq      int            // the editor's previewSeq when asked; older answers are dropped
	acc      AccountInfo    // the account as asked
	line     string
	problems []string
	check    AccountCheck // CheckAccount's answer for acc
}

type accountSavedMsg struct {
	acc AccountInfo
	err error
}

type accountDeletedMsg struct {
	id, name string
	err      error
}

// accountMsg applies the accounts feature's results.
func (m *Model) accountMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case accountsLoadedMsg:
		m.onAccountsLoaded(msg)
		return []tea.Cmd{m.readServersCmd()}, true
	case serversReadMsg:
		return m.onServersRead(msg), true
	case roomSocketMsg:
		m.onRoomSocket(msg)
		return nil, true
	case lookPathDoneMsg:
		m.accounts.found, m.accounts.home = msg.found, msg.home
		m.accounts.panel.changed()
		return nil, true
	case previewDoneMsg:
		return m.previewDone(msg), true
	case characterOpenedMsg, stylesListedMsg, characterEditReadyMsg, characterEditedMsg:
		return m.characterMsg(msg), true
	case editorPreparedMsg:
		return m.editorPrepared(msg), true
	case envLoadedMsg:
		if ed := m.overlay.editor; ed != nil {
			ed.envLoaded(&m.env, msg)
		}
		return nil, true
	case accountSavedMsg:
		return m.onAccountSaved(msg), true
	case accountDeletedMsg:
		return m.onAccountDeleted(msg), true
	}
	return m.serverMsg(msg)
}

func (m *Model) loadAccountsCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		as, err := b.Accounts()
		return accountsLoadedMsg{accounts: as, err: err}
	}
}

// lookPathCmd finds the first-run kinds' commands on PATH, and the folder
// their working directory is prefilled with (Backend.StartDir).
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
		return lookPathDoneMsg{found: found, home: b.StartDir()}
	}
}

// previewCmd asks for the launch line of the account being edited and
// the check of its fields, one request at a time: asked while one is on
// its way, it asks again when that answers (previewDone), so fast typing
// costs one answer per round trip, not one per key.
func (m *Model) previewCmd() tea.Cmd {
	ed := m.overlay.editor
	if ed == nil {
		return nil
	}
	if ed.pvBusy {
		ed.pvStale = true
		return nil
	}
	ed.pvBusy = true
	ed.previewSeq++
	seq, acc, b := ed.previewSeq, ed.collect(), m.backend
	return func() tea.Msg {
		line, problems := b.Preview(acc)
		return previewDoneMsg{ed: ed, seq: seq, acc: acc, line: line, problems: problems, check: b.CheckAccount(acc)}
	}
}

func (m *Model) saveAccountCmd(acc AccountInfo) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		saved, err := b.SaveAccount(acc)
		return accountSavedMsg{acc: saved, err: err}
	}
}

func (m *Model) deleteAccountCmd(acc AccountInfo) tea.Cmd {
	id, name, b := acc.ID, displayAccountName(acc), m.backend
	return func() tea.Msg { return accountDeletedMsg{id: id, name: name, err: b.DeleteAccount(id)} }
}

func (m *Model) onAccountsLoaded(msg accountsLoadedMsg) {
	if msg.err != nil {
		m.setStatus(stError, m.env.tr.t(mStAccountsFailed, msg.err))
		return
	}
	m.setAccounts(msg.accounts)
	if !m.partData().hasSeatAccounts() {
		m.setStatus(stInfo, m.env.tr.t(mStNoAccounts))
	}
}

// onAccountSaved closes the editor, or keeps it open with the reason.
func (m *Model) onAccountSaved(msg accountSavedMsg) []tea.Cmd {
	if m.overlay.editor != nil {
		m.overlay.editor.saving = false
	}
	if msg.err != nil {
		if ed := m.overlay.editor; ed != nil && ed.serverRefused(&m.env, msg.err) {
			return nil // a new server's fields: marked, listed, focused
		}
		m.editorFailed(msg.err, mEdFailed)
		return nil
	}
	m.closeOverlay()
	text := m.env.tr.t(mEdSaved, displayAccountName(msg.acc))
	if s, ok := m.seats.infos[msg.acc.ID]; ok && seatKind(msg.acc.Kind) && (s.State == SeatRunning || s.State == SeatStarting) {
		// A seat runs on the launch it was given (issue 35: the editor did
		// not say a change waits for the next start).
		text += m.env.tr.t(mEdSavedRunning, keyName(m.keys.SeatStop), keyName(m.keys.SeatStart))
	}
	m.setStatus(stInfo, text)
	return []tea.Cmd{m.loadAccountsCmd()}
}

func (m *Model) onAccountDeleted(msg accountDeletedMsg) []tea.Cmd {
	if msg.err != nil {
		m.editorFailed(msg.err, mStDeleteFailed)
		return nil
	}
	m.closeOverlay()
	m.setStatus(stInfo, m.env.tr.t(mEdDeleted, msg.name))
	return []tea.Cmd{m.loadAccountsCmd()}
}

// editorFailed says why a save or delete failed: in the editor while it is
// open, else on the status line (with status's text).
func (m *Model) editorFailed(err error, status msgKey) {
	tr := m.env.tr
	text := accountErrText(&m.env, err)
	if ed := m.overlay.editor; ed != nil {
		ed.msg, ed.msgErr = tr.t(mEdFailed, text), true
		return
	}
	m.setStatus(stError, tr.t(status, text))
}

// accountErrText is an account change's refusal in the human's language
// when the backend named it (ErrNoSecretStore and the rest), with the
// detail it carried; else the error as it reads.
func accountErrText(e *env, err error) string {
	for _, c := range []struct {
		sentinel error
		text     msgKey
	}{{ErrNoSecretStore, mErrNoSecretStore}, {ErrKindRunning, mErrKindRunning}, {ErrKindMCP, mErrKindMCP}, {ErrAccountRunning, mErrAccountRunning}} {
		if !errors.Is(err, c.sentinel) {
			continue
		}
		text := e.tr.t(c.text)
		detail := strings.TrimPrefix(strings.TrimPrefix(err.Error(), c.sentinel.Error()), ": ")
		if detail = strings.TrimPrefix(detail, c.sentinel.Error()); strings.TrimLeft(detail, ": ") != "" {
			text += " (" + strings.TrimLeft(detail, ": ") + ")"
		}
		return text
	}
	return err.Error()
}

// onRosterChanged stores a room's roster; the open topic's feeds the @
// popup and the panel.
func (m *Model) onRosterChanged(ev RosterChanged) {
	m.accounts.rosters[ev.Topic] = ev.Roster
	if ev.Topic == m.topics.open {
		m.input.refreshCompletion(ev.Roster, m.env.selfName)
		m.accounts.panel.changed()
	}
}

// roster is who sits in the open topic's room.
func (m *Model) roster() []room.Member { return m.accounts.rosters[m.topics.open] }

// setAccounts stores the account list and who "self" is; a new self name
// or hue changes how every post is drawn.
func (m *Model) setAccounts(accs []AccountInfo) {
	m.accounts.list = accs
	self, hue := "human", (*int)(nil)
	if a, ok := m.accounts.find(m.opts.AdminID); ok {
		self, hue = displayAccountName(a), a.Hue
	}
	hues := make(map[string]int, len(accs))
	for _, a := range accs {
		hues[a.ID] = accountHue(a, m.opts.AdminID)
	}
	if self != m.env.selfName || !sameHue(hue, m.env.selfHue) || !maps.Equal(hues, m.env.hues) {
		m.env.selfName, m.env.selfHue, m.env.hues = self, hue, hues
		m.env.gen++ // posts are drawn in their account's colour: every cache redraws
	}
	if mcp := mcpNames(accs); !maps.Equal(mcp, m.env.mcp) {
		m.env.mcp = mcp
		m.chat.regroup(&m.env) // a server added, renamed or deleted folds its posts anew
	}
	for k, p := range m.seats.panes {
		if a, ok := m.accounts.find(k.account); ok {
			p.name = displayAccountName(a)
			p.hue = speakerHue(a.Hue, p.name, "", nil)
		}
	}
	m.markUntaken() // a seat renamed: its name under the posts it did not take
	m.accounts.panel.changed()
}

// mcpNames is the display name of every mcp account, by id.
func mcpNames(accs []AccountInfo) map[string]string {
	out := map[string]string{}
	for _, a := range accs {
		if a.Kind == KindMCP {
			out[a.ID] = displayAccountName(a)
		}
	}
	return out
}

func sameHue(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// partData gathers what the participant panel draws for the open topic.
func (m *Model) partData() *partData {
	d := &partData{
		accounts: m.accounts.list,
		roster:   m.roster(),
		seats:    m.seats.infos,
		starting: map[string]bool{},
		failed:   map[string]string{},
		adminID:  m.opts.AdminID,
		found:    m.accounts.found,
		post:     m.chat.body,
		servers:  m.accounts.servers,
		socket:   m.accounts.socket,
		owed:     m.seats.owed,
	}
	for k := range m.seats.starting {
		if k.topic == m.topics.open {
			d.starting[k.account] = true
		}
	}
	for k, v := range m.seats.failed {
		if k.topic == m.topics.open {
			d.failed[k.account] = v
		}
	}
	for _, c := range m.cards.queue {
		if c.Topic == m.topics.open {
			if d.asking == nil {
				d.asking = map[string]bool{}
			}
			d.asking[c.Account] = true
		}
	}
	return d
}

// selectedRow is the participant row under the panel's cursor.
func (m *Model) selectedRow() (partRow, bool) {
	rows := m.partData().rows()
	if m.accounts.panel.sel < 0 || m.accounts.panel.sel >= len(rows) {
		return partRow{}, false
	}
	return rows[m.accounts.panel.sel], true
}

// partsKey handles a key while the participant panel has focus: moving,
// creating accounts, then the selected account's keys.
func (m *Model) partsKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Up):
		m.accounts.panel.move(-1, len(m.partData().rows()))
		return nil
	case key.Matches(k, km.Down):
		m.accounts.panel.move(1, len(m.partData().rows()))
		return nil
	case key.Matches(k, km.AccountNew):
		return m.openEditor(newAccount(KindClaudeCode, m.accounts.uniqueName("Claude Code"), "claude", m.accounts.home), true)
	case key.Matches(k, km.QuickClaude, km.QuickCodex, km.QuickCLI):
		return m.quickKey(k)
	}
	r, ok := m.selectedRow()
	if !ok || r.account == nil {
		return nil
	}
	return m.accountKey(k, *r.account)
}

// quickKey is 1/2/3: a new account of that kind, prefilled as on the
// first-run hint, whether or not accounts exist (issue 14: once they did
// the keys did nothing and the next letters acted on the list).
func (m *Model) quickKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	i := 0
	switch {
	case key.Matches(k, km.QuickCodex):
		i = 1
	case key.Matches(k, km.QuickCLI):
		i = 2
	}
	return m.quickCreate(quickKinds[i])
}

// accountKey handles the keys that act on the selected account.
func (m *Model) accountKey(k tea.KeyPressMsg, a AccountInfo) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.SeatStart):
		return m.startSeat(a)
	case key.Matches(k, km.SeatStop):
		return m.askStop(a)
	case key.Matches(k, km.AccountEdit):
		return m.openEditor(a, false)
	case key.Matches(k, km.SeatOpenPane):
		return m.openSeat(a)
	case key.Matches(k, km.CopySessionID):
		return m.copySessionID(a)
	}
	return nil
}

// copySessionID puts the selected seat's session id on the clipboard
// through the terminal (OSC 52, tea.SetClipboard), so the human can resume
// it by hand (spec «参加者パネル», #139), and says so on the status line.
func (m *Model) copySessionID(a AccountInfo) []tea.Cmd {
	tr := m.env.tr
	name := displayAccountName(a)
	id := oneLine(m.seats.infos[a.ID].SessionID)
	if id == "" {
		m.setStatus(stInfo, tr.t(mStNoSessionID, name))
		return nil
	}
	short := id
	if utf8.RuneCountInString(id) > 8 {
		short = textcut.Runes(id, 8) + "…"
	}
	m.setStatus(stInfo, tr.t(mStCopied, short, name))
	return []tea.Cmd{tea.SetClipboard(id)}
}

// openSeat is Enter on an account: the seat's pane when it has one, a
// start when it has none; a kind that runs in no seat opens the editor.
func (m *Model) openSeat(a AccountInfo) []tea.Cmd {
	switch st := m.partData().state(a.ID); {
	case !seatKind(a.Kind):
		return m.openEditor(a, false)
	case st == SeatRunning || st == SeatStarting || st == SeatExited:
		return m.focusSeatPane(seatKey{m.topics.open, a.ID})
	}
	return m.startSeat(a)
}

// quickCreate opens the editor prefilled for a first-run kind: the command
// found on PATH when it is, Backend.StartDir as the working directory.
func (m *Model) quickCreate(q quickKind) []tea.Cmd {
	cmd := q.command
	if p, ok := m.accounts.found[q.command]; ok {
		cmd = p
	}
	return m.openEditor(newAccount(q.kind, m.accounts.uniqueName(m.env.tr.t(q.label)), cmd, m.accounts.home), true)
}

// newAccount is a new account of kind with what every new account of that
// kind starts with, whichever key made it (issue 35: `a` made a Claude Code
// account in the CLI's own mode, `1` in manual): a Codex account in
// app-server mode, a Claude Code account in manual, where cards appear.
func newAccount(kind, name, command, dir string) AccountInfo {
	a := AccountInfo{Kind: kind, Name: name, Command: command, Dir: dir, AppServer: kind == KindCodexCLI}
	if kind == KindClaudeCode {
		a.PermissionMode = PermissionManual
	}
	return a
}

// openEditor opens the account editor on a (a new account when isNew).
func (m *Model) openEditor(a AccountInfo, isNew bool) []tea.Cmd {
	st := m.partData().state(a.ID)
	running := !isNew && (st == SeatRunning || st == SeatStarting)
	m.overlay.editor = newEditor(&m.env, a, isNew, running, a.ID != "" && a.ID == m.opts.AdminID)
	m.overlay.editor.kinds = m.accounts.kindDefaultsFor(a.ID)
	m.overlay.editor.srv.api = mcpServersOf(m.backend)
	m.overlay.open = ovEditor
	return append([]tea.Cmd{m.previewCmd(), m.loadEnvCmd(), m.readServerCmd()}, m.characterFollow()...)
}

// editorUpdate hands a key or paste to the open editor and does what it
// asks: close, preview the changed account, save or delete it.
func (m *Model) editorUpdate(msg tea.Msg) []tea.Cmd {
	ed := m.overlay.editor
	if cmds, done := m.editorKeyFirst(msg); done {
		return cmds
	}
	act, cmd := ed.update(&m.env, msg)
	switch act {
	case edCancel:
		m.closeOverlay()
		return nil
	case edChanged:
		ed.armed = "" // what a save would do may have changed: ask again
		return append([]tea.Cmd{cmd, m.previewCmd()}, m.characterFollow()...)
	case edSave:
		return m.saveEditor()
	case edDelete:
		return []tea.Cmd{m.deleteAccountCmd(ed.acc)}
	case edRestart:
		return m.restartServer()
	}
	return []tea.Cmd{cmd}
}

// editorMsg hands the open editor the widget messages no feature owns
// (its inputs' cursor blinks).
func (m *Model) editorMsg(msg tea.Msg) []tea.Cmd {
	if m.overlay.open != ovEditor || m.overlay.editor == nil {
		return nil
	}
	_, cmd := m.overlay.editor.update(&m.env, msg)
	return []tea.Cmd{cmd}
}
