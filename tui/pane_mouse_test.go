package tui

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestEncodeMouse(t *testing.T) {
	t.Parallel()
	left := tea.Mouse{Button: tea.MouseLeft}
	ctrlLeft := tea.Mouse{Button: tea.MouseLeft, Mod: tea.ModCtrl}
	noButton := tea.Mouse{}
	wheelUp := tea.Mouse{Button: tea.MouseWheelUp}
	sgr := func(t MouseTracking) PaneMouse { return PaneMouse{Tracking: t, SGR: true} }
	leg := func(t MouseTracking) PaneMouse { return PaneMouse{Tracking: t} }
	for _, tc := range []struct {
		name string
		pm   PaneMouse
		kind mouseKind
		ms   tea.Mouse
		x, y int
		want string
	}{
		{"off", PaneMouse{}, reportPress, left, 1, 1, ""},
		{"sgr press", sgr(MouseNormal), reportPress, left, 4, 2, "\x1b[<0;5;3M"},
		{"sgr release", sgr(MouseNormal), reportRelease, left, 4, 2, "\x1b[<0;5;3m"},
		{"sgr ctrl", sgr(MouseNormal), reportPress, ctrlLeft, 0, 0, "\x1b[<16;1;1M"},
		{"sgr far", sgr(MouseNormal), reportPress, left, 300, 100, "\x1b[<0;301;101M"},
		{"sgr wheel", sgr(MouseNormal), reportWheel, wheelUp, 2, 3, "\x1b[<64;3;4M"},
		{"normal: no drag", sgr(MouseNormal), reportMotion, left, 2, 3, ""},
		{"button: drag", sgr(MouseButtonMotion), reportMotion, left, 2, 3, "\x1b[<32;3;4M"},
		{"button: no hover", sgr(MouseButtonMotion), reportMotion, noButton, 2, 3, ""},
		{"any: hover", sgr(MouseAnyMotion), reportMotion, noButton, 2, 3, "\x1b[<35;3;4M"},
		{"legacy press", leg(MouseNormal), reportPress, left, 4, 2, "\x1b[M\x20\x25\x23"},
		{"legacy release", leg(MouseNormal), reportRelease, left, 4, 2, "\x1b[M\x23\x25\x23"},
		// Positions past 127 are single bytes, not UTF-8.
		{"legacy wide", leg(MouseNormal), reportPress, left, 150, 2, "\x1b[M\x20\xb7\x23"},
		{"legacy too far", leg(MouseNormal), reportPress, left, 223, 2, ""},
		{"x10 press", leg(MouseX10), reportPress, ctrlLeft, 0, 0, "\x1b[M\x20\x21\x21"},
		{"x10 release", leg(MouseX10), reportRelease, left, 0, 0, ""},
	} {
		got := encodeMouse(tc.pm, tc.kind, tc.ms, tc.x, tc.y)
		if !bytes.Equal(got, []byte(tc.want)) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// mousePane is scene with Lin's pane shown and its seat asking for mouse
// reports pm; it returns the pane's rectangle.
func mousePane(t *testing.T, pm PaneMouse) (*fakeBackend, *Model, rect) {
	t.Helper()
	f := scene()
	m := mainModel(t, f)
	send(t, m, press("ctrl+t"))
	k := seatKey{"t-main", "lin"}
	rows := []string{fit("alpha beta", 40), fit("gamma 日本語 delta", 40), fit("", 40), fit("epsilon", 40)}
	f.snaps[k] = PaneSnapshot{Rows: rows, Cols: 40, CursorVisible: true, Version: 1, Mouse: pm}
	send(t, m, screenChangedMsg{})
	return f, m, m.layout.Panes[0]
}

func mouseAt(r rect, x, y int, b tea.MouseButton, mod tea.KeyMod) tea.Mouse {
	return tea.Mouse{X: r.X + 1 + x, Y: r.Y + 1 + y, Button: b, Mod: mod}
}

// TestMouseGoesToASeatThatAskedForIt: presses, drags, releases and the
// wheel reach the seat as its program asked (SGR here), at the cell of its
// terminal; the press also focuses the pane. With Shift held they stay the
// UI's.
func TestMouseGoesToASeatThatAskedForIt(t *testing.T) {
	t.Parallel()
	f, m, r := mousePane(t, PaneMouse{Tracking: MouseButtonMotion, SGR: true})
	f.inputs = nil
	send(t, m, tea.MouseClickMsg(mouseAt(r, 3, 1, tea.MouseLeft, 0)))
	if m.focus != FocusPane || m.focusPane.account != "lin" {
		t.Fatalf("a click did not focus the pane: %v", m.focus)
	}
	send(t, m, tea.MouseMotionMsg(mouseAt(r, 5, 2, tea.MouseLeft, 0)))
	send(t, m, tea.MouseReleaseMsg(mouseAt(r, 5, 2, tea.MouseLeft, 0)))
	send(t, m, tea.MouseWheelMsg(mouseAt(r, 0, 0, tea.MouseWheelDown, 0)))
	want := []string{"lin:\x1b[<0;4;2M", "lin:\x1b[<32;6;3M", "lin:\x1b[<0;6;3m", "lin:\x1b[<65;1;1M"}
	if !reflect.DeepEqual(f.inputs, want) {
		t.Fatalf("inputs = %q\nwant %q", f.inputs, want)
	}
	if p := m.seats.panes[m.focusPane]; p.scrolling || p.sel.on {
		t.Fatalf("the UI acted on forwarded events: scrolling %v, selection %+v", p.scrolling, p.sel)
	}
	f.inputs = nil
	send(t, m, tea.MouseClickMsg(mouseAt(r, 0, 0, tea.MouseLeft, tea.ModShift)))
	send(t, m, tea.MouseMotionMsg(mouseAt(r, 4, 0, tea.MouseLeft, tea.ModShift)))
	_, cmd := m.Update(tea.MouseReleaseMsg(mouseAt(r, 4, 0, tea.MouseLeft, tea.ModShift)))
	if got := collectMsgs(cmd); !containsMsg(got, tea.SetClipboard("alpha")()) {
		t.Fatalf("a Shift drag did not copy its selection: %#v", got)
	}
	drive(t, m, nil)
	send(t, m, tea.MouseWheelMsg(mouseAt(r, 0, 0, tea.MouseWheelUp, tea.ModShift)))
	if len(f.inputs) != 0 || !m.seats.panes[m.focusPane].scrolling {
		t.Fatalf("Shift events reached the seat %q, or the wheel did not scroll back", f.inputs)
	}
}

// TestMouseSelectsWhenTheSeatDidNotAsk: in a pane whose program asked for
// no mouse reports, a drag selects cells (highlighted, in reading order
// across rows, wide characters whole) and the release copies them through
// the terminal; nothing reaches the seat.
func TestMouseSelectsWhenTheSeatDidNotAsk(t *testing.T) {
	t.Parallel()
	f, m, r := mousePane(t, PaneMouse{})
	f.inputs = nil
	send(t, m, tea.MouseClickMsg(mouseAt(r, 8, 1, tea.MouseLeft, 0)))
	send(t, m, tea.MouseMotionMsg(mouseAt(r, 6, 0, tea.MouseLeft, 0)))
	p := m.seats.panes[m.focusPane]
	if !reverseSGR.MatchString(p.view[1]) {
		t.Fatalf("the selection is not highlighted: %q", p.view[1])
	}
	_, cmd := m.Update(tea.MouseReleaseMsg(mouseAt(r, 6, 0, tea.MouseLeft, 0)))
	if got := collectMsgs(cmd); !containsMsg(got, tea.SetClipboard("beta\ngamma 日本")()) {
		t.Fatalf("the release did not copy the selection: %#v", got)
	}
	drive(t, m, nil)
	if len(f.inputs) != 0 {
		t.Fatalf("the seat got %q", f.inputs)
	}
	// A click without a drag selects nothing and copies nothing.
	_, cmd = m.Update(tea.MouseClickMsg(mouseAt(r, 2, 2, tea.MouseLeft, 0)))
	drive(t, m, cmd)
	_, cmd = m.Update(tea.MouseReleaseMsg(mouseAt(r, 2, 2, tea.MouseLeft, 0)))
	if _, ok := clipboardText(collectMsgs(cmd)); ok {
		t.Fatalf("a click copied")
	}
	if p.sel.on {
		t.Fatalf("a click left a selection: %+v", p.sel)
	}
}

// TestAnyMotionOnlyWhileASeatAsks: the UI asks the terminal for every
// motion only while a shown pane's program asked for it (?1003).
func TestAnyMotionOnlyWhileASeatAsks(t *testing.T) {
	t.Parallel()
	f, m, r := mousePane(t, PaneMouse{Tracking: MouseButtonMotion, SGR: true})
	if got := m.View().MouseMode; got != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v, want cell motion", got)
	}
	k := seatKey{"t-main", "lin"}
	s := f.snaps[k]
	s.Mouse.Tracking, s.Version = MouseAnyMotion, 2
	f.snaps[k] = s
	send(t, m, screenChangedMsg{})
	if got := m.View().MouseMode; got != tea.MouseModeAllMotion {
		t.Fatalf("mouse mode %v, want all motion", got)
	}
	f.inputs = nil
	send(t, m, tea.MouseMotionMsg(mouseAt(r, 1, 1, tea.MouseNone, 0)))
	if !reflect.DeepEqual(f.inputs, []string{"lin:\x1b[<35;2;2M"}) {
		t.Fatalf("hover: %q", f.inputs)
	}
}

// clipboardText is the text of the clipboard write among msgs (Bubble
// Tea's tea.SetClipboard message, an unexported string type), ok false
// when there is none.
func clipboardText(msgs []tea.Msg) (text string, ok bool) {
	for _, m := range msgs {
		if fmt.Sprintf("%T", m) == fmt.Sprintf("%T", tea.SetClipboard("")()) {
			return fmt.Sprint(m), true
		}
	}
	return "", false
}
