package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/seats/terminal"
)

// TestGoldenPaneFromRecording feeds byte streams recorded from real
// programs in a 60×12 PTY (vim with a Japanese file, a shell printing
// colours, CJK, emoji and a carriage-return progress line) through the
// seats emulator, and goldens the pane as the UI draws it: border with
// name and state, the emulator's rows, wide characters at their width.
func TestGoldenPaneFromRecording(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"pane_vim_ja", "pane_shell"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			stream, err := os.ReadFile("testdata/" + name + ".ansi")
			if err != nil {
				t.Fatal(err)
			}
			scr, err := terminal.NewScreen(60, 12, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := scr.Close(); err != nil {
					t.Errorf("close screen: %v", err)
				}
			}()
			if _, err := scr.Write(stream); err != nil {
				t.Fatal(err)
			}
			scr.Flush()
			s := scr.Snapshot()
			p := &pane{key: seatKey{"t", "lin"}, name: "Lin", hue: 120, state: SeatRunning, has: true,
				snap: PaneSnapshot{Rows: s.Lines, Cols: s.Cols, CursorX: s.CursorX, CursorY: s.CursorY, CursorVisible: s.CursorVisible, Version: s.Version}}
			km := DefaultKeyMap()
			e := &env{th: newTheme(true), tr: catalog{lang: LangEnglish}, keys: &km}
			lines := p.render(e, rect{0, 0, 62, 14}, true)
			out := strings.Join(lines, "\n")
			golden.RequireEqual(t, out)
			// Measured and exact rendering agree (Cols is honest).
			p.view, p.snap.Cols = nil, 0
			if again := strings.Join(p.render(e, rect{0, 0, 62, 14}, true), "\n"); again != out {
				t.Fatalf("fitted rows differ from the emulator's rows")
			}
		})
	}
}
