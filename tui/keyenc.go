package tui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// encodeKey turns a Bubble Tea v2 key press into the bytes a terminal would
// send to the seat's program (xterm legacy encoding, what Claude Code and
// Codex CLI read when the kitty keyboard query goes unanswered;
// docs/dependencies.md §2.4). appCursor selects DECCKM application cursor keys
// (ESC O A) for unmodified arrows, Home and End. Keys with no encoding
// return nil. It is the pane's only key path (docs/design.md §10): these
// bytes are what the seat reads, not bindings, so they stay a table.
func encodeKey(k tea.Key, appCursor bool) []byte {
	m := modsOf(k.Mod)
	// Printable text (IME commits, shifted characters) goes as written.
	if k.Text != "" && !m.ctrl {
		return withAlt(m.alt, k.Text)
	}
	if enc, ok := namedKeys[k.Code]; ok {
		return enc(m, appCursor)
	}
	if m.ctrl {
		if b, ok := ctrlByte(k.Code); ok {
			return withAlt(m.alt, string([]byte{b}))
		}
		return nil
	}
	return printableKey(k, m)
}

// keyMods are the modifiers the xterm encoding reads (lock keys do not
// count; meta counts as alt).
type keyMods struct{ shift, alt, ctrl bool }

func modsOf(mod tea.KeyMod) keyMods {
	mod &^= tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock
	return keyMods{
		shift: mod&tea.ModShift != 0,
		alt:   mod&(tea.ModAlt|tea.ModMeta) != 0,
		ctrl:  mod&tea.ModCtrl != 0,
	}
}

// param is the xterm modifier parameter: 1 + shift(1) + alt(2) + ctrl(4).
func (m keyMods) param() int {
	p := 1
	if m.shift {
		p++
	}
	if m.alt {
		p += 2
	}
	if m.ctrl {
		p += 4
	}
	return p
}

// keyEncoder encodes one named key under modifiers m.
type keyEncoder func(m keyMods, appCursor bool) []byte

// namedKeys encodes the keys that are not text, by key code. It is only
// read.
var namedKeys = map[rune]keyEncoder{
	tea.KeyEnter:     enterKey,
	tea.KeyKpEnter:   enterKey,
	tea.KeyTab:       tabKey,
	tea.KeyBackspace: ctrlVariant("\x7f", "\x08"),
	tea.KeyEscape:    ctrlVariant("\x1b", "\x1b"),
	tea.KeySpace:     ctrlVariant(" ", "\x00"),
	tea.KeyUp:        cursorKey('A'),
	tea.KeyDown:      cursorKey('B'),
	tea.KeyRight:     cursorKey('C'),
	tea.KeyLeft:      cursorKey('D'),
	tea.KeyHome:      cursorKey('H'),
	tea.KeyEnd:       cursorKey('F'),
	tea.KeyBegin:     cursorKey('E'),
	tea.KeyInsert:    tildeKeyEnc("2"),
	tea.KeyDelete:    tildeKeyEnc("3"),
	tea.KeyPgUp:      tildeKeyEnc("5"),
	tea.KeyPgDown:    tildeKeyEnc("6"),
	tea.KeyF1:        ss3Key('P'),
	tea.KeyF2:        ss3Key('Q'),
	tea.KeyF3:        ss3Key('R'),
	tea.KeyF4:        ss3Key('S'),
	tea.KeyF5:        tildeKeyEnc("15"),
	tea.KeyF6:        tildeKeyEnc("17"),
	tea.KeyF7:        tildeKeyEnc("18"),
	tea.KeyF8:        tildeKeyEnc("19"),
	tea.KeyF9:        tildeKeyEnc("20"),
	tea.KeyF10:       tildeKeyEnc("21"),
	tea.KeyF11:       tildeKeyEnc("23"),
	tea.KeyF12:       tildeKeyEnc("24"),
}

// enterKey: Claude Code and Codex read ESC CR as "newline, do not submit",
// so any modifier sends that.
func enterKey(m keyMods, _ bool) []byte {
	if m.shift || m.ctrl || m.alt {
		return []byte("\x1b\r")
	}
	return []byte("\r")
}

func tabKey(m keyMods, _ bool) []byte {
	if m.shift {
		return []byte("\x1b[Z")
	}
	return withAlt(m.alt, "\t")
}

// ctrlVariant sends plain, or withCtrl while ctrl is held; alt prefixes ESC.
func ctrlVariant(plain, withCtrl string) keyEncoder {
	return func(m keyMods, _ bool) []byte {
		if m.ctrl {
			return withAlt(m.alt, withCtrl)
		}
		return withAlt(m.alt, plain)
	}
}

// cursorKey is an arrow, Home, End or Begin: CSI 1;<mods> final when
// modified, SS3 final in application cursor mode, CSI final otherwise.
func cursorKey(final byte) keyEncoder {
	return func(m keyMods, appCursor bool) []byte {
		if p := m.param(); p > 1 {
			return []byte("\x1b[1;" + strconv.Itoa(p) + string(final))
		}
		if appCursor {
			return []byte{0x1b, 'O', final}
		}
		return []byte{0x1b, '[', final}
	}
}

// ss3Key is F1–F4: SS3 final, or CSI 1;<mods> final when modified.
func ss3Key(final byte) keyEncoder {
	return func(m keyMods, _ bool) []byte {
		if p := m.param(); p > 1 {
			return []byte("\x1b[1;" + strconv.Itoa(p) + string(final))
		}
		return []byte{0x1b, 'O', final}
	}
}

// tildeKeyEnc is CSI n ~ (Insert, Delete, PgUp, PgDown, F5–F12).
func tildeKeyEnc(n string) keyEncoder {
	return func(m keyMods, _ bool) []byte { return tildeKey(n, m.param()) }
}

// printableKey is a printable code without text (some protocols leave
// Text empty): shift picks the shifted character.
func printableKey(k tea.Key, m keyMods) []byte {
	if k.Code < 0x20 || k.Code >= tea.KeyExtended || !utf8.ValidRune(k.Code) {
		return nil
	}
	r := k.Code
	if m.shift {
		if k.ShiftedCode != 0 {
			r = k.ShiftedCode
		} else {
			r = []rune(strings.ToUpper(string(r)))[0]
		}
	}
	return withAlt(m.alt, string(r))
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
