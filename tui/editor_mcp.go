package tui

import (
	"errors"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The server section of an mcp account's editor (spec «ローカル MCP サーバ»,
// «アカウントの窓は項目を横に並べる»: an mcp account has its basic fields
// and its server). Under the name and colour: the server's state with the
// key that restarts it, then its command, args (one a line) and env
// (NAME=value a line), line-numbered; in the box under the message line,
// the problems and the server's stderr log, following its end. The
// backend reads the fields (MCPServers): a refusal names each field and
// line, marked on the field and listed in the box.
//
// A new mcp account (or one whose kind becomes mcp here) has only the
// fields: saving writes the entry, then the account, then starts the
// server (CreateMCPAccount). An existing one's ctrl+s saves changed fields
// first and the account after; Enter on the state row restarts the server
// from the file, saving changed fields first (the row says so), so a
// restart never runs what was not saved.

// Server section modes.
const (
	srvNone     = iota // not an mcp account
	srvExisting        // an mcp account as opened: its server is read
	srvNew             // a server to create: its fields only
)

// srvFields are the server's three text fields.
type srvFields struct{ command, args, env string }

// serverState is the server section's state in one editor.
type serverState struct {
	api        MCPServers // nil: the backend runs no MCP servers
	loading    bool       // not read yet: the fields are read-only
	busy       bool       // a read is on its way
	again      bool       // a change came while it was: read once more
	failed     string     // why the server could not be read
	info       MCPServerInfo
	log        []LogLine
	drawn      srvFields      // the fields as last read or saved
	problems   []FieldProblem // the last refusal of the fields
	restarting bool           // a restart (and save) is on its way
	follow     bool           // the log box shows its end
	args, env  textarea.Model
}

// mcpServersOf is the backend's MCP servers, nil when it runs none.
func mcpServersOf(b Backend) MCPServers {
	s, _ := b.(MCPServers)
	return s
}

// newServerArea is a line-numbered multi-line server field.
func newServerArea(e *env) textarea.Model { return newArea(e, true, 8) }

// newArea is the editor's multi-line field: Enter adds a line, it grows
// from one row up to maxHeight, no blinking cursor, no cursor-line colour.
func newArea(e *env, lineNumbers bool, maxHeight int) textarea.Model {
	ta := textarea.New()
	ta.Prompt = ""
	e.noHostPaste(&ta.KeyMap.Paste)
	ta.ShowLineNumbers = lineNumbers
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = maxHeight
	ta.MaxContentHeight = contentRowsMax
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("enter"))
	st := ta.Styles()
	st.Cursor.Blink = false
	st.Focused.CursorLine = lipgloss.NewStyle()
	ta.SetStyles(st)
	return ta
}

// initServer starts the section: an mcp account's fields wait for its
// server to be read.
func (ed *accountEditor) initServer(e *env) {
	ed.inputs[fSrvCommand] = newField(e, "")
	ed.srv.args, ed.srv.env = newServerArea(e), newServerArea(e)
	ed.srv.follow = true
	ed.srv.loading = ed.serverMode() == srvExisting
}

// serverMode is how the section shows: not at all, an existing server,
// or one to create.
func (ed *accountEditor) serverMode() int {
	switch {
	case ed.acc.Kind != KindMCP:
		return srvNone
	case ed.isNew || ed.orig.Kind != KindMCP:
		return srvNew
	}
	return srvExisting
}

// serverFields are the section's fields.
func (ed *accountEditor) serverFields() []edField {
	if ed.serverMode() == srvExisting {
		return []edField{fSrvState, fSrvCommand, fSrvArgs, fSrvEnv}
	}
	return []edField{fSrvCommand, fSrvArgs, fSrvEnv}
}

func isServerField(f edField) bool {
	return f == fSrvState || f == fSrvCommand || f == fSrvArgs || f == fSrvEnv
}

// focusServer focuses the server's multi-line field that has focus.
func (ed *accountEditor) focusServer() {
	for f, a := range map[edField]*textarea.Model{fSrvArgs: &ed.srv.args, fSrvEnv: &ed.srv.env} {
		if ed.field == f {
			a.Focus()
		} else {
			a.Blur()
		}
	}
}

// serverText is the fields as typed.
func (ed *accountEditor) serverText() srvFields {
	return srvFields{ed.inputs[fSrvCommand].Value(), ed.srv.args.Value(), ed.srv.env.Value()}
}

// setServerText puts f in the fields; a field that holds its text already
// is left alone (its cursor stays where it was).
func (ed *accountEditor) setServerText(f srvFields) {
	if in := ed.inputs[fSrvCommand]; in.Value() != f.command {
		in.SetValue(f.command)
	}
	if ed.srv.args.Value() != f.args {
		ed.srv.args.SetValue(f.args)
	}
	if ed.srv.env.Value() != f.env {
		ed.srv.env.SetValue(f.env)
	}
}

// serverDirty reports fields typed since they were read or saved.
func (ed *accountEditor) serverDirty() bool {
	return ed.serverMode() != srvNone && ed.serverText() != ed.srv.drawn
}

// serverReadOnly says why the server's fields take no input, or "".
func (ed *accountEditor) serverReadOnly(e *env) string {
	s := &ed.srv
	switch {
	case s.api == nil:
		return e.tr.t(mEdSrvUnavailable)
	case ed.serverMode() != srvExisting:
		return ""
	case s.loading:
		return e.tr.t(mEdSrvLoading)
	case s.failed != "":
		return s.failed
	case s.restarting:
		return e.tr.t(mEdSrvRestarting)
	}
	return ""
}

// updateServer hands a key or paste to the focused server field; the
// state row restarts on its key.
func (ed *accountEditor) updateServer(e *env, msg tea.Msg) (editorAction, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && ed.field == fSrvState {
		if key.Matches(k, e.keys.ChooseAnswer) {
			return edRestart, nil
		}
		return edNone, nil
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		if why := ed.serverReadOnly(e); why != "" {
			ed.msg, ed.msgErr = why, true
			return edNone, nil
		}
	}
	var cmd tea.Cmd
	switch ed.field {
	case fSrvCommand:
		in := ed.inputs[fSrvCommand]
		*in, cmd = in.Update(msg)
	case fSrvArgs:
		ed.srv.args, cmd = ed.srv.args.Update(msg)
	case fSrvEnv:
		ed.srv.env, cmd = ed.srv.env.Update(msg)
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return edChanged, cmd
	}
	return edNone, cmd
}

// serverValue draws server field f.
func (ed *accountEditor) serverValue(e *env, f edField, valW int) []string {
	switch f {
	case fSrvState:
		return ed.stateLines(e)
	case fSrvCommand:
		if ed.field == f && ed.serverReadOnly(e) == "" {
			return []string{ed.inputView(f, valW-1)}
		}
		return []string{sanitize(ed.inputs[f].Value())}
	}
	a, field := &ed.srv.args, FieldServerArgs
	if f == fSrvEnv {
		a, field = &ed.srv.env, FieldServerEnv
	}
	if ed.field == f && ed.serverReadOnly(e) == "" {
		a.SetWidth(valW)
		return strings.Split(a.View(), "\n")
	}
	return ed.numberedLines(e, a.Value(), field, f == fSrvEnv)
}

// numberedLines draws a multi-line server field without focus: each line
// after its number (in the danger colour on a refused line), env values
// masked.
func (ed *accountEditor) numberedLines(e *env, text, field string, mask bool) []string {
	if text == "" {
		return []string{e.th.dim.Render(e.tr.t(mEdEmpty))}
	}
	bad := map[int]bool{}
	for _, p := range ed.srv.problems {
		if p.Field == field {
			bad[p.Line] = true
		}
	}
	lines := strings.Split(text, "\n")
	digits := len(strconv.Itoa(len(lines)))
	out := make([]string, len(lines))
	for i, l := range lines {
		n := " " + strings.Repeat(" ", digits-len(strconv.Itoa(i+1))) + strconv.Itoa(i+1) + " "
		st := e.th.dim
		if bad[i+1] {
			st = e.th.dangerS
		}
		if j := strings.IndexByte(l, '='); mask && j >= 0 {
			l = l[:j+1] + "••••"
		}
		out[i] = st.Render(n) + sanitize(l)
	}
	return out
}

// stateLines is the state row: the state word (with its reason), the key
// that restarts (or saves and restarts, or stops), and what the file says.
func (ed *accountEditor) stateLines(e *env) []string {
	s, th, tr := &ed.srv, e.th, e.tr
	switch {
	case s.api == nil:
		return []string{th.dim.Render(tr.t(mEdSrvUnavailable))}
	case s.loading:
		return []string{th.dim.Render(tr.t(mEdSrvLoading))}
	case s.failed != "":
		return []string{th.dangerS.Render(sanitize(s.failed))}
	}
	word := stateWord(e, s.info)
	hint := tr.t(mEdSrvRestartHint, keyName(e.keys.ChooseAnswer))
	switch {
	case s.restarting:
		hint = tr.t(mEdSrvRestarting)
	case !s.info.Registered:
		hint = tr.t(mEdSrvStopHint, keyName(e.keys.ChooseAnswer))
	case ed.serverDirty():
		hint = tr.t(mEdSrvSaveRestartHint, keyName(e.keys.ChooseAnswer))
	}
	out := []string{word + th.dim.Render(" · "+hint)}
	if r := oneLine(s.info.Reason); r != "" && (s.info.State == MCPExited || s.info.State == MCPFailed) {
		out = append(out, th.dangerS.Render(sanitize(r)))
	}
	if !s.info.Registered {
		out = append(out, th.dim.Render(tr.t(mEdSrvUnregistered)))
	} else if s.info.Stale {
		out = append(out, th.accentS.Render(tr.t(mEdSrvStale)))
	}
	return out
}

// stateWord is a server's state in its colour: running in the ok colour,
// an end nobody asked for in the danger colour.
func stateWord(e *env, info MCPServerInfo) string {
	th, tr := e.th, e.tr
	switch info.State {
	case MCPStarting:
		return th.text.Render(tr.t(mEdSrvStarting))
	case MCPRunning:
		return th.okS.Render(tr.t(mEdSrvRunning))
	case MCPExited:
		return th.dangerS.Render(tr.t(mEdSrvExited, info.ExitCode))
	case MCPFailed:
		return th.dangerS.Render(tr.t(mEdSrvFailed))
	case MCPStopped:
		return th.text.Render(tr.t(mEdSrvStopped))
	}
	return th.text.Render(tr.t(mEdSrvNotStarted))
}

// serverHeader is the row above the section: its name and, for an
// existing server, its entry and file.
func (ed *accountEditor) serverHeader(e *env, w int) string {
	th := e.th
	h := th.title.Render(e.tr.t(mEdSrvSection))
	if i := ed.srv.info; ed.serverMode() == srvExisting && i.Entry != "" {
		h += "  " + th.dim.Render(e.tr.t(mEdSrvEntry, sanitize(i.Entry), sanitize(i.File)))
	}
	return fit(h, w)
}

// serverContent is the box under the message line for an mcp account:
// the problems, what the entry needs said, then the server's log (or, for
// a server to create, what saving does).
func (ed *accountEditor) serverContent(e *env, inner int) []string {
	th := e.th
	out := ed.problemLines(e, inner)
	for _, w := range ed.srv.info.Warnings {
		for _, l := range wrapText(sanitize(e.tr.t(mEdSrvWarnings, w)), inner-2) {
			out = append(out, "  "+th.accentS.Render(l))
		}
	}
	if ed.serverMode() != srvExisting {
		for _, l := range wrapText(e.tr.t(mEdSrvNewHint), inner-2) {
			out = append(out, "  "+th.dim.Render(l))
		}
		return out
	}
	if len(ed.srv.log) == 0 {
		return append(out, "  "+th.dim.Render(e.tr.t(mEdSrvLogEmpty)))
	}
	for _, ln := range ed.srv.log {
		at := th.dim.Render(ln.At.In(e.loc).Format("15:04:05")) + " "
		for i, l := range wrapText(sanitize(ln.Text), max(inner-11, 8)) {
			if i > 0 {
				at = strings.Repeat(" ", 9)
			}
			out = append(out, "  "+at+l)
		}
	}
	return out
}

// serverReadMsg is the server of the editor ed as read.
type serverReadMsg struct {
	ed   *accountEditor
	info MCPServerInfo
	log  []LogLine
	err  error
}

// serverRestartedMsg is a restart's answer: saved, the fields it saved
// first (nil when none); saveErr, why saving them failed (then it did not
// restart); err, why the restart failed.
type serverRestartedMsg struct {
	ed      *accountEditor
	saved   *srvFields
	saveErr error
	err     error
}

// serverMsg applies the server section's answers.
func (m *Model) serverMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case serverReadMsg:
		return m.onServerRead(msg), true
	case serverRestartedMsg:
		return m.onServerRestarted(msg), true
	}
	return nil, false
}

// readServerCmd reads the open editor's server and its log, one read at
// a time (asked meanwhile, it reads once more after).
func (m *Model) readServerCmd() tea.Cmd {
	ed := m.overlay.editor
	if ed == nil || ed.serverMode() != srvExisting || ed.srv.api == nil {
		return nil
	}
	if ed.srv.busy {
		ed.srv.again = true
		return nil
	}
	ed.srv.busy = true
	api, id := ed.srv.api, ed.acc.ID
	return func() tea.Msg {
		info, err := api.MCPServer(id)
		return serverReadMsg{ed: ed, info: info, log: api.MCPServerLog(id), err: err}
	}
}

// onServerRead shows the server as read. Fields not typed in since they
// were last read follow the file; typed ones stay.
func (m *Model) onServerRead(msg serverReadMsg) []tea.Cmd {
	ed := msg.ed
	ed.srv.busy = false
	if ed != m.overlay.editor {
		return nil
	}
	s := &ed.srv
	s.loading = false
	s.failed = ""
	ed.pvSeq++
	if msg.err != nil {
		s.failed = m.env.tr.t(mEdSrvReadFailed, msg.err)
	} else {
		read := srvFields{msg.info.Command, msg.info.Args, msg.info.Env}
		s.drawn = ed.followServer(read)
		s.info, s.log = msg.info, msg.log
	}
	if s.again {
		s.again = false
		return []tea.Cmd{m.readServerCmd()}
	}
	return nil
}

// followServer puts a read in the fields: each one not typed in since
// the last read (it still holds what was drawn) takes the value read. It
// returns what the fields now hold unchanged: a field that followed as the
// field holds it (a textarea may normalise what it is given), a typed one
// as read.
func (ed *accountEditor) followServer(read srvFields) srvFields {
	typed, drawn := ed.serverText(), ed.srv.drawn
	next := read
	if typed.command != drawn.command {
		next.command = typed.command
	}
	if typed.args != drawn.args {
		next.args = typed.args
	}
	if typed.env != drawn.env {
		next.env = typed.env
	}
	ed.setServerText(next)
	held := ed.serverText()
	if typed.command == drawn.command {
		read.command = held.command
	}
	if typed.args == drawn.args {
		read.args = held.args
	}
	if typed.env == drawn.env {
		read.env = held.env
	}
	return read
}

// onServerChanged reads the servers again for the panel's rows, and the
// server of an editor open on it.
func (m *Model) onServerChanged(ev MCPServerChanged) []tea.Cmd {
	cmds := []tea.Cmd{m.readServersCmd()}
	if ed := m.overlay.editor; ed != nil && ed.acc.ID == ev.AccountID {
		cmds = append(cmds, m.readServerCmd())
	}
	return cmds
}

// restartServer is the state row's key: the server restarts from the
// file, after the typed fields are saved when they changed.
func (m *Model) restartServer() []tea.Cmd {
	ed := m.overlay.editor
	if why := ed.serverReadOnly(&m.env); why != "" {
		ed.msg, ed.msgErr = why, true
		return nil
	}
	ed.srv.restarting = true
	var save *srvFields
	if ed.serverDirty() {
		f := ed.serverText()
		save = &f
	}
	api, id := ed.srv.api, ed.acc.ID
	return []tea.Cmd{func() tea.Msg {
		if save != nil {
			if err := api.SaveMCPServer(id, save.command, save.args, save.env); err != nil {
				return serverRestartedMsg{ed: ed, saveErr: err}
			}
		}
		return serverRestartedMsg{ed: ed, saved: save, err: api.RestartMCPServer(id)}
	}}
}

// onServerRestarted says how the restart went and reads the server again.
func (m *Model) onServerRestarted(msg serverRestartedMsg) []tea.Cmd {
	ed := msg.ed
	ed.srv.restarting = false
	if ed != m.overlay.editor {
		return nil
	}
	tr := m.env.tr
	if msg.saved != nil {
		ed.srv.drawn, ed.srv.problems = *msg.saved, nil
		ed.pvSeq++
	}
	name := displayAccountName(ed.acc)
	switch {
	case ed.serverRefused(&m.env, msg.saveErr):
	case msg.saveErr != nil:
		ed.msg, ed.msgErr = tr.t(mEdFailed, msg.saveErr), true
	case msg.err != nil:
		ed.msg, ed.msgErr = tr.t(mEdSrvRestartFailed, msg.err), true
	case msg.saved != nil:
		ed.msg, ed.msgErr = tr.t(mEdSrvSavedRestart, name), false
	default:
		ed.msg, ed.msgErr = tr.t(mEdSrvRestartAsked, name), false
	}
	return []tea.Cmd{m.readServerCmd()}
}

// serverRefused shows a refusal of the server's fields: each problem is
// marked on its field and listed in the box, the first on the message
// line, and focus goes to its field. It reports whether err was one.
func (ed *accountEditor) serverRefused(e *env, err error) bool {
	var r *MCPServerRefused
	if !errors.As(err, &r) || len(r.Problems) == 0 {
		return false
	}
	ed.srv.problems = r.Problems
	ed.pvSeq++
	p := r.Problems[0]
	text := ed.problemText(e, p)
	if n := len(r.Problems) - 1; n > 0 {
		text += " " + e.tr.t(mEdMore, n)
	}
	ed.msg, ed.msgErr = e.tr.t(mEdNotSavedProblems, text), true
	if f, ok := fieldOfProblem[p.Field]; ok && containsField(ed.fields(), f) {
		ed.field = f
		ed.focusField()
	}
	return true
}

// saveServerFirst is the part of a save that is the server's, run in the
// save's command before the account is saved: changed fields of an
// existing server are written (a refusal stops the save). It returns the
// fields it saved.
func saveServerFirst(api MCPServers, mode int, id string, f srvFields, dirty bool) (*srvFields, error) {
	if mode != srvExisting || !dirty {
		return nil, nil
	}
	if api == nil {
		return nil, errors.New("no local MCP servers in this build")
	}
	if err := api.SaveMCPServer(id, f.command, f.args, f.env); err != nil {
		return nil, err
	}
	return &f, nil
}

// createServerCmd saves a new mcp account with its server: the entry, the
// account, then the server's start (the backend's order).
func (m *Model) createServerCmd(acc AccountInfo, f srvFields) tea.Cmd {
	api := m.overlay.editor.srv.api
	tr := m.env.tr
	return func() tea.Msg {
		if api == nil {
			return accountSavedMsg{err: errors.New(tr.t(mEdSrvUnavailable))}
		}
		saved, err := api.CreateMCPAccount(acc, f.command, f.args, f.env)
		return accountSavedMsg{acc: saved, err: err}
	}
}
