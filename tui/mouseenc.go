package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// mouseKind is what a mouse report says happened.
type mouseKind int

const (
	reportPress mouseKind = iota
	reportRelease
	reportMotion
	reportWheel
)

// encodeMouse is the report of the human's mouse event ms at cell (x, y)
// of a seat's terminal (0-based) for a program that asked for pm, as xterm
// would send it: nil when the program asked for no report of this kind
// (X10 reports presses only, ?1000 no motion, ?1002 motion only with a
// button down). SGR (?1006) when the program enabled it, else the legacy
// bytes. Shift never appears: a Shift-modified event stays the UI's own
// (docs/design.md §10 "Mouse"); neither modifier does in X10 mode.
func encodeMouse(pm PaneMouse, kind mouseKind, ms tea.Mouse, x, y int) []byte {
	t := pm.Tracking
	switch {
	case t == MouseOff:
		return nil
	case kind == reportRelease && t == MouseX10:
		return nil
	case kind == reportMotion && t < MouseButtonMotion:
		return nil
	case kind == reportMotion && ms.Button == tea.MouseNone && t < MouseAnyMotion:
		return nil
	}
	alt, ctrl := ms.Mod.Contains(tea.ModAlt), ms.Mod.Contains(tea.ModCtrl)
	if t == MouseX10 {
		alt, ctrl = false, false
	}
	btn := ms.Button
	if kind == reportRelease && !pm.SGR {
		btn = tea.MouseNone // the legacy release says no button: 3
	}
	b := ansi.EncodeMouseButton(btn, kind == reportMotion, false, alt, ctrl)
	if pm.SGR {
		return []byte(ansi.MouseSgr(b, x, y, kind == reportRelease))
	}
	return legacyMouse(b, x, y)
}

// legacyMouse is the legacy report CSI M Cb Cx Cy, each a byte of value+32
// (positions 1-based); a position past 223 cannot be written, and such an
// event is not reported (nil), as in xterm. Written here rather than with
// x/ansi's MouseX10, which converts bytes over 127 with string(byte) and so
// sends them as UTF-8 — mode 1005's encoding, which no program asked for.
func legacyMouse(b byte, x, y int) []byte {
	const off = 32
	if x < 0 || y < 0 || x+1+off > 255 || y+1+off > 255 || int(b)+off > 255 {
		return nil
	}
	return []byte{0x1b, '[', 'M', b + off, byte(x + 1 + off), byte(y + 1 + off)}
}
