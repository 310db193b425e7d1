package localmcp

import (
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room/textcut"
)

// MaxLogLines is how many lines a server's log keeps (spec «ローカル MCP
// サーバ»: the last 1000 lines, across restarts of that server in this run).
const MaxLogLines = 1000

// MaxLineBytes caps one log line; a longer one is cut on a rune boundary
// and ends in "…". With MaxLogLines it bounds a server's log at about
// 2 MiB, however much the server writes.
const MaxLineBytes = 2048

// LogLine is one line of a server's log.
type LogLine struct {
	At   time.Time // when it arrived (or when Pullcept said it)
	Text string    // valid UTF-8, no control characters but tab, at most MaxLineBytes
	Own  bool      // Pullcept's own line about the server, not the server's stderr
}

// serverLog is a ring of the last MaxLogLines lines. Its lock is a leaf.
type serverLog struct {
	mu    sync.Mutex
	lines []LogLine // allocated on first use, MaxLogLines long
	start int       // index of the oldest line
	n     int       // lines held
}

// add appends a line, dropping the oldest when full.
func (l *serverLog) add(line LogLine) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lines == nil {
		l.lines = make([]LogLine, MaxLogLines)
	}
	if l.n < MaxLogLines {
		l.lines[(l.start+l.n)%MaxLogLines] = line
		l.n++
		return
	}
	l.lines[l.start] = line
	l.start = (l.start + 1) % MaxLogLines
}

// snapshot returns the lines, oldest first.
func (l *serverLog) snapshot() []LogLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LogLine, l.n)
	for i := range out {
		out[i] = l.lines[(l.start+i)%MaxLogLines]
	}
	return out
}

// cleanLine makes raw bytes a log line: invalid UTF-8 and control
// characters (but tab) become U+FFFD, and a line over MaxLineBytes, or one
// the reader already cut (cut), is cut on a rune boundary and ends in "…".
func cleanLine(raw []byte, cut bool) string {
	var b strings.Builder
	for i := 0; i < len(raw) && b.Len() <= MaxLineBytes; {
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size <= 1 || r != '\t' && unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += size
	}
	s := b.String()
	if len(s) <= MaxLineBytes && !cut {
		return s
	}
	return textcut.Bytes(s, MaxLineBytes-len("…")) + "…"
}
