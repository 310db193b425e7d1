package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenSettings: the settings overlay (docs/design.md §10 "Settings")
// over the scene, in English and Japanese at 80×24 and 200×60, on each of
// its sections.
func TestGoldenSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
		tabs int // sections on from the first
	}{
		{"display_80x24", 80, 24, LangEnglish, 0},
		{"display_80x24ja", 80, 24, LangJapanese, 0},
		{"display_200x60", 200, 60, LangEnglish, 0},
		{"display_200x60ja", 200, 60, LangJapanese, 0},
		{"room_80x24", 80, 24, LangEnglish, 1},
		{"room_200x60ja", 200, 60, LangJapanese, 1},
		{"notify_80x24", 80, 24, LangEnglish, 2},
		{"notify_80x24ja", 80, 24, LangJapanese, 2},
		{"notify_200x60", 200, 60, LangEnglish, 2},
		{"notify_200x60ja", 200, 60, LangJapanese, 2},
		{"keys_80x24", 80, 24, LangEnglish, 3},
		{"keys_80x24ja", 80, 24, LangJapanese, 3},
		{"keys_200x60", 200, 60, LangEnglish, 3},
		{"keys_200x60ja", 200, 60, LangJapanese, 3},
		{"data_80x24", 80, 24, LangEnglish, 4},
		{"data_80x24ja", 80, 24, LangJapanese, 4},
		{"data_200x60", 200, 60, LangEnglish, 4},
		{"data_200x60ja", 200, 60, LangJapanese, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := settingsScene()
			f.set.info.DataDirFrom = DataDirEnv
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			send(t, m, press("f3"))
			for range tc.tabs {
				send(t, m, press("tab"))
			}
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
