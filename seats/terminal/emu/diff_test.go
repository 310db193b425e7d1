package emu_test

// The differential suite of issue 36: the same byte stream through several
// terminal models — a tmux pane (diff_tmux_test.go), this package's state
// machine (diff_emu_test.go) and the seats' terminal.Screen around it, read
// as the UI reads it — and what they show compared: screen
// text, each cell's style, cursor position and visibility, the alternate
// screen, the modes each reports, the title and the scrollback. Every
// difference fails the test with a readable diff unless the table of known
// differences (diff_known_test.go) names it with a reason.
//
// This file holds the common view every model is read into, the SGR decoder
// that turns a model's styled rows into cells, the comparison and the
// terminal.Screen model.

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/seats/terminal"
)

// scrollbackLimit is the scrollback every model keeps: terminal.Screen's
// fixed ScrollbackLines, tmux's history-limit set to the same.
const scrollbackLimit = terminal.ScrollbackLines

// stream is one byte stream to replay at a size.
type stream struct {
	name       string
	cols, rows int
	data       []byte
}

// style is a cell's look, in a form every model's output decodes to:
// colours as "" (default), "i:N" (palette 0–255; the 16 basic colours are
// palette entries too) or "#rrggbb".
type style struct {
	fg, bg, ul string
	attrs      attr
	underline  uint8 // 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed
}

// attr is a set of SGR attributes.
type attr uint16

const (
	attrBold attr = 1 << iota
	attrFaint
	attrItalic
	attrBlink
	attrRapidBlink
	attrReverse
	attrConceal
	attrStrike
	attrOverline
)

var attrNames = []string{"bold", "faint", "italic", "blink", "rapid-blink", "reverse", "conceal", "strike", "overline"}

func (s style) String() string {
	var parts []string
	if s.fg != "" {
		parts = append(parts, "fg="+s.fg)
	}
	if s.bg != "" {
		parts = append(parts, "bg="+s.bg)
	}
	if s.underline != 0 {
		parts = append(parts, fmt.Sprintf("ul=%d", s.underline))
	}
	if s.ul != "" {
		parts = append(parts, "ulc="+s.ul)
	}
	for i, n := range attrNames {
		if s.attrs&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, ",")
}

// visible is s reduced to what shows on a cell holding text: a blank cell
// shows its background, and what reverse video, an underline or a strike
// draw across it; its bold or italic show nothing. Models differ in what
// they keep on blank cells (tmux's erase keeps only the background), which
// no one can see.
func (s style) visible(text string) style {
	if strings.TrimSpace(text) != "" {
		return s
	}
	v := style{bg: s.bg, underline: s.underline, attrs: s.attrs & (attrReverse | attrStrike | attrConceal)}
	if s.underline != 0 {
		v.ul = s.ul
	}
	if s.attrs&attrReverse != 0 {
		v.fg = s.fg
	}
	v.attrs &^= attrConceal
	return v
}

// cell is one screen cell: the grapheme it starts (empty for a blank), its
// width (0: the continuation of a wide cell to its left) and its style.
type cell struct {
	text    string
	width   int
	st      style
	unknown bool // the model cannot tell this cell's style (tmux past a row's written cells)
}

// view is what a model shows after a stream. modes holds only the modes the
// model reports; two views are compared on the modes both have.
type view struct {
	cols, rows       int
	cells            [][]cell
	text             []string // each row's text, trailing blanks trimmed
	cursorX, cursorY int
	cursorVisible    bool
	alt              bool
	title            string
	modes            map[string]string
	scrollback       []string // plain, trailing blanks trimmed, oldest first
	noScrollback     bool     // the model cannot tell its scrollback now (tmux on the alternate screen)
}

// model replays a stream and reads what it shows.
type model interface {
	name() string
	run(t *testing.T, s stream) view
}

// views caches the in-process models' views, one per model and stream:
// TestDiffTmux and TestDiffEmu both compare them, and under -race a
// megabyte stream costs seconds.
var views sync.Map // model name + " " + stream name → *cachedView

type cachedView struct {
	once sync.Once
	v    view
}

// cachedRun is m.run(t, s), computed once per model and stream.
func cachedRun(t *testing.T, m model, s stream) view {
	t.Helper()
	c, _ := views.LoadOrStore(m.name()+" "+s.name, &cachedView{})
	cv := c.(*cachedView)
	cv.once.Do(func() { cv.v = m.run(t, s) })
	return cv.v
}

// ---------------------------------------------------------------------------
// SGR decoding, with x/ansi's parser: every model's styled rows (tmux's
// capture-pane -e, terminal.Screen's Snapshot lines) become cells.

// decodeRows turns SGR-styled rows into cols cells each, and says how far
// each row's text reached. With carry the
// pen carries from one row into the next (tmux's capture-pane -e only
// writes what changes from the cell before, across line ends); without it
// each row starts from the default pen (emu renders rows one by one).
func decodeRows(rows []string, cols int, carry bool) (cells [][]cell, ends []int) {
	out := make([][]cell, len(rows))
	ends = make([]int, len(rows))
	var pen style
	p := ansi.NewParser()
	for y, row := range rows {
		if !carry {
			pen = style{}
		}
		line := make([]cell, cols)
		x := 0
		var state byte
		for len(row) > 0 {
			seq, width, n, next := ansi.DecodeSequence(row, state, p)
			state = next
			row = row[n:]
			switch {
			case width > 0:
				if x >= cols {
					continue
				}
				line[x] = cell{text: seq, width: width, st: pen}
				for k := 1; k < width && x+k < cols; k++ {
					line[x+k] = cell{st: pen}
				}
				x += width
			case len(seq) > 0 && seq[0] >= 0xC2 && utf8.ValidString(seq):
				// A zero-width rune the decoder gave on its own (after
				// an ASCII letter it does not look ahead): it joins the
				// cluster to its left.
				if lead := leadCell(line, x); lead >= 0 {
					line[lead].text += seq
				}
			case ansi.HasCsiPrefix(seq) && ansi.Cmd(p.Command()).Final() == 'm' &&
				ansi.Cmd(p.Command()).Prefix() == 0 && ansi.Cmd(p.Command()).Intermediate() == 0:
				applySGR(&pen, p.Params())
			}
		}
		ends[y] = min(x, cols)
		for ; x < cols; x++ {
			line[x] = cell{width: 1}
		}
		out[y] = line
	}
	return out, ends
}

// leadCell is the index of the cell that starts the cluster just before
// column x, or -1.
func leadCell(line []cell, x int) int {
	for i := min(x, len(line)) - 1; i >= 0; i-- {
		if line[i].width > 0 {
			return i
		}
	}
	return -1
}

// applySGR applies one SGR's parameters to pen, as xterm reads them.
func applySGR(pen *style, params ansi.Params) {
	if len(params) == 0 {
		*pen = style{}
		return
	}
	for i := 0; i < len(params); i++ {
		switch p := params[i].Param(0); {
		case p == 38 || p == 48 || p == 58:
			var c color.Color
			if n := ansi.ReadStyleColor(params[i:], &c); n > 0 {
				i += n - 1
				*sgrColorOf(pen, p) = colorName(c)
			}
		case p == 4 && params[i].HasMore() && i+1 < len(params):
			i++
			pen.underline = uint8(min(params[i].Param(1), 5))
		case !sgrColor(pen, p):
			sgrAttrs(pen, p)
		}
		// Sub-parameters nothing above read (an unreadable colour, an
		// unknown attribute) are skipped, as x/ansi skips them.
		for i+1 < len(params) && params[i].HasMore() {
			i++
		}
	}
}

// sgrColorOf is the colour SGR 38, 48 or 58 sets.
func sgrColorOf(pen *style, p int) *string {
	switch p {
	case 38:
		return &pen.fg
	case 48:
		return &pen.bg
	}
	return &pen.ul
}

// sgrColor applies a colour parameter and says whether p was one.
func sgrColor(pen *style, p int) bool {
	switch {
	case p >= 30 && p <= 37:
		pen.fg = fmt.Sprintf("i:%d", p-30)
	case p >= 90 && p <= 97:
		pen.fg = fmt.Sprintf("i:%d", p-90+8)
	case p >= 40 && p <= 47:
		pen.bg = fmt.Sprintf("i:%d", p-40)
	case p >= 100 && p <= 107:
		pen.bg = fmt.Sprintf("i:%d", p-100+8)
	case p == 39:
		pen.fg = ""
	case p == 49:
		pen.bg = ""
	case p == 59:
		pen.ul = ""
	default:
		return false
	}
	return true
}

// sgrAttrs applies an attribute parameter.
func sgrAttrs(pen *style, p int) {
	switch {
	case p == 0:
		*pen = style{}
	case p == 4:
		pen.underline = 1
	case p == 21:
		pen.underline = 2
	case p == 24:
		pen.underline = 0
	case p >= 1 && p <= 9:
		pen.attrs |= sgrAttr(p)
	case p == 22:
		pen.attrs &^= attrBold | attrFaint
	case p == 23:
		pen.attrs &^= attrItalic
	case p == 25:
		pen.attrs &^= attrBlink | attrRapidBlink
	case p >= 27 && p <= 29:
		pen.attrs &^= sgrAttr(p - 20)
	case p == 53:
		pen.attrs |= attrOverline
	case p == 55:
		pen.attrs &^= attrOverline
	}
}

// sgrAttr is the attribute SGR p (1–9) sets.
func sgrAttr(p int) attr {
	switch p {
	case 1:
		return attrBold
	case 2:
		return attrFaint
	case 3:
		return attrItalic
	case 5:
		return attrBlink
	case 6:
		return attrRapidBlink
	case 7:
		return attrReverse
	case 8:
		return attrConceal
	case 9:
		return attrStrike
	}
	return 0
}

// colorName is c in style's colour notation.
func colorName(c color.Color) string {
	switch c := c.(type) {
	case nil:
		return ""
	case ansi.BasicColor:
		return fmt.Sprintf("i:%d", c)
	case ansi.IndexedColor:
		return fmt.Sprintf("i:%d", c)
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// rowText is a row of cells as plain text: each cell's grapheme, a wide one
// once, blanks as spaces, trailing blanks trimmed.
func rowText(line []cell) string {
	var b strings.Builder
	for _, c := range line {
		switch {
		case c.width == 0:
		case c.text == "":
			b.WriteByte(' ')
		default:
			b.WriteString(c.text)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// plainLines is rendered lines as plain text, trailing blanks trimmed.
func plainLines(rendered []string) []string {
	out := make([]string, len(rendered))
	for i, l := range rendered {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return out
}

// ---------------------------------------------------------------------------
// terminal.Screen, the seats' terminal: emu behind a lock, rendered through
// its Snapshot's cache of rows (only dirty rows rendered again).

type screenModel struct{}

func (screenModel) name() string { return "screen" }

// run writes the stream in pieces of about a PTY read, each ending just after
// a line feed, and takes a Snapshot after each, as the UI does: the last
// Snapshot then renders only the rows that changed since the one before, and
// must show what a fresh render of emu shows. A piece ends after a line feed
// so that no grapheme cluster is held at its end and the flush timer never
// runs: the result never depends on timing.
func (screenModel) run(t *testing.T, s stream) view {
	t.Helper()
	scr, err := terminal.NewScreen(s.cols, s.rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = scr.Close() }()
	for rest := s.data; len(rest) > 0; {
		n := len(rest)
		if n > 4096 {
			if i := bytes.IndexByte(rest[4096:], '\n'); i >= 0 {
				n = 4096 + i + 1
			}
		}
		if _, err := scr.Write(rest[:n]); err != nil {
			t.Fatalf("screen: %v", err)
		}
		rest = rest[n:]
		_ = scr.Snapshot()
	}
	scr.Flush()
	return readScreen(t, scr)
}

// readScreen is what a Screen shows.
func readScreen(t *testing.T, scr *terminal.Screen) view {
	t.Helper()
	snap := scr.Snapshot()
	if snap.Broken != "" {
		t.Fatalf("screen broke: %s", snap.Broken)
	}
	v := view{
		cols: snap.Cols, rows: snap.Rows,
		cursorX: snap.CursorX, cursorY: snap.CursorY, cursorVisible: snap.CursorVisible,
		alt: snap.AltScreen, title: snap.Title,
		modes: map[string]string{
			"app-cursor-keys": fmt.Sprint(snap.AppCursorKeys),
			"bracketed-paste": fmt.Sprint(snap.BracketedPaste),
			"mouse":           mouseName(int(snap.Mouse.Tracking)),
			"mouse-sgr":       fmt.Sprint(snap.Mouse.SGR),
		},
		scrollback: plainLines(scr.ScrollbackLines(0, scr.ScrollbackLen())),
	}
	v.cells, _ = decodeRows(snap.Lines, snap.Cols, false)
	v.text, _, _ = scr.Plain()
	return v
}

// mouseName names a mouse tracking level: 0 off, 1 X10 (?9), 2 normal
// (?1000), 3 button motion (?1002), 4 any motion (?1003).
func mouseName(level int) string {
	return [...]string{"off", "x10", "normal", "button", "any"}[level]
}
