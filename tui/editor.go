package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// edField is one field of the account editor.
type edField int

const (
	fKind edField = iota
	fName
	fNickname
	fHue
	fDir
	fCommand
	fOptions
	fResume
	fCharacter
	fEnv
	fBody      // the character's body file (editor_character.go)
	fAppServer // a Codex seat's mode: app-server (on) or hooks (off)
	fPermMode  // a Claude Code seat's permission mode (PermissionModes)
	// An mcp account's server (editor_mcp.go).
	fSrvState   // its state; the row's key restarts it
	fSrvCommand // what it runs
	fSrvArgs    // its arguments, one a line
	fSrvEnv     // its environment, NAME=value a line
)

// edLabelW is the label column of the editor, wide enough for "launch
// options" and its Japanese label (起動オプション, 14 cells).
const edLabelW = 16

// editableKinds are the kinds a user may give an account in the editor
// (admin only stays admin: the human is an account, never launched).
var editableKinds = []string{KindClaudeCode, KindCodexCLI, KindCLI, KindMCP}

// accountEditor is the modal account editor (docs/design.md §9):
// explicit save (ctrl+s) and cancel (Esc), every field, the exact launch line
// from Backend.Preview wrapped (never cut), env values masked unless the env
// field is being edited, and a two-step delete refused for a running account
// and for the screen's own admin.
type accountEditor struct {
	acc     AccountInfo                  // the account as edited (kind and hue live here)
	isNew   bool                         // not saved yet: nothing to delete
	field   edField                      // the focused field
	inputs  map[edField]*textinput.Model // the one-line fields
	envArea textarea.Model               // the env field's NAME=value lines
	running bool                         // its seat runs: kind and delete refused
	self    bool                         // the screen's own admin: delete refused
	kinds   kindDefaults                 // what a kind change resets to (editor_kind.go)

	preview    string   // Backend.Preview's launch line
	problems   []string // and the reasons it gave
	previewSeq int      // the latest preview asked; older answers are dropped

	env envState    // the env field's loading, failure and drawn text (editor_env.go)
	srv serverState // an mcp account's server (editor_mcp.go)

	msg         string // the last refusal or failure, under the preview
	msgErr      bool   // msg is an error (danger colour)
	deleteArmed bool   // the first delete key was pressed
	saving      bool   // a save is on its way

	editorMore // checks, character, preview box, save and cancel (editor_save.go)
}

// newField is a one-line input with a steady virtual cursor: a blinking one
// would need a timer message stream for no gain in a modal.
func newField(e *env, value string) *textinput.Model {
	ti := textinput.New()
	ti.Prompt = ""
	e.noHostPaste(&ti.KeyMap.Paste)
	st := ti.Styles()
	st.Cursor.Blink = false
	ti.SetStyles(st)
	ti.SetValue(value)
	return &ti
}

func newEditor(e *env, a AccountInfo, isNew, running, self bool) *accountEditor {
	ed := &accountEditor{acc: a, isNew: isNew, running: running, self: self, inputs: map[edField]*textinput.Model{}}
	ed.inputs[fName] = newField(e, a.Name)
	ed.inputs[fNickname] = newField(e, a.Nickname)
	ed.inputs[fDir] = newField(e, a.Dir)
	ed.inputs[fCommand] = newField(e, a.Command)
	ed.inputs[fOptions] = newField(e, a.Options)
	ed.inputs[fResume] = newField(e, a.ResumeLine)
	ed.inputs[fCharacter] = newField(e, a.Character)
	ta := newArea(e, false, 5)
	if isNew {
		ta.SetValue(a.Env)
	}
	ed.envArea = ta
	ed.initEnv(isNew)
	ed.field = fName
	ed.initMore(e)
	ed.initServer(e)
	ed.focusField()
	return ed
}

// fields lists the editor's fields for the account's kind.
func (ed *accountEditor) fields() []edField {
	fs := []edField{fKind, fName, fNickname, fHue}
	switch ed.acc.Kind {
	case KindAdmin:
		return fs
	case KindMCP:
		return append(fs, ed.serverFields()...)
	case KindCLI:
		// No character: a generic CLI has no output style to choose
		// (spec «キャラクターの本文はアカウントの窓で直す»).
		return append(fs, fDir, fCommand, fOptions, fResume, fEnv)
	case KindCodexCLI:
		return append(fs, fDir, fCommand, fOptions, fAppServer, fCharacter, fBody, fEnv)
	}
	return append(fs, fDir, fCommand, fOptions, fPermMode, fCharacter, fBody, fEnv)
}

func (ed *accountEditor) focusField() {
	for f, in := range ed.inputs {
		if f == ed.field {
			in.Focus()
		} else {
			in.Blur()
		}
	}
	if ed.field == fEnv {
		ed.envArea.Focus()
	} else {
		ed.envArea.Blur()
	}
	if ed.field == fBody {
		ed.chr.area.Focus()
	} else {
		ed.chr.area.Blur()
		ed.chr.picking = false
	}
	ed.focusServer()
}

func (ed *accountEditor) moveField(delta int) {
	fs := ed.fields()
	i := 0
	for j, f := range fs {
		if f == ed.field {
			i = j
		}
	}
	ed.field = fs[(i+delta+len(fs))%len(fs)]
	ed.focusField()
}

// collect copies the inputs into the working account.
func (ed *accountEditor) collect() AccountInfo {
	a := ed.acc
	a.Name = ed.inputs[fName].Value()
	a.Nickname = ed.inputs[fNickname].Value()
	a.Dir = ed.inputs[fDir].Value()
	a.Command = ed.inputs[fCommand].Value()
	a.Options = ed.inputs[fOptions].Value()
	a.ResumeLine = ed.inputs[fResume].Value()
	a.Character = ed.inputs[fCharacter].Value()
	ed.collectEnv(&a)
	return a
}

// cycleKind moves the kind by delta among the editable kinds and resets
// what belonged to the old one (kindChanged); refused for a running
// account (spec: a running account's kind cannot change).
func (ed *accountEditor) cycleKind(e *env, delta int) {
	if ed.acc.Kind == KindAdmin {
		return
	}
	if ed.running {
		ed.msg, ed.msgErr = e.tr.t(mEdKindRunning), true
		return
	}
	i := 0
	for j, k := range editableKinds {
		if k == ed.acc.Kind {
			i = j
		}
	}
	from := ed.acc.Kind
	ed.acc.Kind = editableKinds[(i+delta+len(editableKinds))%len(editableKinds)]
	ed.kindChanged(e, from)
}

// cycleHue steps through "none" and the eight palette hues.
func (ed *accountEditor) cycleHue(delta int) {
	opts := append([]*int{nil}, func() []*int {
		var out []*int
		for _, h := range huePalette() {
			out = append(out, &h)
		}
		return out
	}()...)
	i := 0
	for j, h := range opts {
		if (h == nil && ed.acc.Hue == nil) || (h != nil && ed.acc.Hue != nil && *h == *ed.acc.Hue) {
			i = j
		}
	}
	ed.acc.Hue = opts[(i+delta+len(opts))%len(opts)]
}

// editorAction is what a key asked of the root model.
type editorAction int

const (
	edNone editorAction = iota
	edChanged
	edCancel
	edSave
	edDelete
	edRestart // the server's restart (editor_mcp.go)
)

// update handles a message while the editor is open: its own keys
// (cancel, save, delete, field moves), the kind and hue choices, else the
// focused field's input.
func (ed *accountEditor) update(e *env, msg tea.Msg) (editorAction, tea.Cmd) {
	if k, isKey := msg.(tea.KeyPressMsg); isKey {
		if act, done := ed.commandKey(e, k); done {
			return act, nil
		}
		ed.deleteArmed = false
		if ed.field == fKind || ed.field == fHue || ed.field == fAppServer || ed.field == fPermMode {
			return ed.choiceKey(e, k), nil
		}
	}
	if isServerField(ed.field) {
		return ed.updateServer(e, msg)
	}
	var cmd tea.Cmd
	switch {
	case ed.field == fEnv:
		cmd = ed.updateEnv(e, msg)
	case ed.field == fBody:
		cmd = ed.updateBody(e, msg)
	case ed.inputs[ed.field] != nil:
		in := ed.inputs[ed.field]
		*in, cmd = in.Update(msg)
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return edChanged, cmd
	}
	return edNone, cmd
}

// commandKey handles the editor's own keys; done is false for any other.
// In the env field the arrows move between its lines, so only the
// …FieldAlways keys leave it.
func (ed *accountEditor) commandKey(e *env, k tea.KeyPressMsg) (act editorAction, done bool) {
	km := e.keys
	switch {
	case key.Matches(k, km.Cancel):
		return ed.cancelKey(e), true
	case key.Matches(k, km.Save):
		return edSave, true
	case key.Matches(k, km.Delete):
		return ed.deleteKey(e), true
	case key.Matches(k, km.NextFieldAlways) || (!ed.multiline() && key.Matches(k, km.NextField)):
		ed.moveField(1)
		return edNone, true
	case key.Matches(k, km.PrevFieldAlways) || (!ed.multiline() && key.Matches(k, km.PrevField)):
		ed.moveField(-1)
		return edNone, true
	}
	return edNone, false
}

// deleteKey is the two-step delete: refused for a new, running or own
// account; the first press arms it, the second deletes.
func (ed *accountEditor) deleteKey(e *env) editorAction {
	switch {
	case ed.isNew:
		return edNone
	case ed.running:
		ed.msg, ed.msgErr = e.tr.t(mEdDeleteRunning), true
		return edNone
	case ed.self:
		ed.msg, ed.msgErr = e.tr.t(mEdDeleteSelf), true
		return edNone
	case !ed.deleteArmed:
		ed.deleteArmed = true
		ed.msg, ed.msgErr = e.tr.t(mEdDeleteArmed, keyName(e.keys.Delete)), true
		return edNone
	}
	return edDelete
}

// choiceKey steps the kind or hue field through its choices, or flips
// the app-server toggle (any choice key: ←, →, Space, Enter).
func (ed *accountEditor) choiceKey(e *env, k tea.KeyPressMsg) editorAction {
	d := 0
	switch {
	case key.Matches(k, e.keys.ChoicePrev):
		d = -1
	case key.Matches(k, e.keys.ChoiceNext):
		d = 1
	default:
		return edNone
	}
	switch ed.field {
	case fKind:
		ed.cycleKind(e, d)
	case fAppServer:
		ed.acc.AppServer = !ed.acc.AppServer
	case fPermMode:
		ed.acc.PermissionMode = cycleMode(ed.acc.PermissionMode, d)
	default:
		ed.cycleHue(d)
	}
	return edChanged
}

// maskEnv shows NAME=•••• for every line (values never on screen unless
// the env field is being edited, docs/design.md §9).
func maskEnv(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l == "" {
			continue
		}
		if i := strings.IndexByte(l, '='); i >= 0 {
			out = append(out, l[:i+1]+"••••")
		} else {
			out = append(out, l)
		}
	}
	return out
}

// dimLines are lines drawn dim.
func dimLines(th *theme, lines []string) []string {
	for i, l := range lines {
		lines[i] = th.dim.Render(l)
	}
	return lines
}

func fieldLabel(e *env, f edField) string {
	return map[edField]string{
		fKind: e.tr.t(mEdKind), fName: e.tr.t(mEdName), fNickname: e.tr.t(mEdNickname), fHue: e.tr.t(mEdHue),
		fDir: e.tr.t(mEdDir), fCommand: e.tr.t(mEdCommand), fOptions: e.tr.t(mEdOptions), fResume: e.tr.t(mEdResume),
		fCharacter: e.tr.t(mEdCharacter), fEnv: e.tr.t(mEdEnv), fBody: e.tr.t(mEdBody), fAppServer: e.tr.t(mEdAppServer),
		fPermMode: e.tr.t(mEdPermMode),
		fSrvState: e.tr.t(mEdSrvState), fSrvCommand: e.tr.t(mEdCommand), fSrvArgs: e.tr.t(mEdSrvArgs), fSrvEnv: e.tr.t(mEdEnv),
	}[f]
}

// view draws the modal at most maxW×maxH cells (editor_layout.go).
func (ed *accountEditor) view(e *env, maxW, maxH int) string {
	return ed.layoutView(e, maxW, maxH)
}

// fieldLines draws field f: its label (accent while focused) and value,
// the env field's further lines under it.
func (ed *accountEditor) fieldLines(e *env, f edField, valW int) []string {
	label := fit(cut(fieldLabel(e, f), edLabelW), edLabelW) // never cut unseen
	switch p, bad := ed.fieldProblem(f); {
	case bad && !p.Warn:
		label = e.th.dangerS.Render(label) // its problem is listed under the launch line
	case f == ed.field:
		label = e.th.accentS.Render(label)
	default:
		label = e.th.dim.Render(label)
	}
	var out []string
	for i, v := range ed.fieldValue(e, f, valW) {
		l := strings.Repeat(" ", edLabelW)
		if i == 0 {
			l = label
		}
		out = append(out, l+" "+fit(cut(v, valW), valW))
	}
	return out
}

// fieldValue is field f's value as drawn: ◂ choice ▸ for kind, hue and
// the app-server toggle (with its one-line hint under it), the env lines
// masked unless being edited, else the text input.
func (ed *accountEditor) fieldValue(e *env, f edField, valW int) []string {
	th := e.th
	switch f {
	case fKind:
		v := kindLabel(e, ed.acc.Kind)
		if ed.acc.Kind != KindAdmin {
			v = "◂ " + v + " ▸"
		}
		return []string{v}
	case fHue:
		if ed.acc.Hue == nil {
			return []string{"◂ " + e.tr.t(mEdHueNone) + " ▸"}
		}
		return []string{"◂ " + th.hueStyle(*ed.acc.Hue).Render("●●●") + " " + strconv.Itoa(*ed.acc.Hue) + "° ▸"}
	case fAppServer:
		v, hint := mEdAppServerOff, mEdAppServerOffHint
		if ed.acc.AppServer {
			v, hint = mEdAppServerOn, mEdAppServerOnHint
		}
		return append([]string{"◂ " + e.tr.t(v) + " ▸"}, dimLines(th, wrapWords(e.tr.t(hint), valW))...)
	case fPermMode:
		// The hint wraps: cut, it hid what the mode means for cards.
		v, hint := permModeWords(ed.acc.PermissionMode)
		return append([]string{"◂ " + e.tr.t(v) + " ▸"}, dimLines(th, wrapWords(e.tr.t(hint), valW))...)
	case fBody:
		return ed.bodyLines(e, valW)
	case fCharacter:
		return ed.characterLines(e, valW)
	case fSrvState, fSrvCommand, fSrvArgs, fSrvEnv:
		return ed.serverValue(e, f, valW)
	case fEnv:
		if f == ed.field && ed.envReadOnly(e) == "" {
			ed.envArea.SetWidth(valW)
			return strings.Split(ed.envArea.View(), "\n")
		}
		return ed.envLines(e, valW)
	}
	return []string{ed.inputView(f, valW-1)}
}
