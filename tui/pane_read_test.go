package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// reverseSGR finds reverse video turned on by an SGR sequence.
var reverseSGR = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?7[;m]`)

// readingPane is scene with Lin's pane focused in scrollback over 100
// scrollback lines (some holding "needle") and a 10-row screen.
func readingPane(t *testing.T) (*fakeBackend, *Model, *pane) {
	t.Helper()
	f := scene()
	m, k := paneModel(t, f, 120, 40)
	var sb []string
	for i := range 100 {
		l := fmt.Sprintf("old line %d", i)
		if i == 10 || i == 50 || i == 90 {
			l += " \x1b[1;32mneedle\x1b[m here"
		}
		sb = append(sb, l)
	}
	f.scrollbak[k] = sb
	s := f.snaps[k]
	s.Rows, s.Version = paneRows(40, 10, 0), 2
	f.snaps[k] = s
	send(t, m, screenChangedMsg{})
	send(t, m, press("shift+pgup"))
	return f, m, m.seats.panes[k]
}

// TestScrollbackSearch: / opens a prompt in the pane's lower border (the
// real cursor at its caret), Enter finds the newest match at or above the
// bottom of the view and brings it into view, n goes to older matches and
// N to newer ones, wrapping; the matches are highlighted; case is ignored
// unless the query has a capital; nothing reaches the seat.
func TestScrollbackSearch(t *testing.T) {
	t.Parallel()
	f, m, p := readingPane(t)
	f.inputs = nil
	r := m.layout.Panes[0]
	_, rows := innerSize(r)
	send(t, m, press("/"))
	typeText(t, m, "Need")
	send(t, m, tea.PasteMsg{Content: "le"})
	bottom := ansi.Strip(p.view[len(p.view)-1])
	if !strings.Contains(bottom, "/Needle") {
		t.Fatalf("prompt not in the lower border: %q", bottom)
	}
	if c := m.View().Cursor; c == nil || c.Y != r.Y+r.H-1 || c.X != r.X+3+len("/Needle") {
		t.Fatalf("cursor %+v not at the prompt's caret (pane %+v)", c, r)
	}
	send(t, m, press("enter"))
	if got := ansi.Strip(p.view[0]); !strings.Contains(got, "/Needle not found") {
		t.Fatalf("capital N should match case: title %q", got)
	}
	send(t, m, press("/"))
	typeText(t, m, "needle")
	send(t, m, press("enter"))
	wantView := func(line int, pos string) {
		t.Helper()
		end := len(p.sb) + len(p.snap.Rows) - p.sbOff
		if line < end-rows || line >= end {
			t.Fatalf("match on line %d not in view [%d, %d)", line, end-rows, end)
		}
		if got := ansi.Strip(p.view[0]); !strings.Contains(got, "/needle "+pos) {
			t.Fatalf("title %q lacks %q", got, pos)
		}
		if !strings.Contains(strings.Join(p.view, "\n"), "needle") {
			t.Fatalf("the match is not drawn")
		}
	}
	wantView(90, "3/3")
	send(t, m, press("n"))
	wantView(50, "2/3")
	send(t, m, press("n"))
	wantView(10, "1/3")
	send(t, m, press("n"))
	wantView(90, "3/3")
	send(t, m, press("N"))
	wantView(10, "1/3")
	var lit bool
	for _, l := range p.view {
		lit = lit || strings.Contains(ansi.Strip(l), "needle here") && reverseSGR.MatchString(l)
	}
	if !lit {
		t.Fatalf("the current match is not highlighted:\n%s", strings.Join(p.view, "\n"))
	}
	if len(f.inputs) != 0 {
		t.Fatalf("search keys reached the seat: %q", f.inputs)
	}
	send(t, m, press("esc"))
	if p.scrolling || p.find.re != nil {
		t.Fatalf("esc left scrollback or its search on")
	}
}

// TestCopyLines: in scrollback, y copies the screenful up to the bottom of
// the view, a count typed first copies that many lines.
func TestCopyLines(t *testing.T) {
	t.Parallel()
	_, m, p := readingPane(t)
	send(t, m, press("pgup")) // the view now ends in the scrollback
	end := len(p.sb) + len(p.snap.Rows) - p.sbOff
	typeText(t, m, "3")
	if !strings.Contains(ansi.Strip(p.view[0]), "3 lines") {
		t.Fatalf("the count is not shown: %q", ansi.Strip(p.view[0]))
	}
	_, cmd := m.Update(press("y"))
	want := strings.Join([]string{fmt.Sprintf("old line %d", end-3), fmt.Sprintf("old line %d", end-2), fmt.Sprintf("old line %d", end-1)}, "\n")
	if got := collectMsgs(cmd); !containsMsg(got, tea.SetClipboard(want)()) {
		t.Fatalf("3y did not copy %q: %#v", want, got)
	}
	drive(t, m, nil)
	if !strings.Contains(plain(m), "Copied 3 lines of Lin's terminal.") || p.count != 0 {
		t.Fatalf("status after 3y:\n%s", plain(m))
	}
	_, cmd = m.Update(press("y"))
	text, ok := clipboardText(collectMsgs(cmd))
	if !ok {
		t.Fatalf("y copied nothing")
	}
	_, rows := innerSize(m.layout.Panes[0])
	if n := strings.Count(text, "\n") + 1; n != rows {
		t.Fatalf("y copied %d lines, want a screenful (%d): %q", n, rows, text)
	}
}

// TestCursorWhereTheSeatParkedIt: the real cursor follows the focused
// pane's cursor, also while its program hides it (a CLI that draws its own
// caret parks its hidden cursor there, which is where an IME puts its
// window): then as a steady bar. None in scrollback, for an exited seat, or
// outside the pane's area.
func TestCursorWhereTheSeatParkedIt(t *testing.T) {
	t.Parallel()
	f := scene()
	m, k := paneModel(t, f, 120, 40)
	r := m.layout.Panes[0]
	set := func(x, y int, visible bool) {
		s := f.snaps[k]
		s.CursorX, s.CursorY, s.CursorVisible, s.Version = x, y, visible, s.Version+1
		f.snaps[k] = s
		send(t, m, screenChangedMsg{})
	}
	set(7, 3, false)
	c := m.View().Cursor
	if c == nil || c.X != r.X+1+7 || c.Y != r.Y+1+3 || c.Shape != tea.CursorBar || c.Blink {
		t.Fatalf("hidden seat cursor: real cursor %+v, want a steady bar at %d,%d", c, r.X+8, r.Y+4)
	}
	set(2, 1, true)
	if c := m.View().Cursor; c == nil || c.X != r.X+3 || c.Y != r.Y+2 || c.Shape != tea.CursorBlock {
		t.Fatalf("shown seat cursor: %+v", c)
	}
	set(500, 1, true)
	if c := m.View().Cursor; c != nil {
		t.Fatalf("a cursor outside the pane was placed: %+v", c)
	}
	set(2, 1, false)
	send(t, m, press("shift+pgup"))
	if c := m.View().Cursor; c != nil {
		t.Fatalf("cursor in scrollback: %+v", c)
	}
	send(t, m, press("esc"))
	f.seats["t-main"][0].State = SeatExited
	send(t, m, eventsMsg{evs: []Event{SeatChanged{Topic: "t-main", Account: "lin", State: SeatExited}}})
	send(t, m, press("f6"))
	if c := m.View().Cursor; m.focus != FocusPane || c != nil {
		t.Fatalf("exited pane (focus %v): cursor %+v", m.focus, c)
	}
}
