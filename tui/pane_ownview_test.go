package tui

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// altScreenPane is scene with Lin's (Claude Code) and Lay's (Codex) panes
// shown, their programs on the alternate screen asking for mouse reports
// pm, and no scrollback: what Claude Code 2.1 does (docs/design.md §10
// "What a pane's scrollback holds").
func altScreenPane(t *testing.T, w, h int, lang Lang, pm PaneMouse) (*fakeBackend, *Model) {
	t.Helper()
	f := scene()
	f.seats["t-main"] = append(f.seats["t-main"], SeatInfo{Topic: "t-main", Account: "lay", State: SeatRunning})
	m := sceneModel(t, f, w, h, lang)
	send(t, m, press("ctrl+t"))
	for i, k := range m.visiblePanes() {
		p := m.seats.panes[k]
		f.snaps[k] = PaneSnapshot{Rows: paneRows(p.cols, p.rows, i), Cols: p.cols, CursorX: 2, CursorY: 3,
			Version: 1, AltScreen: true, Mouse: pm}
	}
	send(t, m, screenChangedMsg{})
	return f, m
}

// paneTop is the top border of pane k as drawn, without styling.
func paneTop(m *Model, k seatKey) string { return ansi.Strip(m.seats.panes[k].view[0]) }

// paneBottom is its lower border.
func paneBottom(m *Model, k seatKey) string {
	v := m.seats.panes[k].view
	return ansi.Strip(v[len(v)-1])
}

// TestNoScrollbackSaysWhereTheWheelGoes: in scrollback, a pane whose
// program draws on the alternate screen and has no scrollback says so in
// its title, and in its lower border that the wheel scrolls the program's
// own view — Claude's for a Claude
// Code seat, the CLI's for another kind — instead of "scrollback 0/0"
// (issue 35); and the wheel without Shift then leaves the scrollback and
// reaches the seat, as the title says.
func TestNoScrollbackSaysWhereTheWheelGoes(t *testing.T) {
	t.Parallel()
	lin, lay := seatKey{"t-main", "lin"}, seatKey{"t-main", "lay"}
	f, m := altScreenPane(t, 200, 60, LangEnglish, PaneMouse{Tracking: MouseNormal, SGR: true})
	send(t, m, press("f6"))
	send(t, m, press("shift+pgup"))
	if top, low := paneTop(m, lin), paneBottom(m, lin); !strings.Contains(top, "Lin · running · no scrollback ─") ||
		strings.Contains(top, "0/0") || !strings.Contains(low, "╰─ the wheel scrolls Claude's own view ─") {
		t.Fatalf("Claude's pane:\n%s\n%s", top, low)
	}
	r, _ := m.paneRect(lin)
	f.inputs = nil
	send(t, m, tea.MouseWheelMsg(mouseAt(r, 0, 0, tea.MouseWheelUp, tea.ModShift)))
	if len(f.inputs) != 0 || !m.seats.panes[lin].scrolling {
		t.Fatalf("Shift+wheel: inputs %q, scrolling %v", f.inputs, m.seats.panes[lin].scrolling)
	}
	send(t, m, tea.MouseWheelMsg(mouseAt(r, 0, 0, tea.MouseWheelUp, 0)))
	if p := m.seats.panes[lin]; p.scrolling || !reflect.DeepEqual(f.inputs, []string{"lin:\x1b[<64;1;1M"}) {
		t.Fatalf("the wheel: inputs %q, scrolling %v", f.inputs, p.scrolling)
	}

	send(t, m, press("f6"))
	send(t, m, press("shift+pgup"))
	if top, low := paneTop(m, lay), paneBottom(m, lay); !strings.Contains(top, "no scrollback") || !strings.Contains(low, "the wheel scrolls the CLI's own view") {
		t.Fatalf("Codex's pane:\n%s\n%s", top, low)
	}

	// With something above the screen it is a scrollback like any.
	f.scrollbak[lin] = []string{"older line"}
	send(t, m, press("shift+f6"))
	send(t, m, press("shift+pgup"))
	if top, low := paneTop(m, lin), paneBottom(m, lin); !strings.Contains(top, "scrollback 1/1") || strings.Contains(low, "wheel") {
		t.Fatalf("a scrollback:\n%s\n%s", top, low)
	}
}

// TestNoScrollbackWithoutMouse: a full-screen program that asked for no
// mouse keeps the wheel the UI's: the title says only that the program
// draws on a screen of its own; in Japanese too.
func TestNoScrollbackWithoutMouse(t *testing.T) {
	t.Parallel()
	lin := seatKey{"t-main", "lin"}
	for _, c := range []struct {
		lang Lang
		want string
	}{
		{LangEnglish, "Claude draws on a screen of its own"},
		{LangJapanese, "Claude は専用の画面に描画中"},
	} {
		_, m := altScreenPane(t, 200, 60, c.lang, PaneMouse{})
		send(t, m, press("f6"))
		send(t, m, press("shift+pgup"))
		if top, low := paneTop(m, lin), paneBottom(m, lin); !strings.Contains(top, m.env.tr.t(mPaneNoScrollback)) || !strings.Contains(low, c.want) {
			t.Fatalf("%s:\n%s\n%s", c.lang, top, low)
		}
	}
}

// TestGoldenPaneNoScrollback: Claude's pane in scrollback with none to
// show, at 80×24 and 200×60, in English and Japanese.
func TestGoldenPaneNoScrollback(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"200x60", 200, 60, LangEnglish},
		{"200x60ja", 200, 60, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, m := altScreenPane(t, tc.w, tc.h, tc.lang, PaneMouse{Tracking: MouseNormal, SGR: true})
			send(t, m, press("f6"))
			send(t, m, press("shift+pgup"))
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
