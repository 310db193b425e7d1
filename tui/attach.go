package tui

import (
	"errors"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// The input bar's attachments (docs/design.md §8 "Attachments", spec «添付は
// 保存したファイルのパスで届く», screen «添付は名前の札で本文の上に並ぶ»): files
// picked in the attach prompt (attach_picker.go) or dropped on the
// terminal (a paste of their paths) become chips above the text; Send
// copies each under the open topic and ends the body with the block of the
// copies' paths. Nothing is written before Send; a refused or rejected
// post brings its text and chips back.

// chip is one attachment of the next post: the picked file and, once a
// send copied it, the topic it was copied under and the copy's path. A
// floor rejection brings the chip back with both, so sending again to the
// same topic does not copy it twice; another topic copies it again (spec
// «床が拒んだ発言の札は、保存した先を覚えて戻る»).
type chip struct {
	file  AttachmentFile
	topic string
	saved string
}

// chipHit is where a drawn chip's ✕ sits on the chips' row (cells inside
// the bar's frame), for a click to remove it.
type chipHit struct {
	x0, x1 int // [x0, x1)
	index  int
}

// chipNameMax bounds a chip's name in cells (the rest is cut with "…"),
// so a long name cannot push the other chips off the row.
const chipNameMax = 28

// imageExts are the extensions drawn with the picture glyph.
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".heic", ".avif", ".tif", ".tiff", ".ico"}

// chipLabel is a chip's text: a glyph for its kind (▣ a picture, ▤ any
// other file) and its name, cut to chipNameMax cells.
func chipLabel(name string) string {
	glyph := "▤"
	if slices.Contains(imageExts, strings.ToLower(path.Ext(name))) {
		glyph = "▣"
	}
	return glyph + " " + ansi.Truncate(sanitize(name), chipNameMax, "…")
}

// renderChips draws the input bar's chips on one row of w cells: each is
// " ▣ name ✕ " on the tint, one space apart; chips that do not fit give
// way to "+N". It returns the row and where each drawn ✕ is.
func renderChips(e *env, chips []chip, w int) (string, []chipHit) {
	var b strings.Builder
	var hits []chipHit
	x := 0
	for i, c := range chips {
		label := " " + chipLabel(c.file.Name) + " "
		cw := ansi.StringWidth(label) + 2 // "✕ "
		more := ""
		if i < len(chips)-1 {
			more = " " + e.tr.t(mChipMore, len(chips)-i-1)
		}
		if x+cw+ansi.StringWidth(more) > w && (i > 0 || cw > w) {
			b.WriteString(e.th.dim.Render(" " + e.tr.t(mChipMore, len(chips)-i)))
			break
		}
		b.WriteString(e.th.chip.Render(label) + e.th.chipX.Render("✕ "))
		hits = append(hits, chipHit{x0: x + cw - 2, x1: x + cw, index: i})
		x += cw
		if i < len(chips)-1 {
			b.WriteByte(' ')
			x++
		}
	}
	return fit(b.String(), w), hits
}

// chipRefusal says why f cannot be added to the next post's attachments,
// or "": at most room.MaxAttachments, and a file once.
func (ib *inputBar) chipRefusal(e *env, f AttachmentFile) string {
	switch {
	case len(ib.chips) >= room.MaxAttachments:
		return e.tr.t(mAttachTooMany, room.MaxAttachments)
	case slices.ContainsFunc(ib.chips, func(c chip) bool { return c.file.Path == f.Path }):
		return e.tr.t(mAttachAlready, sanitize(f.Name))
	}
	return ""
}

// addChip adds f to the next post's attachments, or says why not
// (chipRefusal).
func (ib *inputBar) addChip(e *env, f AttachmentFile) (refusal string) {
	if r := ib.chipRefusal(e, f); r != "" {
		return r
	}
	ib.chips = append(ib.chips, chip{file: f})
	ib.lastDir = dirPart(f.Path)
	ib.changed()
	return ""
}

// removeChip drops chip i and returns it.
func (ib *inputBar) removeChip(i int) chip {
	c := ib.chips[i]
	ib.chips = slices.Delete(ib.chips, i, i+1)
	ib.changed()
	return c
}

// takeChips empties the chips for a send and returns them.
func (ib *inputBar) takeChips() []chip {
	cs := ib.chips
	ib.chips = nil
	ib.changed()
	return cs
}

// restoreChips puts a refused post's chips back in front of any added
// since (a file once).
func (ib *inputBar) restoreChips(cs []chip) {
	if len(cs) == 0 {
		return
	}
	out := slices.Clone(cs)
	for _, c := range ib.chips {
		if !slices.ContainsFunc(out, func(o chip) bool { return o.file.Path == c.file.Path }) {
			out = append(out, c)
		}
	}
	ib.chips = out
	ib.changed()
}

// attachmentLabel is the block label of the UI's language (a topic may hold
// both; the chat reads either).
func attachmentLabel(e *env) string {
	if e.tr.lang == LangJapanese {
		return room.AttachmentsLabelJa
	}
	return room.AttachmentsLabel
}

// refusalText says why a file was not attached, saved or opened, in the
// UI's language; any other error as its text.
func refusalText(e *env, err error) string {
	var ae *AttachmentError
	if !errors.As(err, &ae) {
		return err.Error()
	}
	name := sanitize(ae.Path)
	switch ae.Reason {
	case AttachmentGone:
		return e.tr.t(mAttachGone, name)
	case AttachmentNotFile:
		return e.tr.t(mAttachNotFile, name)
	case AttachmentTooLarge:
		return e.tr.t(mAttachTooLarge, name, fileSize(ae.Size), fileSize(ae.Limit))
	case AttachmentOutside:
		return e.tr.t(mAttachOutside, name)
	case AttachmentRunnable:
		return e.tr.t(mAttachRunnable, sanitize(filepath.Base(ae.Path)), name)
	}
	return e.tr.t(mAttachUnreadable, name, sanitize(ae.Detail))
}

// fileSize is n bytes as a person reads it, up to GiB ("2.0 GiB").
func fileSize(n int64) string {
	if n < 1<<30 {
		return byteSize(int(n))
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}

// pathSeps are the separators of a typed path on this OS.
var pathSeps = map[bool]string{true: `/\`, false: "/"}[runtime.GOOS == "windows"]

// dirPart is the folder part of a typed path up to and with its last
// separator ('/', and '\' on Windows), "" when it has none.
func dirPart(p string) string {
	return p[:strings.LastIndexAny(p, pathSeps)+1]
}

// maxDropBytes bounds a paste that may be dropped files (the app reads
// no more either); a longer paste is text at once.
const maxDropBytes = 64 << 10

// looksDropped reports whether a paste may be the paths a terminal writes
// when files are dropped on it: short, starting like an absolute path, a
// quoted one, a home path or a file:// URL. Only then is the app asked
// (the paste waits for its answer, keys typed meanwhile wait behind it).
func looksDropped(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxDropBytes {
		return false
	}
	if strings.HasPrefix(s, "file://") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '/', '~', '\'', '"', '\\':
		return true
	}
	// A Windows drive path: C:\ or C:/.
	return len(s) >= 3 && s[1] == ':' && (s[2] == '\\' || s[2] == '/') &&
		(s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z')
}

// Messages of the attachments feature.
type (
	// attachDirMsg: the attachments folder, asked once at start.
	attachDirMsg struct{ dir string }
	// droppedMsg: the app's reading of a paste that looked like dropped
	// files; picker is true when it was pasted into the attach prompt.
	droppedMsg struct {
		paste   string
		files   []AttachmentFile
		refused []error
		ok      bool
		picker  bool
	}
	// attachCheckedMsg: the app checked a path typed in the attach prompt.
	attachCheckedMsg struct {
		file AttachmentFile
		err  error
	}
	// listDoneMsg: a folder listed for the attach prompt's completion.
	listDoneMsg struct {
		dir     string
		entries []DirEntry
		more    bool
		err     error
	}
	// openDoneMsg: the app opened an attachment (or refused to).
	openDoneMsg struct {
		path string
		err  error
	}
)

// attachDirCmd asks the app for the attachments folder.
func (m *Model) attachDirCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg { return attachDirMsg{dir: b.AttachmentsDir()} }
}

// attachMsg applies the attachments feature's results.
func (m *Model) attachMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case attachDirMsg:
		if msg.dir != m.env.attachDir {
			m.env.attachDir = msg.dir
			m.env.gen++ // posts whose block is now readable redraw as chips
		}
		return nil, true
	case droppedMsg:
		return m.onDropped(msg), true
	case attachCheckedMsg:
		m.onAttachChecked(msg)
		return nil, true
	case listDoneMsg:
		if p := m.attachPicker(); p != nil {
			return p.onList(msg), true
		}
		return nil, true
	case openDoneMsg:
		m.onOpened(msg)
		return nil, true
	}
	return nil, false
}

// dropCmd asks the app whether paste is dropped files. Until the answer,
// the terminal's keys and pastes wait (holdInput), so nothing typed after
// the drop lands before it.
func (m *Model) dropCmd(paste string, picker bool) tea.Cmd {
	b := m.backend
	m.held.pending = true
	return func() tea.Msg {
		files, refused, ok := b.DroppedFiles(paste)
		return droppedMsg{paste: paste, files: files, refused: refused, ok: ok, picker: picker}
	}
}

// onDropped attaches dropped files (and closes the attach prompt they were
// dropped on), or hands the paste on as text; then the input that waited
// behind it is replayed.
func (m *Model) onDropped(msg droppedMsg) []tea.Cmd {
	m.held.pending = false
	var cmds []tea.Cmd
	switch {
	case !msg.ok && msg.picker && m.attachPicker() != nil:
		cmds = append(cmds, m.attachPicker().update(tea.PasteMsg{Content: msg.paste}))
	case !msg.ok:
		cmds = append(cmds, m.pasteIntoInput(tea.PasteMsg{Content: msg.paste})...)
	default:
		if msg.picker && m.overlay.open == ovAttach {
			m.closeOverlay()
		}
		m.attachFiles(msg.files, msg.refused)
	}
	m.held.replay = true // handle replays what waited, after this message
	return cmds
}

// attachFiles makes chips of files and reports on the status line what was
// attached and the first refusal (files refused, or over the limit).
func (m *Model) attachFiles(files []AttachmentFile, refused []error) {
	tr := m.env.tr
	var names, why []string
	for _, err := range refused {
		why = append(why, refusalText(&m.env, err))
	}
	for _, f := range files {
		if r := m.input.addChip(&m.env, f); r != "" {
			why = append(why, r)
			continue
		}
		names = append(names, f.Name)
	}
	switch {
	case len(why) > 0:
		m.setStatus(stWarn, tr.t(mStAttachRefused, strings.Join(why, " ")))
	case len(files) == 1 && files[0].Name != filepath.Base(files[0].Path):
		m.setStatus(stInfo, tr.t(mStAttachedAs, sanitize(filepath.Base(files[0].Path)), sanitize(files[0].Name)))
	case len(names) > 0:
		m.setStatus(stInfo, tr.t(mStAttached, sanitize(strings.Join(names, ", "))))
	}
}

// heldInput is the terminal input that arrived while the app was reading
// a paste that may be dropped files: replayed in order after the answer.
type heldInput struct {
	pending bool      // a drop is being read: input waits
	replay  bool      // the drop was answered: replay msgs (Model.handle)
	msgs    []tea.Msg // the waiting input, in order
}

// maxHeldInput bounds the input kept while a drop is read (a person types
// a few keys in that time; a paste flood beyond this is refused).
const maxHeldInput = 4096

// holdInput keeps a key or paste while a drop is being read; it reports
// whether it kept msg.
func (m *Model) holdInput(msg tea.Msg) bool {
	if !m.held.pending {
		return false
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		if len(m.held.msgs) < maxHeldInput {
			m.held.msgs = append(m.held.msgs, msg)
		}
		return true
	}
	return false
}

// replayHeld handles the input kept during a drop, in order; a paste among
// it that looks dropped starts a new wait, and the rest waits behind it.
func (m *Model) replayHeld() []tea.Cmd {
	var cmds []tea.Cmd
	for len(m.held.msgs) > 0 && !m.held.pending {
		msg := m.held.msgs[0]
		m.held.msgs = m.held.msgs[1:]
		cmds = append(cmds, m.handle(msg)...)
	}
	if len(m.held.msgs) == 0 {
		m.held.msgs = nil
	}
	return cmds
}

// openAttachmentCmd asks the app to open an attachment (the human chose it).
func (m *Model) openAttachmentCmd(p string) tea.Cmd {
	b := m.backend
	return func() tea.Msg { return openDoneMsg{path: p, err: b.OpenAttachment(p)} }
}

func (m *Model) onOpened(msg openDoneMsg) {
	tr := m.env.tr
	var ae *AttachmentError
	switch {
	case msg.err == nil:
		m.setStatus(stInfo, tr.t(mStOpened, sanitize(filepath.Base(msg.path))))
	case errors.As(msg.err, &ae):
		m.setStatus(stWarn, tr.t(mStOpenRefused, refusalText(&m.env, msg.err)))
	default:
		m.setStatus(stError, tr.t(mStOpenFailed, msg.err, sanitize(msg.path)))
	}
}

// detachLast removes the input bar's last chip, saying which.
func (m *Model) detachLast() {
	if n := len(m.input.chips); n > 0 {
		c := m.input.removeChip(n - 1)
		m.setStatus(stInfo, m.env.tr.t(mStDetached, sanitize(c.file.Name)))
	}
}

// inputBarClick removes the chip whose ✕ is at cell x of row y of the
// input bar's rectangle; it reports whether one was.
func (m *Model) inputBarClick(x, y int) bool {
	if y != 1 || len(m.input.chips) == 0 {
		return false
	}
	for _, h := range m.input.chipHits {
		if x-1 >= h.x0 && x-1 < h.x1 && h.index < len(m.input.chips) {
			c := m.input.removeChip(h.index)
			m.setStatus(stInfo, m.env.tr.t(mStDetached, sanitize(c.file.Name)))
			return true
		}
	}
	return false
}
