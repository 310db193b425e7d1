package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// The account editor's checks, save and cancel (issue 12 "Editor"; spec
// «アカウントの窓は同一 webview 内のモーダルである», «キャラクターの本文は
// アカウントの窓で直す»):
//
//   - every change asks for the launch preview and CheckAccount together,
//     one request at a time (keys typed meanwhile make one more request
//     when the answer comes): each field's problems are listed under the
//     launch line with the field and line they belong to, and marked on
//     the field's label;
//   - ctrl+s first names what a save would also do — create the missing
//     working dir, create .codex/output-styles, change the character of
//     the other accounts wearing the body — and goes on at the second
//     ctrl+s; then, in one command, the fields are checked again (a
//     problem stops the save and focuses its field), the dir is made, the
//     body is written if it changed (refused if the file changed since it
//     was read), and last the account is saved;
//   - Esc with unsaved changes asks once: a second Esc drops them.

// characterMaxBytes is the body's cap (seats.MaxCharacterBytes, the Li+
// loader's): a paste past it is refused whole, a save of more refused.
const characterMaxBytes = 128 << 10

// bodyLinesMax is the textarea's own bound on lines: a paste past it
// would be cut.
const bodyLinesMax = 10000

// editorMore is the editor's state beyond its fields.
type editorMore struct {
	chr       charState
	orig      AccountInfo  // the account as opened: unsaved changes differ from it
	check     AccountCheck // CheckAccount's last answer
	checkChar string       // the character and dir it was asked for
	checkDir  string
	pvBusy    bool // a preview is being made
	pvStale   bool // the fields changed since it was asked
	pvSeq     int  // bumped by each answer: the preview box is built again
	pvFor     previewKey
	pvLines   []string
	pv        viewport.Model
	armed     string // what the last ctrl+s asked to confirm
	askedEsc  bool   // the last Esc asked about unsaved changes
	exec      func(argv []string, path string, done func(error) tea.Msg) tea.Cmd
	// inputViews are the one-line fields as drawn without focus (inputView).
	inputViews map[edField]inputDrawn
}

// initMore starts the state beyond the fields, once they are set.
func (ed *accountEditor) initMore(e *env) {
	ed.chr.area = newBodyArea(e)
	ed.pv = newPreviewBox()
	ed.exec = execEditor
	ed.orig = ed.collect()
}

// multiline reports a focused field whose arrows move between its lines.
func (ed *accountEditor) multiline() bool {
	return ed.field == fEnv || ed.field == fBody || ed.field == fSrvArgs || ed.field == fSrvEnv
}

// unsaved reports changes a cancel would drop.
func (ed *accountEditor) unsaved() bool {
	a, o := ed.collect(), ed.orig
	envChanged := !a.KeepEnv
	if ed.isNew {
		envChanged = a.Env != o.Env
	}
	return a.Kind != o.Kind || a.Name != o.Name || a.Nickname != o.Nickname || !sameHue(a.Hue, o.Hue) ||
		a.Dir != o.Dir || a.Command != o.Command || a.Options != o.Options || a.ResumeLine != o.ResumeLine ||
		a.Character != o.Character || a.AppServer != o.AppServer || a.PermissionMode != o.PermissionMode || envChanged || ed.bodyDirty() || ed.serverDirty()
}

// cancelKey is Esc: it closes the styles list, asks once when there are
// unsaved changes, else cancels.
func (ed *accountEditor) cancelKey(e *env) editorAction {
	if ed.chr.picking {
		ed.chr.picking = false
		return edNone
	}
	if !ed.askedEsc && ed.unsaved() {
		ed.askedEsc = true
		ed.msg, ed.msgErr = e.tr.t(mEdDiscardAsk, keyName(e.keys.Cancel), keyName(e.keys.Save)), true
		return edNone
	}
	return edCancel
}

// editorKeyFirst handles the keys the editor's own fields must see before
// its field moves: the styles list, the character keys, the preview's
// scrolling. done is false for every other key.
func (m *Model) editorKeyFirst(msg tea.Msg) ([]tea.Cmd, bool) {
	ed := m.overlay.editor
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	km := &m.keys
	if !key.Matches(k, km.Cancel) {
		ed.askedEsc = false
	}
	if cmds, done := m.characterKey(k); done {
		return cmds, true
	}
	switch {
	case !ed.multiline() && key.Matches(k, km.PreviewUp):
		ed.pv.PageUp()
		ed.srv.follow = false
		return nil, true
	case !ed.multiline() && key.Matches(k, km.PreviewDown):
		ed.pv.PageDown()
		ed.srv.follow = ed.pv.AtBottom() // back at the log's end: it follows again
		return nil, true
	}
	return nil, false
}

// previewDone applies a preview and check answer of this editor, and asks
// again when the fields changed meanwhile.
func (m *Model) previewDone(msg previewDoneMsg) []tea.Cmd {
	ed := m.overlay.editor
	if ed == nil || msg.ed != ed || msg.seq != ed.previewSeq {
		return nil
	}
	ed.pvBusy = false
	if msg.line != ed.preview || !slices.Equal(msg.problems, ed.problems) || !sameCheck(msg.check, ed.check) || msg.acc.Character != ed.checkChar {
		ed.pvSeq++ // the preview box is built again only when what it shows changed
	}
	ed.preview, ed.problems = msg.line, msg.problems
	ed.check, ed.checkChar, ed.checkDir = msg.check, msg.acc.Character, msg.acc.Dir
	if ed.pvStale {
		ed.pvStale = false
		return []tea.Cmd{m.previewCmd()}
	}
	return nil
}

// updateBody hands a key or paste to the body field: refused while it has
// nothing to edit or cannot hold its file, and a paste it cannot hold
// whole is refused with the reason.
func (ed *accountEditor) updateBody(e *env, msg tea.Msg) tea.Cmd {
	c := &ed.chr
	switch msg := msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		if why := ed.bodyReadOnly(e); why != "" {
			ed.msg, ed.msgErr = why, true
			return nil
		}
		if p, ok := msg.(tea.PasteMsg); ok {
			v := c.area.Value()
			size, lines := len(v)+len(p.Content), strings.Count(v, "\n")+strings.Count(p.Content, "\n")+1
			if size > characterMaxBytes || lines > bodyLinesMax {
				ed.msg, ed.msgErr = e.tr.t(mEdBodyPasteRefused, size, lines, characterMaxBytes, bodyLinesMax), true
				return nil
			}
		}
	}
	var cmd tea.Cmd
	c.area, cmd = c.area.Update(msg)
	return cmd
}

// bodyReadOnly says why the body field takes no input, or "".
func (ed *accountEditor) bodyReadOnly(e *env) string {
	c := &ed.chr
	switch {
	case c.want == "":
		return e.tr.t(mEdBodyNoName)
	case c.loading:
		return e.tr.t(mEdBodyLoading)
	case c.readErr != "":
		return e.tr.t(mEdBodyReadErr, c.readErr)
	case c.held:
		return e.tr.t(mEdBodyHeld, keyName(e.keys.OpenInEditor))
	case c.moved:
		return e.tr.t(mEdBodyMoved, placeText(c.want), placeText(c.loc), keyName(e.keys.ReloadBody))
	}
	return ""
}

// editorPreparedMsg is what the save command did before saving the
// account: the body it wrote, or why it stopped (a problem of the fields,
// a directory that could not be made, a body that could not be written).
type editorPreparedMsg struct {
	ed      *accountEditor
	acc     AccountInfo
	check   AccountCheck
	refused bool
	written *CharacterBody
	err     error
	// srvSaved is an mcp server's fields the save wrote, srvErr why it
	// could not (editor_mcp.go); srv the fields a new server is made with.
	srvSaved *srvFields
	srvErr   error
	srv      srvFields
}

// saveEditor is ctrl+s (see the top of this file).
func (m *Model) saveEditor() []tea.Cmd {
	ed := m.overlay.editor
	tr, km := m.env.tr, &m.keys
	if ed.saving {
		return nil
	}
	c := &ed.chr
	dirty := ed.bodyDirty()
	text := c.area.Value()
	switch size := bodySize(text, c.body); {
	case dirty && c.moved:
		ed.msg, ed.msgErr = tr.t(mEdNotSavedMoved, placeText(c.want), placeText(c.loc), keyName(km.ReloadBody)), true
		return nil
	case dirty && size > characterMaxBytes:
		ed.msg, ed.msgErr = tr.t(mEdBodyTooBig, size, characterMaxBytes), true
		return nil
	}
	need, armed, mkdir := ed.confirmations(&m.env, dirty)
	if armed != "" && armed != ed.armed {
		ed.armed = armed
		ed.msg, ed.msgErr = strings.Join(need, " ")+" "+tr.t(mEdConfirmAgain, keyName(km.Save)), true
		return nil
	}
	ed.armed, ed.saving = "", true
	acc, body, b := ed.collect(), c.body, m.backend
	createFolder := acc.Kind == KindCodexCLI && !body.FolderExists
	api, mode, srv, srvDirty := ed.srv.api, ed.serverMode(), ed.serverText(), ed.serverDirty()
	return []tea.Cmd{func() tea.Msg {
		out := editorPreparedMsg{ed: ed, acc: acc, check: b.CheckAccount(acc), srv: srv}
		if blockingProblem(out.check, mkdir) != nil {
			out.refused = true
			return out
		}
		if out.srvSaved, out.srvErr = saveServerFirst(api, mode, acc.ID, srv, srvDirty); out.srvErr != nil {
			return out
		}
		if out.check.DirMissing {
			if out.err = b.CreateWorkDir(acc.Dir); out.err != nil {
				return out
			}
		}
		if dirty {
			w, err := b.SaveCharacter(acc, body, text, createFolder)
			if err != nil {
				out.err = err
				return out
			}
			out.written = &w
		}
		return out
	}}
}

// bodySize is the body's size in the file: text in the form body was read in.
func bodySize(text string, body CharacterBody) int {
	n := len(text)
	if body.CRLF {
		n += strings.Count(text, "\n")
	}
	if body.BOM {
		n += 3
	}
	return n
}

// confirmations are what a save would also do that the person confirms
// with a second ctrl+s: armed identifies them (a change of any makes the
// next ctrl+s ask again); mkdir says the working dir may be made.
func (ed *accountEditor) confirmations(e *env, dirty bool) (need []string, armed string, mkdir bool) {
	a := ed.collect()
	c := &ed.chr
	if ed.check.DirMissing && ed.checkDir == a.Dir {
		need = append(need, e.tr.t(mEdConfirmMkdir, a.Dir))
		armed += "mkdir\x00" + a.Dir + "\x00"
		mkdir = true
	}
	if dirty && a.Kind == KindCodexCLI && !c.body.FolderExists {
		folder := a.Dir + "/.codex/output-styles"
		need = append(need, e.tr.t(mEdConfirmCodex, folder))
		armed += "codex\x00" + folder + "\x00"
	}
	if dirty && len(c.body.WornBy) > 0 {
		names := strings.Join(c.body.WornBy, ", ")
		need = append(need, e.tr.t(mEdConfirmWorn, names))
		armed += "worn\x00" + names + "\x00"
	}
	return need, armed, mkdir
}

// blockingProblem is the first problem that stops a save: any that is not
// a warning, but a missing working dir the person agreed to create.
func blockingProblem(chk AccountCheck, mkdir bool) *FieldProblem {
	for i, p := range chk.Problems {
		if p.Warn || p.Field == FieldDir && chk.DirMissing && mkdir {
			continue
		}
		return &chk.Problems[i]
	}
	return nil
}

// editorPrepared goes on with a save: the account is saved (accountSavedMsg
// follows) once the checks passed and the dir and body were written; else
// the editor stays open with the reason, focused on the field at fault
// (a missing dir is offered to be made at the next ctrl+s).
func (m *Model) editorPrepared(msg editorPreparedMsg) []tea.Cmd {
	ed := m.overlay.editor
	if ed == nil || msg.ed != ed {
		return nil
	}
	tr := m.env.tr
	if msg.written != nil {
		ed.chr.body = *msg.written
		ed.chr.loc = charPlace(msg.acc)
	}
	ed.check, ed.checkChar, ed.checkDir = msg.check, msg.acc.Character, msg.acc.Dir
	ed.pvSeq++
	if msg.srvSaved != nil {
		ed.srv.drawn, ed.srv.problems = *msg.srvSaved, nil
	}
	switch {
	case msg.srvErr != nil:
		ed.saving = false
		if !ed.serverRefused(&m.env, msg.srvErr) {
			ed.msg, ed.msgErr = tr.t(mEdFailed, msg.srvErr), true
		}
		return nil
	case msg.err != nil:
		ed.saving = false
		ed.msg, ed.msgErr = tr.t(mEdFailed, msg.err), true
		return nil
	case msg.refused:
		ed.saving = false
		p := blockingProblem(msg.check, false)
		if p.Field == FieldDir && msg.check.DirMissing && blockingProblem(msg.check, true) == nil {
			return m.saveEditor() // the dir is missing after all: name it and ask
		}
		text := ed.problemText(&m.env, *p)
		if n := countBlocking(msg.check) - 1; n > 0 {
			text += " " + tr.t(mEdMore, n)
		}
		ed.msg, ed.msgErr = tr.t(mEdNotSavedProblems, text), true
		if f, ok := fieldOfProblem[p.Field]; ok && containsField(ed.fields(), f) {
			ed.field = f
			ed.focusField()
		}
		return nil
	}
	if ed.serverMode() == srvNew {
		return []tea.Cmd{m.createServerCmd(msg.acc, msg.srv)}
	}
	return []tea.Cmd{m.saveAccountCmd(msg.acc)}
}

func countBlocking(chk AccountCheck) int {
	n := 0
	for _, p := range chk.Problems {
		if !p.Warn {
			n++
		}
	}
	return n
}

func containsField(fs []edField, f edField) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// sameCheck reports two checks that show the same.
func sameCheck(a, b AccountCheck) bool {
	return a.DirMissing == b.DirMissing && a.CharacterVia == b.CharacterVia && slices.Equal(a.Problems, b.Problems)
}
