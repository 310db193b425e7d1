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

	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal/emu"
)

// ScrollbackLines caps each seat's scrollback at tmux's default history.
// emu could keep more (10 000 lines of 200 columns take ~17.5 MB, its
// TestScrollbackMemory), but its rows are full-width, so a line flood cycles
// cols × 8 bytes a line through the scrollback: at 10 000 lines (16 MB at
// 200 columns) that left the cache and doubled emu's CPU time on make
// compare's flood (8.6 against 4.1 ms/MB, BenchmarkWrite/stream=flood).
const ScrollbackLines = 2000

// graphemeHold is how long Screen leaves a trailing grapheme cluster unplaced
// when the next read might extend it (a combining mark, a ZWJ emoji, a
// variation selector split across two PTY reads). Reads of one burst arrive
// back to back (well under 1 ms); 8 ms is half a 60 Hz frame, so holding
// never costs a visible frame.
const graphemeHold = 8 * time.Millisecond

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
// Cols cells, colours and attributes as SGR sequences, links as OSC 8. The
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

// Screen is one seat's terminal: our own state machine (package emu) behind
// one mutex. Pump feeds it the PTY output; the UI reads Snapshots when
// Changed fires, and a Snapshot renders again only the rows that changed
// since the last one (emu's dirty rows).
//
// Replies the emulator owes the child (cursor position, device attributes,
// mode reports) are collected while Write holds the lock and handed to the
// reply function, in order, after it is released, on Write's goroutine; reply
// must not block nor call back into the Screen (the seat wires it to Typist.Reply, which only enqueues;
// docs/design.md §14 "One writer per PTY").
type Screen struct {
	mu  sync.Mutex
	emu *emu.Terminal

	version uint64
	lines   []string // the rows as the last Snapshot rendered them
	rowBuf  []byte   // scratch for rendering one row
	out     []byte   // replies collected during the current call, under mu

	paste     atomic.Bool // ?2004 bracketed paste, as of the last write; read without s.mu
	appCursor atomic.Bool // ?1 DECCKM, likewise
	closed    bool
	broken    error         // ErrScreenBroken with the panic, once the emulator panicked (contain)
	holdDelay time.Duration // 0: never flush on a timer (tests call Flush)

	// replyMu keeps replies in the order of the writes that caused them: a
	// call takes it before releasing mu and holds it while reply runs.
	replyMu sync.Mutex
	reply   func([]byte)

	changed chan struct{} // capacity 1: "the screen moved", coalesced
	kick    chan struct{} // capacity 1: a cluster is held, arm the flush timer
	// flushAt is when the held cluster is placed (kickFlusher); timerSet: the
	// flusher has been told and its timer runs until then or later.
	flushAt  time.Time
	timerSet bool
	done     chan struct{} // closed by Close
	wg       sync.WaitGroup
}

// NewScreen returns a cols×rows screen (1…32767 each, else ErrBadSize) with a
// ScrollbackLines scrollback. reply receives the emulator's replies in order
// (see Screen); nil discards them. Close releases the Screen's goroutine.
func NewScreen(cols, rows int, reply func([]byte)) (*Screen, error) {
	return newScreen(cols, rows, reply, graphemeHold)
}

func newScreen(cols, rows int, reply func([]byte), hold time.Duration) (*Screen, error) {
	return newScreenLines(cols, rows, ScrollbackLines, reply, hold)
}

func newScreenLines(cols, rows, scrollback int, reply func([]byte), hold time.Duration) (*Screen, error) {
	if err := pty.CheckSize(cols, rows); err != nil {
		return nil, err
	}
	if reply == nil {
		reply = func([]byte) {}
	}
	s := &Screen{
		holdDelay: hold,
		changed:   make(chan struct{}, 1),
		kick:      make(chan struct{}, 1),
		done:      make(chan struct{}),
		reply:     reply,
	}
	// The emulator replies synchronously inside its calls, which always hold s.mu.
	s.emu = emu.New(cols, rows, scrollback, func(b []byte) { s.out = append(s.out, b...) })
	s.wg.Add(1)
	go s.flusher()
	return s, nil
}

// flusher places a held cluster once it has waited holdDelay (see graphemeHold).
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
		case <-timer.C:
		}
		if d := s.flushDue(); d > 0 {
			timer.Reset(d)
		} else {
			s.Flush()
		}
	}
}

// Write feeds PTY output to the emulator and always reports len(p), nil
// unless the Screen is closed (ErrScreenClosed) or broken. A trailing cluster
// the next write may extend stays unplaced for up to graphemeHold; an
// unfinished sequence or character waits for the rest of its bytes.
func (s *Screen) Write(p []byte) (n int, err error) {
	s.mu.Lock()
	defer s.unlock()
	defer s.contain(&err)
	if s.closed {
		return 0, ErrScreenClosed
	}
	if s.broken != nil {
		return 0, s.broken
	}
	if len(p) == 0 {
		return 0, nil
	}
	_, _ = s.emu.Write(p)
	m := s.emu.Modes()
	s.paste.Store(m.BracketedPaste)
	s.appCursor.Store(m.AppCursorKeys)
	s.version++
	s.kickFlusher()
	s.signal()
	return len(p), nil
}

// unlock releases s.mu and hands the replies collected under it to the
// reply function, in order (see replyMu).
func (s *Screen) unlock() {
	out := s.out
	s.out = nil
	if len(out) == 0 {
		s.mu.Unlock()
		return
	}
	s.replyMu.Lock()
	s.mu.Unlock()
	defer s.replyMu.Unlock()
	s.reply(out)
}

// kickFlusher arms the flush timer while a cluster is held. It runs once
// per PTY read: it only moves the deadline, and wakes the flusher when its
// timer is not running (flushDue re-arms it for a later deadline).
func (s *Screen) kickFlusher() {
	if !s.emu.Holding() || s.holdDelay <= 0 {
		s.flushAt = time.Time{}
		return
	}
	s.flushAt = time.Now().Add(s.holdDelay)
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
// stopped and it places the held cluster.
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

// Flush places a held cluster now (Pump calls it at EOF).
func (s *Screen) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(nil)
	if s.closed || s.broken != nil || !s.emu.Holding() {
		return
	}
	s.emu.Flush()
	s.flushAt = time.Time{}
	s.version++
	s.signal()
}

// Resize sets the screen to cols×rows cells (ErrBadSize outside 1…32767).
// Nothing reflows (emu.Terminal.Resize, docs/dependencies.md §2.4):
// full-screen programs redraw on their SIGWINCH.
func (s *Screen) Resize(cols, rows int) (err error) {
	if err := pty.CheckSize(cols, rows); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.unlock()
	defer s.contain(&err)
	if s.closed {
		return ErrScreenClosed
	}
	if s.broken != nil {
		return nil // the picture stays as it was; the PTY still gets the size
	}
	s.emu.Resize(cols, rows)
	s.flushAt = time.Time{}
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

// Version counts the changes to the screen (writes, placed clusters,
// resizes); a pane re-renders when it moved.
func (s *Screen) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Snapshot copies the rendered screen, cursor, modes and version. Only the
// rows the emulator marks dirty are rendered again; the others are the
// strings the last Snapshot made.
func (s *Screen) Snapshot() (snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			s.broke(r)
			cols, rows := s.emu.Size()
			snap = Snapshot{Version: s.version, Cols: cols, Rows: rows,
				Lines: make([]string, rows), Broken: s.broken.Error()}
		}
	}()
	cols, rows := s.emu.Size()
	fresh := len(s.lines) != rows
	if fresh {
		s.lines = make([]string, rows)
	}
	for y := range rows {
		if fresh || s.emu.Dirty(y) {
			s.rowBuf = s.emu.RenderRow(y, s.rowBuf[:0])
			s.lines[y] = string(s.rowBuf)
		}
	}
	s.emu.ClearDirty()
	x, y, visible := s.emu.Cursor()
	m := s.emu.Modes()
	snap = Snapshot{
		Version:        s.version,
		Cols:           cols,
		Rows:           rows,
		Lines:          append([]string(nil), s.lines...),
		CursorX:        x,
		CursorY:        y,
		CursorVisible:  visible,
		AltScreen:      s.emu.AltScreen(),
		Title:          s.emu.Title(),
		BracketedPaste: m.BracketedPaste,
		AppCursorKeys:  m.AppCursorKeys,
		Mouse:          mouseModes(m.Mouse),
	}
	if s.broken != nil {
		snap.Broken = s.broken.Error()
	}
	return snap
}

// Text returns the screen as plain text, one line per row, trailing spaces
// removed (goldens, tests, copying).
func (s *Screen) Text() string {
	rows, _, _ := s.Plain()
	return strings.Join(rows, "\n")
}

// Plain returns the screen's rows as plain text (trailing spaces removed)
// and the cursor's cell: what a seat kind reads its CLI's input box from
// (docs/design.md §5 "Confirmed delivery").
func (s *Screen) Plain() (rows []string, cursorX, cursorY int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.contain(nil)
	_, n := s.emu.Size()
	rows = make([]string, n)
	for y := range rows {
		rows[y] = s.emu.PlainRow(y)
	}
	cursorX, cursorY, _ = s.emu.Cursor()
	return rows, cursorX, cursorY
}

// ScrollbackLen is the number of lines scrolled off the main screen (at most
// ScrollbackLines).
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
	defer s.contain(nil)
	from = max(from, 0)
	end := min(from+max(n, 0), s.emu.ScrollbackLen())
	if from >= end {
		return nil
	}
	out := make([]string, 0, end-from)
	for i := from; i < end; i++ {
		s.rowBuf = s.emu.RenderScrollbackRow(i, s.rowBuf[:0])
		out = append(out, string(s.rowBuf))
	}
	return out
}

// Close stops the flush timer and waits for it. Later writes report
// ErrScreenClosed; Snapshots keep the last screen.
func (s *Screen) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// contain is deferred, under s.mu, by every method that feeds the emulator:
// a panic inside it (a bug reachable from a seat's output) marks the Screen
// broken instead of reaching the goroutine that fed it — the UI's among
// them, where it would end the program — and the Screen then keeps its last
// picture and takes nothing more, so the same bytes are never fed again.
// err, when given, gets the error.
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

// broke marks the Screen broken by the panic value r.
func (s *Screen) broke(r any) {
	if s.broken == nil {
		s.broken = fmt.Errorf("%w: %v", ErrScreenBroken, r)
	}
	s.out = nil
	s.flushAt = time.Time{}
	s.version++
	s.signal()
}

// UTF8Len is the length of the UTF-8 character whose lead byte is b (x/ansi
// collects a character by its lead byte this way).
func UTF8Len(b byte) int { return emu.UTF8Len(b) }

// pumpWrite writes b to screen (nil: flushes it); a panic (in the emulator,
// or in the reply function, which runs on Write's goroutine) becomes an
// error, after which Pump drains the PTY to its end instead of leaving the
// child blocked on a full terminal.
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

// pumpChunk is Pump's read size (a Linux PTY read returns at most 4 KB),
// and pumpMax bounds the bytes read and not yet written to the Screen.
const (
	pumpChunk = 32 << 10
	pumpMax   = 256 << 10
)

// pumpQueue hands the bytes Pump's reader read to its writer: the reader
// appends each read to pending, the writer takes all of it at once. So the
// PTY is read while the emulator works on the bytes before (reading and
// writing in turn on one goroutine kept the kernel's 4 KB line-discipline
// buffer full for the length of every write, and a line flood ran at 0.88×
// the PTY's raw speed in make compare), and a writer that falls behind
// takes many reads in one Write, with no allocation per read.
type pumpQueue struct {
	mu      sync.Mutex
	ready   sync.Cond // pending has bytes, or the reader ended
	room    sync.Cond // pending has room again
	pending []byte
	ended   bool
	err     error // the reader's error, once ended
	stop    bool  // the writer gave up: drop what is read
}

// Pump copies a seat's PTY output into its Screen until the PTY ends: it
// returns nil at io.EOF (the child and its children closed the terminal) or
// when the Proc was closed, else the read error (or ErrScreenClosed when the
// Screen was closed first, or a panic in the write; what the PTY still gives
// is then read and dropped until it ends). It flushes the Screen before
// returning (not after a panic). The emulator carries runes, sequences and
// grapheme clusters split across reads. Run it in the seat's reader
// goroutine; it reads in a goroutine of its own (owned and waited for by
// Pump, ending with the PTY) and writes to the Screen in order.
func Pump(proc io.Reader, screen *Screen) error {
	q := &pumpQueue{}
	q.ready.L, q.room.L = &q.mu, &q.mu
	done := make(chan struct{})
	go q.read(proc, done)
	var werr error
	var batch []byte
	for {
		q.mu.Lock()
		for len(q.pending) == 0 && !q.ended {
			q.ready.Wait()
		}
		// Swap: the writer takes pending, the reader fills the last batch.
		batch, q.pending = q.pending, batch[:0]
		ended, readErr := q.ended, q.err
		q.stop = werr != nil
		q.room.Signal()
		q.mu.Unlock()
		if len(batch) > 0 && werr == nil {
			werr = pumpWrite(screen, batch)
		}
		if ended && len(batch) == 0 {
			<-done
			return pumpEnd(screen, werr, readErr)
		}
	}
}

// read is Pump's reader: every read appended to q.pending, waiting while
// pumpMax bytes wait for the writer; it ends at the PTY's end.
func (q *pumpQueue) read(proc io.Reader, done chan<- struct{}) {
	defer close(done)
	var err error
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("read panicked: %v", r)
		}
		q.mu.Lock()
		q.ended, q.err = true, err
		q.ready.Signal()
		q.mu.Unlock()
	}()
	b := make([]byte, pumpChunk)
	for {
		var n int
		n, err = proc.Read(b)
		if n > 0 {
			q.mu.Lock()
			for len(q.pending)+n > pumpMax && !q.stop {
				q.room.Wait()
			}
			if !q.stop {
				q.pending = append(q.pending, b[:n]...)
			}
			q.ready.Signal()
			q.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// pumpEnd flushes the Screen and says how Pump ended.
func pumpEnd(screen *Screen, werr, readErr error) error {
	if werr == nil {
		werr = pumpWrite(screen, nil) // the held cluster: Flush
	}
	switch {
	case werr != nil:
		return werr
	case errors.Is(readErr, io.EOF) || errors.Is(readErr, os.ErrClosed):
		return nil
	}
	return fmt.Errorf("pump: %w", readErr)
}
