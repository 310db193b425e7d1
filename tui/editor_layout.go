package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	"github.com/charmbracelet/x/ansi"
)

// The account editor's layout (issue 12 "Editor"): the message line sits
// above the launch line and is always on screen — a save refusal or "press
// ctrl+d again" under a long launch line used to fall off the bottom at
// 200×50, so ctrl+s seemed to do nothing. The launch line, the character's
// effect and the problems scroll in their own box (a Bubbles viewport,
// pgup/pgdn), which gets the rows the fields leave; when even the fields
// do not fit, they scroll to keep the focused one in sight.

// Rows the layout keeps for the preview box, and the body field's rows.
const (
	edPreviewMin = 2  // launch-line rows kept however tall the fields are
	edMsgMax     = 3  // message rows shown (the rest is cut with "…")
	edBodyMin    = 3  // body rows when the modal is short
	edBodyMax    = 14 // body rows at most (spec: the body field is 14 rows); fewer for a short body
	edPickRows   = 6  // styles list rows
)

// layoutView draws the editor at most maxW×maxH cells: the title and id,
// the fields, the message line, the launch preview box and the footer.
func (ed *accountEditor) layoutView(e *env, maxW, maxH int) string {
	th := e.th
	inner := clampInt(maxW-4, 30, 100)
	valW := max(inner-edLabelW-1, 8)
	title := e.tr.t(mEdTitleEdit)
	if ed.isNew {
		title = e.tr.t(mEdTitleNew)
	}
	head := []string{th.title.Render(title)}
	if !ed.isNew {
		head = append(head, th.dim.Render(fit(e.tr.t(mEdID), edLabelW))+" "+th.dim.Render(ed.acc.ID))
	}
	foot := []string{"", th.dim.Render(e.tr.t(mEdFooter, keyName(e.keys.Save), keyName(e.keys.Cancel), keyName(e.keys.Delete)))}
	msg := ed.messageRows(e, inner)
	avail := max(maxH-2, 8) // inside the frame
	room := avail - len(head) - len(foot) - len(msg) - 1 - edPreviewMin
	bodyRows := clampInt(ed.chr.area.LineCount()+1, edBodyMin, edBodyMax)
	ed.chr.area.SetHeight(bodyRows)
	fields, focus := ed.fieldRows(e, valW)
	if over := len(fields) - room; over > 0 && ed.field == fBody {
		ed.chr.area.SetHeight(max(bodyRows-over, edBodyMin))
		fields, focus = ed.fieldRows(e, valW)
	}
	fields = scrollWindow(fields, focus, max(room, 1))
	pv := ed.previewBox(e, inner, avail-len(head)-len(fields)-len(foot)-len(msg)-1)
	lines := make([]string, 0, avail)
	for _, l := range head {
		lines = append(lines, fit(l, inner))
	}
	lines = append(lines, fields...) // each exactly inner cells (fieldLines)
	for _, l := range msg {
		lines = append(lines, fit(l, inner))
	}
	lines = append(lines, pv...) // fitted when built (previewBox)
	for _, l := range foot {
		lines = append(lines, fit(l, inner))
	}
	return modalFrame(e, lines, inner)
}

// fieldRows draws every field; focus is the range of the focused field's
// rows.
func (ed *accountEditor) fieldRows(e *env, valW int) (rows []string, focus [2]int) {
	fs := ed.fields()
	for i, f := range fs {
		ls := ed.fieldLines(e, f, valW)
		if isServerField(f) && (i == 0 || !isServerField(fs[i-1])) {
			ls = append([]string{ed.serverHeader(e, edLabelW+1+valW)}, ls...)
		}
		if f == ed.field {
			focus = [2]int{len(rows), len(rows) + len(ls)}
		}
		rows = append(rows, ls...)
	}
	return rows, focus
}

// scrollWindow keeps at most h of rows, the focus range in sight (its top
// when it is taller than h).
func scrollWindow(rows []string, focus [2]int, h int) []string {
	if len(rows) <= h {
		return rows
	}
	top := 0
	if focus[1] > h {
		top = focus[1] - h
	}
	top = min(top, focus[0])
	return rows[top : top+h]
}

// messageRows is the message line: the last message (a refusal in the
// danger colour), at most edMsgMax rows, or one empty row so the layout
// does not jump when one appears.
func (ed *accountEditor) messageRows(e *env, inner int) []string {
	if ed.msg == "" {
		return []string{""}
	}
	st := e.th.text
	if ed.msgErr {
		st = e.th.dangerS
	}
	ls := wrapText(sanitize(ed.msg), inner)
	if len(ls) > edMsgMax {
		ls = append(ls[:edMsgMax-1], ansi.Truncate(ls[edMsgMax-1], inner-1, "")+"…")
	}
	for i, l := range ls {
		ls[i] = st.Render(l)
	}
	return ls
}

// previewBox is the launch preview's title and up to h-1 rows of its
// scrolling box.
func (ed *accountEditor) previewBox(e *env, inner, h int) []string {
	th := e.th
	content := ed.previewContent(e, inner)
	vp := &ed.pv
	rows := clampInt(h, 1, max(len(content), 1))
	if vp.Width() != inner || vp.Height() != rows {
		vp.SetWidth(inner)
		vp.SetHeight(rows)
	}
	title := th.title.Render(e.tr.t(ed.boxTitle()))
	if ed.acc.Kind == KindMCP && ed.srv.follow {
		vp.SetYOffset(max(len(content)-rows, 0)) // the log's end
	}
	if len(content) > rows {
		top := vp.YOffset()
		km := e.keys
		title += "  " + th.dim.Render(e.tr.t(mEdPreviewScroll, top+1, min(top+rows, len(content)), len(content),
			keyName(km.PreviewUp), keyName(km.PreviewDown)))
	}
	title = fit(title, inner)
	// The viewport keeps the offset; its lines are already fitted, so they
	// are sliced here rather than laid out again by viewport.View (which
	// measured and padded every line of the box on every key).
	top := clampInt(vp.YOffset(), 0, max(len(content)-rows, 0))
	out := []string{title}
	blank := strings.Repeat(" ", inner)
	for i := top; i < top+rows; i++ {
		l := blank
		if i < len(content) {
			l = content[i]
		}
		out = append(out, l)
	}
	return out
}

// boxTitle is the preview box's title: the launch line, or an mcp
// account's server log (the server to create, for a new one).
func (ed *accountEditor) boxTitle() msgKey {
	switch ed.serverMode() {
	case srvExisting:
		return mEdSrvLog
	case srvNew:
		return mEdSrvSection
	}
	return mEdPreview
}

// keyName is a binding's first key as the keyboard names it (hintKey).
func keyName(b key.Binding) string { return hintKey(firstKey(b)) }

// previewContent is what the preview box scrolls: the launch line wrapped
// (never cut), how the character reaches the CLI, and every problem —
// the fields' (each naming its field and line) and the launch's. It is
// built again only when one of them changed (pvFor).
func (ed *accountEditor) previewContent(e *env, inner int) []string {
	want := previewKey{gen: e.gen, inner: inner, seq: ed.pvSeq}
	if want == ed.pvFor && ed.pvLines != nil {
		return ed.pvLines
	}
	var out []string
	if ed.acc.Kind == KindMCP {
		out = ed.serverContent(e, inner)
	} else {
		out = append(ed.launchLines(e, inner), ed.problemLines(e, inner)...)
	}
	for i, l := range out {
		out[i] = fit(l, inner) // once, as built: the box then only slices them
	}
	ed.pvFor, ed.pvLines = want, out
	ed.pv.SetContentLines(out)
	return out
}

// launchLines are the launch line wrapped (never cut) and how the
// character reaches the CLI.
func (ed *accountEditor) launchLines(e *env, inner int) []string {
	th := e.th
	var out []string
	if ed.acc.Kind != KindAdmin {
		for _, l := range wrapText(sanitize(ed.preview), inner-2) {
			out = append(out, "  "+th.text.Render(l))
		}
	}
	if v := ed.effectText(e); v != "" {
		for _, l := range wrapText(v, inner-2) {
			out = append(out, "  "+th.dim.Render(l))
		}
	}
	return out
}

// problemLines lists every problem: the fields' (each naming its field
// and line; an mcp server's refused lines too) and the launch's (not for
// an mcp account, which launches no seat).
func (ed *accountEditor) problemLines(e *env, inner int) []string {
	th := e.th
	type problem struct {
		text string
		warn bool
	}
	var ps []problem
	for _, p := range ed.check.Problems {
		ps = append(ps, problem{ed.problemText(e, p), p.Warn})
	}
	for _, p := range ed.srv.problems {
		ps = append(ps, problem{ed.problemText(e, p), p.Warn})
	}
	if ed.acc.Kind != KindMCP {
		for _, p := range ed.problems {
			ps = append(ps, problem{p, true})
		}
	}
	var out []string
	if len(ps) > 0 {
		out = append(out, th.dangerS.Render(e.tr.t(mEdProblems)))
	}
	for _, p := range ps {
		st := th.dangerS
		if p.warn {
			st = th.accentS
		}
		for i, l := range wrapText(sanitize(p.text), inner-4) {
			prefix := "    "
			if i == 0 {
				prefix = "  • "
			}
			out = append(out, st.Render(prefix+l))
		}
	}
	return out
}

// previewKey is what the preview box's lines were built for.
type previewKey struct{ gen, inner, seq int }

// effectText says how the character reaches the CLI (docs/design.md §9):
// outputStyle in Claude's --settings, LI_PLUS_OUTPUT_STYLE in a hook-mode
// Codex seat's environment, the style's body in an app-server Codex
// seat's developer instructions (or, inline, its heading's block of the
// user's own), or the folder's default.
func (ed *accountEditor) effectText(e *env) string {
	name := strings.TrimSpace(ed.checkChar)
	switch ed.check.CharacterVia {
	case "":
		return ""
	case "LI_PLUS_OUTPUT_STYLE", "developerInstructions", "inline":
		switch {
		case name == "" && ed.check.CharacterVia == "inline":
			return e.tr.t(mEdViaNoneInline)
		case name == "":
			return e.tr.t(mEdViaNoneCodex)
		case ed.check.CharacterVia == "developerInstructions":
			return e.tr.t(mEdViaInstructions, name)
		case ed.check.CharacterVia == "inline":
			return e.tr.t(mEdViaInline, name)
		}
		return e.tr.t(mEdViaEnv, name)
	}
	if name == "" {
		return e.tr.t(mEdViaNone)
	}
	return e.tr.t(mEdViaStyle, name)
}

// problemText is one field problem as the preview lists it: the field's
// label, the line for a multi-line field, the reason.
func (ed *accountEditor) problemText(e *env, p FieldProblem) string {
	label := p.Field
	if f, ok := fieldOfProblem[p.Field]; ok {
		label = strings.TrimSpace(fieldLabel(e, f))
	}
	if p.Line > 0 {
		return e.tr.t(mEdFieldLineProblem, label, p.Line, p.Text)
	}
	return e.tr.t(mEdFieldProblem, label, p.Text)
}

// fieldOfProblem maps AccountCheck's field names onto the editor's fields.
var fieldOfProblem = map[string]edField{
	FieldName: fName, FieldKind: fKind, FieldHue: fHue, FieldDir: fDir, FieldCommand: fCommand,
	FieldOptions: fOptions, FieldResume: fResume, FieldCharacter: fCharacter, FieldBody: fBody, FieldEnv: fEnv,
	FieldServerCommand: fSrvCommand, FieldServerArgs: fSrvArgs, FieldServerEnv: fSrvEnv,
}

// fieldProblem is the worst problem of field f: an error over a warning;
// ok false when it has none.
func (ed *accountEditor) fieldProblem(f edField) (p FieldProblem, ok bool) {
	for _, q := range slices.Concat(ed.check.Problems, ed.srv.problems) {
		if qf, known := fieldOfProblem[q.Field]; !known || qf != f {
			continue
		}
		if !ok || p.Warn && !q.Warn {
			p, ok = q, true
		}
	}
	return p, ok
}

// newPreviewBox is the launch preview's scrolling box.
func newPreviewBox() viewport.Model {
	vp := viewport.New()
	vp.SoftWrap = false
	return vp
}

// inputView is one-line field f drawn w cells wide. A field without focus
// shows its value whole or cut with "…" — a path in its middle, keeping
// its file name (issue 35: a command's "/claude" was cut away unseen); it
// draws the same for the same text and width, so its drawing is kept
// (inputViews): typing in one field then redraws only that one.
func (ed *accountEditor) inputView(f edField, w int) string {
	in := ed.inputs[f]
	in.SetWidth(w)
	if in.Focused() {
		return in.View()
	}
	if ed.inputViews == nil {
		ed.inputViews = map[edField]inputDrawn{}
	}
	v := in.Value()
	if d, ok := ed.inputViews[f]; ok && d.value == v && d.w == w {
		return d.view
	}
	shown := cut(oneLine(v), w+1) // the focused field's width, its caret's cell too
	if f == fDir || f == fCommand || f == fSrvCommand {
		shown = cutPath(oneLine(v), w+1)
	}
	d := inputDrawn{value: v, w: w, view: shown}
	ed.inputViews[f] = d
	return d.view
}

// inputDrawn is a one-line field drawn without focus.
type inputDrawn struct {
	value string
	w     int
	view  string
}
