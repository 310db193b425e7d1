package tui

import (
	"runtime"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// attachPicker is the attach prompt (docs/design.md §10 "Attachments"): a
// path entry whose folder part is listed (Backend.ListDir, in a command)
// and whose name part filters that listing; Tab completes, Enter attaches
// the file (or opens the chosen folder). It stands in for the system's
// file window of the original app. Bubbles' filepicker was not used: it
// browses one folder with the arrows and has no typed path to complete.
type attachPicker struct {
	in      textinput.Model
	sel     int        // the highlighted match; -1 for none
	listed  string     // the folder part entries belong to
	loading string     // the folder part being listed ("" none)
	busy    bool       // loading is set (the cwd's folder part is "")
	entries []DirEntry // the listing of listed
	more    bool       // the listing was cut at MaxDirEntries
	listErr string     // why listed could not be listed
	note    string     // the last refusal, shown under the list
}

func newAttachPicker(e *env, start string) *attachPicker {
	ti := *newField(e, start)
	ti.Prompt = "› "
	ti.Placeholder = e.tr.t(mAttachPlaceholder)
	ti.CharLimit = 4096 // a path: the longest any OS takes
	ti.Focus()
	ti.CursorEnd()
	return &attachPicker{in: ti, sel: -1, listed: "\x00"}
}

// attachPicker is the open attach prompt, or nil.
func (m *Model) attachPicker() *attachPicker {
	if m.overlay.open != ovAttach {
		return nil
	}
	return m.overlay.attach
}

// openAttach opens the attach prompt at the last attached file's folder
// and lists it.
func (m *Model) openAttach() []tea.Cmd {
	p := newAttachPicker(&m.env, m.input.lastDir)
	m.overlay = overlays{open: ovAttach, attach: p}
	return []tea.Cmd{p.listCmd(m.backend)}
}

// split cuts the typed path into its folder part (with its separator) and
// the name being typed.
func (p *attachPicker) split() (dir, name string) {
	v := p.in.Value()
	d := dirPart(v)
	return d, v[len(d):]
}

// listCmd lists the folder part unless it is listed or being listed.
func (p *attachPicker) listCmd(b Backend) tea.Cmd {
	dir, _ := p.split()
	if dir == p.listed || p.busy && dir == p.loading {
		return nil
	}
	p.loading, p.busy = dir, true
	return func() tea.Msg {
		entries, more, err := b.ListDir(dir)
		return listDoneMsg{dir: dir, entries: entries, more: more, err: err}
	}
}

// onList keeps a listing of the folder part still typed.
func (p *attachPicker) onList(msg listDoneMsg) []tea.Cmd {
	if msg.dir == p.loading {
		p.busy = false
	}
	if dir, _ := p.split(); msg.dir != dir {
		return nil
	}
	p.listed, p.entries, p.more, p.listErr = msg.dir, msg.entries, msg.more, ""
	if msg.err != nil {
		p.entries, p.listErr = nil, msg.err.Error()
	}
	p.sel = -1
	return nil
}

// matches are the listed entries whose name starts with the typed name
// (ignoring case); hidden ones only once the name starts with '.'.
func (p *attachPicker) matches() []DirEntry {
	dir, name := p.split()
	if dir != p.listed {
		return nil
	}
	q := strings.ToLower(name)
	var out []DirEntry
	for _, de := range p.entries {
		if strings.HasPrefix(de.Name, ".") && !strings.HasPrefix(q, ".") {
			continue
		}
		if strings.HasPrefix(strings.ToLower(de.Name), q) {
			out = append(out, de)
		}
	}
	return out
}

// fill puts an entry in place of the typed name; a folder gets its
// separator, so its listing follows.
func (p *attachPicker) fill(de DirEntry) {
	dir, _ := p.split()
	v := dir + de.Name
	if de.Dir {
		sep := "/"
		if strings.HasSuffix(dir, `\`) || dir == "" && runtime.GOOS == "windows" {
			sep = `\`
		}
		v += sep
	}
	p.in.SetValue(v)
	p.in.CursorEnd()
	p.sel, p.note = -1, ""
}

// complete is Tab: the highlighted match, else the only one, else the
// longest start all matches share; when that adds nothing, the first match
// is highlighted (Tab again takes it).
func (p *attachPicker) complete() {
	ms := p.matches()
	switch {
	case p.sel >= 0 && p.sel < len(ms):
		p.fill(ms[p.sel])
	case len(ms) == 1:
		p.fill(ms[0])
	case len(ms) > 1:
		dir, name := p.split()
		common := commonStart(ms)
		if len([]rune(common)) > len([]rune(name)) {
			p.in.SetValue(dir + common)
			p.in.CursorEnd()
			return
		}
		p.sel = 0
	}
}

// commonStart is the longest start every entry's name shares, ignoring
// case, spelt as the first entry spells it.
func commonStart(ms []DirEntry) string {
	first := []rune(ms[0].Name)
	n := len(first)
	for _, de := range ms[1:] {
		r := []rune(de.Name)
		i := 0
		for i < n && i < len(r) && strings.EqualFold(string(first[i]), string(r[i])) {
			i++
		}
		n = i
	}
	return string(first[:n])
}

// attachKey handles a key in the attach prompt.
func (m *Model) attachKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	p := m.overlay.attach
	switch {
	case key.Matches(k, km.Cancel):
		m.closeOverlay()
		return nil
	case key.Matches(k, km.PickerUp):
		p.sel = max(p.sel-1, -1)
		return nil
	case key.Matches(k, km.PickerDown):
		p.sel = min(p.sel+1, len(p.matches())-1)
		return nil
	case key.Matches(k, km.AttachComplete):
		p.complete()
		return []tea.Cmd{p.listCmd(m.backend)}
	case key.Matches(k, km.AttachChoose):
		return m.attachChoose()
	}
	cmd := p.update(k)
	return []tea.Cmd{cmd, p.listCmd(m.backend)}
}

// update hands a key or paste to the path entry; the matches changed.
func (p *attachPicker) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	p.sel, p.note = -1, ""
	return cmd
}

// attachChoose is Enter: a highlighted folder opens, a highlighted file or
// the typed path is checked and attached.
func (m *Model) attachChoose() []tea.Cmd {
	p := m.overlay.attach
	if ms := p.matches(); p.sel >= 0 && p.sel < len(ms) {
		p.fill(ms[p.sel])
		if ms[p.sel].Dir {
			return []tea.Cmd{p.listCmd(m.backend)}
		}
	}
	v := p.in.Value()
	if strings.TrimSpace(v) == "" {
		return nil
	}
	b := m.backend
	return []tea.Cmd{func() tea.Msg {
		f, err := b.CheckAttachment(v)
		return attachCheckedMsg{file: f, err: err}
	}}
}

// onAttachChecked attaches a checked file and closes the prompt, or shows
// why not in the prompt (the typed path stays).
func (m *Model) onAttachChecked(msg attachCheckedMsg) {
	p := m.attachPicker()
	if msg.err != nil {
		if p != nil {
			p.note = refusalText(&m.env, msg.err)
		} else {
			m.setStatus(stWarn, m.env.tr.t(mStAttachRefused, refusalText(&m.env, msg.err)))
		}
		return
	}
	if r := m.input.chipRefusal(&m.env, msg.file); r != "" && p != nil {
		p.note = r // the prompt stays: nothing typed is lost
		return
	}
	if p != nil {
		m.closeOverlay()
	}
	m.attachFiles([]AttachmentFile{msg.file}, nil)
}

// attachPaste handles a paste in the attach prompt: maybe dropped files
// (the app is asked), else text for the path entry.
func (m *Model) attachPaste(msg tea.PasteMsg) []tea.Cmd {
	if looksDropped(msg.Content) {
		return []tea.Cmd{m.dropCmd(msg.Content, true)}
	}
	p := m.overlay.attach
	return []tea.Cmd{p.update(msg), p.listCmd(m.backend)}
}

// attachRows is how many matches the prompt lists at once.
const attachRows = 10

// view draws the prompt: title, the path entry, the matches (folders with
// their separator, the highlighted one marked), a note, the keys.
func (p *attachPicker) view(e *env, w int) string {
	inner := max(w-4, 16)
	p.in.SetWidth(inner - 3)
	lines := []string{e.th.title.Render(e.tr.t(mAttachTitle)), p.in.View(), ""}
	ms := p.matches()
	start := max(0, p.sel-attachRows+1)
	for i := start; i < len(ms) && i < start+attachRows; i++ {
		name := sanitize(ms[i].Name)
		if ms[i].Dir {
			name += "/"
		}
		l := fit(" "+name, inner)
		if i == p.sel {
			l = e.th.sel.Render(l)
		} else if ms[i].Dir {
			l = e.th.accentS.Render(l)
		}
		lines = append(lines, l)
	}
	dir, name := p.split()
	switch {
	case p.listErr != "" && dir == p.listed:
		lines = append(lines, e.th.dim.Render(ansi.Truncate(e.tr.t(mAttachListFailed, sanitize(p.listErr)), inner, "…")))
	case len(ms) == 0 && dir == p.listed && name != "":
		lines = append(lines, e.th.dim.Render(e.tr.t(mAttachNoMatch)))
	case len(ms) > start+attachRows || p.more && dir == p.listed:
		lines = append(lines, e.th.dim.Render(e.tr.t(mAttachMoreEntries)))
	}
	if p.note != "" {
		lines = append(lines, "")
		for _, l := range wrapText(p.note, inner) {
			lines = append(lines, e.th.dangerS.Render(l))
		}
	}
	lines = append(lines, "", e.th.dim.Render(ansi.Truncate(e.tr.t(mAttachFooter), inner, "…")))
	return modalBox(e, strings.Join(lines, "\n"), inner)
}
