package tui

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

// attnItems are one item of every kind, in the golden scene's topics and
// accounts; two hold seat-written text with control characters.
func attnItems() []AttentionItem {
	at := time.Date(2026, 10, 2, 9, 30, 0, 0, testLoc)
	return []AttentionItem{
		{ID: 1, Kind: AttnCard, Topic: "t-main", Account: "lin", Ref: "7", Detail: "Bash", At: at},
		{ID: 2, Kind: AttnAddressed, Topic: "t-old", Account: "lay", Ref: "m1", Detail: "Lay", At: at.Add(time.Minute)},
		{ID: 3, Kind: AttnCardTimedOut, Topic: "t-run", Account: "lin", Ref: "8", Detail: "Edit", At: at.Add(2 * time.Minute)},
		{ID: 4, Kind: AttnLimited, Topic: "t-run", Account: "lay", Detail: "2026-10-02T15:00:00+09:00", At: at.Add(3 * time.Minute)},
		{ID: 5, Kind: AttnResumed, Topic: "t-old", Account: "lin", At: at.Add(4 * time.Minute)},
		{ID: 6, Kind: AttnExited, Topic: "t-2025", Account: "lay", Detail: "exit 3\x1b[31m red", At: at.Add(5 * time.Minute)},
		{ID: 7, Kind: AttnBraked, Topic: "t-old", Count: 12, At: at.Add(6 * time.Minute)},
		{ID: 8, Kind: AttnOpFailed, Topic: "t-run", Account: "lay", Detail: "restart: the seat is not running", At: at.Add(7 * time.Minute)},
		{ID: 9, Kind: AttnMCPDied, Account: "gh", Detail: "exit 1", At: at.Add(8 * time.Minute)},
	}
}

// TestGoldenAttention: the status line's count, the topic list's marks and
// the list overlay, at 80×24 and 200×60, in English and Japanese.
func TestGoldenAttention(t *testing.T) {
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
			f := scene()
			f.attn.items = attnItems()
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			t.Run("screen", func(t *testing.T) { golden.RequireEqual(t, m.View().Content) })
			send(t, m, press("shift+f5"))
			t.Run("list", func(t *testing.T) { golden.RequireEqual(t, m.View().Content) })
		})
	}
}
