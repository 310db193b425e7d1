package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenFolds: MCP notices in the chat (foldScene) folded, and with
// one fold open (its notices as normal rows, selected), at 80×24 and
// 200×60, English and Japanese.
func TestGoldenFolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
		open bool
	}{
		{"folded80x24", 80, 24, LangEnglish, false},
		{"folded80x24ja", 80, 24, LangJapanese, false},
		{"folded200x60", 200, 60, LangEnglish, false},
		{"folded200x60ja", 200, 60, LangJapanese, false},
		{"open80x24", 80, 24, LangEnglish, true},
		{"open80x24ja", 80, 24, LangJapanese, true},
		{"open200x60", 200, 60, LangEnglish, true},
		{"open200x60ja", 200, 60, LangJapanese, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := testOptions()
			opts.Lang, opts.StartTopic = tc.lang, "t-fold"
			m := newTestModel(t, foldScene(), opts, tc.w, tc.h)
			if tc.open {
				send(t, m, press("tab"))
				for i := 0; i < 20 && (m.chat.sel < 0 || m.chat.items[m.chat.sel].key() != "g1"); i++ {
					send(t, m, press("up"))
				}
				send(t, m, press("enter"))
				if !m.chat.expanded["g1"] {
					t.Fatal("the fold did not open")
				}
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}

// TestGoldenServerEditor: an mcp account's editor with its server: state,
// fields and log (80×24, 200×50 in Japanese); an exited server whose file
// changed, after a save refused on an env line (120×40); a new mcp
// account's fields (80×24 in Japanese).
func TestGoldenServerEditor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
		kind string // "", "exited", "new"
	}{
		{"server80x24", 80, 24, LangEnglish, ""},
		{"server200x50ja", 200, 50, LangJapanese, ""},
		{"exited120x40", 120, 40, LangEnglish, "exited"},
		{"exited120x40ja", 120, 40, LangJapanese, "exited"},
		{"new80x24ja", 80, 24, LangJapanese, "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := mcpScene()
			switch tc.kind {
			case "new":
				m := sceneModel(t, f, tc.w, tc.h, tc.lang)
				toParticipants(t, m, "lin")
				send(t, m, press("a"))
				editField(t, m, fKind)
				send(t, m, press("left"))
				setField(t, m, fName, "CI")
				setField(t, m, fSrvCommand, "npx")
				editField(t, m, fSrvArgs)
				typeText(t, m, "-y")
				send(t, m, press("enter"))
				typeText(t, m, "ci-notify-mcp")
				golden.RequireEqual(t, m.View().Content)
				return
			case "exited":
				s := f.mcp.servers["gh"]
				s.State, s.ExitCode, s.Reason, s.Stale = MCPExited, 1, "Error: connect ECONNREFUSED 127.0.0.1:8787", true
				f.mcp.servers["gh"] = s
			}
			m := openServer(t, f, tc.w, tc.h, tc.lang)
			if tc.kind == "exited" {
				editField(t, m, fSrvEnv)
				send(t, m, press("ctrl+end"))
				send(t, m, press("enter"))
				typeText(t, m, "PORT 8787")
				send(t, m, press("ctrl+s"))
				editField(t, m, fSrvState)
				if ps := m.overlay.editor.srv.problems; len(ps) != 1 || ps[0].Line != 3 {
					t.Fatalf("not refused: %q", m.overlay.editor.msg)
				}
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
