package terminal

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
	"github.com/charmbracelet/x/vt"
	"github.com/pullcept/pullcept/seats/pty"
)

// scrollbackLines caps each seat's scrollback. x/vt keeps ~130 B per cell
// (docs/dependencies.md §2.4: 10 000 full-width coloured lines ≈ 261 MB), so 2 000
// lines bound a 200-column seat at ~50 MB while keeping a long answer
// scrollable; x/vt's own default (10 000) would be five times that per seat.
const scrollbackLines = 2000

// scrollbackSlack is how many lines x/vt may hold beyond scrollbackLines
// between two feeds. Once full, x/vt's Scrollback.Push drops its oldest line
// with slices.Delete, moving all 2 000 line headers for every line scrolled
// off (a fifth of a line flood's time); Screen lets it grow instead and
// trims it back after each feed, which only reslices (trimScrollback). The
// lines trimmed stay reachable from the slice's backing array until an append
// reallocates it, so a seat holds at most about 1.25 × (2 000 + 1 024) lines.
const scrollbackSlack = 1024

// graphemeHold is how long Screen keeps back a trailing grapheme cluster that
// the next read might extend (a combining mark, a ZWJ emoji, a variation
// selector split across two PTY reads). Reads of one burst arrive back to
// back (well under 1 ms); 8 ms is half a 60 Hz frame, so holding never costs
// a visible frame.
const graphemeHold = 8 * time.Millisecond

// maxHeld bounds the bytes held back at the end of a write (the last cluster
// and an unfinished sequence; only a long string sequence such as an OSC 52
// clipboard gets near it): past it they are fed as they are.
const maxHeld = 64 << 10

// replyBuf is the read size for the emulator's replies; one read takes any
// single reply whole.
const replyBuf = 4096

// Sentinel errors of the Screen; callers compare with errors.Is.
var (
	// ErrScreenClosed: the Screen was closed.
	ErrScreenClosed = errors.New("screen closed")
	// ErrScreenBroken: the terminal emulator panicked on the seat's output;
	// the Screen keeps its last picture and takes nothing more.
	ErrScreenBroken = errors.New("terminal emulator failed")
)

// Snapshot is a seat screen as the UI draws it, copied under the Screen's
// lock (docs/design.md §10, §14 "View() only assembles cached strings").
//
// Lines holds one rendered row per screen row (Rows of them), each padded to
// Cols cells, colours and attributes as SGR sequences (x/vt Render). The
// cursor is at cell (CursorX, CursorY), zero-based; CursorVisible is false
// while the child hides it. AltScreen is true while a full-screen program owns
// the alternate screen (it has no scrollback). Title is the child's window
// title (OSC 0/2). BracketedPaste and AppCursorKeys are the child's input
// modes (?2004, ?1 DECCKM), for a UI that encodes keys itself: pastes go in
// ESC[200~ … ESC[201~, arrows as ESC O A instead of ESC [ A. Mouse is the
// mouse reporting it asked for (mouse.go): the UI forwards the human's mouse
// only then, encoded as asked. Version is the Screen's change counter at the
// time of the copy. Broken says why the emulator stopped, if it did.
type Snapshot struct {
	Version        uint64
	Cols, Rows     int
	Lines          []string
	CursorX        int
	CursorY        int
	CursorVisible  bool
	AltScreen      bool
	Title          string
	BracketedPaste bool
	AppCursorKeys  bool
	Mouse          MouseModes
	Broken         string // why emulation stopped (ErrScreenBroken), "" while it runs
}

// Screen is one seat's terminal emulator: github.com/charmbracelet/x/vt
// v0.1.0 behind one mutex (its SafeEmulator leaves the cursor, sizes and
// scrollback unguarded; docs/dependencies.md §2.4). Pump feeds it the PTY output;
// the UI reads Snapshots when Changed fires.
//
// Replies the emulator owes the child (cursor position, device attributes,
// mode reports) are read from x/vt's reply pipe by a goroutine the Screen
// owns (doc.go) and handed to the reply function in order. x/vt's Write
// blocks until that pipe is read, so reply must never block and never call
// back into the Screen: the seat wires it to Typist.Reply, which only
// enqueues (docs/design.md §14 "One writer per PTY").
//
// Screen works around x/vt v0.1.0 limits through its public API, no library
// code copied (see the feed comment below): a grapheme cluster split across
// two reads, wide characters at the right margin (charmbracelet/x#975), and a
// huge REP count that would hold the lock for minutes. When rendering it
// also blanks the wide-cell placeholders ultraviolet leaves orphaned
// (repairRow).
type Screen struct {
	mu  sync.Mutex
	emu *vt.Emulator
	m   mirror

	// buf holds the bytes received but not fed to the emulator yet, the held
	// tail; bufBase is the stream offset of buf[0] (everything before it has
	// been fed).
	buf     []byte
	bufBase int64

	rowBuf    uv.Line // scratch row for rendering
	version   uint64
	title     string
	awm       bool        // DECAWM as x/vt has it, tracked through its mode callbacks
	decom     bool        // ?6 DECOM, likewise (scrollbatch.go)
	lnm       bool        // LNM (ANSI 20), likewise
	lrmm      bool        // ?69 DECLRMM was set since the last resize: left/right margins may exist
	paste     atomic.Bool // ?2004 bracketed paste, likewise; read without s.mu
	appCursor atomic.Bool // ?1 DECCKM, likewise
	mouse     mouseState  // the mouse reporting modes, likewise (mouse.go)
	closed    bool
	broken    error         // ErrScreenBroken with the panic, once x/vt panicked (contain)
	holdDelay time.Duration // 0: never flush on a timer (tests call Flush)
	fixes     int           // corrections made to x/vt's course (tests)
	runHeld   time.Time     // a line flood is held since then (scrollbatch.go holdRun); zero: none
	skipped   int           // line feeds never fed because the scrollback would drop them (tests)
	unbatched bool          // feed every line feed on its own (the differential tests' reference)
	sbLines   int           // the scrollback's size: scrollbackLines (tests make it small)
	skipMin   int           // minSkip (tests make it small)
	runHold   time.Duration // runHold; without a flush timer (tests) a flood is held until Flush
	batched   int           // line feeds folded into multi-line scrolls (tests)
	runScans  int           // line-feed records skipRun looked at (tests: linear, not quadratic)
	memo      runMemo       // the run skipRun looked at last (scrollbatch.go)
	sgr       sgrReader     // reads an SGR's effect on the background (scrollbatch.go)
	run       scrollRun     // where the last line feed fed left the cursor (scrollbatch.go)

	changed chan struct{} // capacity 1: "the screen moved", coalesced
	kick    chan struct{} // capacity 1: a tail is held, arm the flush timer
	// flushAt is when the held bytes are fed (kickFlusher); timerSet: the
	// flusher has been told and its timer runs until then or later.
	flushAt  time.Time
	timerSet bool
	done     chan struct{} // closed by Close
	wg       sync.WaitGroup
	reply    func([]byte)
	pipe     *io.PipeWriter // x/vt's reply pipe, closed by Close
}

// NewScreen returns a cols×rows screen (1…32767 each, else ErrBadSize) with a
// 2 000-line scrollback. reply receives the emulator's replies in order,
// from one goroutine; nil discards them. Close releases the Screen's
// goroutines.
func NewScreen(cols, rows int, reply func([]byte)) (*Screen, error) {
	return newScreen(cols, rows, reply, graphemeHold)
}

func newScreen(cols, rows int, reply func([]byte), hold time.Duration) (*Screen, error) {
	if err := pty.CheckSize(cols, rows); err != nil {
		return nil, err
	}
	emu := vt.NewEmulator(cols, rows)
	pipe, ok := emu.InputPipe().(*io.PipeWriter)
	if !ok {
		// Screen must close the pipe itself: Emulator.Close sets a field its
		// Read checks without a lock (a data race with the reply reader).
		return nil, fmt.Errorf("x/vt reply pipe is a %T, not an *io.PipeWriter", emu.InputPipe())
	}
	emu.SetScrollbackSize(scrollbackLines + scrollbackSlack)
	guardLinks(emu)
	if reply == nil {
		reply = func([]byte) {}
	}
	s := &Screen{
		emu:       emu,
		sbLines:   scrollbackLines,
		skipMin:   minSkip,
		runHold:   runHold,
		awm:       true, // x/vt starts with DECAWM set (mode.go resetModes)
		holdDelay: hold,
		changed:   make(chan struct{}, 1),
		kick:      make(chan struct{}, 1),
		done:      make(chan struct{}),
		reply:     reply,
		pipe:      pipe,
	}
	if hold == 0 {
		s.runHold = time.Duration(1<<63 - 1)
	}
	s.m.width, s.m.rows = cols, rows
	s.resetLines(cols)
	s.sgr.init()
	// The callbacks run inside emu calls, which always hold s.mu.
	emu.SetCallbacks(vt.Callbacks{
		Title:       func(t string) { s.title = t },
		EnableMode:  func(m ansi.Mode) { s.setMode(m, true) },
		DisableMode: func(m ansi.Mode) { s.setMode(m, false) },
	})
	s.wg.Add(2)
	go s.readReplies()
	go s.flusher()
	return s, nil
}

// setMode follows the modes Screen needs; x/vt calls it for every DECSET,
// DECRST and, through resetModes, for RIS.
func (s *Screen) setMode(m ansi.Mode, on bool) {
	switch m {
	case ansi.ModeAutoWrap:
		s.awm = on
	case ansi.ModeBracketedPaste:
		s.paste.Store(on)
	case ansi.ModeCursorKeys:
		s.appCursor.Store(on)
	case ansi.ModeOrigin:
		s.decom = on
	case ansi.ModeLineFeedNewLine:
		s.lnm = on
	case ansi.ModeLeftRightMargin:
		s.lrmm = s.lrmm || on // x/vt keeps the margins when DECLRMM is reset
	default:
		s.mouse.follow(m, on)
	}
}

// readReplies hands everything x/vt writes to its reply pipe to s.reply,
// until Close closes the pipe. It never takes s.mu: x/vt writes the pipe
// while s.mu is held.
func (s *Screen) readReplies() {
	defer s.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			// A panicking reply function must not leave x/vt's Write blocked
			// on the pipe forever: drain it until Close.
			_, _ = io.Copy(io.Discard, s.emu)
		}
	}()
	b := make([]byte, replyBuf)
	for {
		n, err := s.emu.Read(b)
		if n > 0 {
			out := make([]byte, n)
			copy(out, b[:n])
			s.reply(out)
		}
		if err != nil {
			return
		}
	}
}

// flusher feeds a held tail once it has waited holdDelay (see graphemeHold).
func (s *Screen) flusher() {
	defer s.wg.Done()
	defer func() { _ = recover() }() // a flush panic loses only the timer, Flush still works
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-s.done:
			timer.Stop()
			return
		case <-s.kick:
			if d := s.flushDue(); d > 0 {
				timer.Reset(d)
			} else {
				s.flushHeld()
			}
		case <-timer.C:
			if d := s.flushDue(); d > 0 {
				timer.Reset(d)
			} else {
				s.flushHeld()
			}
		}
	}
}

// Write feeds PTY output to the emulator and always reports len(p), nil
// unless the Screen is closed (ErrScreenClosed). A trailing cluster the next
// write may extend, and an unfinished sequence, are held back for up to
// graphemeHold.
func (s *Screen) Write(p []byte) (n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(&err)
	if s.closed {
		return 0, ErrScreenClosed
	}
	if s.broken != nil {
		return 0, s.broken
	}
	v := s.version
	from := len(s.buf)
	s.buf = append(s.buf, p...)
	s.scan(from)
	if s.holdRun() {
		s.kickFlusher()
		return len(p), nil
	}
	held := !s.runHeld.IsZero()
	s.runHeld = time.Time{}
	s.settle(!held && len(s.buf) > maxHeld)
	s.compact()
	s.kickFlusher()
	if s.version != v {
		s.signal()
	}
	return len(p), nil
}

// kickFlusher arms the flush timer while anything is held.
// It runs once per PTY read: it only moves the deadline, and wakes the
// flusher when its timer is not running (flushDue re-arms it for a later
// deadline).
func (s *Screen) kickFlusher() {
	if len(s.buf) == 0 || s.holdDelay <= 0 {
		s.flushAt = time.Time{}
		return
	}
	now := time.Now()
	s.flushAt = now.Add(s.holdDelay)
	if !s.runHeld.IsZero() && s.runHeld.Add(s.runHold).Before(s.flushAt) {
		s.flushAt = s.runHeld.Add(s.runHold)
	}
	if s.timerSet {
		return
	}
	s.timerSet = true
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// flushDue is how long the flusher still waits; at zero its timer is
// stopped and it feeds the held bytes (flushHeld).
func (s *Screen) flushDue() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := time.Until(s.flushAt)
	if s.flushAt.IsZero() || d <= 0 {
		s.timerSet = false
		return 0
	}
	return d
}

// Flush feeds any held tail now (Pump calls it at EOF).
func (s *Screen) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(nil)
	if s.closed || s.broken != nil || len(s.buf) == 0 {
		return
	}
	v := s.version
	s.runHeld = time.Time{}
	s.settle(true)
	s.compact()
	if s.version != v {
		s.signal()
	}
}

// Resize sets the screen to cols×rows cells (ErrBadSize outside 1…32767).
// x/vt does not reflow: shrinking keeps the top rows (docs/dependencies.md §2.4);
// full-screen programs redraw on their SIGWINCH.
func (s *Screen) Resize(cols, rows int) (err error) {
	if err := pty.CheckSize(cols, rows); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(&err)
	if s.closed {
		return ErrScreenClosed
	}
	if s.broken != nil {
		return nil // the picture stays as it was; the PTY still gets the size
	}
	s.runHeld = time.Time{}
	s.settle(true) // held bytes arrived before the resize
	s.compact()
	s.emu.Resize(cols, rows)
	s.m.width, s.m.rows = cols, rows
	s.m.known = false
	s.lrmm = false // x/vt's Resize resets the scroll region and the tab stops
	s.resetLines(cols)
	s.version++
	s.signal()
	return nil
}

// BracketedPaste reports whether the child enabled bracketed paste (?2004)
// as of the bytes fed so far. It takes no lock: the typing queue asks it
// right before typing a post without waiting for a long Write to finish.
func (s *Screen) BracketedPaste() bool { return s.paste.Load() }

// AppCursorKeys reports whether the child enabled application cursor keys
// (?1 DECCKM: arrows as ESC O A). Lock-free like BracketedPaste.
func (s *Screen) AppCursorKeys() bool { return s.appCursor.Load() }

// Changed fires (capacity 1, coalesced) after the screen changed; read a
// Snapshot then. It is never closed.
func (s *Screen) Changed() <-chan struct{} { return s.changed }

func (s *Screen) signal() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Version counts the changes to the screen (writes that reached the
// emulator, resizes); a pane re-renders when it moved.
func (s *Screen) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Snapshot copies the rendered screen, cursor, alt-screen flag and version.
func (s *Screen) Snapshot() (snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			s.broke(r)
			snap = Snapshot{Version: s.version, Cols: s.m.width, Rows: s.m.rows,
				Lines: make([]string, s.m.rows), Broken: s.broken.Error()}
		}
	}()
	defer func() {
		if s.broken != nil {
			snap.Broken = s.broken.Error()
		}
	}()
	pos := s.emu.CursorPosition()
	rows := s.emu.Height()
	lines := make([]string, rows)
	for y := range rows {
		lines[y] = s.row(y).Render()
	}
	return Snapshot{
		Version:        s.version,
		Cols:           s.emu.Width(),
		Rows:           rows,
		Lines:          lines,
		CursorX:        pos.X,
		CursorY:        pos.Y,
		CursorVisible:  !s.emu.CursorHidden(),
		AltScreen:      s.emu.IsAltScreen(),
		Title:          s.title,
		BracketedPaste: s.paste.Load(),
		AppCursorKeys:  s.appCursor.Load(),
		Mouse:          s.mouse.modes(),
	}
}

// Text returns the screen as plain text, one line per row, trailing spaces
// removed (goldens, tests, copying).
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(nil)
	var b strings.Builder
	for y := range s.emu.Height() {
		if y > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimRight(s.row(y).String(), " "))
	}
	return b.String()
}

// Plain returns the screen's rows as plain text (trailing spaces removed)
// and the cursor's cell: what a seat kind reads its CLI's input box from
// (docs/design.md §5 "Confirmed delivery").
func (s *Screen) Plain() (rows []string, cursorX, cursorY int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(nil)
	rows = make([]string, s.emu.Height())
	for y := range rows {
		rows[y] = strings.TrimRight(s.row(y).String(), " ")
	}
	pos := s.emu.CursorPosition()
	return rows, pos.X, pos.Y
}

// row copies screen row y into s.rowBuf with orphaned wide-cell
// placeholders blanked (see repairRow). The copy is valid until the next call.
func (s *Screen) row(y int) uv.Line {
	w := s.emu.Width()
	if cap(s.rowBuf) < w {
		s.rowBuf = make(uv.Line, w)
	}
	line := s.rowBuf[:w]
	for x := range w {
		if c := s.emu.CellAt(x, y); c != nil {
			line[x] = *c
		} else {
			line[x] = uv.EmptyCell
		}
	}
	repairRow(line)
	return line
}

// repairRow blanks placeholder cells no wide cell covers. ultraviolet's
// Line.Set clears the wide cell under the column it writes, but not one
// under the columns its own wide cell's tail covers: a wide character written
// one column left of another leaves that one's placeholder behind, and every
// renderer skips placeholders, so the rest of the row would shift left by a
// column (seen against tmux). An xterm blanks that column; so do we, in the
// copy we render (the emulator's own state stays x/vt's).
func repairRow(line uv.Line) {
	cover := 0
	for x := range line {
		c := &line[x]
		switch {
		case c.Width > 1:
			cover = c.Width - 1
		case c.IsZero():
			if cover > 0 {
				cover--
			} else {
				line[x] = uv.EmptyCell
			}
		default:
			cover = 0
		}
	}
}

// ScrollbackLen is the number of lines scrolled off the main screen (at most
// 2 000).
func (s *Screen) ScrollbackLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.ScrollbackLen()
}

// ScrollbackLines returns up to n rendered scrollback lines starting at
// index from (0 = oldest), with SGR styling and trailing blanks trimmed;
// out-of-range parts are left out.
func (s *Screen) ScrollbackLines(from, n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.emu.Scrollback()
	total := sb.Len()
	from = max(from, 0)
	end := min(from+max(n, 0), total)
	if from >= end {
		return nil
	}
	out := make([]string, 0, end-from)
	for i := from; i < end; i++ {
		line := append(s.rowBuf[:0], sb.Line(i)...)
		repairRow(line)
		out = append(out, line.Render())
		s.rowBuf = line
	}
	return out
}

// Close stops the reply reader and the flush timer and waits for both.
// Later writes report ErrScreenClosed; Snapshots keep the last screen.
func (s *Screen) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	err := s.pipe.CloseWithError(io.EOF)
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

// compact drops the fed bytes from buf.
func (s *Screen) compact() {
	fed := int(s.m.fed - s.bufBase)
	if fed <= 0 {
		return
	}
	n := copy(s.buf, s.buf[fed:])
	s.buf = s.buf[:n]
	s.bufBase = s.m.fed
}

// contain is deferred, under s.mu, by every method that feeds x/vt: a panic
// inside it (a bug reachable from a seat's output, docs/dependencies.md
// §9.8) marks the Screen broken instead of reaching the goroutine that fed
// it — the UI's among them, where it would end the program — and the
// Screen then keeps its last picture and takes nothing more, so the same
// bytes are never fed again. err, when given, gets the error.
func (s *Screen) contain(err *error) {
	r := recover()
	if r == nil {
		return
	}
	s.broke(r)
	if err != nil {
		*err = s.broken
	}
}

// broke marks the Screen broken by the panic value r and drops what it
// held.
func (s *Screen) broke(r any) {
	if s.broken == nil {
		s.broken = fmt.Errorf("%w: %v", ErrScreenBroken, r)
	}
	s.bufBase += int64(len(s.buf))
	s.buf = s.buf[:0]
	s.runHeld = time.Time{}
	s.version++
	s.signal()
}

// inject writes bytes of our own to the emulator (margin corrections).
func (s *Screen) inject(b string) {
	_, _ = s.emu.WriteString(b)
	s.version++
}

// ---------------------------------------------------------------------------
// feed: where Screen may end an emulator Write, and the right-margin fix.
//
// x/vt v0.1.0 buffers printed characters into a grapheme cluster and places
// the cluster when a control, a sequence, an ASCII character or the END OF A
// Write arrives. So a cluster split across two writes ("e" | U+0301, "👩" |
// ZWJ "💻") is placed as two, and the screen depends on where the PTY reads
// happened to split. And handleGrapheme drops a wide cluster that reaches past
// the right margin instead of wrapping it, and leaves no pending wrap after a
// wide cluster that exactly fills the row, so the next character overwrites
// its right half (charmbracelet/x#975; fix PRs #957/#977 not released).
//
// The mirror below follows the same byte stream with x/ansi's exported
// transition table and the same cluster segmentation x/vt uses
// (ansi.FirstGraphemeCluster with ansi.GraphemeWidth), so Screen knows where
// every cluster starts and ends and where x/vt's buffer is empty. With that it
// (1) ends each emulator Write only at points where x/vt's end-of-write flush
// changes nothing, holding back the last cluster for the next read, and
// (2) before a wide cluster that reaches the margin, feeds the emulator up to
// the cluster, reads the real cursor, and writes CR + IND (what an xterm's
// autowrap does) when the cluster would not fit; after a wide cluster that
// exactly fills the row it sets x/vt's pending-wrap state by printing one
// narrow character at the last column and restoring the wide cell with
// SetCell. The cursor is read from the emulator, never re-implemented. (3) A
// REP whose count exceeds screen plus scrollback is replaced by the shortest
// count that leaves the same screen (x/vt repeats one character at a time
// while Screen holds its lock). Unfinished sequences are held with the last
// cluster, so a REP split across reads can still be replaced whole.
//
// It mirrors x/vt v0.1.0 internals (utf8.go handlePrint/flushGrapheme/
// handleGrapheme, csi_cursor.go REP): TestXVTStillDropsWideCharAtMargin and
// TestXVTStillSplitsClusterAcrossWrites fail when an upgrade fixes them, the
// signal to delete the matching part. FuzzScreenSplit (any split of a stream
// gives the same screen) and FuzzScreenMatchesXVT (without corrections the
// emulator's state is exactly x/vt's) check the mirror against x/vt itself.
// ---------------------------------------------------------------------------

// mirror is the part of x/vt's parser and print state that decides where
// clusters land. Offsets are positions in the whole output stream.
type mirror struct {
	fed int64 // stream offset fed to the emulator so far

	state    parser.State
	utf8Want int     // bytes of the rune being collected
	utf8Have int     // bytes collected so far
	utf8     [4]byte // the rune's bytes
	utf8Lead int64   // offset of its lead byte
	utf8Gnd  bool    // parser was in the ground state at the lead byte
	owed     int     // continuation bytes a UTF-8 character in an OSC or DCS string still owes (stringByte)
	seqStart int64   // offset of the ESC or C1 byte that began the current sequence
	p0       int     // first CSI parameter, accumulated as x/ansi does
	p1       int     // the second, likewise (clampMargins)
	pIdx     int     // index of the CSI parameter being collected
	prefix   bool    // the sequence has a private prefix (< = > ?)
	inter    bool    // the sequence has an intermediate byte

	gbuf     []byte     // x/vt's cluster buffer: the encoded runes not yet placed
	marks    []runeMark // one per rune in gbuf
	lastChar byte       // x/vt's lastChar (REP), 0 = none

	// Cursor simulation between reads of the real cursor: valid while
	// known; any control, sequence or resize makes it unknown (DECAWM can
	// only change through a sequence, so awm stays valid with it).
	known bool
	x     int
	ph    bool // pending wrap
	awm   bool // DECAWM at the last real-cursor read
	width int
	rows  int

	// Line tracking and line-feed batching (scrollbatch.go).
	lines      bool         // x is followed across CR, LF, HT, BS and SGR (readLineModes)
	modesStale bool         // a sequence other than SGR came since readLineModes
	tabsSet    bool         // HTS, TBC or DECST8C since the last resize: tab stops may be moved
	tabs       *uv.TabStops // x/vt's tab stops as long as tabsSet is false
	csiAt      int64        // offset of the ESC or C1 CSI that left the ground state last
	seg        segment      // the bytes since the last line feed recorded in lfs
	lfs        []lineFeed   // line feeds scanned but not fed yet, in stream order
	lfHead     int          // lfs[:lfHead] are fed
	sgrs       []sgrSpan    // SGRs of clean segments not fed yet
	sgrHead    int          // sgrs[:sgrHead] are fed
	runLen     int          // clean line feeds in a row up to the last one
	single     bool         // SS2 or SS3 since the last resize: never skip
}

// runeMark says where a rune of gbuf came from. lead is where Screen may end
// a Write to place the clusters before this rune (x/vt's buffer then holds
// nothing the end-of-write flush could split); end, right after the rune, is
// the same for the clusters up to and including it. gnd: the parser is in the
// ground state at lead, so our own bytes may be written there.
type runeMark struct {
	lead, end int64
	gnd       bool
}

// scan runs the mirror over buf[from:].
func (s *Screen) scan(from int) {
	m := &s.m
	for i := from; i < len(s.buf); i++ {
		b := s.buf[i]
		off := s.bufBase + int64(i)
		switch {
		case m.state == parser.Utf8State:
			// x/ansi collects the announced number of bytes whatever they
			// are, then prints the decoded rune (RuneError if invalid).
			m.utf8[m.utf8Have] = b
			m.utf8Have++
			if m.utf8Have < m.utf8Want {
				continue
			}
			r, _ := utf8.DecodeRune(m.utf8[:m.utf8Want])
			m.state = parser.GroundState
			s.print(r, runeMark{lead: m.utf8Lead, end: off + 1, gnd: m.utf8Gnd})
		case m.state == parser.GroundState && b >= ansi.SP && b < ansi.DEL:
			j := i + 1
			for j < len(s.buf) && s.buf[j] >= ansi.SP && s.buf[j] < ansi.DEL {
				j++
			}
			s.printASCII(i, j)
			i = j - 1
		case m.state == parser.OscStringState || m.state == parser.DcsStringState:
			s.step(s.stringByte(i), off)
		default:
			m.owed = 0
			s.step(b, off)
		}
	}
}

// stringByte returns buf[i], a byte of an OSC or DCS string, as the
// emulator is to see it. x/ansi ends such a string at 0x9C, the C1 form of
// ST, even where that byte continues a UTF-8 character of the payload
// (charmbracelet/x#848, fixes #946/#976 unreleased): Claude Code's title
// "✳ Claude Code" (E2 9C B3) ended after E2 and " Claude Code" was printed
// at the caret; 本 (E6 9C AC) in a title does the same. Such a 0x9C becomes
// 0xBF, another continuation byte, which the string keeps: the title gets
// another character in that place (it is not shown anywhere), the screen
// gets nothing. A 0x9C that continues nothing still ends the string.
func (s *Screen) stringByte(i int) byte {
	m := &s.m
	b := s.buf[i]
	switch {
	case b >= 0xC2 && b <= 0xDF:
		m.owed = 1
	case b >= 0xE0 && b <= 0xEF:
		m.owed = 2
	case b >= 0xF0 && b <= 0xF4:
		m.owed = 3
	case b >= 0x80 && b <= 0xBF && m.owed > 0:
		m.owed--
		if b == 0x9C {
			s.buf[i] = 0xBF
			s.fixes++
			return 0xBF
		}
	default:
		m.owed = 0
	}
	return b
}

// step runs the parser's transition for byte b at off (not in a rune).
func (s *Screen) step(b byte, off int64) {
	m := &s.m
	prev := m.state
	next, action := parser.Table.Transition(prev, b)
	if prev != next && prev == parser.EscapeState {
		m.clearSeq()
	}
	if b == ansi.ESC && prev == parser.EscapeState {
		action = parser.ExecuteAction // x/ansi: two ESCs in a row
	}
	m.state = next
	switch action {
	case parser.PrintAction, parser.ExecuteAction, parser.DispatchAction:
		// print, control and sequence keep the segment's account
	default:
		if m.seg.clean && !sgrStep(prev, next, action) {
			m.seg.clean = false
		}
	}
	switch action {
	case parser.PrintAction:
		s.print(rune(b), runeMark{lead: off, end: off + 1, gnd: true})
	case parser.ExecuteAction:
		s.flushCluster() // x/vt flushes before every control
		s.control(prev, b, off)
	case parser.DispatchAction:
		s.flushCluster() // and before every sequence handler
		s.sequence(prev, b, off)
		s.dispatched(prev, b, off)
		if next == parser.EscapeState { // the ESC of an ST may begin the next one
			m.seqStart = off
		}
	case parser.ClearAction:
		m.clearSeq()
		if prev != parser.EscapeState || next != parser.CsiEntryState {
			// An ESC [ pair starts at the ESC: a held CSI keeps it, so an
			// SGR's bytes are still there when it ends (sgrBackground).
			m.seqStart = off
		}
		if prev == parser.GroundState {
			m.csiAt = off // an ESC or a C1 CSI: where an SGR would begin
		}
	case parser.CollectAction:
		if next == parser.Utf8State {
			m.utf8Want, m.utf8Have = UTF8Len(b), 1
			m.utf8[0] = b
			m.utf8Lead, m.utf8Gnd = off, prev == parser.GroundState
		} else {
			m.inter = true
		}
	case parser.PrefixAction:
		m.prefix = true
	case parser.ParamAction:
		m.param(b)
	case parser.StartAction:
		m.seqStart = off
	}
}

// utf8Len is x/ansi's rune length for a lead byte it collects.
func UTF8Len(b byte) int {
	switch {
	case b >= 0xF0:
		return 4
	case b >= 0xE0:
		return 3
	default:
		return 2
	}
}

func (m *mirror) clearSeq() {
	m.p0, m.p1, m.pIdx, m.prefix, m.inter = parser.MissingParam, parser.MissingParam, 0, false, false
}

// param mirrors x/ansi's ParamAction for the first two parameters.
func (m *mirror) param(b byte) {
	p := &m.p0
	if m.pIdx == 1 {
		p = &m.p1
	}
	first := m.pIdx <= 1
	switch {
	case b >= '0' && b <= '9':
		if first {
			if *p == parser.MissingParam {
				*p = 0
			}
			*p = *p*10 + int(b-'0')
		}
	case b == ':':
		if first {
			*p |= parser.HasMoreFlag
		}
		m.pIdx++
	case b == ';':
		m.pIdx++
	}
}

// dispatched mirrors the two sequence handlers that touch the cluster
// buffer: REP prints lastChar n times (leaving the last one buffered), RIS
// forgets lastChar.
func (s *Screen) dispatched(prev parser.State, final byte, off int64) {
	m := &s.m
	csi := prev == parser.CsiEntryState || prev == parser.CsiParamState || prev == parser.CsiIntermediateState
	switch {
	case prev == parser.EscapeState && final == 'c':
		m.lastChar = 0
	case csi && (final == 'r' || final == 's') && !m.prefix && !m.inter:
		s.clampMargins(final, off)
	case (prev == parser.CsiEntryState || prev == parser.CsiParamState || prev == parser.CsiIntermediateState) &&
		final == 'b' && !m.prefix && !m.inter:
		n := m.p0 & parser.ParamMask
		if n == parser.MissingParam {
			n = 1
		}
		if limit := m.width * (m.rows + s.sbLines + 1); n > limit && m.lastChar != 0 {
			// x/vt runs REP one character at a time under our lock: a
			// stray "CSI 999999999 b" (cat of a binary file) would freeze
			// the pane and the UI for minutes. Past limit every further
			// row only scrolls a row of lastChar through a screen and a
			// scrollback already full of them, so a count with the same
			// remainder gives the same screen. Feed the sequence without
			// its final byte, cancel it (CAN) and send the shorter one.
			s.feedTo(off)
			s.inject(fmt.Sprintf("\x18\x1b[%db", limit+(n-limit)%m.width))
			m.fed = off + 1 // the original final byte is replaced
			s.fixes++
			return // the inject's own end-of-write placed the last copy
		}
		if n >= 1 && m.lastChar != 0 {
			// The earlier repeats are placed by the handler itself; the
			// last one stays in x/vt's buffer. It has no bytes of its own:
			// Screen can hold it only by holding the whole sequence.
			m.gbuf = append(m.gbuf[:0], m.lastChar)
			m.marks = append(m.marks[:0], runeMark{lead: m.seqStart, end: off + 1, gnd: false})
		}
	}
}

// clampMargins replaces a DECSTBM (final 'r') whose bottom margin lies below
// the last row, or a DECSLRM ('s') whose right margin lies past the last
// column, by the same sequence with that margin on the last row or column,
// as tmux and xterm clamp it. x/vt takes such a margin as it is and the next
// scroll, index or insert inside the region indexes past its buffer and
// panics: a seat printing "\e[1;99r\eM" stopped its pane for good
// (docs/dependencies.md §9.8). The parameters are the mirror's, counted as
// x/ansi counts them; a 's' without DECLRMM is SCOSC, which ignores them.
func (s *Screen) clampMargins(final byte, off int64) {
	m := &s.m
	limit := m.rows
	if final == 's' {
		limit = m.width
	}
	far := m.p1 & parser.ParamMask
	if m.pIdx < 1 || far == parser.MissingParam || far <= limit {
		return
	}
	near := m.p0 & parser.ParamMask
	if near == parser.MissingParam {
		near = 1
	}
	s.feedTo(off)
	s.inject(fmt.Sprintf("\x18\x1b[%d;%d%c", near, limit, final))
	m.fed = off + 1 // the original final byte is replaced
	s.fixes++
}

// printASCII prints buf[i:j], printable ASCII in the ground state: what
// print does for each byte, in one step while no wrap can happen.
func (s *Screen) printASCII(i, j int) {
	m := &s.m
	s.print(rune(s.buf[i]), s.byteMark(i))
	placed := j - 1 - i // the characters before the last, which stays buffered
	if placed == 0 {
		return
	}
	switch {
	case !m.known:
		m.seg.clean = false // the cursor is not known: this may wrap
	case !m.awm:
		m.x = min(m.x+placed, m.width-1)
	case !m.ph && m.x+placed <= m.width-1:
		m.x += placed
	default: // near the right margin: one at a time
		for k := i + 1; k < j; k++ {
			s.print(rune(s.buf[k]), s.byteMark(k))
		}
		return
	}
	m.seg.ascii = true
	m.lastChar = s.buf[j-2]
	m.gbuf[0], m.marks[0] = s.buf[j-1], s.byteMark(j-1)
}

// byteMark is the runeMark of the one-byte rune buf[k], in the ground state.
func (s *Screen) byteMark(k int) runeMark {
	off := s.bufBase + int64(k)
	return runeMark{lead: off, end: off + 1, gnd: true}
}

// print mirrors x/vt's handlePrint.
func (s *Screen) print(r rune, mk runeMark) {
	m := &s.m
	if !mk.gnd {
		m.seg.clean = false // a rune that ended a string sequence
	}
	if r >= ansi.SP && r < ansi.DEL {
		if len(m.gbuf) == 1 && m.gbuf[0] >= ansi.SP && m.gbuf[0] < ansi.DEL {
			s.place(m.gbuf, 1, 0, 0)
			m.gbuf[0] = byte(r)
			m.marks[0] = mk
			return
		}
		s.flushCluster()
	}
	m.gbuf = utf8.AppendRune(m.gbuf, r)
	m.marks = append(m.marks, mk)
}

// flushCluster places every cluster in the buffer (x/vt's flushGrapheme).
func (s *Screen) flushCluster() {
	s.placeClusters(false)
}

// placeClusters segments the buffer as flushGrapheme does and places the
// clusters; with keepLast the last one stays buffered (it may still grow).
func (s *Screen) placeClusters(keepLast bool) {
	m := &s.m
	rest, r0 := m.gbuf, 0
	for len(rest) > 0 {
		cluster, width, n := firstCluster(rest)
		if len(cluster) == 0 || keepLast && len(cluster) == len(rest) {
			break
		}
		s.place(cluster, width, r0, r0+n-1)
		rest = rest[len(cluster):]
		r0 += n
	}
	if !keepLast {
		m.gbuf, m.marks = m.gbuf[:0], m.marks[:0]
		return
	}
	// Keep the unplaced cluster at the front of the buffer.
	m.gbuf = m.gbuf[:copy(m.gbuf, rest)]
	m.marks = m.marks[:copy(m.marks, m.marks[r0:])]
}

// firstCluster is ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth), which
// x/vt uses, and the cluster's rune count. A rune of plainRune followed by
// another (or by nothing) is a cluster of its own, whatever else the text
// holds: the segmenter and the width lookup were a quarter of Screen's own
// cost on CJK text (make compare's mixed stream). TestFirstClusterMatchesXAnsi
// checks every such rune against x/ansi itself.
func firstCluster(b []byte) (cluster []byte, width, runes int) {
	r, n := utf8.DecodeRune(b)
	if w, ok := plainRune(r); ok {
		if n == len(b) {
			return b, w, 1
		}
		if r2, _ := utf8.DecodeRune(b[n:]); isPlain(r2) {
			return b[:n], w, 1
		}
	}
	cluster, width = ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
	return cluster, width, utf8.RuneCount(cluster)
}

// plainRune reports the width of a rune that neither extends the rune before
// it nor is extended by a rune of this set after it (Unicode grapheme class
// Other, no Extend, SpacingMark, ZWJ, Prepend, jamo, regional indicator or
// emoji): printable ASCII, box drawing and block elements (1), CJK symbols,
// kana, ideographs, Hangul syllables and fullwidth forms (2).
func plainRune(r rune) (int, bool) {
	switch {
	case r >= 0x20 && r < 0x7f, r >= 0x2500 && r <= 0x259f:
		return 1, true
	case r >= 0x3000 && r <= 0x3029, r >= 0x3041 && r <= 0x3096, r >= 0x30a1 && r <= 0x30fa,
		r >= 0x30fc && r <= 0x30fe, r >= 0x3400 && r <= 0x4dbf, r >= 0x4e00 && r <= 0x9fff,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xff01 && r <= 0xff60:
		return 2, true
	}
	return 0, false
}

func isPlain(r rune) bool {
	_, ok := plainRune(r)
	return ok
}

// settle ends a Write: the clusters that can no longer change are placed and
// the stream is fed up to the held cluster, or entirely when force.
func (s *Screen) settle(force bool) {
	m := &s.m
	end := s.bufBase + int64(len(s.buf))
	if force {
		s.flushCluster()
		s.feedTo(end)
		return
	}
	// Hold an unfinished rune or sequence too: the right-margin check needs
	// to cut before a rune, and a long REP can only be replaced whole.
	cut := end
	switch m.state {
	case parser.GroundState:
	case parser.Utf8State:
		cut = m.utf8Lead
	default:
		cut = m.seqStart
	}
	if len(m.gbuf) > 0 {
		s.placeClusters(true)
		// The held cluster is now first in the buffer: x/vt's buffer is
		// empty right before its first rune.
		cut = min(cut, m.marks[0].lead)
	}
	s.feedTo(cut)
}

// place mirrors x/vt's handleGrapheme for the cluster made of marks[r0..r1]
// and corrects the right margin for wide clusters.
func (s *Screen) place(cluster []byte, width, r0, r1 int) {
	m := &s.m
	if len(cluster) == 1 {
		m.lastChar = cluster[0]
		m.seg.ascii = true
	}
	if width >= 2 && width <= m.width {
		if m.known && !(m.awm && s.nearMargin(width)) {
			s.wrapMark(r0)
			s.advance(width)
			return
		}
		s.placeWide(width, r0, r1)
		return
	}
	if m.known {
		s.wrapMark(r0)
		s.advance(width)
		return
	}
	m.seg.clean = false // the cursor is not known: this may wrap
}

// nearMargin: the wide cluster would start where it cannot fit or exactly
// fills the row, after a pending wrap is taken.
func (s *Screen) nearMargin(width int) bool {
	m := &s.m
	x := m.x
	if m.ph {
		x = 0
	}
	return x+width >= m.width
}

// advance moves the simulated cursor the way handleGrapheme does.
func (s *Screen) advance(width int) {
	m := &s.m
	awm := m.awm
	if m.ph && awm {
		m.x, m.ph = 0, false
	}
	m.ph = awm && m.x >= m.width-1
	if !m.ph {
		m.x = min(m.x+width, m.width-1)
	}
}

// placeWide feeds the emulator up to a wide cluster, reads the real cursor
// and corrects what x/vt would get wrong at the right margin.
func (s *Screen) placeWide(width, r0, r1 int) {
	m := &s.m
	m.seg.clean = false // it may wrap or feed here
	cut, gnd := m.marks[0].lead, m.marks[0].gnd
	if r0 > 0 {
		cut, gnd = m.marks[r0-1].end, true
	}
	if cut < m.fed || !gnd {
		// The cut point lies inside a sequence (ESC followed by a rune):
		// nothing of ours may be written there. Leave it to x/vt.
		m.known = false
		return
	}
	s.feedTo(cut)
	pos := s.emu.CursorPosition()
	x := pos.X
	s.readLineModes()
	if !m.awm {
		m.known, m.x, m.ph = true, x, false
		s.advance(width)
		return
	}
	if x+width > m.width {
		// x/vt would drop the cluster: wrap first, as an xterm does.
		s.inject("\r\x1bD")
		s.fixes++
		x = 0
	}
	if x+width < m.width {
		m.known, m.x, m.ph = true, x+width, false
		return
	}
	// Exactly fills the row: let x/vt place it, then give it the pending
	// wrap x/vt forgets, so the next character starts a new row instead of
	// overwriting the cluster's right half.
	s.feedTo(m.marks[r1].end)
	pos = s.emu.CursorPosition()
	at := m.width - width
	cell := s.emu.CellAt(at, pos.Y)
	if cell == nil || cell.Width != width || pos.X != m.width-1 {
		m.known = false // not what x/vt v0.1.0 does: leave it alone
		return
	}
	saved := cell.Clone()
	c := m.lastChar
	if c == 0 {
		c = ' '
		m.lastChar = c
	}
	// A narrow character at the last column sets x/vt's pending wrap (and
	// keeps lastChar); it breaks the wide cell, which SetCell restores.
	s.inject(string(rune(c)))
	s.emu.SetCell(at, pos.Y, saved)
	s.fixes++
	m.known, m.x, m.ph = true, m.width-1, true
}

// pumpWrite writes b to screen (nil: flushes it); a panic inside the emulator (x/vt indexes
// past its buffer under a scroll region below the last row,
// docs/dependencies.md §9.8) becomes an error, after which Pump drains the PTY
// to its end instead of leaving the child blocked on a full terminal.
func pumpWrite(screen *Screen, b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pump: the emulator panicked: %v", r)
		}
	}()
	if b == nil {
		screen.Flush()
		return nil
	}
	if _, err := screen.Write(b); err != nil {
		return fmt.Errorf("pump: %w", err)
	}
	return nil
}

// pumpChunk is Pump's read size, and pumpAhead how many reads may wait for
// the Screen: Pump's read-ahead goroutine keeps draining the PTY while the
// Screen works on an earlier read, so a program printing fast is not stopped
// each time the emulator takes its turn (a raw PTY read here is 25–30 MB/s,
// a tmux pane 20). At most pumpAhead × pumpChunk bytes wait. A Linux PTY
// read returns at most 4 KB, so 4 reads covered ~12 KB, under 1 ms of a
// line flood, while feeding a held flood takes ~15 ms; with 16 the flood in
// make compare ran 0.86–1.1 s instead of 1.1–1.4 s per 20 MB (32 did not
// help). pumpKeep buffers are kept for reuse once the burst is over.
const (
	pumpChunk = 32 << 10
	pumpAhead = 16
	pumpKeep  = 4
)

// Pump copies a seat's PTY output into its Screen until the PTY ends: it
// returns nil at io.EOF (the child and its children closed the terminal) or
// when the Proc was closed, else the read error (or ErrScreenClosed when the
// Screen was closed first, or the emulator's panic; what the PTY still gives
// is then read and dropped until it ends). It flushes the Screen before
// returning (not after a panic). x/vt
// carries runes split across reads itself; Screen carries split grapheme
// clusters (see feed). Run it in the seat's reader goroutine; it reads in a
// goroutine of its own (owned and waited for by Pump, ending with the PTY)
// and writes to the Screen in order.
func Pump(proc io.Reader, screen *Screen) error {
	reads := make(chan []byte, pumpAhead)
	free := make(chan []byte, pumpKeep)
	done := make(chan struct{})
	var readErr error
	go func() {
		defer close(done)
		defer close(reads)
		defer func() {
			if r := recover(); r != nil {
				readErr = fmt.Errorf("read panicked: %v", r)
			}
		}()
		for {
			var b []byte
			select {
			case b = <-free:
			default:
				b = make([]byte, pumpChunk)
			}
			n, err := proc.Read(b)
			if n > 0 {
				reads <- b[:n]
			}
			if err != nil {
				readErr = err
				return
			}
		}
	}()
	var werr error
	for b := range reads {
		if werr == nil {
			werr = pumpWrite(screen, b)
		}
		select {
		case free <- b[:cap(b)]:
		default:
		}
	}
	<-done
	if werr == nil {
		werr = pumpWrite(screen, nil) // the held tail: Flush
	}
	switch {
	case werr != nil:
		return werr
	case errors.Is(readErr, io.EOF) || errors.Is(readErr, os.ErrClosed):
		return nil
	}
	return fmt.Errorf("pump: %w", readErr)
}
