package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// twoPaneModel is the scene with Lin's and Lay's panes shown.
func twoPaneModel(t *testing.T, w, h int, lang Lang, keys map[string][]string) *Model {
	t.Helper()
	f := scene()
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
	opts := testOptions()
	opts.Lang, opts.StartTopic, opts.Keys = lang, "t-main", keys
	m := newTestModel(t, f, opts, w, h)
	send(t, m, press("ctrl+t"))
	return m
}

// TestFocusedPaneSaysHowToLeave: a pane typed into says in its lower
// border which key leaves it — the key map's — at 80×24 as at 200×60, in
// both languages (issue 35: at 80×24 the title had given the hint away
// and only "typing" showed); the other pane's border says nothing.
func TestFocusedPaneSaysHowToLeave(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h int
		lang Lang
		keys map[string][]string
		want string
	}{
		{80, 24, LangEnglish, nil, "Ctrl+] leaves"},
		{80, 24, LangJapanese, nil, "Ctrl+] で出る"},
		{120, 40, LangEnglish, nil, "Ctrl+] leaves"},
		{200, 60, LangJapanese, nil, "Ctrl+] で出る"},
		{80, 24, LangEnglish, map[string][]string{"leave_pane": {"ctrl+g"}}, "Ctrl+G leaves"},
	} {
		m := twoPaneModel(t, c.w, c.h, c.lang, c.keys)
		send(t, m, press("f6"))
		if m.focus != FocusPane {
			t.Fatalf("%dx%d: f6 did not focus a pane", c.w, c.h)
		}
		for i, k := range m.screen.panes {
			r := m.layout.Panes[i]
			bottom := ansi.Strip(m.seats.panes[k].view[r.H-1])
			if has := strings.Contains(bottom, c.want); has != (k == m.focusPane) {
				t.Errorf("%dx%d %s: pane %s (focused %v) lower border %q", c.w, c.h, c.lang, k.account, k == m.focusPane, bottom)
			}
		}
		if !strings.Contains(plain(m), c.want) {
			t.Errorf("%dx%d %s: %q not on screen:\n%s", c.w, c.h, c.lang, c.want, plain(m))
		}
	}
}

// TestNarrowPanesHintGoesWhenItNoLongerApplies: the narrow panes' hint
// follows what applies while it shows — hiding the topics leaves only the
// accounts' key, hiding both takes it away, and so does a window grown
// wide (issue 35: it stayed after both side columns were hidden).
func TestNarrowPanesHintGoesWhenItNoLongerApplies(t *testing.T) {
	t.Parallel()
	m := twoPaneModel(t, 80, 24, LangEnglish, nil)
	if got := m.status.text; got != "Narrow panes: Ctrl+B hides topics, Ctrl+O accounts" {
		t.Fatalf("status %q", got)
	}
	send(t, m, press("ctrl+b"))
	if got := m.status.text; got != "" && got != "Narrow panes: Ctrl+O hides the accounts" {
		t.Fatalf("topics hidden: status %q", got)
	}
	send(t, m, press("ctrl+o"))
	if got := m.status.text; got != "" || strings.Contains(plain(m), "Narrow panes") {
		t.Fatalf("both columns hidden: status %q\n%s", got, plain(m))
	}

	wide := twoPaneModel(t, 80, 24, LangJapanese, nil)
	send(t, wide, tea.WindowSizeMsg{Width: 200, Height: 60})
	if got := wide.status.text; got != "" {
		t.Fatalf("at 200×60: status %q", got)
	}
	// Another report in its place is left alone.
	other := twoPaneModel(t, 80, 24, LangEnglish, nil)
	other.setStatus(stInfo, "something else")
	send(t, other, press("ctrl+b"))
	send(t, other, press("ctrl+o"))
	if got := other.status.text; got != "something else" {
		t.Fatalf("another report: status %q", got)
	}
}
