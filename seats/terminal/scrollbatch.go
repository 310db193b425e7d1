package terminal

import (
	"image/color"
	"math"
	"reflect"
	"strconv"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// ---------------------------------------------------------------------------
// Line-feed batching: a run of line feeds at the bottom of the screen becomes
// one multi-line scroll (docs/dependencies.md §9.1, issue 13).
//
// ultraviolet's Buffer.DeleteLineArea, which x/vt calls for every line feed
// at the bottom of a scroll region, moves every cell of the region one row up:
// a line flood spent 80 % of its time there. Scrolling n rows in one call
// costs what one row costs. So when the stream holds k line feeds in a row at
// the bottom of the region, with nothing between them but text that never
// wraps, CR, HT, BS, SGR and EL 2, Screen writes before the first of them
//
//	CSI k S   scroll the region up k rows at once (SU)
//	CSI k A   move the cursor up k rows (CUU)
//
// after which each of the k line feeds only moves the cursor down a row, and
// the text between them lands on the rows the unbatched scrolls would have
// carried it to. x/vt runs a line feed at the bottom and SU through the same
// Screen.ScrollUp, so the rows pushed into the scrollback, their order and the
// blank rows are the same — provided that:
//
//   - the cursor sits on the bottom row of a full-width region with at least
//     k rows above it. Screen learns that by feeding a line feed on its own
//     (probe) and reading the rows the scroll marked touched in the
//     emulator's render buffer (uv.RenderBuffer.DeleteLineArea touches exactly
//     the region's rows, from its left to its right margin); from then on
//     (scrollRun) only clean bytes are fed until the next line feed, which
//     therefore scrolls the same region again;
//   - every line feed of the batch meets the same background colour in the
//     pen (a scroll fills the new row with the pen's background). The probe's
//     is read from the row it blanked; SGRs after it are applied with
//     ultraviolet's own ReadStyle;
//   - the bytes between the line feeds never move the cursor off its row:
//     printable text (the mirror follows the cursor column across CR, LF, HT,
//     BS, SGR and EL 2 once it has read it from the emulator, see control),
//     CR, HT, BS, SGR and EL 2 (it blanks the cursor's row, wherever the
//     batch has put it), all in the ground state. A narrow autowrap is a line feed
//     too (x/vt runs the same index() for it), though never the first of a
//     batch: the CUU before it would cancel its pending wrap. Anything else —
//     another control or sequence, a string, a wide character near the
//     margin — ends the run there.
//
// The injected sequences start in the ground state right after a line feed
// (x/vt's grapheme buffer is empty there), touch neither the saved cursor,
// the modes, the tab stops nor the last printed character (REP), and Screen
// registers no cursor-position callback that could see the intermediate
// positions. FuzzScreenBatchedMatchesUnbatched and
// TestScreenBatchedRecordedCLIs compare every cell, the cursor, the modes and
// the scrollback with the unbatched feed (Screen.unbatched).
// ---------------------------------------------------------------------------

// Lines the scrollback will drop are not fed at all. In a line flood even a
// batched line costs x/vt a blank row, a scrollback push and every cell of
// its text (about 100 ns a byte), ten times what tmux spends. But the rows a
// run of line feeds at the bottom leaves behind are only the last rows of the
// run: once scrollbackLines + (region height) more line feeds follow, a line
// has left the scrollback too. So when such a run holds minSkip more clean
// line feeds than that, Screen feeds the run's first line feed, skips the
// bytes up to the line feed R that starts the last scrollbackLines + height
// ones, and feeds from R on. What the skipped bytes leave behind beyond the
// rows they print is restored first: the pen, by replaying their SGRs from
// the last one that sets every attribute (absorbing: the pen after it does
// not depend on the pen before); the cursor column, by CHA to the column the
// mirror followed; the last printed character (REP) is left to the fed lines,
// which must print an ASCII character; nothing else can change in a clean
// segment. A single shift (SS2/SS3) seen since the last resize turns skipping
// off, as it would move to the first character fed.
//
// A flood arrives in reads of a few kilobytes, far fewer lines than the
// scrollback, so while a clean run at the bottom is already that long Screen
// holds the bytes (holdRun) for at most runHold and feeds them as one: the
// pane then lags a flood by up to runHold, and shows its state exactly as of
// the last feed. Anything but clean text ends the hold at once: a device
// query is answered as soon as it is read.

// runHold bounds how long a line flood is held (holdRun): 100 ms is six
// frames; the pane still moves ten times a second while a flood lasts, and
// the last scrollbackLines lines of each hold (the scrollback is exact
// after every feed) cost a 200×50 pane about 10 ms.
const runHold = 100 * time.Millisecond

// maxRunHold bounds the bytes held for a line flood, and maxRunLines its
// line feeds: each is a 48-byte record, so 16 MB of empty lines (`yes ”`)
// would have held 0.8 GB of them.
const (
	maxRunHold  = 16 << 20
	maxRunLines = 1 << 16
)

// minSkip is the fewest line feeds worth skipping: below it the pen replay
// and the extra feeds cost more than they save.
const minSkip = 256

// segment is what the mirror knows about the bytes since the last recorded
// line feed.
type segment struct {
	clean bool        // only text that never wrapped, CR, HT, BS, SGR and EL 2, all in the ground state
	bgSet bool        // an SGR set the pen's background; the last one set it to bg
	bg    color.Color // meaningful when bgSet
	ascii bool        // a one-byte cluster was printed (x/vt's last character for REP)
}

// lineFeed is an LF, VT or FF the parser executes in the ground state at
// stream offset off while the mirror follows the cursor column (m.lines and
// m.known), with what came between it and the previous one.
// A narrow autowrap counts as a line feed too (wrap: off is the lead byte
// of the cluster that wraps): x/vt runs the same index() for it. An erase
// mark is an EL 2 instead (off: its ESC), which scrolls nothing.
type lineFeed struct {
	off   int64
	x     int  // the cursor column there
	ph    bool // and its pending wrap
	wrap  bool
	erase bool
	clean bool
	bgSet bool
	bg    color.Color
	ascii bool
}

// The kinds of mark.
const (
	markLF = iota
	markWrap
	markErase
)

// sgrSpan is an SGR in a clean segment: stream offsets lo…hi and whether
// it sets every attribute of the pen.
type sgrSpan struct {
	lo, hi    int64
	absorbing bool
}

// scrollRun is what the feed knows about where the emulator's cursor is
// after the last line feed it fed: ok when it sits on the bottom row of a
// full-width scroll region (rows top…bottom) and only clean bytes followed,
// so the next clean line feed scrolls again with a pen background of bg.
type scrollRun struct {
	ok          bool
	top, bottom int
	bg          color.Color
}

// resetLines forgets the line tracking: at start and after a resize (x/vt's
// Resize resets the tab stops to every 8 columns and the scroll region).
func (s *Screen) resetLines(cols int) {
	m := &s.m
	m.lines, m.known = false, false
	m.modesStale = true
	m.tabsSet = false
	m.tabs = uv.DefaultTabStops(cols)
	m.seg = segment{}
	m.lfs, m.lfHead = m.lfs[:0], 0
	m.sgrs, m.sgrHead = m.sgrs[:0], 0
	s.memo.valid = false
	m.runLen = 0
	m.single = false
	s.run = scrollRun{}
}

// readLineModes takes the modes the line tracking depends on from x/vt's
// mode callbacks; valid for the stream position fed so far.
func (s *Screen) readLineModes() {
	m := &s.m
	m.awm = s.awm
	// With DECOM a CR moves x/vt's cursor to the scroll region's left margin
	// (and may move it down); with LNM a line feed also returns the
	// carriage; left/right margins bound CR and HT. Without them a CR goes to
	// column 0 and a line feed keeps the column.
	m.lines = !s.decom && !s.lnm && !s.lrmm
	m.modesStale = false
}

// syncLines makes the line tracking current at off, where a CR or line feed
// is about to be executed in the ground state: it feeds the emulator up to
// off (x/vt's cluster buffer is flushed by the control anyway) and reads the
// modes, and the cursor column when needX and it is not known.
func (s *Screen) syncLines(off int64, needX bool) {
	m := &s.m
	if !m.modesStale && (!m.lines || m.known || !needX) {
		return
	}
	s.feedTo(off)
	s.readLineModes()
	if needX && m.lines {
		m.known, m.x = true, s.emu.CursorPosition().X
	}
}

// wrapMark notes, when the cluster starting at gbuf rune r0 is about to be
// placed with a pending wrap under autowrap, the line feed that x/vt's
// handleGrapheme runs before placing it.
func (s *Screen) wrapMark(r0 int) {
	m := &s.m
	if !m.ph || !m.awm {
		return
	}
	mk := m.marks[r0]
	if !m.lines || !mk.gnd || mk.lead < m.fed {
		m.seg.clean = false
		return
	}
	s.mark(mk.lead, markWrap)
}

// mark records a line feed, a wrap or an erase at off and starts a new
// segment.
func (s *Screen) mark(off int64, kind int) {
	m := &s.m
	switch {
	case !m.seg.clean:
		m.runLen = 0
	case kind != markErase:
		m.runLen++
	}
	m.lfs = append(m.lfs, lineFeed{off: off, x: m.x, ph: m.ph, wrap: kind == markWrap, erase: kind == markErase,
		clean: m.seg.clean, bgSet: m.seg.bgSet, bg: m.seg.bg, ascii: m.seg.ascii})
	m.seg = segment{clean: true}
}

// control follows a control the parser executes at off (after flushing the
// cluster buffer, as x/vt does): CR, the line feeds, HT and BS keep the cursor
// column known; every other control forgets it.
func (s *Screen) control(prev parser.State, b byte, off int64) {
	m := &s.m
	if prev == parser.GroundState {
		switch b {
		case ansi.CR:
			s.syncLines(off, false)
			if m.lines {
				m.known, m.x, m.ph = true, 0, false
				return
			}
		case ansi.LF, ansi.VT, ansi.FF:
			s.syncLines(off, true)
			if m.lines && m.known {
				m.ph = false // index() resets the pending wrap, the column stays
				s.mark(off, markLF)
				return
			}
		case ansi.HT:
			if m.known && m.lines && !m.tabsSet {
				// x/vt's nextTab: the next stop, the last column at most; the
				// pending wrap stays as it is.
				m.x = m.tabs.Next(m.x)
				return
			}
		case ansi.BS:
			if m.known && m.lines {
				m.x, m.ph = max(m.x-1, 0), false // CUB 1
				return
			}
		case ansi.HTS:
			m.tabsSet = true
		case ansi.SS2, ansi.SS3:
			m.single = true
		}
	}
	m.known, m.seg.clean = false, false
}

// sequence follows a dispatched escape sequence: an SGR leaves the cursor
// where it is (and its effect on the background is noted); any other
// sequence forgets the cursor column and may change the modes.
func (s *Screen) sequence(prev parser.State, final byte, off int64) {
	m := &s.m
	csi := prev == parser.CsiEntryState || prev == parser.CsiParamState || prev == parser.CsiIntermediateState
	if csi && final == 'm' && !m.prefix && !m.inter {
		if m.seg.clean {
			s.sgrBackground(off)
		}
		return
	}
	if csi && final == 'K' && s.eraseLine(off) {
		return
	}
	m.known, m.seg.clean, m.modesStale = false, false, true
	switch {
	case prev == parser.EscapeState && final == 'H' && !m.inter, // HTS
		csi && final == 'g' && !m.prefix && !m.inter, // TBC
		csi && final == 'W':                          // DECST8C
		m.tabsSet = true
	case prev == parser.EscapeState && (final == 'N' || final == 'O') && !m.inter: // SS2, SS3
		m.single = true
	}
}

// eraseLine follows an EL ending at off: "CSI 2 K", written as that, erases
// the cursor's row (with the pen's background) and leaves the cursor and the
// pending wrap as they are, so it keeps the column known and the segment
// clean, and is noted as an erase mark (see eraseRun).
func (s *Screen) eraseLine(off int64) bool {
	m := &s.m
	lo := m.csiAt - s.bufBase
	if !m.known || !m.lines || lo < 0 || off+1-s.bufBase > int64(len(s.buf)) {
		return false
	}
	switch seq := string(s.buf[lo : off+1-s.bufBase]); seq {
	case "\x1b[2K", "\x9b2K":
	default:
		return false
	}
	s.mark(m.csiAt, markErase)
	return true
}

// sgrStep reports whether a parser step other than print, execute and
// dispatch keeps a segment clean: the steps of a CSI that may still end as
// an SGR, and the start of a UTF-8 rune in the ground state.
func sgrStep(prev, next parser.State, action parser.Action) bool {
	switch next {
	case parser.EscapeState, parser.Utf8State:
		return prev == parser.GroundState
	case parser.CsiEntryState:
		return prev == parser.GroundState || prev == parser.EscapeState
	case parser.CsiParamState:
		return action == parser.ParamAction
	}
	return false
}

// sgrBackground notes what the SGR ending at off does to the pen's
// background, reading its parameters with x/ansi's parser and applying them
// with ultraviolet's ReadStyle, as x/vt does.
func (s *Screen) sgrBackground(off int64) {
	m := &s.m
	lo, hi := m.csiAt-s.bufBase, off+1-s.bufBase
	if lo < 0 || hi > int64(len(s.buf)) {
		m.seg.clean = false // its start was fed already: no parameters to read
		return
	}
	set, bg, absorbing, ok := s.sgr.read(s.buf[lo:hi])
	if !ok {
		m.seg.clean = false
		return
	}
	if set {
		m.seg.bgSet, m.seg.bg = true, bg
	}
	m.sgrs = append(m.sgrs, sgrSpan{lo: m.csiAt, hi: off + 1, absorbing: absorbing})
}

// unsetColor and otherColor mark pen colours ReadStyle did not set.
type (
	unsetColor struct{}
	otherColor struct{}
)

func (unsetColor) RGBA() (r, g, b, a uint32) { return 0, 0, 0, 0 }
func (otherColor) RGBA() (r, g, b, a uint32) { return 0, 0, 0, 0 }

// sgrReader parses one SGR sequence with x/ansi's parser and applies it with
// ultraviolet's ReadStyle, as x/vt does.
type sgrReader struct {
	p         *ansi.Parser
	seen      bool
	set       bool
	bg        color.Color
	absorbing bool
	cache     map[string]sgrRead // results by sequence (see read)
}

// sgrRead is one read's result.
type sgrRead struct {
	set       bool
	bg        color.Color
	absorbing bool
	ok        bool
}

// A seat repeats the same few SGRs over and over; parsing each with a fresh
// parser run and two ReadStyle calls was a fifth of Screen's own cost on
// make compare's mixed stream. The cache is bounded: at most sgrCacheMax
// entries of at most sgrCacheKey bytes (emptied when full).
const (
	sgrCacheMax = 256
	sgrCacheKey = 64
)

func (r *sgrReader) init() {
	r.p = ansi.NewParser() // x/vt's parameter limit (parser.MaxParamsSize)
	r.p.SetHandler(ansi.Handler{HandleCsi: func(cmd ansi.Cmd, params ansi.Params) {
		if cmd != 'm' {
			return
		}
		a := uv.Style{Fg: unsetColor{}, Bg: unsetColor{}, UnderlineColor: unsetColor{}}
		b := uv.Style{Fg: otherColor{}, Bg: otherColor{}, UnderlineColor: otherColor{},
			Underline: uv.UnderlineCurly, Attrs: ^a.Attrs}
		uv.ReadStyle(params, &a)
		uv.ReadStyle(params, &b)
		r.seen = true
		r.set = a.Bg != color.Color(unsetColor{})
		r.bg = a.Bg
		// Nothing of the pen before survives:
		r.absorbing = a.Attrs == b.Attrs && a.Underline == b.Underline && sameColor(a.Fg, b.Fg) &&
			sameColor(a.Bg, b.Bg) && sameColor(a.UnderlineColor, b.UnderlineColor)
	}})
}

// read parses the SGR seq (from its ESC or C1 CSI to its final byte):
// whether it sets the background and to what, and whether it sets every
// attribute; ok is false when seq turned out not to be one SGR.
func (r *sgrReader) read(seq []byte) (set bool, bg color.Color, absorbing, ok bool) {
	if c, hit := r.cache[string(seq)]; hit {
		return c.set, c.bg, c.absorbing, c.ok
	}
	r.p.Reset()
	r.seen, r.set, r.bg, r.absorbing = false, false, nil, false
	for _, b := range seq {
		r.p.Advance(b)
	}
	if len(seq) <= sgrCacheKey {
		if r.cache == nil {
			r.cache = make(map[string]sgrRead, sgrCacheMax)
		} else if len(r.cache) >= sgrCacheMax {
			clear(r.cache)
		}
		r.cache[string(seq)] = sgrRead{set: r.set, bg: r.bg, absorbing: r.absorbing, ok: r.seen}
	}
	return r.set, r.bg, r.absorbing, r.seen
}

// feedTo writes the stream up to offset abs to the emulator, folding runs of
// line feeds at the bottom of the screen into one scroll (see above).
func (s *Screen) feedTo(abs int64) {
	m := &s.m
	for m.lfHead < len(m.lfs) && m.lfs[m.lfHead].off < abs {
		lf := m.lfs[m.lfHead]
		switch {
		case s.unbatched:
			m.lfHead++
		case lf.off < m.fed:
			m.lfHead++
			s.run.ok = false
		case lf.erase:
			s.eraseRun(abs)
		case s.run.ok && lf.clean:
			s.continueRun(abs)
		case lf.wrap:
			m.lfHead++ // it scrolls (or not) inside a print: fed as it is
			s.run.ok = false
		default:
			m.lfHead++
			s.write(lf.off)
			s.probe()
		}
	}
	if m.lfHead == len(m.lfs) {
		m.lfs, m.lfHead = m.lfs[:0], 0
	}
	s.memo.valid = false
	s.write(abs)
	s.forgetSGRs()
	s.trimScrollback()
}

// forgetSGRs drops the SGR spans fed already. Only a skipped run replays
// them (replayPen); without this a seat that never floods would keep one
// span per SGR it ever printed.
func (s *Screen) forgetSGRs() {
	m := &s.m
	for m.sgrHead < len(m.sgrs) && m.sgrs[m.sgrHead].lo < m.fed {
		m.sgrHead++
	}
	switch {
	case m.sgrHead == len(m.sgrs):
		m.sgrs, m.sgrHead = m.sgrs[:0], 0
	case m.sgrHead > len(m.sgrs)/2:
		m.sgrs, m.sgrHead = m.sgrs[:copy(m.sgrs, m.sgrs[m.sgrHead:])], 0
	}
}

// write feeds the stream from m.fed up to offset abs.
func (s *Screen) write(abs int64) {
	m := &s.m
	if abs <= m.fed {
		return
	}
	lo, hi := int(m.fed-s.bufBase), int(abs-s.bufBase)
	_, _ = s.emu.Write(s.buf[lo:hi]) // x/vt's Write never fails while open
	m.fed = abs
	s.version++
}

// probe feeds the line feed at m.fed on its own and reads off the emulator
// whether it scrolled a full-width region from its bottom row (s.run).
func (s *Screen) probe() {
	untouch(s.emu.Touched())
	s.write(s.m.fed + 1)
	y := s.emu.CursorPosition().Y
	top, ok := scrolledTop(s.emu.Touched(), y, s.emu.Width())
	s.run = scrollRun{ok: ok, top: top, bottom: y}
	if ok {
		s.run.bg = s.emu.CellAt(0, y).Style.Bg // the row this scroll blanked
	}
}

// continueRun handles the next line feed when the cursor sits on the bottom
// row of the region and only clean bytes lead to it: it and the clean line
// feeds after it (before abs) with the same pen background, as many as the
// region has rows above the cursor, share one SU. The first of them must be
// a real line feed: a cursor movement before a wrap would cancel the wrap.
func (s *Screen) continueRun(abs int64) {
	m := &s.m
	if s.skipRun(abs) {
		return
	}
	lf := m.lfs[m.lfHead]
	bg := s.run.bg
	if lf.bgSet {
		bg = lf.bg
	}
	s.run.bg = bg
	k := 1
	if !lf.wrap {
		cur := bg
		for i := m.lfHead + 1; i < len(m.lfs) && k < s.run.bottom-s.run.top; i++ {
			next := m.lfs[i]
			if next.off >= abs || !next.clean || next.erase {
				break
			}
			if next.bgSet {
				cur = next.bg
			}
			if !sameColor(cur, bg) {
				break
			}
			k++
		}
	}
	m.lfHead += k
	if k == 1 {
		return // it scrolls on its own when fed
	}
	s.write(lf.off)
	n := strconv.Itoa(k)
	_, _ = s.emu.WriteString("\x1b[" + n + "S\x1b[" + n + "A")
	s.batched += k - 1
	s.trimScrollback()
}

// skipRun skips the clean line feeds from lfs[lfHead] on (before abs) whose
// rows the scrollback would drop anyway, and reports whether it did; the
// cursor is on the region's bottom row (s.run.ok).
func (s *Screen) skipRun(abs int64) bool {
	m := &s.m
	if m.single {
		return false
	}
	keep := s.sbLines + s.run.bottom - s.run.top + 1
	end := s.runEnd(abs)
	r := end - keep // lfs[r:end] are fed: keep line feeds push every stale row out
	for r > m.lfHead && m.lfs[r].wrap {
		r-- // resume at a line feed: the bytes before a wrap are one cluster
	}
	if r-m.lfHead < s.skipMin || s.memo.noASCII {
		return false
	}
	ascii := false
	for _, lf := range m.lfs[r+1 : end] {
		s.runScans++
		ascii = ascii || lf.ascii
	}
	if !ascii {
		// x/vt's last printed character would be a skipped one. That
		// holds for the rest of this run (end and r stay) too, which
		// continueRun feeds a region's height at a time.
		s.memo.noASCII = true
		return false
	}
	resume := m.lfs[r]
	bg := s.run.bg
	for _, lf := range m.lfs[m.lfHead:r] {
		if lf.bgSet {
			bg = lf.bg
		}
	}
	s.replayPen(resume.off)
	_, _ = s.emu.WriteString("\x1b[" + strconv.Itoa(resume.x+1) + "G") // CHA
	s.skipped += r - m.lfHead
	m.fed, m.lfHead = resume.off, r
	s.run.bg = bg
	s.version++
	return true
}

// runMemo is the run of clean line feeds skipRun looked at last: where it
// ends and whether it may be skipped. continueRun asks again every region's
// height, and looking the run over each time made a flood of lines without
// ASCII (`yes ”`, a CJK log) cost its square under the lock (100 000 empty
// lines took 1.15 s; a held flood held the lock for 43 s).
type runMemo struct {
	valid   bool
	abs     int64 // the feed's end it was computed for
	head    int   // lfHead then: the run starts there or later
	end     int   // lfs[head:end] is the run
	noASCII bool  // its last lines print no ASCII: no skipping
}

// runEnd returns the end of the run of clean line feeds from lfs[lfHead]
// (before abs), computed once per run.
func (s *Screen) runEnd(abs int64) int {
	m := &s.m
	if s.memo.valid && s.memo.abs == abs && s.memo.head <= m.lfHead && m.lfHead < s.memo.end {
		return s.memo.end
	}
	end := m.lfHead
	for end < len(m.lfs) && m.lfs[end].off < abs && m.lfs[end].clean && !m.lfs[end].erase {
		s.runScans++
		end++
	}
	s.memo = runMemo{valid: true, abs: abs, head: m.lfHead, end: end}
	return end
}

// eraseRun handles the erase mark lfs[lfHead]. A progress bar redraws its
// row as CR, EL 2, the bar, many times over: every EL 2 blanks the whole row
// whatever the frame before left there, so of a chain of erase marks with
// only clean bytes between them (the same row: no line feed, no wrap) all
// frames but the last are skipped, as skipRun skips lines: the pen replayed,
// the column set by CHA (there is no pending wrap there), the last printed
// character left to the bytes after the last EL 2, which must print ASCII.
func (s *Screen) eraseRun(abs int64) {
	m := &s.m
	last := m.lfHead
	for last+1 < len(m.lfs) && m.lfs[last+1].off < abs && m.lfs[last+1].erase && m.lfs[last+1].clean {
		last++
	}
	// Resume at the last mark r whose frame after it prints ASCII: that of
	// the last one is only known when the mark after it was scanned.
	r := last
	for r > m.lfHead && !s.asciiAfter(r, abs) {
		r--
	}
	if r > m.lfHead && !m.single && !m.lfs[r].ph {
		s.write(m.lfs[m.lfHead].off)
		for _, mk := range m.lfs[m.lfHead:r] {
			s.followMark(mk)
		}
		resume := m.lfs[r]
		s.replayPen(resume.off)
		_, _ = s.emu.WriteString("\x1b[" + strconv.Itoa(resume.x+1) + "G") // CHA
		s.skipped += r - m.lfHead
		m.fed, m.lfHead = resume.off, r
		s.version++
	}
	s.followMark(m.lfs[m.lfHead])
	m.lfHead++
}

// asciiAfter reports whether the bytes between mark i and the next one
// (scanned before abs) print an ASCII character.
func (s *Screen) asciiAfter(i int, abs int64) bool {
	m := &s.m
	return i+1 < len(m.lfs) && m.lfs[i+1].off < abs && m.lfs[i+1].ascii
}

// followMark keeps s.run across an erase mark: the cursor stays on its row;
// the bytes before the mark must be clean, and may set the background.
func (s *Screen) followMark(mk lineFeed) {
	switch {
	case !mk.clean:
		s.run.ok = false
	case mk.bgSet:
		s.run.bg = mk.bg
	}
}

// replayPen feeds the SGRs between m.fed and off, from the last absorbing
// one, and forgets the spans before off.
func (s *Screen) replayPen(off int64) {
	m := &s.m
	for m.sgrHead < len(m.sgrs) && m.sgrs[m.sgrHead].lo < m.fed {
		m.sgrHead++ // fed already
	}
	from, to := m.sgrHead, m.sgrHead
	for to < len(m.sgrs) && m.sgrs[to].hi <= off {
		if m.sgrs[to].absorbing {
			from = to
		}
		to++
	}
	for _, sp := range m.sgrs[from:to] {
		_, _ = s.emu.Write(s.buf[sp.lo-s.bufBase : sp.hi-s.bufBase])
	}
	m.sgrHead = to
	if m.sgrHead == len(m.sgrs) {
		m.sgrs, m.sgrHead = m.sgrs[:0], 0
	}
}

// holdRun reports whether the bytes just scanned should be held rather than
// fed: the stream is in a clean run at the bottom long enough to be a flood,
// held for less than runHold and less than maxRunHold bytes.
func (s *Screen) holdRun() bool {
	m := &s.m
	if s.unbatched || !m.seg.clean || !m.known || !m.lines || m.single ||
		m.runLen < s.sbLines+m.rows+s.skipMin || len(s.buf) > maxRunHold || len(m.lfs)-m.lfHead > maxRunLines {
		return false
	}
	now := time.Now()
	if s.runHeld.IsZero() {
		s.runHeld = now
		return true
	}
	return now.Sub(s.runHeld) < s.runHold
}

// flushHeld is the flush timer's work: a held flood is fed up to its last
// cluster (which may still grow), anything else entirely.
func (s *Screen) flushHeld() {
	s.mu.Lock()
	if s.runHeld.IsZero() {
		s.mu.Unlock()
		s.Flush()
		return
	}
	defer s.mu.Unlock()
	defer s.contain(nil)
	if s.closed || s.broken != nil {
		return
	}
	v := s.version
	s.runHeld = time.Time{}
	s.settle(false)
	s.compact()
	s.kickFlusher()
	if s.version != v {
		s.signal()
	}
}

// trimScrollback cuts x/vt's scrollback back to its newest scrollbackLines
// lines (see scrollbackSlack); SetMaxLines only reslices.
func (s *Screen) trimScrollback() {
	sb := s.emu.Scrollback()
	if sb.Len() > s.sbLines {
		sb.SetMaxLines(s.sbLines)
		sb.SetMaxLines(s.sbLines + scrollbackSlack)
	}
}

// untouch marks every row of the render buffer untouched: an empty range
// (TouchLine widens it to what it touches) rather than nil, for which
// TouchLine would allocate a new record per row.
func untouch(touched []*uv.LineData) {
	for _, d := range touched {
		if d != nil {
			d.FirstCell, d.LastCell = math.MaxInt, math.MinInt
		}
	}
}

// scrolledTop reads the scroll a line feed just made off the rows the render
// buffer marks touched (untouch ran before it): a full-width region whose
// bottom row is y, the cursor's row, touches rows top…y, and row y+1 too
// when there is one. It returns the region's top row.
func scrolledTop(touched []*uv.LineData, y, width int) (int, bool) {
	top := -1
	for i, d := range touched {
		if d == nil || d.FirstCell > d.LastCell {
			if top >= 0 && i <= y {
				return 0, false // a gap inside the region
			}
			continue
		}
		if d.FirstCell != 0 || d.LastCell != width || i > y+1 {
			return 0, false
		}
		if top < 0 {
			top = i
		}
	}
	if top < 0 || top > y || y >= len(touched) {
		return 0, false
	}
	return top, true
}

// sameColor reports whether a scroll with pen background a blanks a row
// exactly as one with b does.
func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}
