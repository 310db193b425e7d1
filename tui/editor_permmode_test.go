package tui

import (
	"slices"
	"strings"
	"testing"
)

// TestEditorPermissionMode: a Claude Code account's editor shows its
// permission mode with what it means for cards (English and Japanese);
// ←/→ step through the modes, each asking for a new preview, and ctrl+s
// saves it. A new Claude Code account (quick key 1 or `a`) starts in manual, the
// mode in which cards appear (issue 35); a Codex account has no such row.
func TestEditorPermissionMode(t *testing.T) {
	t.Parallel()
	f := scene()
	m := openLin(t, f, 120, 40, LangEnglish)
	ed := m.overlay.editor
	if !slices.Contains(ed.fields(), fPermMode) {
		t.Fatalf("Claude fields %v lack the permission mode", ed.fields())
	}
	if v := plain(m); !strings.Contains(v, "permissions") || !strings.Contains(v, "◂ the CLI's own ▸") ||
		!strings.Contains(v, "2.1.328 starts in auto: no cards") {
		t.Fatalf("the mode is not drawn:\n%s", v)
	}
	editField(t, m, fPermMode)
	f.mu.Lock()
	n := f.previews
	f.mu.Unlock()
	send(t, m, press("right"))
	if ed.acc.PermissionMode != PermissionManual || !strings.Contains(plain(m), "asks before each tool: a card shows here") {
		t.Fatalf("→ from the CLI's own: %q\n%s", ed.acc.PermissionMode, plain(m))
	}
	for _, want := range []string{PermissionAuto, PermissionPlan, PermissionAcceptEdits, "", PermissionManual} {
		send(t, m, press("right"))
		if ed.acc.PermissionMode != want {
			t.Fatalf("→: %q, want %q", ed.acc.PermissionMode, want)
		}
	}
	send(t, m, press("left"))
	f.mu.Lock()
	asked := f.previews - n
	f.mu.Unlock()
	if asked == 0 || ed.acc.PermissionMode != "" {
		t.Fatalf("← back: %q; %d previews asked", ed.acc.PermissionMode, asked)
	}
	send(t, m, press("left"))
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || f.saved[0].PermissionMode != PermissionAcceptEdits || f.saved[0].ID != "lin" {
		t.Fatalf("saved %+v, want Lin in acceptEdits", f.saved)
	}

	if v := plain(openLin(t, scene(), 120, 40, LangJapanese)); !strings.Contains(v, "許可の方式") || !strings.Contains(v, "CLI の設定のまま") {
		t.Fatalf("no Japanese row:\n%s", v)
	}
	if slices.Contains(openAccount(t, scene(), "lay", 120, 40, LangEnglish).overlay.editor.fields(), fPermMode) {
		t.Fatal("a Codex account shows a permission mode")
	}

	// Both keys that make a Claude Code account start it in manual (issue
	// 35: `a` started in the CLI's own mode, where no card appears).
	for _, k := range []string{"1", "a"} {
		q := sceneModel(t, scene(), 120, 40, LangEnglish)
		toParticipants(t, q, "lin")
		send(t, q, press(k))
		if ed := q.overlay.editor; ed == nil || !ed.isNew || ed.acc.Kind != KindClaudeCode || ed.acc.PermissionMode != PermissionManual {
			t.Fatalf("new Claude Code account by %q: %+v", k, q.overlay.editor)
		}
		if v := plain(q); !strings.Contains(v, "◂ manual ▸") {
			t.Fatalf("new Claude Code account by %q does not show manual:\n%s", k, v)
		}
	}
}

// TestSavedRunningSeatWaitsForItsStart: saving the account of a seat that
// runs says the change applies at its next start (issue 35), in both
// languages; an account with no running seat says only that it was saved.
func TestSavedRunningSeatWaitsForItsStart(t *testing.T) {
	t.Parallel()
	for lang, want := range map[Lang]string{LangEnglish: "keeps its launch until its next start (x stops it, s starts it)", LangJapanese: "次の起動まで今の設定のまま"} {
		m := openLin(t, scene(), 120, 40, lang) // Lin runs in the open topic
		send(t, m, press("ctrl+s"))
		if st := statusPlain(m); !strings.Contains(strings.Join(m.statusLog(), "\n"), want) {
			t.Fatalf("%s: status %q lacks %q", lang, st, want)
		}
		m = openAccount(t, scene(), "lay", 120, 40, lang) // Lay is offline
		send(t, m, press("ctrl+s"))
		if strings.Contains(strings.Join(m.statusLog(), "\n"), want) {
			t.Fatalf("%s: an offline seat's account told to wait", lang)
		}
	}
}

// statusLog is every report made, oldest first.
func (m *Model) statusLog() []string {
	var out []string
	for _, e := range m.status.log {
		out = append(out, e.text)
	}
	return out
}
