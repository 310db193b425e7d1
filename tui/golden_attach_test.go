package tui

import (
	"path/filepath"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/pullcept/pullcept/room"
)

// attachGoldenScene is scene with attachments: the admin's post of a picture
// and a PDF (its block in the UI's label), Lin's answer attaching a log,
// two files waiting in the input bar with some text, and a folder for the
// attach prompt.
func attachGoldenScene(lang Lang) *fakeBackend {
	f := scene()
	label := room.AttachmentsLabel
	if lang == LangJapanese {
		label = room.AttachmentsLabelJa
	}
	dir := filepath.Join(nativeAbs("/data/logs/main/attachments"), "t-main")
	own := post("p8", "マスター", room.AttachmentBlock{Text: "この画面を見てください", Label: label,
		Paths: []string{filepath.Join(dir, "screenshot 2026-10-02.png"), filepath.Join(dir, "release-notes.pdf")}}.String(), 7)
	own.Role = room.RoleAdmin
	lin := post("p9", "Lin", room.AttachmentBlock{Text: "The failing run's log:", Label: room.AttachmentsLabel,
		Paths: []string{filepath.Join(dir, "ci-run-4411.log")}}.String(), 8)
	lin.Hue = hue(120)
	f.history["t-main"] = append(f.history["t-main"], own, lin)
	f.att.dirs = map[string][]DirEntry{"/home/u/Pictures/": {{Name: "2026"}, {Name: "screenshot 1.png"}, {Name: "screenshot 2.png"}, {Name: "Wallpapers", Dir: true}}}
	return f
}

// TestGoldenAttachments: chips in the chat (the admin's on the right, a
// seat's on the left) and in the input bar, and the attach prompt, at
// 80×24 and 200×60 in English and Japanese.
func TestGoldenAttachments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{
		{"80x24", 80, 24, LangEnglish},
		{"200x60", 200, 60, LangEnglish},
		{"80x24ja", 80, 24, LangJapanese},
		{"200x60ja", 200, 60, LangJapanese},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := attachGoldenScene(tc.lang)
			m := sceneModel(t, f, tc.w, tc.h, tc.lang)
			m.input.addChip(&m.env, AttachmentFile{Path: "/home/u/Pictures/screenshot 1.png", Name: "screenshot 1.png"})
			m.input.addChip(&m.env, AttachmentFile{Path: "/home/u/notes.txt", Name: "notes.txt"})
			typeText(t, m, "これも")
			t.Run("chips", func(t *testing.T) { golden.RequireEqual(t, m.View().Content) })
			send(t, m, f4)
			send(t, m, press("ctrl+u"))
			typeText(t, m, "/home/u/Pictures/sc")
			t.Run("prompt", func(t *testing.T) { golden.RequireEqual(t, m.View().Content) })
		})
	}
}
