package seats

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// UnsentInput reads the keys the human sends to a seat's terminal and tracks
// whether the CLI's input line holds text that was not submitted yet
// (DESIGN §5 "Unsent input", spec «発言は端末へ入る»). While it does, room
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
// Accepted limits (spec «受容したトレードオフ»): a line recalled from history
// with ↑ looks empty, and the keys that answer an on-screen prompt look like
// text until the next submit or clear. The zero value is an empty line. Not
// safe for concurrent use: the Typist's writer goroutine owns it.
type UnsentInput struct {
	line    []byte // what is on the line, as typed
	lastEsc bool   // the previous write was a lone Esc key
	paste   bool   // inside a bracketed paste (its markers are separate writes)
}

// Escape-sequence parsing states within one write.
const (
	keyGround = iota
	keyEsc    // after ESC
	keyCSI    // ESC [ … final
	keySS3    // ESC O x
	keyString // OSC/DCS/APC/PM/SOS … BEL or ESC \
	keyStrEsc // ESC inside a string
)

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
	if !u.paste {
		switch {
		case len(p) == 1 && p[0] == '\r':
			u.line = u.line[:0] // submit
			return
		case len(p) == 1 && p[0] == 0x1b:
			if wasEsc {
				u.line = u.line[:0] // Esc Esc
			} else {
				u.lastEsc = true
			}
			return
		}
	}
	single := len(p) == 1
	state := keyGround
	var csi []byte // parameter bytes of the CSI being read
	for i := 0; i < len(p); i++ {
		if u.paste {
			p, i, state = u.feedPaste(p[i:]), -1, keyGround
			continue
		}
		b := p[i]
		switch state {
		case keyGround:
			switch {
			case b == 0x1b:
				state = keyEsc
			case b == 0x03 || b == 0x15: // Ctrl+C, Ctrl+U
				u.line = u.line[:0]
			case b == 0x7f || b == 0x08: // Backspace
				u.deleteRune()
			case b == 0x17: // Ctrl+W
				u.deleteWord()
			case b == '\r' || b == '\n' || b == '\t':
				if !single { // part of a paste: text
					u.line = append(u.line, b)
				}
			case b < 0x20:
				// another control key: nothing
			default:
				u.line = append(u.line, b)
			}
		case keyEsc:
			switch b {
			case 0x1b:
				u.line = u.line[:0] // Esc Esc in one write
				state = keyGround
			case '[':
				state, csi = keyCSI, csi[:0]
			case 'O':
				state = keySS3
			case ']', 'P', '_', '^', 'X':
				state = keyString
			default:
				state = keyGround // Alt+key: nothing
			}
		case keyCSI:
			switch {
			case b >= 0x40 && b <= 0x7e:
				state = keyGround
				if b == '~' && string(csi) == "200" {
					u.paste = true
				}
			case b >= 0x20:
				if len(csi) < 16 {
					csi = append(csi, b)
				}
			default:
				state = keyGround // a control aborts the sequence: read it as a key
				i--
			}
		case keySS3:
			state = keyGround
		case keyString:
			switch b {
			case 0x07:
				state = keyGround
			case 0x1b:
				state = keyStrEsc
			}
		case keyStrEsc:
			if b == '\\' {
				state = keyGround
			} else {
				state = keyEsc // ESC began a new sequence
				i--
			}
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
