package bench

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// The line flood: what a seat running `while :; do cat room/hub.go; done`
// prints (issue 13 measured 0.4–0.6 MB/s in a pane against tmux's 8–9.6 MB/s).
// room/hub.go's lines are 32 bytes long on average, two in three are indented
// with tabs and one in fifteen is empty; these have about the same shape (31
// bytes), made from fixed parts so that the bytes never change when hub.go
// does.

// floodSeed fixes the flood: the same bytes on every run and machine.
const floodSeed = 0x66_6c_6f_6f_64 // "flood"

var (
	floodIdents = []string{
		"room", "hub", "seat", "post", "floor", "topic", "conn", "msg", "err", "ctx", "mu", "rs",
		"roster", "origin", "tag", "log", "ok", "id", "n", "i", "sub", "ev", "last", "seen",
	}
	floodFuncs = []string{
		"deliver", "Lock", "Unlock", "append", "len", "Publish", "Enqueue", "judge", "resolve",
		"fmt.Errorf", "errors.Is", "strings.TrimSpace", "copy", "make", "close", "Append",
	}
	floodLines = []string{
		"if %s != nil {", "return %s, nil", "%s := %s(%s)", "%s.%s(%s, %s)", "defer %s.%s()",
		"for _, %s := range %s.%s {", "}", "} else {", "case %s:", "switch %s.%s {",
		"// %s %s the %s before %s takes the %s.", "%s = append(%s, %s)", "return fmt.Errorf(\"%s: %%w\", %s)",
		"func (%s *%s) %s(%s %s) error {", "%s, ok := %s[%s]", "if !ok {", "continue", "break",
	}
)

// WriteLineFlood writes at least size bytes of the line flood to w ("\n"
// line ends, as the program writes them; the terminal's output processing
// makes them "\r\n") and returns how many it wrote. Same size, same bytes.
func WriteLineFlood(w io.Writer, size int64) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &countWriter{w: bw}
	rng := rand.New(rand.NewPCG(floodSeed, uint64(size)))
	var line strings.Builder
	for cw.n < size {
		line.Reset()
		if rng.IntN(15) > 0 {
			indent := rng.IntN(6) // 0–1: none (one in three), else one to four tabs
			if indent > 1 {
				line.WriteString(strings.Repeat("\t", indent-1))
			}
			tmpl := pick(rng, floodLines)
			args := make([]any, strings.Count(tmpl, "%s"))
			for i := range args {
				if i%3 == 1 {
					args[i] = pick(rng, floodFuncs)
				} else {
					args[i] = pick(rng, floodIdents)
				}
			}
			fmt.Fprintf(&line, tmpl, args...)
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&line, " // %s %s %s", pick(rng, floodIdents), pick(rng, floodFuncs), pick(rng, floodIdents))
			}
		}
		line.WriteByte('\n')
		if _, err := io.WriteString(cw, line.String()); err != nil {
			return cw.n, err
		}
	}
	return cw.n, bw.Flush()
}
