package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// noDirScene is scene with Lay's working directory left empty.
func noDirScene() *fakeBackend {
	f := scene()
	f.accounts[2].Dir = ""
	return f
}

// TestStartWithoutWorkDirOpensTheEditor: the start key on an account
// without a working directory starts nothing and opens its editor on that
// field, saying why (spec «作業ディレクトリ»: 未設定のアカウントの起動は拒否し、
// モーダルを開く); once the field is filled and saved, the start key starts
// it. Before, the start went to the backend and failed on the status line.
func TestStartWithoutWorkDirOpensTheEditor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang Lang
		say  string
	}{
		{LangEnglish, "Lay has no working directory: set one to start it"},
		{LangJapanese, "Lay には作業ディレクトリがありません。設定すると起動できます"},
	} {
		f := noDirScene()
		m := sceneModel(t, f, 120, 40, tc.lang)
		toParticipants(t, m, "lay")
		send(t, m, press("s"))
		if len(f.started) != 0 {
			t.Fatalf("%v: started %q without a working directory", tc.lang, f.started)
		}
		ed := m.overlay.editor
		if m.overlay.open != ovEditor || ed == nil || ed.acc.ID != "lay" || ed.field != fDir || !ed.inputs[fDir].Focused() {
			t.Fatalf("%v: the editor is not open on the working directory (overlay %v)", tc.lang, m.overlay.open)
		}
		if !strings.Contains(plain(m), tc.say) {
			t.Fatalf("%v: the editor does not say why:\n%s", tc.lang, plain(m))
		}
		typeText(t, m, "/home/u/work")
		send(t, m, press("ctrl+s"))
		if len(f.saved) != 1 || f.saved[0].Dir != "/home/u/work" {
			t.Fatalf("%v: saved %+v", tc.lang, f.saved)
		}
		send(t, m, press("s"))
		if len(f.started) != 1 || !strings.HasPrefix(f.started[0], "t-main|lay|") {
			t.Fatalf("%v: after the save the start key started %q", tc.lang, f.started)
		}
	}
}

// TestGoldenStartWithoutWorkDir: the editor a start without a working
// directory opens, at 80×24 in English and Japanese.
func TestGoldenStartWithoutWorkDir(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		lang Lang
	}{{"80x24", LangEnglish}, {"80x24ja", LangJapanese}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := sceneModel(t, noDirScene(), 80, 24, tc.lang)
			toParticipants(t, m, "lay")
			send(t, m, press("s"))
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
