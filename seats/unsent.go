package seats

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
	"github.com/pullcept/pullcept/seats/terminal"
)

// UnsentInput reads the keys the human sends to a seat's terminal and tracks
// whether the CLI's input line holds text that was not submitted yet
// (docs/design.md §5 "Unsent input", «発言は端末へ入る»). While it does, room
// posts for that seat are held: typed into it they would be glued to the
// human's half-typed line and the tag would no longer start the input.
//
// It reads keys, not the screen (the app never reads terminal output as
// conversation), one write at a time, as the pane sends them:
//
//   - a write of "\r" alone submits: the line is empty;
//   - Ctrl+C (0x03), Ctrl+U (0x15) and Esc Esc clear it;
//   - Backspace (0x7f or 0x08) deletes one character, Ctrl+W (0x17) one word;
//   - any other control key sent alone, and escape sequences (arrows,
//     function keys, CSI/SS3/OSC/DCS, the emulator's replies), change nothing;
//   - everything else is typed text, including a multi-line paste in one
//     write, its newlines and tabs, and the content of a bracketed paste.
//
// Escape sequences are delimited by x/ansi's parser table, as the seat's
// emulator reads them (see keyReader for where keys differ from terminal
// output).
//
// Accepted limits («受容したトレードオフ»): a line recalled from history
// with ↑ looks empty, and the keys that answer an on-screen prompt look like
// text until the next submit or clear. The zero value is an empty line. Not
// safe for concurrent use: the Typist's writer goroutine owns it.
type UnsentInput struct {
	line    []byte // what is on the line, as typed
	lastEsc bool   // the previous write was a lone Esc key
	paste   bool   // inside a bracketed paste (its markers are separate writes)
	// ends counts the human's submits and clears (Enter, Esc Esc, Ctrl+C,
	// Ctrl+U): a post stuck in the CLI's input box was sent or dropped by
	// the human then (Typist, docs/design.md §5 "Confirmed delivery").
	ends uint64
	// sent counts the human's Enters that sent a line with text on it.
	sent uint64
}

// pasteEnd ends a bracketed paste (xterm ?2004); the pane sends the markers
// around a paste when the child asked for them.
var pasteEnd = []byte("\x1b[201~")

// Empty reports whether nothing unsent is on the line.
func (u *UnsentInput) Empty() bool { return len(u.line) == 0 }

// Text returns the unsent text as the tracker understands it.
func (u *UnsentInput) Text() string { return string(u.line) }

// Reset empties the line: the app's own "\r" submitted whatever was on it.
func (u *UnsentInput) Reset() {
	u.line = u.line[:0]
	u.lastEsc = false
	u.paste = false
}

// Feed reads one write the pane sends to the terminal.
func (u *UnsentInput) Feed(p []byte) {
	if len(p) == 0 {
		return
	}
	wasEsc := u.lastEsc
	u.lastEsc = false
	if len(p) == 1 && !u.paste && u.loneKey(p[0], wasEsc) {
		return
	}
	r := keyReader{u: u, single: len(p) == 1}
	for i := 0; i < len(p); i++ {
		if u.paste {
			p, i, r.state = u.feedPaste(p[i:]), -1, parser.GroundState
			continue
		}
		if r.read(p[i]) {
			i--
		}
	}
}

// loneKey handles the keys whose meaning depends on being a write of their
// own: Enter submits, and Esc clears when the previous write was Esc too.
func (u *UnsentInput) loneKey(b byte, wasEsc bool) bool {
	switch b {
	case '\r':
		if len(u.line) > 0 {
			u.sent++
		}
		u.line = u.line[:0] // submit
		u.ends++
	case ansi.ESC:
		if wasEsc {
			u.line = u.line[:0] // Esc Esc
			u.ends++
		} else {
			u.lastEsc = true
		}
	default:
		return false
	}
	return true
}

// keyReader walks one write with x/ansi's transition table
// (parser.Table.Transition), which finds where every CSI, OSC, DCS, SOS,
// PM and APC sequence ends. The table parses terminal output; keys differ
// from it in three places, handled here as key decoders read them:
//
//   - the pane writes UTF-8, so a byte from 0x80 up is text on the line,
//     never an 8-bit C1 control (inside a sequence it is ignored);
//   - after ESC, a byte that begins no CSI or string sequence completes an
//     Alt key, which changes nothing: ESC is Esc Esc (it clears), O is SS3
//     and the byte after it belongs to the key, and a space, a control or
//     a character is Alt+that key (the table would read ESC + a space as
//     the start of a longer sequence, end an SS3 at its O, and run a
//     control inside the sequence);
//   - a C0 control inside a CSI ends it and is read again as a key (the
//     table would run it and go on with the sequence).
type keyReader struct {
	u      *UnsentInput
	state  parser.State
	single bool   // the write is one byte: a lone key
	seq    []byte // parameter, prefix and intermediate bytes of the current CSI
	ss3    bool   // the next byte ends an SS3 key
	alt    int    // UTF-8 continuation bytes still part of an Alt key
}

// read takes byte b of the write; true means b ended a sequence and is to
// be read again as a key.
func (r *keyReader) read(b byte) bool {
	switch {
	case r.ss3:
		r.ss3 = false
		return false
	case r.alt > 0 && b >= 0x80 && b < 0xC0:
		r.alt--
		return false
	}
	r.alt = 0
	if b >= 0x80 {
		r.readHigh(b)
		return false
	}
	prev := r.state
	if b == ansi.ESC && inString(prev) {
		// ESC inside any string (DCS, OSC, SOS, PM, APC) begins its ST
		// (ESC \) or a new sequence. The table puts an ESC right after
		// "ESC P" into the DCS instead, so an empty DCS would never end and
		// swallow the keys after it in the same write.
		r.state = parser.EscapeState
		return false
	}
	next, action := parser.Table.Transition(prev, b)
	if prev == parser.EscapeState && (b == ansi.ESC || action != parser.ClearAction && action != parser.StartAction) {
		r.altKey(b)
		return false
	}
	if action == parser.ExecuteAction && prev != parser.GroundState {
		r.state = parser.GroundState
		return true
	}
	r.state = next
	r.act(action, prev, b)
	return false
}

// act applies the table's action for byte b, read in state prev.
func (r *keyReader) act(action parser.Action, prev parser.State, b byte) {
	switch action {
	case parser.PrintAction:
		r.u.line = append(r.u.line, b)
	case parser.ExecuteAction:
		r.u.key(b, r.single)
	case parser.ClearAction:
		r.seq = r.seq[:0]
	case parser.ParamAction, parser.PrefixAction, parser.CollectAction:
		if len(r.seq) < 16 {
			r.seq = append(r.seq, b)
		}
	case parser.DispatchAction:
		r.dispatched(prev, b)
	}
}

// altKey completes the key that ESC began with b (see keyReader).
func (r *keyReader) altKey(b byte) {
	r.state = parser.GroundState
	switch b {
	case ansi.ESC:
		r.u.line = r.u.line[:0] // Esc Esc in one write
	case 'O':
		r.ss3 = true
	}
}

// inString reports whether s is inside a DCS, OSC, SOS, PM or APC string.
func inString(s parser.State) bool {
	switch s {
	case parser.DcsEntryState, parser.DcsIntermediateState, parser.DcsParamState, parser.DcsStringState,
		parser.OscStringState, parser.SosStringState, parser.PmStringState, parser.ApcStringState:
		return true
	}
	return false
}

// readHigh takes a byte from 0x80 up: text in the ground state, the
// character of an Alt key right after ESC, else part of the sequence.
func (r *keyReader) readHigh(b byte) {
	switch r.state {
	case parser.GroundState:
		r.u.line = append(r.u.line, b)
	case parser.EscapeState:
		r.state = parser.GroundState
		if b >= 0xC0 {
			r.alt = terminal.UTF8Len(b) - 1
		}
	}
}

// dispatched acts on a finished sequence: CSI 200 ~ begins a bracketed
// paste. Every other sequence changes nothing.
func (r *keyReader) dispatched(prev parser.State, final byte) {
	switch prev {
	case parser.CsiEntryState, parser.CsiParamState, parser.CsiIntermediateState:
		if final == '~' && string(r.seq) == "200" {
			r.u.paste = true
		}
	}
}

// key applies a control key read in the ground state. Enter, newline and
// tab change nothing sent alone; in a longer write (a paste) they are text.
func (u *UnsentInput) key(b byte, single bool) {
	switch b {
	case 0x03, 0x15: // Ctrl+C, Ctrl+U
		u.line = u.line[:0]
		u.ends++
	case 0x7f, 0x08: // Backspace
		u.deleteRune()
	case 0x17: // Ctrl+W
		u.deleteWord()
	case '\r', '\n', '\t':
		if !single {
			u.line = append(u.line, b)
		}
	}
}

// feedPaste takes bracketed-paste content as text up to the end marker and
// returns what follows the marker (nothing while the paste goes on).
func (u *UnsentInput) feedPaste(p []byte) []byte {
	end := bytes.Index(p, pasteEnd)
	if end < 0 {
		u.line = append(u.line, p...)
		return nil
	}
	u.line = append(u.line, p[:end]...)
	u.paste = false
	return p[end+len(pasteEnd):]
}

// deleteRune removes the last character.
func (u *UnsentInput) deleteRune() {
	if len(u.line) == 0 {
		return
	}
	_, n := utf8.DecodeLastRune(u.line)
	u.line = u.line[:len(u.line)-n]
}

// deleteWord removes the spaces before the cursor and the word before them,
// as readline's unix-word-rubout does.
func (u *UnsentInput) deleteWord() {
	for len(u.line) > 0 {
		r, n := utf8.DecodeLastRune(u.line)
		if !unicode.IsSpace(r) {
			break
		}
		u.line = u.line[:len(u.line)-n]
	}
	for len(u.line) > 0 {
		r, n := utf8.DecodeLastRune(u.line)
		if unicode.IsSpace(r) {
			break
		}
		u.line = u.line[:len(u.line)-n]
	}
}
