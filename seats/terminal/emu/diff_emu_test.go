package emu_test

// emu in the differential suite: the model, its comparison with
// terminal.Screen on every stream (no tmux needed, so on every platform),
// the fuzz target, and the properties that hold whatever the stream.

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/seats/terminal/emu"
)

// emuModel feeds a stream to an emu.Terminal in one Write, then Flush.
type emuModel struct{}

func (emuModel) name() string { return "emu" }

func (emuModel) run(t *testing.T, s stream) view {
	t.Helper()
	return emuView(feedEmu(s.cols, s.rows, [][]byte{s.data}))
}

// feedEmu writes each chunk to a new terminal, then flushes it.
func feedEmu(cols, rows int, chunks [][]byte) *emu.Terminal {
	term := emu.New(cols, rows, scrollbackLimit, nil)
	for _, c := range chunks {
		if n, err := term.Write(c); n != len(c) || err != nil {
			panic(fmt.Sprintf("emu Write = %d, %v for %d bytes", n, err, len(c)))
		}
	}
	term.Flush()
	return term
}

// emuView reads what term shows. The cells come from RenderRow, what a
// pane draws (TestEmuStyleAtMatchesRenderRow checks StyleAt against it).
func emuView(term *emu.Terminal) view {
	cols, rows := term.Size()
	lines := make([]string, rows)
	text := make([]string, rows)
	for y := range rows {
		lines[y] = string(term.RenderRow(y, nil))
		text[y] = term.PlainRow(y)
	}
	cells, _ := decodeRows(lines, cols, false)
	x, y, visible := term.Cursor()
	m := term.Modes()
	mouse := 0
	for i, on := range []bool{m.Mouse.X10, m.Mouse.Normal, m.Mouse.Button, m.Mouse.Any} {
		if on {
			mouse = i + 1
		}
	}
	v := view{
		cols: cols, rows: rows, cells: cells, text: text,
		cursorX: x, cursorY: y, cursorVisible: visible,
		alt: term.AltScreen(), title: term.Title(),
		modes: map[string]string{
			"app-cursor-keys": fmt.Sprint(m.AppCursorKeys),
			"bracketed-paste": fmt.Sprint(m.BracketedPaste),
			"mouse":           mouseName(mouse),
			"mouse-sgr":       fmt.Sprint(m.Mouse.SGR),
			"insert":          fmt.Sprint(m.Insert),
			"origin":          fmt.Sprint(m.Origin),
			"autowrap":        fmt.Sprint(m.AutoWrap),
		},
	}
	for i := range term.ScrollbackLen() {
		v.scrollback = append(v.scrollback, strings.TrimRight(term.ScrollbackRow(i), " "))
	}
	return v
}

// emuStyle is an emu.Style in the suite's notation.
func emuStyle(s emu.Style) style {
	out := style{fg: emuColor(s.Fg), bg: emuColor(s.Bg), ul: emuColor(s.Ul), underline: s.Underline}
	for i, a := range []uint16{emu.AttrBold, emu.AttrFaint, emu.AttrItalic, emu.AttrBlink, emu.AttrRapidBlink,
		emu.AttrReverse, emu.AttrConceal, emu.AttrStrikethrough, emu.AttrOverline} {
		if s.Attrs&a != 0 {
			out.attrs |= 1 << i
		}
	}
	return out
}

func emuColor(c emu.Color) string {
	if n, ok := c.Index(); ok {
		return fmt.Sprintf("i:%d", n)
	}
	if r, g, b, ok := c.RGB(); ok {
		return fmt.Sprintf("#%02x%02x%02x", r, g, b)
	}
	return ""
}

// TestDiffEmu plays every stream through terminal.Screen and emu and
// compares them. Each stream also goes to emu in pieces (one byte at a
// time, a prime, a PTY read; the megabyte streams only in PTY reads),
// which must show the same, and StyleAt must give the style RenderRow
// draws.
func TestDiffEmu(t *testing.T) {
	t.Parallel()
	streams := diffStreams(t)
	var names []string
	for _, s := range streams {
		names = append(names, s.name)
	}
	t.Cleanup(func() { checkStale(t, "screen/emu", names) })
	for _, s := range streams {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			whole := cachedRun(t, emuModel{}, s)
			expectSame(t, s, cachedRun(t, screenModel{}, s), whole, "screen", "emu")
			sizes := []int{1, 7, 4096}
			if len(s.data) > 64<<10 {
				sizes = []int{4096}
			}
			for _, size := range sizes {
				term := feedEmu(s.cols, s.rows, chunks(s.data, size))
				split := emuView(term)
				for _, d := range compareViews(whole, split, "whole", fmt.Sprintf("in-%d-byte-writes", size)) {
					t.Errorf("%s: emu fed in %d-byte writes differs in %s:\n%s", s.name, size, d.aspect, d.detail)
				}
				if size == 4096 {
					checkStyleAt(t, s.name, term, split)
				}
			}
		})
	}
}

// chunks cuts b into pieces of n bytes.
func chunks(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

// checkStyleAt: the style StyleAt gives each cell is the one RenderRow
// draws (v, read from term).
func checkStyleAt(t *testing.T, name string, term *emu.Terminal, v view) {
	t.Helper()
	bad := 0
	for y, line := range v.cells {
		for x, c := range line {
			if c.width == 0 {
				continue
			}
			if got := emuStyle(term.StyleAt(x, y)).visible(c.text); got != c.st.visible(c.text) && bad < 5 {
				bad++
				t.Errorf("%s: cell %d,%d %q: StyleAt %s, RenderRow draws %s", name, x, y, c.text, got, c.st)
			}
		}
	}
}

// FuzzDiffGrammar compares emu with terminal.Screen on streams of the
// grammar, then again after a resize to a size the input gives (as wide
// or wider); emu fed
// in the pieces the input cuts must show what it shows fed whole, and the
// properties every stream keeps must hold (checkEmuBounds, checkDirty). A
// difference is reported with the stream minimised.
func FuzzDiffGrammar(f *testing.F) {
	for i := range 24 {
		f.Add(seedInput(uint64(i), 160), []byte{byte(i), 40, 3}, uint8(i), uint8(i*7))
	}
	skip := skipsOf("screen/emu")
	f.Fuzz(func(t *testing.T, input, cuts []byte, cols2, rows2 uint8) {
		cols, rows, tokens := genStream(input, skip)
		data := []byte(strings.Join(tokens, ""))
		split := feedEmu(cols, rows, cutAt(data, cuts))
		checkEmuBounds(t, split, cols, rows)
		checkDirty(t, cols, rows, data, cuts)
		for _, d := range compareViews(emuView(feedEmu(cols, rows, [][]byte{data})), emuView(split), "whole", "split") {
			t.Fatalf("emu fed in pieces differs in %s from emu fed whole:\n%q cut at %v\n%s", d.aspect, data, cuts, d.detail)
		}
		reportMinimised(t, "", cols, rows, tokens, func(tokens []string) []difference {
			s := stream{name: "grammar", cols: cols, rows: rows, data: []byte(strings.Join(tokens, ""))}
			return compareViews(screenModel{}.run(t, s), emuModel{}.run(t, s), "screen", "emu")
		}, 400)
		if t.Failed() {
			return
		}
		// Widened only: narrowed, x/vt (the Screen's emulator until issue
		// 36) kept a wide character across the new right edge (drawn past
		// it), emu drops it; emu is right.
		w, h := cols+int(cols2)%20, 1+int(rows2)%12
		reportMinimised(t, fmt.Sprintf(", then resized to %d×%d", w, h), cols, rows, tokens, func(tokens []string) []difference {
			return compareResized(t, cols, rows, w, h, []byte(strings.Join(tokens, "")))
		}, 400)
	})
}

// cutAt cuts data at the offsets the bytes give (each an offset into what
// is left).
func cutAt(data, cuts []byte) [][]byte {
	var out [][]byte
	for _, c := range cuts {
		if len(data) == 0 {
			break
		}
		n := int(c) % (len(data) + 1)
		out = append(out, data[:n])
		data = data[n:]
	}
	return append(out, data)
}

// compareResized plays data through terminal.Screen and emu, resizes both
// to w×h and compares what they show then.
func compareResized(t *testing.T, cols, rows, w, h int, data []byte) []difference {
	t.Helper()
	scr, err := terminal.NewScreen(cols, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = scr.Close() }()
	_, _ = scr.Write(data)
	scr.Flush()
	if err := scr.Resize(w, h); err != nil {
		t.Fatal(err)
	}
	term := feedEmu(cols, rows, [][]byte{data})
	term.Resize(w, h)
	return compareViews(readScreen(t, scr), emuView(term), "screen", "emu")
}

// checkEmuBounds: the cursor on the screen, every row at most cols cells,
// the scrollback within its limit, the title capped.
func checkEmuBounds(t *testing.T, term *emu.Terminal, cols, rows int) {
	t.Helper()
	if c, r := term.Size(); c != cols || r != rows {
		t.Fatalf("Size %d×%d, want %d×%d", c, r, cols, rows)
	}
	if x, y, _ := term.Cursor(); x < 0 || x >= cols || y < 0 || y >= rows {
		t.Fatalf("cursor %d,%d off the %d×%d screen", x, y, cols, rows)
	}
	if n := term.ScrollbackLen(); n > scrollbackLimit {
		t.Fatalf("scrollback %d lines, limit %d", n, scrollbackLimit)
	}
	if n := len(term.Title()); n > emuTitleCap {
		t.Fatalf("title of %d bytes", n)
	}
	for y := range rows {
		cells, _ := decodeRows([]string{string(term.RenderRow(y, nil))}, 4*cols, false)
		if w := rowWidth(cells[0]); w > cols {
			t.Fatalf("row %d draws %d cells on a %d-column screen", y, w, cols)
		}
	}
}

// emuTitleCap bounds a title (docs/design.md "The terminal emulator":
// 1 KB).
const emuTitleCap = 1 << 10

// rowWidth is how many cells a decoded row fills up to its last text.
func rowWidth(line []cell) int {
	w := 0
	for x, c := range line {
		if c.text != "" {
			w = x + max(c.width, 1)
		}
	}
	return w
}

// checkDirty: after ClearDirty, every row whose drawing the rest of the
// stream changes is reported dirty (a pane redraws only those).
func checkDirty(t *testing.T, cols, rows int, data, cuts []byte) {
	t.Helper()
	parts := cutAt(data, cuts)
	if len(parts) < 2 {
		return
	}
	term := emu.New(cols, rows, scrollbackLimit, nil)
	head := bytes.Join(parts[:len(parts)/2], nil)
	_, _ = term.Write(head)
	term.Flush()
	before := make([]string, rows)
	for y := range rows {
		before[y] = string(term.RenderRow(y, nil))
	}
	term.ClearDirty()
	_, _ = term.Write(data[len(head):])
	term.Flush()
	for y := range rows {
		if now := string(term.RenderRow(y, nil)); now != before[y] && !term.Dirty(y) {
			t.Fatalf("row %d changed but is not dirty:\nbefore %q\nnow    %q\nstream %q, cleared after %d bytes",
				y, before[y], now, data, len(head))
		}
	}
}

// TestEmuStyleTableBounded: distinct colours by the tens of thousands
// grow emu's heap only up to a bound (styles are interned; the table must
// not keep every style ever seen): the second 65 536 colours add nothing
// to what the first did. Not parallel: it reads the heap.
func TestEmuStyleTableBounded(t *testing.T) {
	term := emu.New(80, 24, 10, nil)
	var b bytes.Buffer
	write := func(from, to int) {
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm#", i>>16&0xff, i>>8&0xff, i&0xff)
			if b.Len() > 32<<10 || i == to-1 {
				_, _ = term.Write(b.Bytes())
				b.Reset()
			}
		}
	}
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	write(0, 80*34*2) // screen and scrollback full of colours
	base := heap()
	write(80*34*2, 1<<16)
	first := heap()
	write(1<<16, 1<<17)
	second := heap()
	if first-base > 16<<20 || second-first > 1<<20 {
		t.Fatalf("the heap grew %d KB with the first 65 536 colours, %d KB with the next", (first-base)>>10, (second-first)>>10)
	}
	runtime.KeepAlive(term)
}

// TestEmuBoundsOnHostileInput: what a seat can send without end — a
// 64 KB title, a 64 KB link, thousands of parameters, a huge REP, margins
// and sizes far past the screen, every mode number — leaves emu within its
// bounds, its size unchanged and its title capped.
func TestEmuBoundsOnHostileInput(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("日語", 16<<10) // no 0x9C in their UTF-8 (streams/osc-title-9c)
	for name, data := range map[string]string{
		"title":   "\x1b]2;" + long + "\x07x",
		"link":    "\x1b]8;;https://example.com/" + long + "\x1b\\link\x1b]8;;\x1b\\",
		"params":  "\x1b[" + strings.Repeat("1;", 10000) + "31mred",
		"rep":     "x\x1b[999999999b\x1b[2147483647b",
		"margins": "\x1b[99999;999999r\x1b[?69h\x1b[99999;999999s\x1bM\x1bD\x1b[99999L\x1b[99999M\x1b[99999@",
		"moves":   "\x1b[99999;99999H\x1b[99999A\x1b[99999C\x1b[99999X\x1b[99999S\x1b[99999T",
		"modes":   modesStream(),
	} {
		term := feedEmu(20, 6, [][]byte{[]byte(data)})
		checkEmuBounds(t, term, 20, 6)
		if name == "title" && !strings.HasPrefix(long, term.Title()) {
			t.Errorf("title %.40q… is not a prefix of what was sent", term.Title())
		}
	}
}

// modesStream sets and resets every DEC and ANSI mode number up to 10 000.
func modesStream() string {
	var b strings.Builder
	for n := range 10000 {
		fmt.Fprintf(&b, "\x1b[?%dh\x1b[%dh\x1b[?%dl", n, n, n)
	}
	return b.String()
}

// TestRepeatIsPrintingAfterStreams: after grammar streams (any cursor,
// margins, modes and screen), REP of a character of each width, with any
// count up to several screenfuls, ends as the character printed that many
// times: the same rows and cursor, and the same pending wrap (the Z after
// it). Its count cut (csi.go repeat) must keep the screen.
func TestRepeatIsPrintingAfterStreams(t *testing.T) {
	t.Parallel()
	chars := []string{"x", "日", "e\u0301", "👩\u200d💻", "─"}
	for i := range 3000 {
		in := seedInput(uint64(i), 20+i%60)
		cols, rows, tokens := genStream(in, nil)
		prefix := strings.Join(tokens, "")
		c := chars[i%len(chars)]
		n := 1 + int(in[0])*int(in[1])%(8*cols*(rows+4))
		rep := feedEmu(cols, rows, [][]byte{[]byte(prefix + c + fmt.Sprintf("\x1b[%dbZ", n))})
		printed := feedEmu(cols, rows, [][]byte{[]byte(prefix + strings.Repeat(c, n+1) + "Z")})
		a, b := emuView(rep), emuView(printed)
		a.scrollback, b.scrollback = nil, nil // the cut count keeps fewer copies
		for _, d := range compareViews(a, b, "REP", "printed") {
			t.Fatalf("%d×%d %q then %q, REP %d: %s\n%s", cols, rows, prefix, c, n, d.aspect, d.detail)
		}
	}
}
