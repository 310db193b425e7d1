package fakecli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Prompt mode (-prompt) draws an input line the way Claude Code does: the
// terminal in raw mode, the cursor hidden, its own caret drawn in reverse
// video, a footer drawn below the input after it, and the hidden cursor
// parked at the caret — where an input method puts its window. It reads
// key by key: Enter records the line (-lines) and shows it as "got: …",
// "exit N" ends with N, Backspace deletes a character, and mouse reports
// (with -mouse, which asks for ?1002 and SGR ?1006) are recorded as
// "mouse <report>". -osc52 TEXT first writes TEXT to the clipboard with
// OSC 52, as a hostile program would.

// The rows prompt mode draws on (1-based).
const (
	promptReadyRow  = 1
	promptGotRow    = 2
	promptInputRow  = 4
	promptFooterRow = 6
)

// PromptMark begins the input row: the caret is this many cells plus the
// typed text's width from the row's start.
const PromptMark = "❯ "

// PromptFooter is the row drawn below the input, after it.
const PromptFooter = "? for shortcuts · fake prompt"

// promptState is the line being typed and the bytes of a sequence or a
// character not complete yet.
type promptState struct {
	line []rune
	tail []byte
}

// runPrompt is prompt mode over the terminal in/out until "exit N", EOF or
// ctx ends. raw puts the terminal in raw mode and returns its restore.
func runPrompt(ctx context.Context, o options, in io.Reader, out, lines io.Writer, raw func() (func(), error)) int {
	restore, err := raw()
	if err != nil {
		fmt.Fprintf(out, "prompt: %v\n", err)
		return 3
	}
	defer restore()
	if o.osc52 != "" {
		fmt.Fprint(out, ansi.SetSystemClipboard(o.osc52))
	}
	fmt.Fprint(out, "\x1b[?25l\x1b[2J")
	if o.mouse {
		fmt.Fprint(out, "\x1b[?1002h\x1b[?1006h")
	}
	fmt.Fprintf(out, "\x1b[%d;1H%s", promptReadyRow, Ready)
	st := &promptState{}
	st.draw(out)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	read := make(chan []byte)
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				select {
				case read <- bytes.Clone(buf[:n]):
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return 0
		case b, ok := <-read:
			if !ok {
				return 0
			}
			if code, done := st.feed(b, out, lines); done {
				return code
			}
		}
	}
}

// feed takes the bytes typed; done is true when a line said "exit N".
func (st *promptState) feed(b []byte, out, lines io.Writer) (code int, done bool) {
	st.tail = append(st.tail, b...)
	for len(st.tail) > 0 {
		n, ok := st.take(out, lines, &code, &done)
		if !ok {
			break // an incomplete sequence or character: wait for more
		}
		st.tail = st.tail[n:]
		if done {
			return code, true
		}
	}
	st.draw(out)
	return 0, false
}

// take handles the first key of st.tail and says how many bytes it took;
// ok is false while it is incomplete.
func (st *promptState) take(out, lines io.Writer, code *int, done *bool) (n int, ok bool) {
	t := st.tail
	switch c := t[0]; {
	case c == '\r' || c == '\n':
		s := string(st.line)
		st.line = st.line[:0]
		record(lines, s)
		if _, err := fmt.Sscanf(s, "exit %d", code); err == nil {
			*done = true
			return 1, true
		}
		fmt.Fprintf(out, "\x1b[%d;1H\x1b[2Kgot: %s", promptGotRow, s)
		return 1, true
	case c == 0x7f || c == 0x08:
		if len(st.line) > 0 {
			st.line = st.line[:len(st.line)-1]
		}
		return 1, true
	case c == 0x1b:
		return st.escape(lines)
	case c < 0x20:
		return 1, true
	}
	if !utf8.FullRune(t) {
		return 0, false
	}
	r, size := utf8.DecodeRune(t)
	st.line = append(st.line, r)
	return size, true
}

// escape takes an escape sequence: a mouse report is recorded, anything
// else dropped.
func (st *promptState) escape(lines io.Writer) (n int, ok bool) {
	t := st.tail
	if len(t) < 2 {
		return 0, false
	}
	if t[1] != '[' {
		return 2, true
	}
	for i := 2; i < len(t); i++ {
		if t[i] >= 0x40 && t[i] <= 0x7e {
			if seq := string(t[2 : i+1]); strings.HasPrefix(seq, "<") {
				record(lines, "mouse "+seq)
			}
			return i + 1, true
		}
	}
	return 0, false
}

// draw redraws the input row and the footer below it, then parks the
// hidden cursor at the caret (after the footer: the last write is
// elsewhere, as with Claude Code).
func (st *promptState) draw(out io.Writer) {
	s := string(st.line)
	fmt.Fprintf(out, "\x1b[%d;1H\x1b[2K%s%s\x1b[7m \x1b[m", promptInputRow, PromptMark, s)
	fmt.Fprintf(out, "\x1b[%d;1H\x1b[2K%s", promptFooterRow, PromptFooter)
	fmt.Fprintf(out, "\x1b[%d;%dH", promptInputRow, ansi.StringWidth(PromptMark+s)+1)
}

// record appends one line to a -lines file.
func record(lines io.Writer, s string) {
	b, _ := json.Marshal(s)
	_, _ = lines.Write(append(b, '\n'))
}
