package tui

import (
	"path/filepath"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// Attachments in the chat (docs/design.md §10 "Attachments", spec «画面は
// 添付: の段を絵と札に読み替えて見せる»): a post whose body ends in an
// attachment block whose every path is a file one level below a topic
// folder of the attachments folder is drawn as its text and a row of name
// chips; any other block (a path elsewhere, a quote) is drawn as written.
// Only the screen reads the block: the log and the terminals keep it. A
// chip opens the file with the system's opener, and only on the human's
// action: a key on the chosen chip, or a click on it. Seats can write any
// path in a post: the app opens nothing outside the attachments folder
// (Backend.OpenAttachment checks again).

// drawnPost is a post's lines (header, body, clip note), its chip rows to
// go under them, where each chip is on those rows, and the column the
// chip rows start at.
type drawnPost struct {
	lines    []string
	chips    []string
	chipHits [][]chipHit
	left     int
}

// lineChips is where the chips of one item line are.
type lineChips struct {
	line int
	hits []chipHit
}

// withChips appends a drawn post (and its chips, indented) to out and
// keeps where the chips landed in the item's lines.
func (it *chatItem) withChips(out []string, d drawnPost) []string {
	out = append(out, d.lines...)
	pad := strings.Repeat(" ", d.left)
	for i, row := range d.chips {
		hits := make([]chipHit, len(d.chipHits[i]))
		for j, h := range d.chipHits[i] {
			hits[j] = chipHit{x0: h.x0 + d.left, x1: h.x1 + d.left, index: h.index}
		}
		it.chipAt = append(it.chipAt, lineChips{line: len(out), hits: hits})
		out = append(out, pad+row)
	}
	return out
}

// postAttachments is what the chat draws of p: its text and the paths of
// its attachment chips, or the whole body and none when its block (if
// any) is not all attachments, or the post is clipped (its block is past
// the clip).
func postAttachments(e *env, p room.Post) (text string, files []string) {
	if e.attachDir == "" || p.Size > len(p.Content) {
		return p.Content, nil
	}
	a, ok := room.SplitAttachments(p.Content)
	if !ok {
		return p.Content, nil
	}
	for _, f := range a.Paths {
		if !inAttachments(e.attachDir, f) {
			return p.Content, nil
		}
	}
	return a.Text, a.Paths
}

// inAttachments reports whether p is, as written, a file one level below
// a topic folder of root: absolute, clean (no "..", no doubled
// separators), <root>/<topic>/<name>. Links are resolved only when it is
// opened (the app's check).
func inAttachments(root, p string) bool {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return false
	}
	topic := filepath.Dir(p)
	if topic == p || filepath.Dir(topic) == topic {
		return false
	}
	parent := filepath.Dir(topic)
	if runtime.GOOS == "windows" {
		return strings.EqualFold(parent, root)
	}
	return parent == root
}

// chatChips lays the chips of files out in rows of at most w cells: each
// " ▣ name " on the tint (the chosen one in the accent), one space apart.
func chatChips(e *env, files []string, w, chosen int) ([]string, [][]chipHit) {
	var rows []string
	var hits [][]chipHit
	var b strings.Builder
	var line []chipHit
	x := 0
	flush := func() {
		if x > 0 {
			rows, hits = append(rows, b.String()), append(hits, line)
			b.Reset()
			line, x = nil, 0
		}
	}
	for i, f := range files {
		label := " " + chipLabel(filepath.Base(f)) + " "
		cw := ansi.StringWidth(label)
		if x > 0 && x+1+cw > w {
			flush()
		}
		if x > 0 {
			b.WriteByte(' ')
			x++
		}
		st := e.th.chip
		if i == chosen {
			st = e.th.chipSel
		}
		b.WriteString(st.Render(label))
		line = append(line, chipHit{x0: x, x1: x + cw, index: i})
		x += cw
	}
	flush()
	return rows, hits
}

// chipsOf is the attachment paths item i draws as chips (none for a fold).
func (c *chat) chipsOf(e *env, i int) []string {
	if i < 0 || i >= len(c.items) || c.items[i].fold {
		return nil
	}
	_, files := postAttachments(e, c.items[i].posts[0])
	return files
}

// moveChip chooses the selected post's previous or next chip.
func (c *chat) moveChip(e *env, delta int) {
	if n := len(c.chipsOf(e, c.sel)); n > 0 {
		c.chip = clampInt(c.chip+delta, 0, n-1)
	}
}

// chipAt is the chip drawn at cell x of view row y: its item and path.
func (c *chat) chipAt(e *env, x, y int) (item int, chip int, ok bool) {
	if y < 0 || y >= len(c.rowLine) || c.rowItem[y] < 0 || c.rowLine[y] < 0 {
		return 0, 0, false
	}
	i, line := c.rowItem[y], c.rowLine[y]
	c.itemLines(e, i) // chipAt is valid for the lines on screen
	for _, lc := range c.items[i].chipAt {
		if lc.line != line {
			continue
		}
		for _, h := range lc.hits {
			if x >= h.x0 && x < h.x1 {
				return i, h.index, true
			}
		}
	}
	return 0, 0, false
}

// openChosenChip opens the selected post's chosen attachment: the human's
// key on it.
func (m *Model) openChosenChip() []tea.Cmd {
	files := m.chat.chipsOf(&m.env, m.chat.sel)
	if len(files) == 0 {
		return nil
	}
	m.chat.chip = clampInt(m.chat.chip, 0, len(files)-1)
	return []tea.Cmd{m.openAttachmentCmd(files[m.chat.chip])}
}
