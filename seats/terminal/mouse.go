package terminal

import "github.com/pullcept/pullcept/seats/terminal/emu"

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

// mouseModes is the reporting in effect as emu keeps it (at most one
// tracking mode is set: the last one the child chose).
func mouseModes(m emu.MouseModes) MouseModes {
	t := MouseOff
	switch {
	case m.Any:
		t = MouseAnyMotion
	case m.Button:
		t = MouseButtonMotion
	case m.Normal:
		t = MouseNormal
	case m.X10:
		t = MouseX10
	}
	return MouseModes{Tracking: t, SGR: m.SGR}
}
