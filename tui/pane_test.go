package tui

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestEncodeKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k         tea.Key
		appCursor bool
		want      string
	}{
		{tea.Key{Code: 'a', Text: "a"}, false, "a"},
		{tea.Key{Code: 'A', Text: "A", Mod: tea.ModShift}, false, "A"},
		{tea.Key{Code: '日', Text: "日"}, false, "日"},
		{tea.Key{Code: tea.KeyEnter}, false, "\r"},
		{tea.Key{Code: tea.KeyEnter, Mod: tea.ModShift}, false, "\x1b\r"},
		{tea.Key{Code: tea.KeyEnter, Mod: tea.ModAlt}, false, "\x1b\r"},
		{tea.Key{Code: tea.KeyBackspace}, false, "\x7f"},
		{tea.Key{Code: tea.KeyBackspace, Mod: tea.ModAlt}, false, "\x1b\x7f"},
		{tea.Key{Code: tea.KeyTab}, false, "\t"},
		{tea.Key{Code: tea.KeyTab, Mod: tea.ModShift}, false, "\x1b[Z"},
		{tea.Key{Code: tea.KeyEscape}, false, "\x1b"},
		{tea.Key{Code: 'c', Mod: tea.ModCtrl}, false, "\x03"},
		{tea.Key{Code: 'w', Mod: tea.ModCtrl}, false, "\x17"},
		{tea.Key{Code: 'u', Mod: tea.ModCtrl}, false, "\x15"},
		{tea.Key{Code: ']', Mod: tea.ModCtrl}, false, "\x1d"},
		{tea.Key{Code: tea.KeySpace, Mod: tea.ModCtrl}, false, "\x00"},
		{tea.Key{Code: 'b', Text: "b", Mod: tea.ModAlt}, false, "\x1bb"},
		{tea.Key{Code: 'b', Mod: tea.ModAlt}, false, "\x1bb"},
		{tea.Key{Code: tea.KeyUp}, false, "\x1b[A"},
		{tea.Key{Code: tea.KeyUp}, true, "\x1bOA"},
		{tea.Key{Code: tea.KeyLeft, Mod: tea.ModCtrl}, true, "\x1b[1;5D"},
		{tea.Key{Code: tea.KeyRight, Mod: tea.ModShift}, false, "\x1b[1;2C"},
		{tea.Key{Code: tea.KeyHome}, false, "\x1b[H"},
		{tea.Key{Code: tea.KeyEnd}, true, "\x1bOF"},
		{tea.Key{Code: tea.KeyDelete}, false, "\x1b[3~"},
		{tea.Key{Code: tea.KeyPgUp}, false, "\x1b[5~"},
		{tea.Key{Code: tea.KeyPgDown, Mod: tea.ModCtrl}, false, "\x1b[6;5~"},
		{tea.Key{Code: tea.KeyF1}, false, "\x1bOP"},
		{tea.Key{Code: tea.KeyF5}, false, "\x1b[15~"},
		{tea.Key{Code: tea.KeyF12}, false, "\x1b[24~"},
		{tea.Key{Code: tea.KeySpace, Text: " "}, false, " "},
		{tea.Key{Code: tea.KeyCapsLock}, false, ""},
	} {
		if got := string(encodeKey(tc.k, tc.appCursor)); got != tc.want {
			t.Fatalf("%v (app=%v): got %q want %q", tc.k, tc.appCursor, got, tc.want)
		}
	}
}

func FuzzEncodeKey(f *testing.F) {
	f.Add(int32('a'), "a", uint16(0), false)
	f.Add(int32(tea.KeyUp), "", uint16(tea.ModCtrl), true)
	f.Add(int32('日'), "日本", uint16(tea.ModAlt), false)
	f.Fuzz(func(t *testing.T, code int32, text string, mod uint16, app bool) {
		k := tea.Key{Code: rune(code), Text: text, Mod: tea.KeyMod(mod)}
		a := encodeKey(k, app)
		if !bytes.Equal(a, encodeKey(k, app)) {
			t.Fatalf("not deterministic for %+v", k)
		}
		plainText := text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModMeta) == 0
		if plainText && string(a) != text {
			t.Fatalf("text %q encoded as %q", text, a)
		}
		if k.Text == "" && len(a) > 0 && !utf8.Valid(a) {
			t.Fatalf("invalid UTF-8 %q for %+v", a, k)
		}
	})
}

func TestEncodePaste(t *testing.T) {
	t.Parallel()
	if got := string(encodePaste("a\nb\r\nc", false)); got != "a\rb\rc" {
		t.Fatalf("raw = %q", got)
	}
	if got := string(encodePaste("x\x1b[201~y\n", true)); got != "\x1b[200~xy\r\x1b[201~" {
		t.Fatalf("bracketed = %q", got)
	}
}

// paneModel opens t-main with Lin running and its pane shown.
func paneModel(t *testing.T, f *fakeBackend, w, h int) (*Model, seatKey) {
	t.Helper()
	m := mainModel(t, f)
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	k := seatKey{"t-main", "lin"}
	f.snaps[k] = PaneSnapshot{Rows: paneRows(40, 10, 0), CursorX: 1, CursorY: 2, CursorVisible: true, Version: 1}
	send(t, m, press("f6"))
	if m.focus != FocusPane || m.focusPane != k {
		t.Fatalf("f6 did not focus Lin's pane: %v %v", m.focus, m.focusPane)
	}
	return m, k
}

func TestPaneTypingGoesToTheSeatInOrder(t *testing.T) {
	t.Parallel()
	f := scene()
	m, _ := paneModel(t, f, 120, 40)
	f.inputs = nil
	for _, k := range []tea.KeyPressMsg{press("h"), press("i"), press("enter"), press("ctrl+c"), press("up"), press("tab"), press("esc"), press("f1"), press("ctrl+q")} {
		send(t, m, k)
	}
	send(t, m, tea.KeyPressMsg{Code: '語', Text: "語"})
	want := []string{"lin:h", "lin:i", "lin:\r", "lin:\x03", "lin:\x1b[A", "lin:\t", "lin:\x1b", "lin:\x1bOP", "lin:\x11", "lin:語"}
	if !reflect.DeepEqual(f.inputs, want) {
		t.Fatalf("inputs = %q\nwant     %q", f.inputs, want)
	}
	if m.overlay.open != ovNone || m.quitting {
		t.Fatalf("a key meant for the seat acted on the UI")
	}
	send(t, m, press("ctrl+]"))
	if m.focus != FocusInput {
		t.Fatalf("ctrl+] did not leave the pane: %v", m.focus)
	}
	typeText(t, m, "x")
	if len(f.inputs) != len(want) || m.input.value() != "x" {
		t.Fatalf("after leaving, keys still went to the seat: %q", f.inputs)
	}
}

func TestPanePasteBracketedOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	f := scene()
	m, k := paneModel(t, f, 120, 40)
	f.inputs = nil
	send(t, m, tea.PasteMsg{Content: "one\ntwo"})
	s := f.snaps[k]
	s.BracketedPaste, s.Version = true, 2
	f.snaps[k] = s
	send(t, m, screenChangedMsg{})
	send(t, m, tea.PasteMsg{Content: "three"})
	want := []string{"lin:one\rtwo", "lin:\x1b[200~three\x1b[201~"}
	if !reflect.DeepEqual(f.inputs, want) {
		t.Fatalf("inputs = %q", f.inputs)
	}
}

func TestPanesFollowTheWindowSize(t *testing.T) {
	t.Parallel()
	f := scene()
	m, k := paneModel(t, f, 120, 40)
	p := m.seats.panes[k]
	r := m.layout.Panes[0]
	if p.cols != r.W-2 || p.rows != r.H-2 {
		t.Fatalf("pane asked %dx%d for rect %+v", p.cols, p.rows, r)
	}
	want := fmt.Sprintf("lin:%dx%d", r.W-2, r.H-2)
	if len(f.resizes) == 0 || f.resizes[len(f.resizes)-1] != want {
		t.Fatalf("resizes = %v, want last %s", f.resizes, want)
	}
	send(t, m, tea.WindowSizeMsg{Width: 160, Height: 50})
	r = m.layout.Panes[0]
	want = fmt.Sprintf("lin:%dx%d", r.W-2, r.H-2)
	if f.resizes[len(f.resizes)-1] != want {
		t.Fatalf("after window resize: %v, want %s", f.resizes, want)
	}
	n := len(f.resizes)
	send(t, m, press("ctrl+]"))
	send(t, m, press("ctrl+up"))
	if len(f.resizes) != n+1 {
		t.Fatalf("growing the split did not resize: %v", f.resizes[n:])
	}
	// A seat started now gets the size its pane will have.
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	send(t, m, press("tab"))
	send(t, m, press("down"))
	send(t, m, press("down"))
	send(t, m, press("s"))
	if len(f.started) != 1 || !strings.HasPrefix(f.started[0], "t-main|lay|") {
		t.Fatalf("started = %v", f.started)
	}
	if len(m.layout.Panes) != 2 {
		t.Fatalf("second pane not shown: %+v", m.layout.Panes)
	}
	r2 := m.layout.Panes[1]
	if f.started[0] != fmt.Sprintf("t-main|lay|%dx%d", r2.W-2, r2.H-2) {
		t.Fatalf("started %s but its pane is %dx%d", f.started[0], r2.W-2, r2.H-2)
	}
}

func TestPaneRendersOnlyWhenItsVersionMoves(t *testing.T) {
	t.Parallel()
	f := scene()
	m, k := paneModel(t, f, 120, 40)
	p := m.seats.panes[k]
	first := &p.view[0]
	send(t, m, screenChangedMsg{}) // same version
	if &p.view[0] != first {
		t.Fatalf("pane re-rendered without a new version")
	}
	s := f.snaps[k]
	s.Rows, s.Version = paneRows(p.cols, p.rows, 7), 2
	f.snaps[k] = s
	send(t, m, screenChangedMsg{})
	if &p.view[0] == first {
		t.Fatalf("pane kept a stale render after its version moved")
	}
	if !strings.Contains(ansi.Strip(strings.Join(p.view, "\n")), "frame 7") {
		t.Fatalf("new rows not drawn")
	}
	// The border carries name and state; the cursor is the seat's.
	top := ansi.Strip(p.view[0])
	if !strings.Contains(top, "Lin · running") {
		t.Fatalf("border title = %q", top)
	}
	v := m.View()
	r := m.layout.Panes[0]
	if v.Cursor == nil || v.Cursor.X != r.X+1+1 || v.Cursor.Y != r.Y+1+2 {
		t.Fatalf("cursor = %+v, pane at %+v", v.Cursor, r)
	}
}

func TestPaneScrollback(t *testing.T) {
	t.Parallel()
	f := scene()
	m, k := paneModel(t, f, 120, 40)
	var sb []string
	for i := 0; i < 100; i++ {
		sb = append(sb, fmt.Sprintf("old line %d", i))
	}
	f.scrollbak[k] = sb
	f.inputs = nil
	send(t, m, press("shift+pgup"))
	p := m.seats.panes[k]
	if !p.scrolling || len(p.sb) != 100 {
		t.Fatalf("scrollback not entered: %v %d", p.scrolling, len(p.sb))
	}
	// The key that enters also pages up, as tmux's copy-mode -u does.
	if rows := m.viewRows(p); p.sbOff != rows-1 {
		t.Fatalf("shift+pgup: %d rows up, want a page (%d)", p.sbOff, rows-1)
	}
	send(t, m, press("pgup"))
	send(t, m, press("pgup"))
	if p.sbOff == 0 || !strings.Contains(ansi.Strip(strings.Join(p.view, "\n")), "old line") {
		t.Fatalf("scrolled view lacks old lines:\n%s", ansi.Strip(strings.Join(p.view, "\n")))
	}
	if len(f.inputs) != 0 {
		t.Fatalf("scrollback keys reached the seat: %q", f.inputs)
	}
	send(t, m, press("esc"))
	if p.scrolling {
		t.Fatalf("esc did not end scrollback")
	}
	send(t, m, mouseWheel(m.layout.Panes[0].X+3, m.layout.Panes[0].Y+3, true))
	if !p.scrolling || p.sbOff != chatWheelRows {
		t.Fatalf("wheel: scrolling=%v off=%d", p.scrolling, p.sbOff)
	}
}
