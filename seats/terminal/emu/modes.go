package emu

import "github.com/charmbracelet/x/ansi"

// MouseModes are the mouse reporting modes the child set: what to report
// (X10 ?9, Normal ?1000, Button ?1002, Any ?1003: at most one, the last
// set) and how to encode it (UTF8 ?1005, SGR ?1006, URXVT ?1015,
// SGRPixels ?1016, each on its own).
type MouseModes struct {
	X10, Normal, Button, Any    bool
	SGR, UTF8, URXVT, SGRPixels bool
}

// Modes are the terminal modes a seat's UI and tests read: DECAWM ?7,
// DECOM ?6, IRM 4, LNM 20, DECCKM ?1, bracketed paste ?2004, DECSCNM ?5,
// DECTCEM ?25, DECLRMM ?69, DECNKM ?66 (application keypad), focus reports
// ?1004, and the mouse.
type Modes struct {
	AutoWrap, Origin, Insert, LNM bool
	AppCursorKeys, BracketedPaste bool
	ReverseVideo, CursorVisible   bool
	LeftRightMargins, AppKeypad   bool
	FocusEvents                   bool
	Mouse                         MouseModes
}

// modes is Modes plus the modes with no effect here, kept for DECRQM.
type modes struct {
	Modes
	other map[int]bool // key: the mode, negative for an ANSI mode
}

// maxOtherModes bounds the modes without effect a child may have set.
const maxOtherModes = 64

func defaultModes() modes {
	return modes{Modes: Modes{AutoWrap: true, CursorVisible: true}}
}

// Modes returns the terminal's modes.
func (t *Terminal) Modes() Modes { return t.m.Modes }

// recognized are the modes DECRQM reports as set or reset even before the
// child touched them (x/vt's list; any other mode is "not recognized" (0)
// until the child sets or resets it).
var recognized = map[int]bool{1: true, 6: true, 7: true, 9: true, 25: true, 66: true, 69: true,
	1000: true, 1001: true, 1002: true, 1003: true, 1004: true, 1006: true, 1047: true, 1048: true,
	1049: true, 2004: true, -20: true}

// setModes runs SM/RM (ansi) or DECSET/DECRST for each parameter.
func (t *Terminal) setModes(params ansi.Params, on, dec bool) {
	for _, p := range params {
		n := p.Param(-1)
		if n < 0 {
			continue
		}
		if dec {
			t.setDEC(n, on)
		} else {
			t.setANSI(n, on)
		}
	}
}

func (t *Terminal) setANSI(n int, on bool) {
	switch n {
	case 4:
		t.m.Insert = on
	case 20:
		t.m.LNM = on
	default:
		t.m.setOther(-n, on)
	}
}

func (t *Terminal) setDEC(n int, on bool) {
	mm := &t.m.Mouse
	switch n {
	case 1:
		t.m.AppCursorKeys = on
	case 5:
		if t.m.ReverseVideo != on {
			t.allDirty = true
		}
		t.m.ReverseVideo = on
	case 6:
		t.m.Origin = on
		t.home()
	case 7:
		t.m.AutoWrap = on
	case 9, 1000, 1002, 1003:
		t.setTracking(n, on)
	case 25:
		t.m.CursorVisible = on
	case 66:
		t.m.AppKeypad = on
	case 69:
		t.m.LeftRightMargins = on
		if !on {
			t.left, t.right = 0, t.cols-1
		}
	case 1004:
		t.m.FocusEvents = on
	case 1005:
		mm.UTF8 = on
	case 1006:
		mm.SGR = on
	case 1015:
		mm.URXVT = on
	case 1016:
		mm.SGRPixels = on
	case 2004:
		t.m.BracketedPaste = on
	case 47, 1047, 1049, 1048:
		t.m.setOther(n, on)
		t.altMode(n, on)
	case 2048:
		t.m.setOther(n, on)
		if on {
			t.sendReply(ansi.InBandResize(t.rows, t.cols, 0, 0))
		}
	default:
		t.m.setOther(n, on)
	}
}

// setTracking sets or resets mouse tracking mode n (9, 1000, 1002,
// 1003). As in xterm and tmux there is one tracking mode: setting one
// replaces the others, resetting any ends the reports (x/vt kept each on
// its own).
func (t *Terminal) setTracking(n int, on bool) {
	mm := &t.m.Mouse
	mm.X10, mm.Normal, mm.Button, mm.Any = false, false, false, false
	if !on {
		return
	}
	switch n {
	case 9:
		mm.X10 = true
	case 1000:
		mm.Normal = true
	case 1002:
		mm.Button = true
	default:
		mm.Any = true
	}
}

func (m *modes) setOther(k int, on bool) {
	if m.other == nil {
		m.other = make(map[int]bool)
	}
	if _, ok := m.other[k]; ok || len(m.other) < maxOtherModes {
		m.other[k] = on
	}
}

// modeValue is DECRQM's answer for mode k (negative: ANSI): 1 set, 2 reset,
// 0 not recognized.
func (t *Terminal) modeValue(k int) ansi.ModeSetting {
	on, known := t.modeState(k)
	if !known {
		if v, ok := t.m.other[k]; ok {
			on, known = v, true
		} else if recognized[k] {
			known = true
		}
	}
	switch {
	case !known:
		return ansi.ModeNotRecognized
	case on:
		return ansi.ModeSet
	}
	return ansi.ModeReset
}

// modeState is the state of a mode that has an effect here.
func (t *Terminal) modeState(k int) (on, known bool) {
	m, mm := &t.m, &t.m.Mouse
	switch k {
	case -4:
		return m.Insert, true
	case -20:
		return m.LNM, true
	case 1:
		return m.AppCursorKeys, true
	case 5:
		return m.ReverseVideo, true
	case 6:
		return m.Origin, true
	case 7:
		return m.AutoWrap, true
	case 9:
		return mm.X10, true
	case 25:
		return m.CursorVisible, true
	case 66:
		return m.AppKeypad, true
	case 69:
		return m.LeftRightMargins, true
	case 1000:
		return mm.Normal, true
	case 1002:
		return mm.Button, true
	case 1003:
		return mm.Any, true
	case 1004:
		return m.FocusEvents, true
	case 1005:
		return mm.UTF8, true
	case 1006:
		return mm.SGR, true
	case 1015:
		return mm.URXVT, true
	case 1016:
		return mm.SGRPixels, true
	case 2004:
		return m.BracketedPaste, true
	}
	return false, false
}

// requestMode answers DECRQM for the first parameter.
func (t *Terminal) requestMode(params ansi.Params, dec bool) {
	n, _, ok := params.Param(0, 0)
	if !ok || n <= 0 {
		return
	}
	if dec {
		t.sendReply(ansi.ReportMode(ansi.DECMode(n), t.modeValue(n)))
		return
	}
	t.sendReply(ansi.ReportMode(ansi.ANSIMode(n), t.modeValue(-n)))
}
