package emu_test

// Random streams from a grammar of what the seats' programs print: text of
// every width, controls, cursor movement, erases and edits, scroll
// regions and margins, SGR, modes, titles, links and queries. The fuzz
// input is read as a list of choices, so that a mutation changes one
// token, not the whole stream.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// chooser reads choices from the fuzz input; past its end every choice
// is 0 and done reports true.
type chooser struct {
	b []byte
	i int
}

func (c *chooser) done() bool { return c.i >= len(c.b) }

// n is a choice in [0, k).
func (c *chooser) n(k int) int {
	if c.i >= len(c.b) || k <= 1 {
		return 0
	}
	v := int(c.b[c.i])
	c.i++
	return v % k
}

func (c *chooser) pick(from []string) string { return from[c.n(len(from))] }

// tokenKind is one production of the grammar.
type tokenKind struct {
	name string
	gen  func(c *chooser, cols, rows int) string
}

// pendingWrap are the productions that act otherwise with a pending wrap
// in tmux (its cursor one past the last column) than in xterm and x/vt:
// with the "pending-wrap" skip a carriage return comes first.
var pendingWrap = map[string]bool{"erase": true, "ech": true, "scroll": true, "move": true, "control": true}

var (
	words    = []string{"a", "ok", "hello", "the tests pass", "x=1;", "→ done", "--", "Build", "#", "~/src"}
	cjk      = []string{"日本語", "テスト", "床", "한국어", "（全角）", "。", "差分を見てください"}
	emoji    = []string{"👍", "✅", "🚀", "👩\u200d💻", "🇯🇵", "👍🏽", "⚠️", "❤️", "✻"}
	marks    = []string{"e\u0301", "か\u3099", "a\u0308\u0304", "n\u0303"}
	ambig    = []string{"±", "○", "①", "→", "…", "α", "─", "│", "※"}
	controls = []string{"\r", "\n", "\r\n", "\b", "\t", "\r\n\r\n", "\x07"}
	sgrs     = []string{"0", "1", "2", "3", "4", "4:3", "4:2", "5", "7", "8", "9", "22", "23", "24", "27", "29",
		"31", "42", "39", "49", "91", "103", "38;5;%d", "48;5;%d", "38;2;%d;90;200", "48:2::%d:3:4", "58:2::%d:0:0",
		"38:5:%d", "1;31;4", "59", ""}
	titles   = []string{"title", "", "a\tb", "codex", "テスト"}
	titles9c = []string{"✳ Claude Code", "本のタイトル"} // a 0x9C inside their UTF-8
)

// grammar is every production, by name; the tmux comparison leaves out the
// ones the known differences name.
var grammar = []tokenKind{
	{"text", func(c *chooser, _, _ int) string { return c.pick(words) }},
	{"cjk", func(c *chooser, _, _ int) string { return c.pick(cjk) }},
	{"emoji", func(c *chooser, _, _ int) string { return c.pick(emoji) }},
	{"marks", func(c *chooser, _, _ int) string { return c.pick(marks) }},
	{"ambiguous", func(c *chooser, _, _ int) string { return c.pick(ambig) }},
	{"fill", func(c *chooser, cols, _ int) string { return strings.Repeat("ab"[c.n(2):][:1], cols-c.n(3)) }},
	{"control", func(c *chooser, _, _ int) string { return c.pick(controls) }},
	{"cup", func(c *chooser, cols, rows int) string {
		return fmt.Sprintf("\x1b[%d;%dH", 1+c.n(rows+2), 1+c.n(cols+2))
	}},
	{"move", func(c *chooser, _, _ int) string {
		return fmt.Sprintf("\x1b[%d%c", 1+c.n(6), "ABCDEFGd`"[c.n(9)])
	}},
	{"move0", func(c *chooser, _, _ int) string { return fmt.Sprintf("\x1b[0%c", "ABCDEF"[c.n(6)]) }},
	{"erase", func(c *chooser, _, _ int) string { return [...]string{"\x1b[K", "\x1b[1K", "\x1b[2K"}[c.n(3)] }},
	{"ed", func(c *chooser, _, _ int) string { return [...]string{"\x1b[J", "\x1b[1J", "\x1b[2J"}[c.n(3)] }},
	{"ech", func(c *chooser, _, _ int) string { return fmt.Sprintf("\x1b[%dX", c.n(8)) }},
	{"chars", func(c *chooser, _, _ int) string { return fmt.Sprintf("\x1b[%d%c", c.n(6), "@P"[c.n(2)]) }},
	{"lines", func(c *chooser, _, _ int) string { return fmt.Sprintf("\x1b[%d%c", c.n(4), "LM"[c.n(2)]) }},
	{"scroll", func(c *chooser, _, _ int) string {
		return [...]string{"\x1b[S", "\x1b[2S", "\x1b[T", "\x1b[3T", "\x1bD", "\x1bM"}[c.n(6)]
	}},
	{"nel", func(*chooser, int, int) string { return "\x1bE" }},
	{"region", func(c *chooser, _, rows int) string {
		if c.n(4) == 0 {
			return "\x1b[r"
		}
		top := 1 + c.n(rows)
		return fmt.Sprintf("\x1b[%d;%dr", top, top+1+c.n(rows+2))
	}},
	{"lrmargins", func(c *chooser, cols, _ int) string {
		if c.n(4) == 0 {
			return "\x1b[?69l"
		}
		left := 1 + c.n(cols)
		return fmt.Sprintf("\x1b[?69h\x1b[%d;%ds", left, left+1+c.n(cols+2))
	}},
	{"save", func(c *chooser, _, _ int) string { return [...]string{"\x1b7", "\x1b8"}[c.n(2)] }},
	{"sgr", func(c *chooser, _, _ int) string {
		p := c.pick(sgrs)
		if strings.Contains(p, "%d") {
			p = fmt.Sprintf(p, c.n(256))
		}
		return "\x1b[" + p + "m"
	}},
	{"overline", func(c *chooser, _, _ int) string { return [...]string{"\x1b[53m", "\x1b[55m"}[c.n(2)] }},
	{"sgr21", func(*chooser, int, int) string { return "\x1b[21m" }},
	{"modes", func(c *chooser, _, _ int) string {
		return fmt.Sprintf("\x1b[?%d%c", [...]int{1, 25, 2004, 1006}[c.n(4)], "hl"[c.n(2)])
	}},
	{"mouse", func(c *chooser, _, _ int) string {
		return fmt.Sprintf("\x1b[?%d%c", [...]int{9, 1000, 1002, 1003}[c.n(4)], "hl"[c.n(2)])
	}},
	{"autowrap", func(c *chooser, _, _ int) string { return "\x1b[?7" + "hl"[c.n(2):][:1] }},
	{"origin", func(c *chooser, _, _ int) string { return "\x1b[?6" + "hl"[c.n(2):][:1] }},
	{"origin-cup", func(c *chooser, _, _ int) string { return "\x1b[?6" + "hl"[c.n(2):][:1] + "\x1b[H" }},
	{"irm", func(c *chooser, _, _ int) string { return "\x1b[4" + "hl"[c.n(2):][:1] }},
	{"alt", func(c *chooser, _, _ int) string { return "\x1b[?1049" + "hl"[c.n(2):][:1] }},
	{"alt-cup", func(c *chooser, _, _ int) string { return [...]string{"\x1b[?1049h\x1b[H", "\x1b[?1049l"}[c.n(2)] }},
	{"title", func(c *chooser, _, _ int) string {
		return fmt.Sprintf("\x1b]%d;%s%s", [...]int{0, 2}[c.n(2)], c.pick(titles), [...]string{"\x07", "\x1b\\"}[c.n(2)])
	}},
	{"title-9c", func(c *chooser, _, _ int) string { return "\x1b]0;" + c.pick(titles9c) + "\x07" }},
	{"link", func(c *chooser, _, _ int) string {
		if c.n(2) == 0 {
			return "\x1b]8;;\x1b\\"
		}
		return fmt.Sprintf("\x1b]8;;https://example.com/%d\x07", c.n(9))
	}},
	// rep repeats an ASCII character at least once: after any other
	// (streams/rep-wide, streams/rep-no-ascii) tmux and x/vt are both
	// wrong, and x/vt takes a count of 0 for none (streams/rep-zero). The x
	// takes no choice, so that the other productions' streams stay as
	// they were. The count stays within a screenful and a row: emu cuts a
	// larger one, keeping the screen but not every scrolled-off copy
	// (design.md "The terminal emulator", hostile counts), x/vt does not.
	{"rep", func(c *chooser, cols, rows int) string {
		return fmt.Sprintf("x\x1b[%db", 1+c.n(min(30, cols*(rows+1))))
	}},
	{"tabs", func(c *chooser, _, _ int) string { return [...]string{"\x1bH", "\x1b[g", "\x1b[3g", "\x1b[Z"}[c.n(4)] }},
	{"cht", func(c *chooser, _, _ int) string { return fmt.Sprintf("\x1b[%dI", 1+c.n(3)) }},
	{"cursor-style", func(c *chooser, _, _ int) string { return fmt.Sprintf("\x1b[%d q", c.n(7)) }},
	{"query", func(c *chooser, _, _ int) string {
		return [...]string{"\x1b[c", "\x1b[>c", "\x1b[6n", "\x1b[?6n", "\x1b[5n", "\x1b[?2004$p"}[c.n(6)]
	}},
}

// genStream is the stream the choices make at a size they choose too
// (small, so that margins and wraps are met often), leaving out the
// productions named in skip; each token is one element of the result.
func genStream(input []byte, skip map[string]bool) (cols, rows int, tokens []string) {
	c := &chooser{b: input}
	cols, rows = 4+c.n(28), 2+c.n(7)
	for !c.done() {
		k := grammar[c.n(len(grammar))]
		tok := k.gen(c, cols, rows)
		switch {
		case skip[k.name]:
		case skip["pending-wrap"] && pendingWrap[k.name]:
			tokens = append(tokens, "\r"+tok)
		default:
			tokens = append(tokens, tok)
		}
	}
	return cols, rows, tokens
}

// minimise drops tokens while still(tokens) holds, larger chunks first,
// trying at most budget candidates; it returns the smallest list found.
func minimise(tokens []string, still func([]string) bool, budget int) []string {
	for chunk := max(len(tokens)/2, 1); chunk >= 1 && budget > 0; chunk /= 2 {
		for i := 0; i+chunk <= len(tokens) && budget > 0; {
			try := append(append([]string(nil), tokens[:i]...), tokens[i+chunk:]...)
			budget--
			if still(try) {
				tokens = try
				continue
			}
			i += chunk
		}
	}
	return tokens
}

// seedInput is n choice bytes from a fixed seed.
func seedInput(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 36))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

// reportMinimised plays tokens (what says how, after the size) and, when the models differ, fails t with
// the stream minimised to what still shows the first difference's aspect,
// and that stream's diff.
func reportMinimised(t *testing.T, what string, cols, rows int, tokens []string, play func([]string) []difference, budget int) {
	t.Helper()
	diffs := play(tokens)
	if len(diffs) == 0 {
		return
	}
	aspect := diffs[0].aspect
	small := minimise(tokens, func(try []string) bool {
		for _, d := range play(try) {
			if d.aspect == aspect {
				return true
			}
		}
		return false
	}, budget)
	var b strings.Builder
	for _, d := range play(small) {
		fmt.Fprintf(&b, "%s:\n%s\n", d.aspect, d.detail)
	}
	t.Errorf("a generated stream (%d×%d, %d tokens%s) differs in %s; minimised to %d tokens:\n%q\n%s",
		cols, rows, len(tokens), what, aspect, len(small), strings.Join(small, ""), b.String())
}
