package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The account editor's env field (docs/design.md §9 "Env values"): an
// existing account's field is drawn by Backend.AccountEnv (values opened,
// shown masked), which may take a keyring's time, so it arrives as a
// message. Until it does, or when it failed, or when the field cannot hold
// what was drawn, the field is read-only and a save keeps the stored
// variables (KeepEnv): an empty or half-drawn field saved back would erase
// them. A drawn field saved unchanged keeps them too, with no value opened
// or sealed.

// envState is the env field's life in one editor.
type envState struct {
	loading    bool     // AccountEnv asked and not answered
	failed     string   // why the field cannot be drawn or held
	drawn      string   // the text as drawn: a field still equal to it is unchanged
	unreadable []string // names whose values cannot be opened
}

// envLoadedMsg is Backend.AccountEnv's answer for the editor of account id.
type envLoadedMsg struct {
	id    string
	field EnvField
	err   error
}

// envRowsMax bounds the env field's rows: the textarea's own bound on its
// content (contentRowsMax visual rows); a field it cannot hold whole is not
// put in it, since the rows it dropped would be lost on save.
const envRowsMax = contentRowsMax

// initEnv starts the field: a new account's is empty and editable; an
// existing account's waits for loadEnvCmd.
func (ed *accountEditor) initEnv(isNew bool) {
	if isNew {
		return
	}
	ed.env.loading = true
}

// loadEnvCmd asks for the field of the account being edited.
func (m *Model) loadEnvCmd() tea.Cmd {
	ed := m.overlay.editor
	if ed == nil || ed.isNew {
		return nil
	}
	id, b := ed.acc.ID, m.backend
	return func() tea.Msg {
		f, err := b.AccountEnv(id)
		return envLoadedMsg{id: id, field: f, err: err}
	}
}

// envLoaded puts the drawn field in the editor of its account, or says why
// it stays read-only.
func (ed *accountEditor) envLoaded(e *env, msg envLoadedMsg) {
	if msg.id != ed.acc.ID || !ed.env.loading {
		return
	}
	ed.env.loading = false
	switch {
	case msg.err != nil:
		ed.env.failed = e.tr.t(mEdEnvFailed, msg.err)
	case strings.Count(msg.field.Text, "\n") >= envRowsMax:
		ed.env.failed = e.tr.t(mEdEnvTooBig, strings.Count(msg.field.Text, "\n")+1, envRowsMax)
	default:
		ed.envArea.SetValue(msg.field.Text)
		if got := ed.envArea.Value(); got != msg.field.Text {
			ed.envArea.SetValue("")
			ed.env.failed = e.tr.t(mEdEnvTooBig, strings.Count(msg.field.Text, "\n")+1, envRowsMax)
			return
		}
		ed.env.drawn, ed.env.unreadable = msg.field.Text, msg.field.Unreadable
	}
}

// envReadOnly says why the field takes no input, or "".
func (ed *accountEditor) envReadOnly(e *env) string {
	switch {
	case ed.env.loading:
		return e.tr.t(mEdEnvLoading)
	case ed.env.failed != "":
		return ed.env.failed
	}
	return ""
}

// updateEnv hands a message to the env field: refused whole while it is
// read-only, and a paste it cannot hold whole is refused with the reason
// (the textarea would drop the rows past its bound).
func (ed *accountEditor) updateEnv(e *env, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		if why := ed.envReadOnly(e); why != "" {
			ed.msg, ed.msgErr = why, true
			return nil
		}
		if p, ok := msg.(tea.PasteMsg); ok {
			w := max(ed.envArea.Width(), 1)
			if rows := envRows(ed.envArea.Value(), w) + envRows(p.Content, w); rows > envRowsMax {
				ed.msg, ed.msgErr = e.tr.t(mEdEnvPasteTooTall, rows, envRowsMax), true
				return nil
			}
		}
	}
	var cmd tea.Cmd
	ed.envArea, cmd = ed.envArea.Update(msg)
	return cmd
}

// envRows is how many rows text takes at width w in the field.
func envRows(text string, w int) int {
	rows := 0
	for line := range strings.SplitSeq(text, "\n") {
		rows += max(1, (ansi.StringWidth(line)+w-1)/w)
	}
	return rows
}

// collectEnv sets the account's env field for a save: KeepEnv unless the
// field was drawn (or is a new account's) and changed.
func (ed *accountEditor) collectEnv(a *AccountInfo) {
	a.Env = ed.envArea.Value()
	a.KeepEnv = ed.env.loading || ed.env.failed != "" || a.Env == ed.env.drawn
}

// envLines is the field as drawn while it is not being typed in: the
// loading note or why it is read-only, else its rows (values hidden) and a
// note naming the values that cannot be opened.
func (ed *accountEditor) envLines(e *env, valW int) []string {
	th := e.th
	if why := ed.envReadOnly(e); why != "" {
		return wrapText(why, valW)
	}
	out := maskEnv(ed.envArea.Value())
	if len(out) == 0 {
		out = []string{th.dim.Render(e.tr.t(mEdEnvEmpty))}
	}
	if len(ed.env.unreadable) > 0 {
		for _, l := range wrapText(e.tr.t(mEdEnvUnreadable, strings.Join(ed.env.unreadable, ", ")), valW) {
			out = append(out, th.dangerS.Render(l))
		}
	}
	return out
}
