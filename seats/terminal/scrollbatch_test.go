package terminal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
)

// batchPair is the same stream fed to a Screen that batches line feeds and
// to one that feeds every line feed on its own (the reference).
type batchPair struct {
	batched, plain       *Screen
	batchedLog, plainLog *replyLog
}

func newBatchPair(t testing.TB, cols, rows int) *batchPair {
	t.Helper()
	p := &batchPair{batchedLog: newReplyLog(), plainLog: newReplyLog()}
	p.batched = testScreen(t, cols, rows, p.batchedLog.reply)
	p.plain = testScreen(t, cols, rows, p.plainLog.reply)
	p.plain.unbatched = true
	return p
}

// smallScrollback gives both screens a scrollback of n lines, and lets the
// batched one skip runs of a single line feed, so that short streams reach
// the skipping.
func (p *batchPair) smallScrollback(n int) {
	for _, s := range []*Screen{p.batched, p.plain} {
		s.sbLines = n
		s.emu.SetScrollbackSize(n + scrollbackSlack)
	}
	p.batched.skipMin = 1
}

// write feeds both screens the same chunks.
func (p *batchPair) write(chunks ...[]byte) {
	for _, c := range chunks {
		_, _ = p.batched.Write(c)
		_, _ = p.plain.Write(c)
	}
}

// stateProbe, fed after the stream, makes the state a screen does not show
// visible: it ends any sequence or string left open (SUB, then ST), prints a
// character (the pending wrap, the pen, the charset), returns to the saved
// cursor and prints again (its position and pen), then asks for every mode
// x/vt knows (DECRQM) and the cursor position (CPR), whose answers are
// compared too.
var stateProbe = func() string {
	var b strings.Builder
	b.WriteString("\x1a\x1b\\Xy\x1b8Zw")
	for _, m := range []int{1, 6, 7, 9, 25, 66, 69, 1000, 1001, 1002, 1003, 1004, 1006, 1047, 1048, 1049, 2004} {
		fmt.Fprintf(&b, "\x1b[?%d$p", m)
	}
	b.WriteString("\x1b[20$p\x1b[6n")
	return b.String()
}()

// check flushes both screens, probes them and fails when anything differs:
// every cell with its style, the cursor, the alt screen, the scrollback, the
// title and input modes, and the answers to the probe.
func (p *batchPair) check(t testing.TB) {
	t.Helper()
	p.batched.Flush()
	p.plain.Flush()
	probe := []byte(stateProbe)
	p.write(probe)
	p.batched.Flush()
	p.plain.Flush()
	_ = p.batched.Close() // waits for the reply reader: every answer is logged
	_ = p.plain.Close()
	if a, b := batchState(p.batched, p.batchedLog), batchState(p.plain, p.plainLog); a != b {
		t.Fatalf("batched feed differs from unbatched:\nbatched:\n%s\nunbatched:\n%s", a, b)
	}
}

func batchState(s *Screen, log *replyLog) string {
	snap := s.Snapshot()
	s.mu.Lock()
	cells := emuCells(s.emu)
	s.mu.Unlock()
	log.mu.Lock()
	defer log.mu.Unlock()
	return fmt.Sprintf("%s\nvisible=%v title=%q paste=%v appCursor=%v\nreplies %q", cells,
		snap.CursorVisible, snap.Title, snap.BracketedPaste, snap.AppCursorKeys, log.buf.String())
}

// batchSeeds are streams that scroll: floods of short lines with colours,
// tabs and wide characters, with scroll regions, origin mode, LNM, margins,
// the alternate screen and a background that changes between line feeds.
var batchSeeds = []string{
	strings.Repeat("line\r\n", 40),
	strings.Repeat("\tfunc x() {\r\n\t\treturn 1\r\n\t}\r\n", 12),
	strings.Repeat("\x1b[32mPASS\x1b[39m ok\r\n\x1b[31;1mFAIL\x1b[0m no\r\n", 15),
	strings.Repeat("\x1b[44mblue\r\n\x1b[49mplain\r\n\x1b[48;2;1;2;3mrgb\x1b[m\r\n", 10),
	strings.Repeat("日本語のテキスト\r\n😀 emoji 👩\u200d💻\r\n", 15),
	"\x1b[2;5r\x1b[5;1H" + strings.Repeat("in region\r\n", 20),
	"\x1b[?6h\x1b[2;5r" + strings.Repeat("origin\r\n", 20),
	"\x1b[20h" + strings.Repeat("lnm\n", 20),
	"\x1b[?69h\x1b[3;8s" + strings.Repeat("margins\r\n", 20),
	"\x1b[?1049h" + strings.Repeat("alt\r\n", 20) + "\x1b[?1049l" + strings.Repeat("main\r\n", 20),
	strings.Repeat("a long line that wraps around the right margin of a narrow screen\r\n", 8),
	strings.Repeat("x\n", 30) + strings.Repeat("\r\n", 30),
	strings.Repeat("ab\bc\tz\r\n", 25),
	"\x1b[3g\x1b[5G\x1bH\r" + strings.Repeat("\ttab\r\n", 20),
	strings.Repeat("row\r\n\x1b[K", 20) + strings.Repeat("\x1b[2S\x1b[Ttext\r\n", 5),
	strings.Repeat("\x9b33mc1\x9b0m\r\n", 20),
	"\x1b7" + strings.Repeat("saved\r\n", 20) + "\x1b8",
	strings.Repeat("\x1b]0;title\x07osc\r\n\x1bP$qm\x1b\\dcs\r\n", 10),
	strings.Repeat("00\x9e日\xe600\r\n", 10),
	"\x1b[?7l" + strings.Repeat("no autowrap, a line longer than the screen\r\n", 10),
	strings.Repeat("\x1b[41m\x1b[Kred row\r\n", 12),
	strings.Repeat("e\u0301x\r\n\u0600\u0601a\r\n", 12),
	"\x1b[10;1H" + strings.Repeat("abc\r\n", 5) + "\x1b[5;1H" + strings.Repeat("def\n", 12),
	"\x1b#8" + strings.Repeat("DECALN\r\n", 15),
	strings.Repeat("\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;44mmany\r\n", 10),
	strings.Repeat("x\x1b[3bz\r\n", 15),
	strings.Repeat("\x1b[48:2::10:20:30mcolon\x1b[49m\r\n", 12),
	"\x1bc" + strings.Repeat("after reset\r\n", 15),
	progressBar(30, false) + "\r\n" + progressBar(20, true) + "\r\n",
	strings.Repeat("\r\x1b[2K\x1b[41mred\x1b[49m\r\x1b[2Kplain", 10) + "\x1b[3b\r\n",
	strings.Repeat("\x9b2Kc1\r\x1b[2;2K\r\x1b[2Kfull width line!", 8) + "z\r\n",
}

// progressBar is frames redraws of one row, as a progress bar draws it: CR,
// erase the row, a spinner, a coloured bar, a percentage (with wide
// characters when cjk).
func progressBar(frames int, cjk bool) string {
	var b strings.Builder
	for i := range frames {
		fmt.Fprintf(&b, "\r\x1b[2K\x1b[35m%c\x1b[39m build ", []rune("⠋⠙⠹⠸")[i%4])
		for j := range 20 {
			if j*frames < i*20 {
				fmt.Fprintf(&b, "\x1b[38;5;%dm█", 22+j)
			} else {
				b.WriteString("\x1b[48;5;238m \x1b[49m")
			}
		}
		fmt.Fprintf(&b, "\x1b[39m %3d%%", i*100/frames)
		if cjk {
			b.WriteString(" 日本語")
		}
	}
	return b.String()
}

func FuzzScreenBatchedMatchesUnbatched(f *testing.F) {
	for i, s := range batchSeeds {
		f.Add([]byte(s), []byte{byte(7 * i), 90, 3}, uint8(i), uint8(i))
		f.Add([]byte(s), []byte{byte(i)}, uint8(3*i), uint8(128+i))
	}
	for i, s := range screenSeeds {
		f.Add([]byte(strings.Repeat(s+"\r\n", 8)), []byte{byte(i), 5}, uint8(i), uint8(3*i))
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte, cols, rows uint8) {
		if xvtPanics(t, data, 2+int(cols)%40, 1+int(rows)%12) {
			return // x/vt's own crash (docs/dependencies.md §9.8), whatever the feeding
		}
		p := newBatchPair(t, 2+int(cols)%40, 1+int(rows)%12)
		if rows >= 128 { // half the inputs reach the skipping
			p.smallScrollback(1 + int(cols)%7)
		}
		rest := data
		for _, c := range cuts {
			if len(rest) == 0 {
				break
			}
			n := int(c) % (len(rest) + 1)
			p.write(rest[:n])
			rest = rest[n:]
		}
		p.write(rest)
		p.check(t)
	})
}

// xvtPanics reports whether x/vt panics on data (and the probe) at
// cols×rows, fed unbatched: a scroll region below the last row makes it index
// past its buffer (docs/dependencies.md §9.8).
func xvtPanics(t testing.TB, data []byte, cols, rows int) (panicked bool) {
	s := testScreen(t, cols, rows, nil)
	s.unbatched = true
	defer func() { panicked = recover() != nil }()
	_, _ = s.Write(data)
	_, _ = s.Write([]byte(stateProbe))
	s.Flush()
	return false
}

func TestScreenBatchesALineFlood(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "\x1b[3%dmline\x1b[m %d\t%s\r\n", i%8, i, strings.Repeat("x", i%30))
	}
	p := newBatchPair(t, 80, 24)
	p.write([]byte(b.String()))
	// 500 line feeds, 476 of them at the bottom; each run of up to 22 after
	// the first of a batch shares one scroll.
	if p.batched.batched < 400 {
		t.Fatalf("%d of 500 line feeds batched", p.batched.batched)
	}
	if p.plain.batched != 0 {
		t.Fatalf("the unbatched screen batched %d", p.plain.batched)
	}
	p.check(t)
}

// colourFlood is n lines of a coloured log, with tabs, wide characters, a
// background that changes now and then and an SGR that resets the pen.
func colourFlood(n int) string {
	var b strings.Builder
	for i := range n {
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, "\x1b[3%dm%05d\x1b[m\tINFO request %d\r\n", i%8, i, i*7)
		case 1:
			fmt.Fprintf(&b, "\t\t日本語 %d\x1b[1m bold\r\n", i)
		case 2:
			fmt.Fprintf(&b, "\x1b[44mblue background %d\x1b[49m\r\n", i)
		case 3:
			fmt.Fprintf(&b, "\x1b[38;2;%d;20;30mtruecolor\x1b[39m %s\r\n", i%256, strings.Repeat("x", i%40))
		default:
			fmt.Fprintf(&b, "line %d\r\n", i)
		}
	}
	return b.String()
}

func TestScreenSkipsALongFlood(t *testing.T) {
	t.Parallel()
	// With the real scrollback: held from the 2 280th line feed on
	// (scrollback, rows and minSkip); of the 3 720 held all but the last
	// 2 024 are skipped. Then what the skipped bytes leave behind, with a
	// scrollback of 20 lines: REP's character, a background before a scroll,
	// a line left open.
	for _, c := range []struct {
		scrollback, lines, skipped int
		tail                       string
	}{
		{0, 6000, 1500, ""},
		{20, 600, 400, "\x1b[3b"},
		{20, 600, 400, "\x1b[41m\x1b[5S"},
		{20, 600, 400, "last line, no newline"},
	} {
		p := newBatchPair(t, 80, 24)
		if c.scrollback > 0 {
			p.smallScrollback(c.scrollback)
		}
		// In reads of 4 KiB, as a PTY delivers them; one Flush at the end.
		data := []byte(colourFlood(c.lines) + c.tail)
		for off := 0; off < len(data); off += 4096 {
			p.write(data[off:min(off+4096, len(data))])
		}
		p.batched.Flush()
		if p.batched.skipped < c.skipped {
			t.Fatalf("%+v: %d of %d line feeds skipped", c, p.batched.skipped, c.lines)
		}
		p.check(t)
	}
}

func TestScreenSkipsProgressFrames(t *testing.T) {
	t.Parallel()
	p := newBatchPair(t, 80, 24)
	data := []byte("building\r\n" + progressBar(200, true) + "\r\ndone\r\n")
	for off := 0; off < len(data); off += 4096 {
		p.write(data[off:min(off+4096, len(data))])
	}
	p.batched.Flush()
	if p.batched.skipped < 150 {
		t.Fatalf("%d of 200 frames skipped", p.batched.skipped)
	}
	p.check(t)
}

func TestScreenFloodHeldThenFed(t *testing.T) {
	t.Parallel()
	s, err := newScreen(80, 24, nil, 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	data := []byte(colourFlood(6000) + "the end\r\n")
	for off := 0; off < len(data); off += 4096 {
		_, _ = s.Write(data[off:min(off+4096, len(data))])
	}
	// The flood is held (the last part at least): the timer feeds it.
	deadline := time.After(screenDeadline)
	for !strings.Contains(s.Text(), "the end") {
		select {
		case <-s.Changed():
		case <-deadline:
			t.Fatalf("held flood never fed: %q", s.Text())
		}
	}
	if s.skipped == 0 {
		t.Fatal("nothing skipped")
	}
}

func TestScreenQueryAnsweredDuringFlood(t *testing.T) {
	t.Parallel()
	log := newReplyLog()
	s := testScreen(t, 80, 24, log.reply) // no flush timer: only a Write or Flush feeds
	data := []byte(colourFlood(4000))
	for off := 0; off < len(data); off += 4096 {
		_, _ = s.Write(data[off:min(off+4096, len(data))])
	}
	if s.runHeld.IsZero() {
		t.Fatal("the flood is not held")
	}
	_, _ = s.Write([]byte("more\r\n\x1b[c"))
	log.take(t, "\x1b[?62;1;6;22c") // answered by the Write itself
	if !strings.Contains(s.Text(), "more") {
		t.Fatalf("the held flood was not fed before the query: %q", s.Text())
	}
}

// recordedStreams are the real CLIs' terminal output kept in testdata (the
// PTY recordings of the e2e tests, vim, a Claude Code session), each with the
// size it was recorded at.
func recordedStreams(t *testing.T) map[string]recording {
	t.Helper()
	out := map[string]recording{}
	files, err := filepath.Glob("testdata/pty/*.ansi")
	if err != nil || len(files) == 0 {
		t.Fatalf("no PTY recordings in testdata/pty (%v)", err)
	}
	files = append(files, "testdata/vim_ja.ansi", "../../testdata/bench/claude_session.ansi")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec := recording{data: data, cols: 70, rows: 20} // vim_ja.ansi
		if strings.Contains(f, "claude_session") {
			rec.cols, rec.rows = 200, 50
		}
		// <name>.<part>.<cols>x<rows>.ansi (e2e_record_test.go)
		var cols, rows int
		if _, err := fmt.Sscanf(filepath.Ext(strings.TrimSuffix(f, ".ansi")), ".%dx%d", &cols, &rows); err == nil {
			rec.cols, rec.rows = cols, rows
		}
		out[filepath.Base(f)] = rec
	}
	return out
}

type recording struct {
	data       []byte
	cols, rows int
}

// TestScreenBatchedRecordedCLIs replays the recorded output of the real
// Claude Code and Codex (and vim) through a batching Screen and an unbatched
// one, at the recorded size: once, repeated so that it scrolls for long,
// repeated with a scrollback of a few lines, and with a long log printed in
// the middle of the session, where runs get batched and skipped; in reads of
// 4 KiB, of an odd size and of one byte. Every cell, the cursor,
// the modes, the scrollback and the answers to the CLIs' queries must agree.
func TestScreenBatchedRecordedCLIs(t *testing.T) {
	t.Parallel()
	for name, rec := range recordedStreams(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// At the recorded size only: the CLIs' sequences are made for it
			// (x/vt panics on a scroll region below its last row).
			// The flood: a command in the CLI printing 600 log lines
			// between two copies of the recording.
			for _, c := range []struct {
				repeat, scrollback, read int
				flood                    bool
			}{
				{1, 0, 4096, false},
				{10, 0, 4096, false},
				{10, 5, 977, false},
				{2, 2, 1, false},
				{1, 40, 4096, true},
				{1, 3, 977, true},
			} {
				p := newBatchPair(t, rec.cols, rec.rows)
				if c.scrollback > 0 {
					p.smallScrollback(c.scrollback)
				}
				data := bytes.Repeat(rec.data, c.repeat)
				if c.flood {
					data = slices.Concat(rec.data, []byte(colourFlood(600)), rec.data)
				}
				for off := 0; off < len(data); off += c.read {
					p.write(data[off:min(off+c.read, len(data))])
				}
				p.check(t)
				t.Logf("×%d, flood %v, scrollback %d, reads of %d: %d line feeds batched, %d skipped",
					c.repeat, c.flood, c.scrollback, c.read, p.batched.batched, p.batched.skipped)
			}
		})
	}
}

// TestPumpSurvivesAnEmulatorPanic: x/vt panics on a scroll region below its
// last row followed by a reverse index (docs/dependencies.md §9.8). Pump
// returns that as an error, and only after reading the PTY to its end, so
// its read-ahead goroutine ends and the child is never left blocked.
func TestPumpSurvivesAnEmulatorPanic(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 20, 10, nil)
	// A margin past the screen no longer gets there (TestScreenClampsMargins):
	// a callback panicking inside x/vt's Write stands in for the next bug.
	s.emu.SetCallbacks(vt.Callbacks{Title: func(string) { panic("x/vt bug") }})
	r := &countingReader{r: strings.NewReader("ok\r\n\x1b]2;t\x07" + strings.Repeat("after\r\n", 50000))}
	err := Pump(r, s)
	if !errors.Is(err, ErrScreenBroken) || !strings.Contains(err.Error(), "x/vt bug") {
		t.Fatalf("Pump = %v, want the emulator's panic", err)
	}
	if !r.eof {
		t.Fatal("Pump returned before the PTY ended")
	}
	if !strings.HasPrefix(s.Text(), "ok") {
		t.Fatalf("screen %q", s.Text())
	}
}

// countingReader notes that it reached EOF.
type countingReader struct {
	r   io.Reader
	eof bool
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if errors.Is(err, io.EOF) {
		c.eof = true
	}
	return n, err
}

// A seat that prints colour without ever flooding (a cursor movement on
// every line keeps each line feed out of a run) must not keep a span per SGR
// it ever printed: the spans fed are forgotten.
func TestScreenForgetsFedSGRs(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 80, 24, nil)
	for i := range 2000 {
		line := fmt.Sprintf("\x1b[3%dm%05d\x1b[m \x1b[1mbold\x1b[22m\x1b[5G\r\n", i%8, i)
		if _, err := s.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		n := len(s.m.sgrs)
		s.mu.Unlock()
		if n > 8 {
			t.Fatalf("after %d lines %d SGR spans kept; want only those not fed yet", i+1, n)
		}
	}
}

// TestScreenClampsMargins: a scroll region below the last row or left/right
// margins past the last column made x/vt index past its buffer at the next
// scroll or insert and panic, which stopped the pane for good
// (docs/dependencies.md §9.8). Screen clamps such a margin as tmux does: the
// screen is what x/vt gives for the clamped sequence, in any read split.
func TestScreenClampsMargins(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ stream, same string }{
		{"\x1b[1;20r\x1bMafter", "\x1b[1;10r\x1bMafter"},
		{"\x1b[1;20r" + strings.Repeat("x\n", 30), "\x1b[1;10r" + strings.Repeat("x\n", 30)},
		{"\x1b[3;99r\x1b[5L\x1b[3S\x1b[2T", "\x1b[3;10r\x1b[5L\x1b[3S\x1b[2T"},
		{"\x1b[;99rafter\x1bM", "\x1b[1;10rafter\x1bM"},
		{"\x1b[5;000000000000000000000099r\x1bMx", "\x1b[5;10r\x1bMx"},
		{"\x1b[1;" + strings.Repeat("0", maxHeld+100) + "20r\x1bMlong", "\x1b[1;10r\x1bMlong"},
		{"\x1b[?69h\x1b[1;40sabc\x1b[5@\x1b[5P", "\x1b[?69h\x1b[1;20sabc\x1b[5@\x1b[5P"},
		{"\x1b[1:2;99r\x1bMsub", "\x1b[1:2;99r\x1bMsub"}, // x/ansi's second parameter is the 2
		{"\x1b[15;20r\x1bMtop", "\x1b[15;10r\x1bMtop"},   // nothing left: ignored
	} {
		want := strings.Join(rawXVT(20, 10, "ok\r\n"+c.same), "|")
		for _, read := range []int{len(c.stream), 7, 1} {
			s := testScreen(t, 20, 10, nil)
			data := []byte("ok\r\n" + c.stream)
			var err error
			for off := 0; off < len(data) && err == nil; off += read {
				err = pumpWrite(s, data[off:min(off+read, len(data))])
			}
			if err == nil {
				err = pumpWrite(s, nil)
			}
			if err != nil {
				t.Fatalf("%.40q in reads of %d: %v", c.stream, read, err)
			}
			if got := strings.Join(strings.Split(s.Text(), "\n"), "|"); got != want {
				t.Errorf("%.40q in reads of %d: %q, want %q", c.stream, read, got, want)
			}
		}
	}
}

// A flood of lines that print no ASCII (yes printing empty lines, a CJK log) cannot be
// skipped (the REP character would be lost), so it is fed a region's height
// at a time; looking the run over again for each of those feeds made it
// cost its square under the lock. The work is now linear in the lines, and
// the line feeds a flood may hold are bounded.
func TestScreenNonASCIIFloodIsLinear(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"\r\n", "日本語\r\n", "────\r\n"} {
		const n = 60000
		s := testScreen(t, 80, 24, nil)
		data := []byte(strings.Repeat(line, n))
		for off := 0; off < len(data); off += 32 << 10 {
			if _, err := s.Write(data[off:min(off+32<<10, len(data))]); err != nil {
				t.Fatal(err)
			}
		}
		s.Flush()
		s.mu.Lock()
		scans, held := s.runScans, cap(s.m.lfs)
		s.mu.Unlock()
		if scans > 4*n {
			t.Errorf("%q ×%d: %d line-feed records looked at, want at most %d", line, n, scans, 4*n)
		}
		if held > 2*maxRunLines+4096 {
			t.Errorf("%q ×%d: %d line-feed records kept", line, n, held)
		}
	}
}

// TestScreenBrokenByAPanicStaysStill: once x/vt panics on a seat's output,
// the Screen is broken: it never feeds those bytes again (a Resize or Flush
// did, and panicked again — in the UI's goroutine that ends the program),
// keeps its last picture, says why in its Snapshot, and refuses more.
func TestScreenBrokenByAPanicStaysStill(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 20, 10, nil)
	if _, err := s.Write([]byte("before\r\n")); err != nil {
		t.Fatal(err)
	}
	s.Flush()
	s.emu.SetCallbacks(vt.Callbacks{Title: func(string) { panic("x/vt bug") }})
	if _, err := s.Write([]byte("\x1b]2;t\x07after")); !errors.Is(err, ErrScreenBroken) {
		t.Fatalf("Write = %v, want ErrScreenBroken", err)
	}
	s.Flush()
	if err := s.Resize(30, 12); err != nil {
		t.Fatalf("Resize of a broken screen = %v", err)
	}
	if _, err := s.Write([]byte("more")); !errors.Is(err, ErrScreenBroken) {
		t.Fatalf("a second Write = %v, want ErrScreenBroken", err)
	}
	snap := s.Snapshot()
	if !strings.Contains(snap.Broken, "x/vt bug") || !strings.HasPrefix(s.Text(), "before") {
		t.Fatalf("snapshot broken %q, text %q", snap.Broken, s.Text())
	}
}
