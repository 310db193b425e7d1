package tui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// encodeKey turns a Bubble Tea v2 key press into the bytes a terminal would
// send to the seat's program (xterm legacy encoding, what Claude Code and
// Codex CLI read when the kitty keyboard query goes unanswered; research
// libraries.md §2.4). appCursor selects DECCKM application cursor keys
// (ESC O A) for unmodified arrows, Home and End. Keys with no encoding
// return nil. It is the pane's only key path (DESIGN §10).
func encodeKey(k tea.Key, appCursor bool) []byte {
	mod := k.Mod &^ (tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock)
	alt := mod&(tea.ModAlt|tea.ModMeta) != 0
	ctrl := mod&tea.ModCtrl != 0
	shift := mod&tea.ModShift != 0

	// Printable text (IME commits, shifted characters) goes as written.
	if k.Text != "" && !ctrl {
		if alt {
			return []byte("\x1b" + k.Text)
		}
		return []byte(k.Text)
	}

	// xterm modifier parameter: 1 + shift(1) + alt(2) + ctrl(4).
	param := 1
	if shift {
		param++
	}
	if alt {
		param += 2
	}
	if ctrl {
		param += 4
	}

	switch k.Code {
	case tea.KeyEnter, tea.KeyKpEnter:
		if shift || ctrl || alt {
			// Claude Code and Codex read ESC CR as "newline, do not submit".
			return []byte("\x1b\r")
		}
		return []byte("\r")
	case tea.KeyTab:
		if shift {
			return []byte("\x1b[Z")
		}
		return withAlt(alt, "\t")
	case tea.KeyBackspace:
		if ctrl {
			return withAlt(alt, "\x08")
		}
		return withAlt(alt, "\x7f")
	case tea.KeyEscape:
		return withAlt(alt, "\x1b")
	case tea.KeySpace:
		if ctrl {
			return withAlt(alt, "\x00")
		}
		return withAlt(alt, " ")
	case tea.KeyUp, tea.KeyDown, tea.KeyRight, tea.KeyLeft, tea.KeyHome, tea.KeyEnd, tea.KeyBegin:
		final := map[rune]byte{tea.KeyUp: 'A', tea.KeyDown: 'B', tea.KeyRight: 'C', tea.KeyLeft: 'D', tea.KeyHome: 'H', tea.KeyEnd: 'F', tea.KeyBegin: 'E'}[k.Code]
		if param > 1 {
			return []byte("\x1b[1;" + strconv.Itoa(param) + string(final))
		}
		if appCursor {
			return []byte{0x1b, 'O', final}
		}
		return []byte{0x1b, '[', final}
	case tea.KeyInsert, tea.KeyDelete, tea.KeyPgUp, tea.KeyPgDown:
		n := map[rune]string{tea.KeyInsert: "2", tea.KeyDelete: "3", tea.KeyPgUp: "5", tea.KeyPgDown: "6"}[k.Code]
		return tildeKey(n, param)
	case tea.KeyF1, tea.KeyF2, tea.KeyF3, tea.KeyF4:
		final := byte('P' + (k.Code - tea.KeyF1))
		if param > 1 {
			return []byte("\x1b[1;" + strconv.Itoa(param) + string(final))
		}
		return []byte{0x1b, 'O', final}
	}
	if k.Code >= tea.KeyF5 && k.Code <= tea.KeyF12 {
		codes := []string{"15", "17", "18", "19", "20", "21", "23", "24"}
		return tildeKey(codes[k.Code-tea.KeyF5], param)
	}

	if ctrl {
		if b, ok := ctrlByte(k.Code); ok {
			return withAlt(alt, string([]byte{b}))
		}
		return nil
	}
	// A printable code without text (some protocols leave Text empty).
	if k.Code >= 0x20 && k.Code < tea.KeyExtended && utf8.ValidRune(k.Code) {
		r := k.Code
		if shift {
			if k.ShiftedCode != 0 {
				r = k.ShiftedCode
			} else {
				r = []rune(strings.ToUpper(string(r)))[0]
			}
		}
		return withAlt(alt, string(r))
	}
	return nil
}

func withAlt(alt bool, s string) []byte {
	if alt {
		return []byte("\x1b" + s)
	}
	return []byte(s)
}

func tildeKey(n string, param int) []byte {
	if param > 1 {
		return []byte("\x1b[" + n + ";" + strconv.Itoa(param) + "~")
	}
	return []byte("\x1b[" + n + "~")
}

// ctrlByte is the C0 byte of ctrl+<code> (ctrl+a = 0x01 … ctrl+z = 0x1a,
// ctrl+@/2 = 0x00, ctrl+[ ]\ ^ _ and the xterm digit aliases 3–8).
func ctrlByte(code rune) (byte, bool) {
	switch {
	case code >= 'a' && code <= 'z':
		return byte(code-'a') + 1, true
	case code >= 'A' && code <= 'Z':
		return byte(code-'A') + 1, true
	}
	switch code {
	case '@', '2', ' ':
		return 0x00, true
	case '[', '3':
		return 0x1b, true
	case '\\', '4':
		return 0x1c, true
	case ']', '5':
		return 0x1d, true
	case '^', '6':
		return 0x1e, true
	case '_', '7', '-', '/':
		return 0x1f, true
	case '?', '8':
		return 0x7f, true
	}
	return 0, false
}

// encodePaste wraps pasted text for the seat: newlines become CR as a
// terminal sends them, and the text is bracketed (ESC[200~ … ESC[201~) only
// when the seat's program enabled bracketed paste (?2004). Any bracket end
// marker inside the text is removed so a paste cannot end the bracket early.
func encodePaste(s string, bracketed bool) []byte {
	s = strings.ReplaceAll(s, "\r\n", "\r")
	s = strings.ReplaceAll(s, "\n", "\r")
	if !bracketed {
		return []byte(s)
	}
	s = strings.ReplaceAll(s, "\x1b[201~", "")
	return []byte("\x1b[200~" + s + "\x1b[201~")
}
