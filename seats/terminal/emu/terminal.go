package emu

import (
	"image/color"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// maxSize bounds the columns and rows (as pty.CheckSize does).
const maxSize = 32767

// maxStringData bounds the data of one OSC, DCS, APC, PM or SOS string the
// parser keeps; the rest is dropped. Titles and links are capped lower.
const maxStringData = 8 << 10

// Terminal is one terminal: screens, scrollback, cursor, modes. See the
// package doc for what it is and is not safe for.
type Terminal struct {
	cols, rows int

	pri, alt screen
	scr      *screen // pri or alt
	sb       scrollback

	// The cursor: x, y on the screen; wrapNext is the pending wrap (a
	// character was written into the last column with autowrap on).
	x, y     int
	wrapNext bool

	// Margins, inclusive: the scroll region (DECSTBM) and the left/right
	// margins (DECSLRM, only with DECLRMM).
	top, bottom, left, right int

	pen        Style
	penLink    uint32
	penSID     uint32 // styleID(pen, link), valid while penValid
	eraseSID   uint32 // styleID of a blank cell in the pen's background, valid while eraseValid
	penValid   bool
	eraseValid bool

	saved [2]savedCursor // DECSC per screen: primary, alternate

	m        modes
	tabs     []bool
	charsets [4]byte // G0–G3: 0 ASCII, '0' DEC special graphics, 'A' UK
	gl       int     // the set invoked into GL (SI/SO, LS2/LS3)
	single   int     // a single shift (SS2/SS3) for the next character, 0 none
	lastChar byte    // the last character printed when it was ASCII (REP), else 0
	lastCh   uint32  // else the last character's ch and width (0: none)
	lastW    int

	// The held grapheme cluster: the runes printed since the last cluster
	// was placed, which the next rune may still extend.
	pend [maxClusterBytes]byte
	npen int
	// pendW is the width of the held cluster when it is one plain rune
	// (plainRune), else 0.
	pendW int
	// pendCut: the held runes came after a control, a sequence or a
	// cursor move, so their first cluster may be a mark cut from its base
	// (attaches); runes after a placed cluster never are.
	pendCut bool

	title     string
	cursorSty int
	colors    [3]color.Color // OSC 10, 11, 12 as set, nil the default

	// owed counts the UTF-8 continuation bytes a character in an OSC or DCS
	// string still owes (docs/dependencies.md §9.9).
	owed   int
	strLen int   // the bytes of the current OSC or DCS string the parser kept
	fixed  []int // where stringByte replaced a 0x9C in it

	dirty    []bool
	allDirty bool
	scratch  []line // rows a region scroll moves out (spare)
	joinBuf  []byte // two cells' text (joins)

	tab   tables
	p     *ansi.Parser
	reply func([]byte)

	// cost counts the cells inserts and scrolls move or blank, and the rows
	// they move (tests: what a hostile count costs).
	cost int
}

// savedCursor is what DECSC saves and DECRC restores.
type savedCursor struct {
	x, y     int
	wrapNext bool
	pen      Style
	link     uint32
	origin   bool
	charsets [4]byte
	gl       int
}

// New returns a cols×rows terminal (each clamped to 1…32767) keeping at most
// scrollbackLines lines. reply receives the answers the terminal owes the child
// (device attributes, cursor and status reports, mode reports, colour
// queries), synchronously from Write and in order; it must not block or
// call back into the Terminal. nil discards them.
func New(cols, rows, scrollbackLines int, reply func([]byte)) *Terminal {
	cols, rows = clampSize(cols), clampSize(rows)
	t := &Terminal{
		cols:  cols,
		rows:  rows,
		pri:   newScreen(cols, rows),
		sb:    scrollback{max: max(scrollbackLines, 0)},
		tab:   newTables(),
		reply: reply,
	}
	t.scr = &t.pri
	t.p = ansi.NewParser()
	t.p.SetParamsSize(parser.MaxParamsSize)
	t.p.SetDataSize(maxStringData)
	t.p.SetHandler(ansi.Handler{
		Print:     t.printRune,
		Execute:   t.execute,
		HandleCsi: t.csi,
		HandleEsc: t.esc,
		HandleOsc: t.osc,
		HandleDcs: func(ansi.Cmd, ansi.Params, []byte) { t.flushPending() },
		HandleApc: func([]byte) { t.flushPending() },
		HandlePm:  func([]byte) { t.flushPending() },
		HandleSos: func([]byte) { t.flushPending() },
	})
	t.reset()
	return t
}

func clampSize(n int) int { return min(max(n, 1), maxSize) }

// reset is the power-on state (and RIS): blank screens, default modes,
// margins, tabs and pen; the scrollback and the title stay.
func (t *Terminal) reset() {
	fillScreen(&t.pri, 0)
	if t.alt.lines != nil {
		fillScreen(&t.alt, 0)
	}
	t.scr = &t.pri
	t.x, t.y, t.wrapNext = 0, 0, false
	t.pen, t.penLink = Style{}, 0
	t.penChanged()
	t.saved = [2]savedCursor{}
	t.m = defaultModes()
	t.resetMargins()
	t.resetTabs()
	t.charsets, t.gl, t.single = [4]byte{}, 0, 0
	t.lastChar, t.lastCh, t.lastW = 0, 0, 0
	t.npen = 0
	t.cursorSty = 0
	t.colors = [3]color.Color{}
	t.dirty = make([]bool, t.rows)
	t.allDirty = true
}

func fillScreen(s *screen, sid uint32) {
	for i := range s.lines {
		fill(s.lines[i].cells, sid)
		s.lines[i].wrapped = false
	}
}

func (t *Terminal) resetMargins() {
	t.top, t.bottom, t.left, t.right = 0, t.rows-1, 0, t.cols-1
}

func (t *Terminal) resetTabs() {
	t.tabs = make([]bool, t.cols)
	for x := 8; x < t.cols; x += 8 {
		t.tabs[x] = true
	}
}

// Write feeds the child's output. It always returns len(p), nil. The last
// grapheme cluster (the next rune may extend it) stays held until more bytes
// or Flush; an incomplete escape sequence or UTF-8 character waits for the
// rest of its bytes.
func (t *Terminal) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		st := t.p.State()
		if st == parser.GroundState {
			j := i
			for j < len(p) && p[j] >= 0x20 && p[j] < 0x7f {
				j++
			}
			if j > i {
				t.printASCII(p[i:j])
				i = j
				continue
			}
			if b := p[i]; b < 0x20 && b != ansi.ESC {
				t.execute(b)
				i++
				continue
			} else if b >= 0xc2 && b <= 0xf4 {
				// A whole, valid UTF-8 character: what the parser would
				// collect and print. Anything else goes through it.
				if r, n := utf8.DecodeRune(p[i:]); n > 1 {
					t.printRune(r)
					i += n
					continue
				}
			}
		}
		b := p[i]
		if st == parser.Utf8State && (b < 0x80 || b >= 0xc0) {
			// A character cut short: x/ansi would take this byte into it.
			// Show U+FFFD for it, as xterm and tmux do, and read b afresh.
			t.p.Reset()
			t.printRune(utf8.RuneError)
			continue
		}
		if st == parser.OscStringState || st == parser.DcsStringState {
			b = t.stringByte(b, st == parser.OscStringState)
		} else {
			t.owed, t.strLen, t.fixed = 0, 0, t.fixed[:0]
		}
		t.p.Advance(b)
		i++
	}
	return len(p), nil
}

// stringByte keeps a 0x9C inside a UTF-8 character of an OSC or DCS string
// from ending it: x/ansi takes 0x9C (C1 ST) as the end of the string even as
// a continuation byte (✳ is E2 9C B3), so such a byte goes to the parser as
// 0xBF, another continuation byte, and an OSC handler gets its 0x9C back
// (restoreString). A 0x9C that continues nothing still ends the string.
func (t *Terminal) stringByte(b byte, osc bool) byte {
	if b >= 0x20 {
		t.strLen++ // the parser keeps every such byte of the string
	}
	switch {
	case b >= 0xc0:
		t.owed = UTF8Len(b) - 1
	case b >= 0x80 && t.owed > 0:
		t.owed--
		if b == 0x9c {
			if osc && t.strLen <= maxStringData {
				t.fixed = append(t.fixed, t.strLen-1)
			}
			return 0xbf
		}
	default:
		t.owed = 0
	}
	return b
}

// restoreString puts back the 0x9C bytes stringByte replaced in the data
// of the OSC string just ended.
func (t *Terminal) restoreString(data []byte) {
	for _, i := range t.fixed {
		if i < len(data) {
			data[i] = 0x9c
		}
	}
	t.fixed = t.fixed[:0]
}

// UTF8Len is the length of the UTF-8 character whose lead byte is b (2
// for any byte below 0xE0: x/ansi collects a character by its lead byte so).
func UTF8Len(b byte) int {
	switch {
	case b >= 0xf0:
		return 4
	case b >= 0xe0:
		return 3
	default:
		return 2
	}
}

// Flush places the held grapheme cluster.
func (t *Terminal) Flush() { t.flushPending() }

// Holding reports whether a grapheme cluster is held: printed, but not
// placed until the next byte that cannot extend it, or Flush.
func (t *Terminal) Holding() bool { return t.npen > 0 }

// Size is the terminal's size in cells.
func (t *Terminal) Size() (cols, rows int) { return t.cols, t.rows }

// Cursor is the cursor's cell (zero-based) and whether it is shown (DECTCEM).
func (t *Terminal) Cursor() (x, y int, visible bool) { return t.x, t.y, t.m.CursorVisible }

// CursorStyle is the cursor style the child chose with DECSCUSR (0–6; 0 is
// the terminal's default).
func (t *Terminal) CursorStyle() int { return t.cursorSty }

// AltScreen reports whether the alternate screen is shown.
func (t *Terminal) AltScreen() bool { return t.scr == &t.alt }

// Title is the window title the child set (OSC 0 or 2): control characters
// removed, at most maxTitle bytes.
func (t *Terminal) Title() string { return t.title }

// ScrollbackLen is the number of rows in the scrollback.
func (t *Terminal) ScrollbackLen() int { return t.sb.len() }

// Dirty reports whether screen row y changed since the last ClearDirty
// (its cells, or a scroll or screen switch that moved another row there).
func (t *Terminal) Dirty(y int) bool {
	if y < 0 || y >= t.rows {
		return false
	}
	return t.allDirty || t.dirty[y]
}

// ClearDirty marks every row clean.
func (t *Terminal) ClearDirty() {
	t.allDirty = false
	clear(t.dirty)
}

func (t *Terminal) touch(y int) { t.dirty[y] = true }

// sendReply hands s to the reply function.
func (t *Terminal) sendReply(s string) {
	if t.reply == nil {
		return
	}
	t.reply([]byte(s))
}
