package terminal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/bench"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// screenDeadline bounds every wait on a Screen goroutine in these tests.
var screenDeadline = testkit.Slow(10 * time.Second)

// testScreen is a Screen without the flush timer: tests call Flush, so the
// result never depends on timing.
func testScreen(t testing.TB, cols, rows int, reply func([]byte)) *Screen {
	t.Helper()
	s, err := newScreen(cols, rows, reply, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// feedScreen writes the chunks, flushes, and returns the rows (trailing
// spaces trimmed) and the cursor.
func feedScreen(t testing.TB, s *Screen, chunks ...string) ([]string, int, int) {
	t.Helper()
	for _, c := range chunks {
		if _, err := s.Write([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	s.Flush()
	snap := s.Snapshot()
	return strings.Split(s.Text(), "\n"), snap.CursorX, snap.CursorY
}

func TestScreenWideCharsAtRightMargin(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		cols, rows int
		chunks     []string
		want       []string
		x, y       int
	}{
		{"exact fit then wide", 4, 3, []string{"日本語"}, []string{"日本", "語", ""}, 2, 1},
		{"exact fit, next read", 4, 3, []string{"日本", "語"}, []string{"日本", "語", ""}, 2, 1},
		{"exact fit then narrow", 4, 3, []string{"日本X"}, []string{"日本", "X", ""}, 1, 1},
		{"narrow to the margin then wide", 9, 3, []string{"abcdefgh日Z"}, []string{"abcdefgh", "日Z", ""}, 3, 1},
		{"split before the wide char", 9, 3, []string{"abcdefgh", "日Z"}, []string{"abcdefgh", "日Z", ""}, 3, 1},
		{"pending wrap then wide", 5, 3, []string{"abcde日"}, []string{"abcde", "日", ""}, 2, 1},
		{"colours between", 5, 3, []string{"\x1b[31m日本\x1b[0m語"}, []string{"日本", "語", ""}, 2, 1},
		{"three full rows", 10, 4, []string{"日本語日本語日本語日本語"}, []string{"日本語日本", "語日本語日", "本語", ""}, 4, 2},
		{"wrap scrolls at the bottom", 4, 2, []string{"ab\r\nabc日"}, []string{"abc", "日"}, 2, 1},
		{"carriage return cancels the wrap", 4, 3, []string{"日本\rX"}, []string{"X 本", "", ""}, 1, 0},
		{"cursor moved to the last column", 6, 3, []string{"\x1b[1;6H日"}, []string{"", "日", ""}, 2, 1},
		{"line fills exactly, then newline", 6, 3, []string{"日本語\r\nabc"}, []string{"日本語", "abc", ""}, 3, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testScreen(t, c.cols, c.rows, nil)
			rows, x, y := feedScreen(t, s, c.chunks...)
			if strings.Join(rows, "|") != strings.Join(c.want, "|") {
				t.Fatalf("rows %q, want %q", rows, c.want)
			}
			if x != c.x || y != c.y {
				t.Fatalf("cursor (%d,%d), want (%d,%d)", x, y, c.x, c.y)
			}
		})
	}
}

func TestScreenColoursKeptAcrossMarginFix(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 5, 3, nil)
	feedScreen(t, s, "\x1b[31mabcd日\x1b[m")
	snap := s.Snapshot()
	if !strings.Contains(snap.Lines[1], "31m日") {
		t.Fatalf("wrapped wide char lost its colour: %q", snap.Lines[1])
	}
}

// TestScreenWrapsWideCharAtMargin: a wide character that reaches past the
// right margin starts the next row, as in xterm and tmux (x/vt v0.1.0
// dropped it, charmbracelet/x#975).
func TestScreenWrapsWideCharAtMargin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cols     int
		stream   string
		screened string
	}{
		{4, "日本語", "日本|語|"},
		{9, "abcdefgh日Z", "abcdefgh|日Z|"},
	} {
		rows, _, _ := feedScreen(t, testScreen(t, c.cols, 3, nil), c.stream)
		if got := strings.Join(rows, "|"); got != c.screened {
			t.Errorf("Screen gives %q for %q in %d columns, want %q", got, c.stream, c.cols, c.screened)
		}
	}
}

func TestScreenGraphemeSplitAcrossWrites(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"e", "\u0301x"},                    // combining acute
		{"\U0001F469", "\u200d\U0001F4BBx"}, // woman ZWJ laptop
		{"\u2764", "\ufe0fx"},               // heart + VS16 (becomes wide)
		{"か", "\u3099x"},                    // kana + combining dakuten
		{"\U0001F1EF", "\U0001F1F5x"},       // regional indicators J P
		{"a\x1b[3b", "\u0301"},              // REP's last copy, then a combining mark
		{"日", "\xe6", "\x9c\xac"},           // a rune split inside
	}
	for _, chunks := range cases {
		t.Run(fmt.Sprintf("%q", chunks), func(t *testing.T) {
			whole := strings.Join(chunks, "")
			one := testScreen(t, 20, 3, nil)
			split := testScreen(t, 20, 3, nil)
			rowsOne, x1, y1 := feedScreen(t, one, whole)
			rowsSplit, x2, y2 := feedScreen(t, split, chunks...)
			if strings.Join(rowsOne, "|") != strings.Join(rowsSplit, "|") || x1 != x2 || y1 != y2 {
				t.Fatalf("split %q (%d,%d) != whole %q (%d,%d)", rowsSplit, x2, y2, rowsOne, x1, y1)
			}
		})
	}
}

func TestScreenHeldClusterFlushedByTimer(t *testing.T) {
	t.Parallel()
	s, err := newScreen(20, 3, nil, 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Write([]byte("abc")); err != nil {
		t.Fatal(err)
	}
	// "c" could still get a combining mark: it waits for the next read or
	// the timer.
	deadline := time.After(screenDeadline)
	for !strings.HasPrefix(s.Text(), "abc") {
		select {
		case <-s.Changed():
		case <-deadline:
			t.Fatalf("held cluster never flushed: %q", s.Text())
		}
	}
}

// replyLog collects what a Screen hands to its reply function.
type replyLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
	ch  chan struct{}
}

func newReplyLog() *replyLog { return &replyLog{ch: make(chan struct{}, 1)} }

func (r *replyLog) reply(b []byte) {
	r.mu.Lock()
	r.buf.Write(b)
	r.mu.Unlock()
	select {
	case r.ch <- struct{}{}:
	default:
	}
}

// take waits until want has arrived and removes everything received so far.
func (r *replyLog) take(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(screenDeadline)
	for {
		r.mu.Lock()
		got := r.buf.String()
		if got == want {
			r.buf.Reset()
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		if len(got) > len(want) {
			t.Fatalf("reply %q, want %q", got, want)
		}
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("reply %q, want %q", got, want)
		}
	}
}

func TestScreenReplies(t *testing.T) {
	t.Parallel()
	log := newReplyLog()
	s := testScreen(t, 20, 5, log.reply)
	feedScreen(t, s, "ab\x1b[6n")
	log.take(t, "\x1b[1;3R") // cursor position report
	feedScreen(t, s, "\x1b[c")
	log.take(t, "\x1b[?62;1;6;22c") // primary device attributes
	feedScreen(t, s, "\x1b[?2004h\x1b[?2004$p")
	log.take(t, "\x1b[?2004;1$y") // mode report: bracketed paste set
}

func TestScreenManyRepliesDoNotBlock(t *testing.T) {
	t.Parallel()
	// The replies of one Write are collected under the Screen's lock and
	// handed on after it: none may block the Write or be lost.
	var n int
	var mu sync.Mutex
	s := testScreen(t, 20, 5, func(b []byte) { mu.Lock(); n += bytes.Count(b, []byte("R")); mu.Unlock() })
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = s.Write(bytes.Repeat([]byte("\x1b[6n"), 20000))
	}()
	select {
	case <-done:
	case <-time.After(screenDeadline):
		t.Fatal("Write blocked on emulator replies")
	}
	testkit.Eventually(t, "20000 replies", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return n == 20000
	})
}

func TestScreenSnapshotStateAndVersion(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 10, 4, nil)
	v0 := s.Version()
	feedScreen(t, s, "\x1b]2;seat title\x07hello\x1b[3;5H")
	select {
	case <-s.Changed():
	default:
		t.Fatal("Changed did not fire after a write")
	}
	snap := s.Snapshot()
	if snap.Version <= v0 || snap.Version != s.Version() {
		t.Fatalf("version %d after write (was %d)", snap.Version, v0)
	}
	if snap.Cols != 10 || snap.Rows != 4 || len(snap.Lines) != 4 {
		t.Fatalf("size %dx%d with %d lines", snap.Cols, snap.Rows, len(snap.Lines))
	}
	if !strings.HasPrefix(snap.Lines[0], "hello") || len(snap.Lines[0]) != 10 {
		t.Fatalf("row 0 %q: want hello padded to 10 cells", snap.Lines[0])
	}
	if snap.CursorX != 4 || snap.CursorY != 2 || !snap.CursorVisible || snap.AltScreen || snap.Title != "seat title" {
		t.Fatalf("snapshot %+v", snap)
	}
	feedScreen(t, s, "\x1b[?25l\x1b[?1049h")
	snap = s.Snapshot()
	if snap.CursorVisible || !snap.AltScreen {
		t.Fatalf("after hide cursor + alt screen: visible=%v alt=%v", snap.CursorVisible, snap.AltScreen)
	}
	if snap.BracketedPaste || snap.AppCursorKeys {
		t.Fatalf("input modes on before the child asked: %+v", snap)
	}
	feedScreen(t, s, "\x1b[?2004h\x1b[?1h")
	if snap := s.Snapshot(); !snap.BracketedPaste || !snap.AppCursorKeys || !s.BracketedPaste() || !s.AppCursorKeys() {
		t.Fatalf("after ?2004h ?1h: paste=%v/%v appCursor=%v/%v", snap.BracketedPaste, s.BracketedPaste(), snap.AppCursorKeys, s.AppCursorKeys())
	}
	feedScreen(t, s, "\x1bc") // RIS resets the modes
	if snap := s.Snapshot(); snap.BracketedPaste || snap.AppCursorKeys || snap.AltScreen {
		t.Fatalf("after RIS: %+v", snap)
	}

	v1 := s.Version()
	if err := s.Resize(12, 5); err != nil {
		t.Fatal(err)
	}
	if snap := s.Snapshot(); snap.Cols != 12 || snap.Rows != 5 || snap.Version <= v1 {
		t.Fatalf("after resize: %dx%d version %d", snap.Cols, snap.Rows, snap.Version)
	}
	if err := s.Resize(0, 5); !errors.Is(err, pty.ErrBadSize) {
		t.Fatalf("Resize(0,5) = %v", err)
	}
}

func TestScreenBadSizeAndClose(t *testing.T) {
	t.Parallel()
	if _, err := NewScreen(0, 5, nil); !errors.Is(err, pty.ErrBadSize) {
		t.Fatalf("NewScreen(0,5) = %v", err)
	}
	s, err := NewScreen(10, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	feedScreen(t, s, "kept")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Write([]byte("x")); !errors.Is(err, ErrScreenClosed) {
		t.Fatalf("Write after Close = %v", err)
	}
	if err := s.Resize(5, 5); !errors.Is(err, ErrScreenClosed) {
		t.Fatalf("Resize after Close = %v", err)
	}
	if !strings.HasPrefix(s.Text(), "kept") {
		t.Fatalf("screen after Close: %q", s.Text())
	}
}

func TestScreenScrollbackCapped(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 20, 5, nil)
	var b strings.Builder
	const n = ScrollbackLines + 1000
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	feedScreen(t, s, b.String())
	// n-4 lines scrolled off (the screen keeps the last four and the empty
	// last row); the oldest 996 fell out of the cap.
	if n := s.ScrollbackLen(); n != ScrollbackLines {
		t.Fatalf("ScrollbackLen = %d, want %d", n, ScrollbackLines)
	}
	if got := s.ScrollbackLines(0, 2); len(got) != 2 || got[0] != "line 997" || got[1] != "line 998" {
		t.Fatalf("oldest lines %q", got)
	}
	if got := s.ScrollbackLines(ScrollbackLines-1, 10); len(got) != 1 || got[0] != fmt.Sprintf("line %d", n-4) {
		t.Fatalf("newest line %q", got)
	}
	if got := s.ScrollbackLines(ScrollbackLines, 1); got != nil {
		t.Fatalf("past the end: %q", got)
	}
	if got := s.ScrollbackLines(-5, 1); len(got) != 1 || got[0] != "line 997" {
		t.Fatalf("negative start: %q", got)
	}
}

func TestScreenOrphanPlaceholderBlanked(t *testing.T) {
	t.Parallel()
	// A wide char written one column left of another wide char: xterm
	// blanks the other's right half; without repair the row shifts left.
	s := testScreen(t, 10, 2, nil)
	rows, _, _ := feedScreen(t, s, "a日本X\x1b[1;3H語")
	if rows[0] != "a 語 X" {
		t.Fatalf("row %q, want %q", rows[0], "a 語 X")
	}
	if !strings.HasPrefix(s.Snapshot().Lines[0], "a 語 X") {
		t.Fatalf("rendered row %q", s.Snapshot().Lines[0])
	}
}

// TestScreenRecordedVim replays vim 9 drawing a Go file with Japanese
// comments and emoji at 70×20 (recorded from a real PTY). The golden was
// checked against tmux 3.3a replaying the same bytes.
func TestScreenRecordedVim(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/vim_ja.ansi")
	if err != nil {
		t.Fatal(err)
	}
	s := testScreen(t, 70, 20, nil)
	feedScreen(t, s, string(data))
	golden.RequireEqual(t, []byte(s.Text()+"\n"))
}

func TestPumpFeedsUntilEOF(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 20, 3, nil)
	if err := Pump(strings.NewReader("hello\r\nwörld e\u0301"), s); err != nil {
		t.Fatal(err)
	}
	if got := s.Text(); !strings.HasPrefix(got, "hello\nwörld e\u0301") {
		t.Fatalf("screen %q", got)
	}
	if err := Pump(errReader{os.ErrClosed}, s); err != nil {
		t.Fatalf("Pump on a closed PTY = %v, want nil", err)
	}
	boom := errors.New("boom")
	if err := Pump(errReader{boom}, s); !errors.Is(err, boom) {
		t.Fatalf("Pump = %v, want boom", err)
	}
	_ = s.Close()
	if err := Pump(strings.NewReader("x"), s); !errors.Is(err, ErrScreenClosed) {
		t.Fatalf("Pump into a closed screen = %v", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// ---------------------------------------------------------------------------
// Fuzzing: a stream split anywhere shows what it shows written whole.

var screenSeeds = []string{
	"日本語", "abcdefgh日Z", "\x1b[31m日本\x1b[0m語", "日本X", "e\u0301x", "\U0001F469\u200d\U0001F4BBx",
	"\u2764\ufe0fx", "か\u3099", "\U0001F1EF\U0001F1F5\U0001F1FA", "a\x1b[3b\u0301", "a\x1b[0b日", "x\x1b[b日本語",
	"\x1b]2;title\x07日本", "日\x1b\u0301本", "\x1b[?7l日本語日本", "\x1bc日本語", "\x1b[?1049h日本語\x1b[?1049l",
	"\xff\xfe日\xe6\x97", "\x9b31m日本", "ab\r\n日本語日本語\r\n\t日本", "\x1b[2;3H語語語\x1b[K", "e\x1b[b\u0301",
	"\x1bP1$r日本\x1b\\語", "\U0001F44D\U0001F3FD!", "\u0600\u0601a", "\x1b[3;1r\x1b[3;1H日本語日本語日本語",
	"a\x1b[30000000b\u0301", "\x1b]0;t\x1b\\\x1b[5b", "x\x1b[3\n0b", "\x1b\x1b[4b",
}

func FuzzScreenSplit(f *testing.F) {
	for i, s := range screenSeeds {
		f.Add([]byte(s), []byte{byte(i), 3, 1, 7}, uint8(i))
	}
	f.Fuzz(func(t *testing.T, data, cuts []byte, cols uint8) {
		w := 2 + int(cols)%30
		one := testScreen(t, w, 6, nil)
		split := testScreen(t, w, 6, nil)
		_, _ = one.Write(data)
		one.Flush()
		rest := data
		for _, c := range cuts {
			if len(rest) == 0 {
				break
			}
			n := int(c) % (len(rest) + 1)
			_, _ = split.Write(rest[:n])
			rest = rest[n:]
		}
		_, _ = split.Write(rest)
		split.Flush()
		if a, b := screenState(one), screenState(split); a != b {
			t.Fatalf("split feed differs:\nwhole:\n%s\nsplit:\n%s", a, b)
		}
	})
}

// screenState is everything a Screen shows, for comparisons.
func screenState(s *Screen) string {
	snap := s.Snapshot()
	sb := s.ScrollbackLines(0, s.ScrollbackLen())
	return fmt.Sprintf("%s\ncursor %d,%d visible=%v alt=%v title=%q\nscrollback:\n%s",
		strings.Join(snap.Lines, "\n"), snap.CursorX, snap.CursorY, snap.CursorVisible, snap.AltScreen, snap.Title,
		strings.Join(sb, "\n"))
}

// ---------------------------------------------------------------------------
// Benchmarks: ingest throughput on a deterministic ~50 MB stream.

var (
	benchOnce   sync.Once
	benchStream []byte
)

// benchData is ~50 MB of what an AI CLI prints: log lines in 256-colour and
// truecolor SGR, Japanese paragraphs, emoji, and full-screen redraws with
// cursor movement and erases. Same bytes every run (fixed seed).
func benchData() []byte {
	benchOnce.Do(func() {
		r := rand.New(rand.NewPCG(1, 2))
		ja := []rune("日本語の文章を表示して端末の幅で折り返す。漢字とひらがなとカタカナ、全角記号：（）「」")
		emoji := []string{"👍", "✅", "🎉", "🚀", "👩\u200d💻", "❤\ufe0f", "🇯🇵"}
		var b bytes.Buffer
		b.Grow(52 << 20)
		for b.Len() < 50<<20 {
			switch k := r.IntN(10); {
			case k < 4: // SGR log line
				fmt.Fprintf(&b, "\x1b[38;5;%dm%05d\x1b[m \x1b[38;2;%d;%d;%dmINFO\x1b[m request handled in %d ms, path=/api/v1/items/%d\r\n",
					r.IntN(256), r.IntN(99999), r.IntN(256), r.IntN(256), r.IntN(256), r.IntN(900), r.IntN(1e6))
			case k < 6: // Japanese paragraph, longer than a row
				for range 30 + r.IntN(60) {
					b.WriteRune(ja[r.IntN(len(ja))])
				}
				b.WriteString("\r\n")
			case k < 7: // emoji in text
				for range 8 {
					fmt.Fprintf(&b, "%s item ", emoji[r.IntN(len(emoji))])
				}
				b.WriteString("\r\n")
			case k < 9: // a redraw: move, erase, truecolor background
				for range 6 {
					fmt.Fprintf(&b, "\x1b[%d;%dH\x1b[48;2;%d;%d;%dm\x1b[K%s\x1b[m", 1+r.IntN(50), 1+r.IntN(150),
						r.IntN(256), r.IntN(256), r.IntN(256), strings.Repeat("─", 1+r.IntN(40)))
				}
				b.WriteString("\x1b[50;1H\r\n")
			default: // 256-colour table
				for i := range 16 {
					fmt.Fprintf(&b, "\x1b[48;5;%dm  ", (r.IntN(16)*16+i)%256)
				}
				b.WriteString("\x1b[m\r\n")
			}
		}
		benchStream = b.Bytes()
	})
	return benchStream
}

// benchChunk is Pump's read size.
const benchChunk = 32 << 10

func BenchmarkScreenWriteSnapshot(b *testing.B) {
	data := benchData()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s, err := NewScreen(200, 50, nil)
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < len(data); off += benchChunk {
			_, _ = s.Write(data[off:min(off+benchChunk, len(data))])
			_ = s.Snapshot() // the UI renders after each read at most
		}
		_ = s.Close()
	}
}

func BenchmarkScreenWrite(b *testing.B) {
	data := benchData()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s, err := NewScreen(200, 50, nil)
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < len(data); off += benchChunk {
			_, _ = s.Write(data[off:min(off+benchChunk, len(data))])
		}
		_ = s.Close()
	}
}

func BenchmarkScreenSnapshot200x50(b *testing.B) {
	s := testScreen(b, 200, 50, nil)
	data := benchData()
	_, _ = s.Write(data[:4<<20])
	for b.Loop() {
		_ = s.Snapshot()
	}
}

var (
	floodOnce   sync.Once
	floodStream []byte
)

// floodData is 4 MB of the line flood (testdata/bench: short lines of Go
// source, as `while :; do cat room/hub.go; done` prints them) with the
// "\r\n" line ends a PTY delivers.
func floodData() []byte {
	floodOnce.Do(func() {
		var b bytes.Buffer
		if _, err := bench.WriteLineFlood(&b, 4<<20); err != nil {
			panic(err)
		}
		floodStream = bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r\n"))
	})
	return floodStream
}

// BenchmarkScreenLineFlood is a seat printing short lines as fast as it can
// at 200×50: every line feed lands at the bottom of the screen.
func BenchmarkScreenLineFlood(b *testing.B) {
	data := floodData()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s, err := NewScreen(200, 50, nil)
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < len(data); off += benchChunk {
			_, _ = s.Write(data[off:min(off+benchChunk, len(data))])
		}
		_ = s.Close()
	}
}

// x/ansi ends an OSC or DCS string at a 0x9C that continues a UTF-8
// character (charmbracelet/x#848): Claude Code's title "✳ Claude Code"
// printed " Claude Code" at its caret under x/vt. Screen keeps such strings
// whole, in any split; a 0x9C that continues nothing still ends the string.
func TestScreenKeepsStringsWithUTF8Whole(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		stream, screened string
	}{
		{"ab\x1b]0;✳ Claude Code\x07", "ab||"},
		{"ab\x1b]2;日本語のタイトル\x1b\\", "ab||"},
		{"ab\x1bPq本\x1b\\c", "abc||"},
		{"ab\x1b]0;x\x9cZ", "abZ||"}, // a lone 0x9C is ST
		{"ab\x1b]0;\xe2\x9c\x9c\x9cZ", "abZ||"},
	} {
		for _, chunk := range []int{len(c.stream), 3, 1} {
			s := testScreen(t, 40, 3, nil)
			var parts []string
			for off := 0; off < len(c.stream); off += chunk {
				parts = append(parts, c.stream[off:min(off+chunk, len(c.stream))])
			}
			rows, _, _ := feedScreen(t, s, parts...)
			if got := strings.Join(rows, "|"); got != c.screened {
				t.Errorf("Screen gives %q for %q in reads of %d, want %q", got, c.stream, chunk, c.screened)
			}
		}
	}
}

// TestPumpSurvivesAReplyPanic: a panic on the Screen's side of a write (here
// the reply function, which runs on Write's goroutine) becomes Pump's error,
// and Pump reads the PTY on to its end, so the child is never left blocked on
// a full terminal.
func TestPumpSurvivesAReplyPanic(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 20, 3, func([]byte) { panic("reply failed") })
	r := &countingReader{chunks: [][]byte{[]byte("ab\x1b[6n"), []byte("more"), []byte("and more")}}
	if err := Pump(r, s); err == nil || !strings.Contains(err.Error(), "reply failed") {
		t.Fatalf("Pump = %v, want the panic as its error", err)
	}
	if r.reads != 4 {
		t.Fatalf("Pump stopped after %d reads, want every chunk and the EOF", r.reads)
	}
}

// countingReader gives its chunks one per Read, then io.EOF, counting reads.
type countingReader struct {
	chunks [][]byte
	reads  int
}

func (c *countingReader) Read(b []byte) (int, error) {
	c.reads++
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(b, c.chunks[0])
	c.chunks = c.chunks[1:]
	return n, nil
}

// chunkReader gives data in reads of pseudo-random sizes up to 4 KB (a PTY's
// reads), then io.EOF.
type chunkReader struct {
	data []byte
	r    *rand.Rand
}

func (c *chunkReader) Read(b []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(b), len(c.data), 1+c.r.IntN(4096))
	copy(b, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// TestPumpKeepsEveryByteInOrder: Pump's reader and writer hand over every
// read, in order, however the reads and writes interleave (a flood of
// numbered lines ends with every line in the scrollback and on the screen).
func TestPumpKeepsEveryByteInOrder(t *testing.T) {
	t.Parallel()
	const lines = ScrollbackLines + 2
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "line %05d \x1b[3%dmé\u0301\x1b[m\r\n", i, i%8)
	}
	s := testScreen(t, 40, 3, nil)
	if err := Pump(&chunkReader{data: []byte(b.String()), r: rand.New(rand.NewPCG(3, 4))}, s); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range s.ScrollbackLines(0, s.ScrollbackLen()) {
		got = append(got, ansi.Strip(l))
	}
	rows, _, _ := s.Plain()
	got = append(got, rows...)
	// The first lines fell out of the scrollback; the last row is empty.
	first := lines - len(got) + 1
	for i, l := range got[:len(got)-1] {
		if want := fmt.Sprintf("line %05d é\u0301", first+i); l != want {
			t.Fatalf("line %d is %q, want %q", i, l, want)
		}
	}
}

// TestScreenSurvivesTheStyleTableFilling: a seat that fills the emulator's
// style table (65 536 styles it shows) and then prints a cluster in a new
// colour makes the table compact while the cluster is being placed; the
// Screen keeps working and shows the cluster (the cluster's id read before
// the compaction pointed past the table: the next Snapshot panicked and
// the Screen broke).
func TestScreenSurvivesTheStyleTableFilling(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 200, 50, nil)
	var b bytes.Buffer
	b.WriteString("a\u0301b\u0301c\u0301\rxx\x1b[4G") // the first two clusters overwritten
	for i := range 1<<16 - 1 {
		fmt.Fprintf(&b, "\x1b[38;2;0;%d;%dmz", i>>8, i&0xff)
	}
	b.WriteString("\r\n\x1b[38;2;255;0;0mc\u0301\x1b[m")
	if _, err := s.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	s.Flush()
	snap := s.Snapshot()
	if snap.Broken != "" {
		t.Fatalf("the Screen broke: %s", snap.Broken)
	}
	if rows, _, _ := s.Plain(); rows[snap.CursorY] != "c\u0301" {
		t.Fatalf("cursor row %q, want the cluster", rows[snap.CursorY])
	}
}

// TestPumpDrainsAfterTheScreenCloses: a Screen closed while its PTY still
// gives output (the seat's pane went away first) ends Pump's writes, not
// its reads: the PTY is read to its end, so the child never blocks on a
// full terminal, and Pump says why it stopped writing.
func TestPumpDrainsAfterTheScreenCloses(t *testing.T) {
	t.Parallel()
	s := testScreen(t, 20, 3, nil)
	chunks := [][]byte{[]byte("before"), nil, []byte("after"), bytes.Repeat([]byte("x"), pumpMax), []byte("last")}
	r := &closingReader{countingReader: countingReader{chunks: chunks}, close: func() { _ = s.Close() }}
	if err := Pump(r, s); !errors.Is(err, ErrScreenClosed) {
		t.Fatalf("Pump = %v, want ErrScreenClosed", err)
	}
	if r.reads != len(chunks)+1 {
		t.Fatalf("Pump stopped after %d reads, want every chunk and the EOF", r.reads)
	}
}

// closingReader is a countingReader that runs close at its nil chunk.
type closingReader struct {
	countingReader
	close func()
}

func (c *closingReader) Read(b []byte) (int, error) {
	if len(c.chunks) > 0 && c.chunks[0] == nil {
		c.close()
	}
	return c.countingReader.Read(b)
}
