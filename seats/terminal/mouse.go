package terminal

import "github.com/charmbracelet/x/ansi"

// MouseTracking is which mouse events a seat's program asked its terminal to
// report (xterm's DECSET 9, 1000, 1002, 1003), for a UI that forwards the
// human's mouse into the seat (docs/design.md §10 "Mouse"). The values are
// ordered: each reports what the one before it does, and more.
type MouseTracking int

// Mouse tracking modes, none first.
const (
	MouseOff          MouseTracking = iota
	MouseX10                        // ?9: button presses only, no modifiers
	MouseNormal                     // ?1000: presses, releases and the wheel
	MouseButtonMotion               // ?1002: and motion while a button is down
	MouseAnyMotion                  // ?1003: and every motion
)

// MouseModes is a seat's mouse reporting as its program set it: what to
// report, and whether in SGR encoding (?1006: CSI < b ; x ; y M/m) rather
// than the legacy X10 bytes.
type MouseModes struct {
	Tracking MouseTracking
	SGR      bool
}

// mouseState follows the DECSET/DECRST of the mouse modes under the
// Screen's lock (Screen.setMode). Each tracking mode is kept on its own, as
// x/vt keeps it; the widest one set is in effect, which is the one x/vt's
// own SendMouse would report with.
type mouseState struct {
	on  [MouseAnyMotion + 1]bool
	sgr bool
}

// follow records mode m set or reset; other modes are not its.
func (ms *mouseState) follow(m ansi.Mode, on bool) {
	switch m {
	case ansi.ModeMouseX10:
		ms.on[MouseX10] = on
	case ansi.ModeMouseNormal:
		ms.on[MouseNormal] = on
	case ansi.ModeMouseButtonEvent:
		ms.on[MouseButtonMotion] = on
	case ansi.ModeMouseAnyEvent:
		ms.on[MouseAnyMotion] = on
	case ansi.ModeMouseExtSgr:
		ms.sgr = on
	}
}

// modes is the reporting in effect.
func (ms *mouseState) modes() MouseModes {
	t := MouseOff
	for i := MouseX10; i <= MouseAnyMotion; i++ {
		if ms.on[i] {
			t = i
		}
	}
	return MouseModes{Tracking: t, SGR: ms.sgr}
}
