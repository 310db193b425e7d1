// Package bench holds the side-by-side speed comparisons of
// docs/design.md §13 "Speed" (`make compare`): Pullcept's seat emulator
// against a tmux pane on one recorded ANSI stream, and the idle CPU of
// eight seats against claude-squad's tmux polling. It lives under
// testdata so `go test ./...` never runs it; `make compare` does
// (testdata/bench/compare.sh).
//
// This file writes the stream: deterministic, about 50 MB of what coding
// CLIs print — colours (16, 256 and 24-bit), Japanese text and emoji (wide
// cells), cursor movement and in-place redraws — with a real Claude Code
// session (claude_session.ansi) woven in.
package bench

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
)

// claudeSession is a real Claude Code 2.1.328 session recorded at 200×50:
// start-up screen, three prompts typed key by key (one in Japanese), the
// answers, /exit. Recorded with `script` inside tmux against the fake model
// API (testdata/fakeapi, cmd/fakemodel -claude-dir), so it needed no
// network; the script(1) header and footer lines were cut.
//
//go:embed claude_session.ansi
var claudeSession []byte

// StreamCols and StreamRows are the pane size the stream is played into:
// the size the session was recorded at, and a large pane of a wide screen.
const (
	StreamCols = 200
	StreamRows = 50
)

// terminalQueries are the requests in the recording that make a terminal
// answer into the program's input (device attributes, DECRQM, XTVERSION,
// kitty keyboard query). Replayed hundreds of times by `cat`, whose input
// nobody reads, the answers would only fill the PTY's input queue on both
// sides, so they are cut from the woven-in copies.
var terminalQueries = regexp.MustCompile(`\x1b\[c|\x1b\[\?[0-9;]*\$p|\x1b\[>0q|\x1b\[\?u`)

// japanese, english and paths are the words the generated text is made of.
var (
	japanese = []string{
		"床の判定を確認しました", "ログの末尾が千切れていても読み飛ばします", "テストはすべて通りました",
		"端末の幅が変わると PTY も合わせます", "宛先はリンさんです", "差分を見てください",
		"ビルドに失敗しました", "再試行しています", "設定ファイルを読み込みました", "日本語の名前も正しく扱えます",
	}
	english = []string{
		"ok", "running tests", "compiling", "found 3 issues", "reading room/floor.go", "wrote 120 lines",
		"the tests pass on linux/amd64", "waiting for the model", "retrying in 2s", "done",
	}
	paths = []string{
		"room/hub.go", "room/floor.go", "seats/emulator.go", "logstore/store.go", "tui/pane.go",
		"sidecar/client.go", "config/env.go", "testdata/fakeapi/script.go",
	}
	emoji   = []string{"✅", "❌", "⚠️", "🔧", "👍", "🚀", "📦", "✻"}
	spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
)

// streamSeed fixes the generator: the same bytes on every run and machine.
const streamSeed = 0x50_75_6c_6c_63_65_70_74 // "Pullcept"

// WriteStream writes at least size bytes of the stream to w (it stops at the
// end of the segment that crosses size, then resets the attributes) and
// returns how many it wrote and how many of those came from the real Claude
// Code recording. Same size, same bytes.
func WriteStream(w io.Writer, size int64) (written, recorded int64, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &countWriter{w: bw}
	rng := rand.New(rand.NewPCG(streamSeed, uint64(size)))
	session := terminalQueries.ReplaceAll(claudeSession, nil)
	var seg bytes.Buffer
	for cw.n < size {
		seg.Reset()
		switch k := rng.IntN(100); {
		case k < 40:
			buildLog(&seg, rng)
		case k < 55:
			progress(&seg, rng)
		case k < 70:
			statusRedraw(&seg, rng)
		case k < 85:
			prose(&seg, rng)
		default:
			seg.Write(session)
			recorded += int64(len(session))
		}
		if _, err := cw.Write(seg.Bytes()); err != nil {
			return cw.n, recorded, err
		}
	}
	if _, err := io.WriteString(cw, "\x1b[0m\x1b[?25h\r\n"); err != nil {
		return cw.n, recorded, err
	}
	return cw.n, recorded, bw.Flush()
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

// buildLog is 20–80 lines of a build or test log: a dim time, a coloured
// status (16 colours), a path, mixed English/Japanese text, a 256-colour
// tag and a 24-bit colour bar; some lines are long enough to wrap.
func buildLog(b *bytes.Buffer, rng *rand.Rand) {
	for range 20 + rng.IntN(61) {
		fmt.Fprintf(b, "\x1b[2m%02d:%02d:%02d\x1b[22m ", rng.IntN(24), rng.IntN(60), rng.IntN(60))
		switch rng.IntN(4) {
		case 0:
			b.WriteString("\x1b[32mPASS\x1b[39m ")
		case 1:
			b.WriteString("\x1b[31;1mFAIL\x1b[0m ")
		case 2:
			b.WriteString("\x1b[33mWARN\x1b[39m ")
		default:
			b.WriteString("\x1b[36mINFO\x1b[39m ")
		}
		fmt.Fprintf(b, "\x1b[4m%s:%d\x1b[24m ", pick(rng, paths), 1+rng.IntN(900))
		for range 1 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				b.WriteString(pick(rng, japanese))
			} else {
				b.WriteString(pick(rng, english))
			}
			b.WriteByte(' ')
		}
		fmt.Fprintf(b, "\x1b[38;5;%dm[%s]\x1b[39m ", 16+rng.IntN(216), pick(rng, emoji))
		for i := range rng.IntN(24) {
			fmt.Fprintf(b, "\x1b[48;2;%d;%d;%dm \x1b[49m", 40+i*8, 200-i*6, 90+rng.IntN(100))
		}
		if rng.IntN(8) == 0 {
			b.WriteString(strings.Repeat("─", 150+rng.IntN(100))) // wraps at 200 columns
		}
		b.WriteString("\r\n")
	}
}

// progress redraws one line in place 30–100 times: "\r", erase line, a
// spinner, a 256-colour gradient bar and a percentage.
func progress(b *bytes.Buffer, rng *rand.Rand) {
	frames := 30 + rng.IntN(71)
	what := pick(rng, paths)
	for i := range frames {
		pct := (i + 1) * 100 / frames
		fmt.Fprintf(b, "\r\x1b[2K\x1b[35m%s\x1b[39m %s ", spinner[i%len(spinner)], what)
		for j := range 40 {
			if j*100/40 < pct {
				fmt.Fprintf(b, "\x1b[38;5;%dm█", 22+j%6*6)
			} else {
				b.WriteString("\x1b[38;5;238m░")
			}
		}
		fmt.Fprintf(b, "\x1b[39m %3d%% %s", pct, pick(rng, japanese))
	}
	b.WriteString("\r\n")
}

// statusRedraw is a full-screen CLI repainting its bottom area the way
// Claude Code does: save the cursor, jump (CUP) to the rows above the
// bottom, erase and redraw a box of status lines, move with CUU/CUD/CHA,
// restore.
func statusRedraw(b *bytes.Buffer, rng *rand.Rand) {
	for range 5 + rng.IntN(16) {
		top := StreamRows - 8 + rng.IntN(3)
		b.WriteString("\x1b7")
		fmt.Fprintf(b, "\x1b[%d;1H\x1b[J", top)
		fmt.Fprintf(b, "\x1b[38;5;244m╭%s╮\x1b[39m\r\n", strings.Repeat("─", StreamCols-2))
		for range 3 {
			fmt.Fprintf(b, "\x1b[38;5;244m│\x1b[39m \x1b[1m%s\x1b[22m %s", pick(rng, emoji), pick(rng, japanese))
			fmt.Fprintf(b, "\x1b[%dG\x1b[38;5;244m│\x1b[39m\r\n", StreamCols)
		}
		fmt.Fprintf(b, "\x1b[38;5;244m╰%s╯\x1b[39m", strings.Repeat("─", StreamCols-2))
		fmt.Fprintf(b, "\x1b[2A\x1b[%dG\x1b[38;2;215;119;87m%s\x1b[39m", 4+rng.IntN(40), pick(rng, spinner))
		fmt.Fprintf(b, "\x1b[1B\x1b[%dC%s", rng.IntN(30), pick(rng, english))
		b.WriteString("\x1b8")
	}
}

// prose is a few paragraphs of Japanese and English text with emoji, long
// lines that wrap with wide characters at the right margin.
func prose(b *bytes.Buffer, rng *rand.Rand) {
	for range 2 + rng.IntN(5) {
		for range 6 + rng.IntN(20) {
			if rng.IntN(3) == 0 {
				b.WriteString(pick(rng, english))
				b.WriteString(". ")
			} else {
				b.WriteString(pick(rng, japanese))
				b.WriteString("。")
			}
			if rng.IntN(6) == 0 {
				b.WriteString(pick(rng, emoji))
			}
		}
		b.WriteString("\r\n\r\n")
	}
}
