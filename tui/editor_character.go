package tui

import (
	"os/exec"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The account editor's character (docs/design.md §9 "Character"; spec
// «アカウントはキャラクターを持つ», «キャラクターの本文はアカウントの窓で
// 直す», «Codex のキャラ選択（#281）»): the character field with a list of
// the styles the account's CLI would find (ctrl+l), and the body field
// under it — the file <dir>/<.claude|.codex>/output-styles/<character>.md,
// read when the editor opens and again whenever kind, working dir or
// character change (not while it has unsaved edits: then the editor says
// so and ctrl+r reads the new place), written by the editor's save only
// when it changed, and opened in $VISUAL or $EDITOR with ctrl+o (the UI
// steps aside while that editor runs). All file work is the backend's
// (AccountFiles), from commands.

// charState is the character fields' state in one editor.
type charState struct {
	want    string // the body's place the fields name now (charPlace)
	loc     string // the place body was read from ("" for none)
	seq     int    // the latest read asked; older answers are dropped
	loading bool
	body    CharacterBody // the file as read or last written
	readErr string        // why it cannot be read
	area    textarea.Model
	held    bool // the field cannot hold the file's text exactly: read-only here
	moved   bool // the place changed while the body had unsaved edits

	stylesAt  string           // kind and dir the styles were listed for
	styles    []CharacterStyle // what the CLI would find
	stylesErr string
	picking   bool // the styles list is open
	pick      int  // its selected row

	editArmed string // the folder ctrl+o must create, once asked
}

// hasCharacter reports a kind whose seats take a character (spec: Claude
// Code and Codex CLI only).
func hasCharacter(kind string) bool { return kind == KindClaudeCode || kind == KindCodexCLI }

// charPlace is where a's body file is, as the fields say: kind, working
// dir and character ("" when there is none to edit).
func charPlace(a AccountInfo) string {
	c := strings.TrimSpace(a.Character)
	if !hasCharacter(a.Kind) || c == "" || strings.TrimSpace(a.Dir) == "" {
		return ""
	}
	return a.Kind + "\x00" + a.Dir + "\x00" + c
}

// placeText shows a charPlace as its file's place.
func placeText(p string) string {
	parts := strings.Split(p, "\x00")
	if len(parts) != 3 {
		return "—"
	}
	home := ".claude"
	if parts[0] == KindCodexCLI {
		home = ".codex"
	}
	return parts[1] + "/" + home + "/output-styles/" + parts[2] + ".md"
}

// newBodyArea is the body field: a textarea with line numbers (problems
// name lines), growing to the rows the modal gives it.
func newBodyArea(e *env) textarea.Model {
	ta := textarea.New()
	ta.Prompt = ""
	e.noHostPaste(&ta.KeyMap.Paste)
	ta.ShowLineNumbers = true
	ta.MaxHeight = 0
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("enter"))
	st := ta.Styles()
	st.Cursor.Blink = false
	st.Focused.CursorLine = lipgloss.NewStyle()
	ta.SetStyles(st)
	return ta
}

// bodyDirty reports unsaved edits in the body field.
func (ed *accountEditor) bodyDirty() bool {
	c := &ed.chr
	return !c.held && c.area.Value() != c.body.Text
}

// characterOpenedMsg is OpenCharacter's answer for editor ed.
type characterOpenedMsg struct {
	ed   *accountEditor
	seq  int
	loc  string
	body CharacterBody
	err  error
}

// stylesListedMsg is CharacterStyles' answer for the kind and dir at.
type stylesListedMsg struct {
	ed     *accountEditor
	at     string
	styles []CharacterStyle
	err    error
}

// characterFollow follows the fields after a change: the styles when kind
// or dir moved, the body when its place moved — read again when it has no
// unsaved edits, else marked moved (nothing is dropped unasked).
func (m *Model) characterFollow() []tea.Cmd {
	ed := m.overlay.editor
	if ed == nil {
		return nil
	}
	a := ed.collect()
	c := &ed.chr
	var cmds []tea.Cmd
	if at := a.Kind + "\x00" + a.Dir; hasCharacter(a.Kind) && at != c.stylesAt && strings.TrimSpace(a.Dir) != "" {
		c.stylesAt = at
		b := m.backend
		cmds = append(cmds, func() tea.Msg {
			s, err := b.CharacterStyles(a)
			return stylesListedMsg{ed: ed, at: at, styles: s, err: err}
		})
	}
	want := charPlace(a)
	if want == c.want {
		return cmds
	}
	c.want = want
	if ed.bodyDirty() {
		c.moved = want != c.loc
		return cmds
	}
	return append(cmds, m.readBodyCmd())
}

// readBodyCmd reads the body at the place the fields name now, dropping
// the field's text (the caller knows it has no unsaved edits, or the
// person asked with ctrl+r).
func (m *Model) readBodyCmd() tea.Cmd {
	ed := m.overlay.editor
	c := &ed.chr
	c.seq++
	c.moved, c.readErr, c.held = false, "", false
	a := ed.collect()
	place := charPlace(a)
	c.want = place
	if place == "" {
		c.loc, c.loading, c.body = "", false, CharacterBody{}
		c.area.SetValue("")
		return nil
	}
	c.loading = true
	seq, b := c.seq, m.backend
	return func() tea.Msg {
		body, err := b.OpenCharacter(a)
		return characterOpenedMsg{ed: ed, seq: seq, loc: place, body: body, err: err}
	}
}

// characterOpened puts a read body in the field, or says why it cannot.
func (ed *accountEditor) characterOpened(msg characterOpenedMsg) {
	c := &ed.chr
	if msg.seq != c.seq {
		return
	}
	c.loading, c.loc = false, msg.loc
	if msg.err != nil {
		c.body, c.readErr = CharacterBody{}, msg.err.Error()
		c.area.SetValue("")
		return
	}
	c.body = msg.body
	c.area.SetValue(msg.body.Text)
	c.area.MoveToBegin()
	// The field drops tabs, CRs and control characters and holds 10 000
	// lines: a text it would change is shown read-only, never saved back.
	if c.area.Value() != msg.body.Text {
		c.held = true
		c.area.SetValue("")
	}
}

// stylesListed keeps the styles of the kind and dir asked last.
func (ed *accountEditor) stylesListed(msg stylesListedMsg) {
	c := &ed.chr
	if msg.at != c.stylesAt {
		return
	}
	c.styles, c.stylesErr = msg.styles, ""
	if msg.err != nil {
		c.styles, c.stylesErr = nil, msg.err.Error()
	}
	c.pick = 0
}

// characterKey handles the character fields' own keys (the styles list,
// the outside editor, reading the body again); done is false for others.
func (m *Model) characterKey(k tea.KeyPressMsg) (cmds []tea.Cmd, done bool) {
	ed := m.overlay.editor
	c := &ed.chr
	km := &m.keys
	if c.picking {
		if cmds, used := m.pickKey(k); used {
			return cmds, true
		}
	}
	if c.moved && key.Matches(k, km.ReloadBody) {
		// From any field: a kind without a character has no body field.
		ed.msg = ""
		return []tea.Cmd{m.readBodyCmd()}, true
	}
	if ed.field != fCharacter && ed.field != fBody {
		return nil, false
	}
	switch {
	case ed.field == fCharacter && key.Matches(k, km.CharacterStyles):
		if len(c.styles) == 0 {
			// Nothing to pick: say so and leave the keys to the field (an
			// open empty list ate the next letter typed).
			ed.msg, ed.msgErr = m.env.tr.t(mEdStylesNone), false
			return nil, true
		}
		c.picking, c.pick = true, 0
		for i, s := range c.styles {
			if s.Name == strings.TrimSpace(ed.inputs[fCharacter].Value()) {
				c.pick = i
			}
		}
		return nil, true
	case key.Matches(k, km.OpenInEditor):
		return m.openInEditor(), true
	case ed.field == fBody && key.Matches(k, km.ReloadBody):
		ed.msg = ""
		return []tea.Cmd{m.readBodyCmd()}, true
	}
	return nil, false
}

// pickKey moves in the styles list, picks one into the character field
// (which then reads its body), or closes the list: Esc only closes it;
// any other key closes it and goes on to the field (used false), as a
// completion list does.
func (m *Model) pickKey(k tea.KeyPressMsg) (cmds []tea.Cmd, used bool) {
	ed := m.overlay.editor
	c := &ed.chr
	km := &m.keys
	switch {
	case key.Matches(k, km.PickerUp):
		c.pick = max(c.pick-1, 0)
	case key.Matches(k, km.PickerDown):
		c.pick = min(c.pick+1, max(len(c.styles)-1, 0))
	case key.Matches(k, km.PickerOpen):
		c.picking = false
		if c.pick < len(c.styles) {
			ed.inputs[fCharacter].SetValue(c.styles[c.pick].Name)
			return append(m.characterFollow(), m.previewCmd()), true
		}
	case key.Matches(k, km.Cancel):
		c.picking = false
	default:
		c.picking = false
		return nil, false
	}
	return nil, true
}

// openInEditor is ctrl+o: the body file in $VISUAL or $EDITOR. Refused
// while the field has unsaved edits (the outside editor would not see
// them); a Codex folder it would create is named first and made on a
// second ctrl+o.
func (m *Model) openInEditor() []tea.Cmd {
	ed := m.overlay.editor
	c := &ed.chr
	tr := m.env.tr
	a := ed.collect()
	argv := editorArgv(m.opts.Getenv)
	switch {
	case charPlace(a) == "":
		ed.msg, ed.msgErr = tr.t(mEdEditNoName), true
		return nil
	case len(argv) == 0:
		ed.msg, ed.msgErr = tr.t(mEdNoEditor), true
		return nil
	case ed.bodyDirty():
		ed.msg, ed.msgErr = tr.t(mEdEditDirty), true
		return nil
	}
	create := false
	if a.Kind == KindCodexCLI && !c.body.FolderExists {
		folder := strings.TrimSuffix(placeText(charPlace(a)), "/"+strings.TrimSpace(a.Character)+".md")
		if c.editArmed != folder {
			c.editArmed = folder
			ed.msg, ed.msgErr = tr.t(mEdEditArm, folder), true
			return nil
		}
		create = true
	}
	c.editArmed = ""
	b, run := m.backend, ed.exec
	return []tea.Cmd{func() tea.Msg {
		path, err := b.PrepareCharacterEdit(a, create)
		if err != nil {
			return characterEditedMsg{ed: ed, err: err}
		}
		return characterEditReadyMsg{ed: ed, run: run(argv, path, func(err error) tea.Msg { return characterEditedMsg{ed: ed, err: err} })}
	}}
}

// characterEditReadyMsg carries the command that runs the outside editor
// on the prepared body file.
type characterEditReadyMsg struct {
	ed  *accountEditor
	run tea.Cmd
}

// characterEditedMsg: the outside editor ended (err: it could not run or
// failed, or the file could not be prepared).
type characterEditedMsg struct {
	ed  *accountEditor
	err error
}

// editorArgv is the outside editor's command: $VISUAL, else $EDITOR, split
// at spaces (like git's core.editor, without shell quoting); none when
// neither is set.
func editorArgv(getenv func(string) string) []string {
	for _, name := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(getenv(name)); len(f) > 0 {
			return f
		}
	}
	return nil
}

// execEditor suspends the UI and runs argv with the file's path through
// Bubble Tea's ExecProcess (the terminal is handed over and taken back).
func execEditor(argv []string, path string, done func(error) tea.Msg) tea.Cmd {
	cmd := exec.Command(argv[0], append(argv[1:], path)...)
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return done(err) })
}

// characterMsg applies the character fields' results to the open editor
// (dropped when it is another editor or none).
func (m *Model) characterMsg(msg tea.Msg) []tea.Cmd {
	ed := m.overlay.editor
	switch msg := msg.(type) {
	case characterOpenedMsg:
		if msg.ed == ed {
			ed.characterOpened(msg)
		}
	case stylesListedMsg:
		if msg.ed == ed {
			ed.stylesListed(msg)
		}
	case characterEditReadyMsg:
		if msg.ed != ed {
			return nil
		}
		if ed.bodyDirty() { // typed into while the file was prepared
			ed.msg, ed.msgErr = m.env.tr.t(mEdEditDirty), true
			return nil
		}
		return []tea.Cmd{msg.run}
	case characterEditedMsg:
		if msg.ed != ed {
			return nil
		}
		if msg.err != nil {
			ed.msg, ed.msgErr = m.env.tr.t(mEdEditFailed, msg.err), true
		}
		return []tea.Cmd{m.readBodyCmd(), m.previewCmd()}
	}
	return nil
}

// characterLines draws the character field: its input, and while it has
// focus the keys it takes and the styles list when open.
func (ed *accountEditor) characterLines(e *env, valW int) []string {
	th := e.th
	out := []string{ed.inputView(fCharacter, valW-1)}
	if ed.field != fCharacter {
		return out
	}
	c := &ed.chr
	switch {
	case c.stylesErr != "":
		out = append(out, th.dangerS.Render(fit(c.stylesErr, valW)))
	case len(c.styles) == 0:
		out = append(out, th.dim.Render(fit(e.tr.t(mEdStylesNone), valW)))
	default:
		out = append(out, th.dim.Render(fit(e.tr.t(mEdStylesHint, keyName(e.keys.CharacterStyles), len(c.styles))+
			" · "+keyName(e.keys.OpenInEditor)+" $EDITOR", valW)))
	}
	if c.picking {
		out = append(out, ed.pickRows(e, valW)...)
	}
	return out
}

// pickRows is the styles list: name and where it was found, the selected
// row highlighted, scrolled to keep it in sight.
func (ed *accountEditor) pickRows(e *env, valW int) []string {
	th := e.th
	c := &ed.chr
	top := 0
	if c.pick >= edPickRows {
		top = c.pick - edPickRows + 1
	}
	nameW := 0
	for _, s := range c.styles {
		nameW = max(nameW, ansi.StringWidth(sanitize(s.Name)))
	}
	nameW = min(nameW, valW/2)
	var out []string
	for i := top; i < len(c.styles) && i < top+edPickRows; i++ {
		s := c.styles[i]
		scope := e.tr.t(mEdStyleProject)
		if s.User {
			scope = e.tr.t(mEdStyleUser)
		}
		where := scope + " " + fitLeft(sanitize(s.File), valW-nameW-3-ansi.StringWidth(scope))
		row := fit(sanitize(s.Name), nameW) + "  " + th.dim.Render(where)
		st := th.text
		if i == c.pick {
			st = th.sel
		}
		out = append(out, st.Render(fit(row, valW)))
	}
	return out
}

// bodyLines draws the body field: the file and its state, the field itself
// while it has focus (or why it cannot be edited), and what a save of it
// would mean — others wearing it, a frontmatter name that differs, the
// file Claude really loads a style of that name from, a Codex folder that
// does not exist yet.
func (ed *accountEditor) bodyLines(e *env, valW int) []string {
	th := e.th
	c := &ed.chr
	if c.want == "" {
		return []string{th.dim.Render(e.tr.t(mEdBodyNoName))}
	}
	path := c.body.Path
	if path == "" {
		path = placeText(c.want)
	}
	state := ed.bodyState(e)
	out := []string{fitLeft(sanitize(path), valW-ansi.StringWidth(state)-3) + " · " + state}
	focused := ed.field == fBody
	if focused {
		if why := ed.bodyReadOnly(e); why != "" {
			for _, l := range wrapText(why, valW) {
				out = append(out, th.dangerS.Render(l))
			}
			if c.held { // shown, not editable
				ls := strings.Split(sanitize(c.body.Text), "\n")
				for _, l := range ls[:min(len(ls), edBodyMax)] {
					out = append(out, th.dim.Render(fit(l, valW)))
				}
			}
		} else {
			c.area.SetWidth(valW)
			out = append(out, strings.Split(c.area.View(), "\n")...)
		}
	}
	for _, n := range ed.bodyNotes(e) {
		for _, l := range wrapText(n, valW) {
			out = append(out, th.accentS.Render(l))
		}
	}
	if focused {
		hint := e.tr.t(mEdBodyNextStart) + " " + e.tr.t(mEdBodyHint, keyName(e.keys.OpenInEditor), keyName(e.keys.ReloadBody))
		for _, l := range wrapText(hint, valW) {
			out = append(out, th.dim.Render(l))
		}
	}
	return out
}

// bodyState is the body's state in a word or two.
func (ed *accountEditor) bodyState(e *env) string {
	c := &ed.chr
	th := e.th
	switch {
	case c.loading:
		return th.dim.Render(e.tr.t(mEdBodyLoading))
	case c.readErr != "" || c.held || c.moved:
		return th.dangerS.Render("!")
	case ed.bodyDirty():
		return th.accentS.Render(e.tr.t(mEdBodyUnsaved))
	case !c.body.Exists:
		return th.dim.Render(e.tr.t(mEdBodyNew))
	}
	n := strings.Count(c.body.Text, "\n")
	if !strings.HasSuffix(c.body.Text, "\n") {
		n++
	}
	return th.dim.Render(e.tr.tn(mEdBodyLines, n, n))
}

// bodyNotes are what saving the body would mean, as notes under it.
func (ed *accountEditor) bodyNotes(e *env) []string {
	c := &ed.chr
	if c.loading || c.moved || c.readErr != "" {
		return nil
	}
	var out []string
	a := ed.collect()
	name := strings.TrimSpace(a.Character)
	if len(c.body.WornBy) > 0 {
		out = append(out, e.tr.t(mEdBodyWorn, strings.Join(c.body.WornBy, ", ")))
	}
	if f := c.body.FrontName; f != "" && f != name {
		k := mEdBodyFrontClaude
		if a.Kind == KindCodexCLI {
			k = mEdBodyFrontCodex
		}
		out = append(out, e.tr.t(k, c.body.FrontLine, f, name))
	}
	if c.body.DefinedIn != "" {
		out = append(out, e.tr.t(mEdBodyDefinedIn, c.body.DefinedIn))
	}
	if a.Kind == KindCodexCLI && !c.body.FolderExists {
		out = append(out, e.tr.t(mEdCodexNoFolder, a.Dir+"/.codex/output-styles"))
	}
	return out
}
