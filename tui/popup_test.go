package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
)

// popupScene is scene with n more members in the open topic's room, so
// "@" offers n+2 names.
func popupScene(n int) *fakeBackend {
	f := scene()
	for i := range n {
		f.rosters["t-main"] = append(f.rosters["t-main"], room.Member{Name: fmt.Sprintf("Guest%02d", i), Role: room.RoleMCP})
	}
	return f
}

// TestPopupSitsAboveTheInputBorder: the @ popup's bottom edge is on the
// row above the input bar, whose top border (and its key hint) stays whole
// under it (issue 35: the popup covered it); where fewer rows are left
// above the bar it shows fewer names, never more rows than there are.
func TestPopupSitsAboveTheInputBorder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h, names int
	}{{80, 24, popupMax}, {200, 60, popupMax}, {60, 10, 4}} {
		m := sceneModel(t, popupScene(10), c.w, c.h, LangEnglish)
		typeText(t, m, "@")
		if !m.input.comp.open() {
			t.Fatalf("%dx%d: no popup", c.w, c.h)
		}
		rows := strings.Split(m.View().Content, "\n")
		in := m.layout.Input
		if got, want := ansi.Strip(rows[in.Y]), ansi.Strip(fit(strings.Repeat(" ", in.X)+m.input.view[0], in.X+in.W)); !strings.HasPrefix(got, want) {
			t.Fatalf("%dx%d: the input's top border is covered:\n%q\nwant %q", c.w, c.h, got, want)
		}
		p := m.screen.popup
		if got := ansi.Strip(rows[in.Y-1]); !strings.HasPrefix(ansi.Cut(got, p.x, p.x+2), "╰") {
			t.Fatalf("%dx%d: the popup's bottom edge is not above the bar: %q", c.w, c.h, got)
		}
		if n := strings.Count(p.box, "@"); n != c.names || p.y < 0 {
			t.Fatalf("%dx%d: %d names from row %d", c.w, c.h, n, p.y)
		}
		// The selection scrolls within the rows shown.
		for range 9 {
			send(t, m, press("down"))
		}
		if sel := m.input.comp.items[m.input.comp.sel]; !strings.Contains(ansi.Strip(m.screen.popup.box), "@"+sel) {
			t.Fatalf("%dx%d: the selected %q is not shown:\n%s", c.w, c.h, sel, ansi.Strip(m.screen.popup.box))
		}
	}
}

// TestGoldenPopup: the @ popup over the chat, above the input bar, at
// 80×24 and 200×60 in English and Japanese.
func TestGoldenPopup(t *testing.T) {
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
			m := sceneModel(t, popupScene(3), tc.w, tc.h, tc.lang)
			typeText(t, m, "@")
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
