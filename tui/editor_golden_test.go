package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenEditor: the account editor at 80×24 and 200×50, English and
// Japanese. "refused": a launch line longer than the screen and a save
// refused for a field's problem — the message line sits above the
// launch line, whose box scrolls (issue 12). "body": the character body
// field being edited.
func TestGoldenEditor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
		body bool
	}{
		{"refused80x24", 80, 24, LangEnglish, false},
		{"refused200x50", 200, 50, LangEnglish, false},
		{"refused80x24ja", 80, 24, LangJapanese, false},
		{"refused200x50ja", 200, 50, LangJapanese, false},
		{"body80x24", 80, 24, LangEnglish, true},
		{"body200x50ja", 200, 50, LangJapanese, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.body {
				f := characterScene()
				f.files.wornBy = []string{"Bee"}
				m := openLin(t, f, tc.w, tc.h, tc.lang)
				editField(t, m, fBody)
				send(t, m, press("ctrl+end"))
				typeText(t, m, " Always.")
				golden.RequireEqual(t, m.View().Content)
				return
			}
			f := scene()
			f.accounts[2].Options = longOptions
			f.files.problems = []FieldProblem{{Field: FieldCommand, Text: "command is required"}}
			m := openAccount(t, f, "lay", tc.w, tc.h, tc.lang)
			send(t, m, press("ctrl+s"))
			c := m.View().Content
			if !strings.Contains(c, "command is required") {
				t.Fatalf("the refusal is not on screen")
			}
			golden.RequireEqual(t, c)
		})
	}
}
