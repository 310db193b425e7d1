package tui

import (
	"slices"
	"strings"
	"testing"
)

// TestEditorAppServerToggle: a Codex account's editor shows the
// app-server mode toggle with its hint; Space and Enter flip it, each flip
// asks for a new preview, and ctrl+s saves the value. A Claude Code
// account's editor has no such field.
func TestEditorAppServerToggle(t *testing.T) {
	t.Parallel()
	f := scene() // Lay is a Codex account in app-server mode
	m := openAccount(t, f, "lay", 120, 40, LangEnglish)
	ed := m.overlay.editor
	if !slices.Contains(ed.fields(), fAppServer) {
		t.Fatalf("Codex fields %v lack the app-server toggle", ed.fields())
	}
	if v := plain(m); !strings.Contains(v, "app-server mode") || !strings.Contains(v, "◂ on ▸") ||
		!strings.Contains(v, "one app-server per seat, the real TUI attached (standard)") {
		t.Fatalf("the toggle is not drawn on:\n%s", v)
	}
	editField(t, m, fAppServer)
	f.mu.Lock()
	n := f.previews
	f.mu.Unlock()
	send(t, m, press("space"))
	if ed.acc.AppServer {
		t.Fatal("space did not turn app-server mode off")
	}
	if v := plain(m); !strings.Contains(v, "◂ off ▸") || !strings.Contains(v, "hook mode (compatibility)") {
		t.Fatalf("the toggle is not drawn off:\n%s", v)
	}
	f.mu.Lock()
	asked := f.previews - n
	f.mu.Unlock()
	if asked == 0 {
		t.Fatal("the toggle asked for no preview")
	}
	send(t, m, press("enter"))
	if !ed.acc.AppServer {
		t.Fatal("enter did not turn app-server mode back on")
	}
	send(t, m, press("space"))
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || f.saved[0].AppServer || f.saved[0].ID != "lay" {
		t.Fatalf("saved %+v, want Lay with AppServer false", f.saved)
	}

	m = openLin(t, f, 120, 40, LangEnglish)
	if slices.Contains(m.overlay.editor.fields(), fAppServer) {
		t.Fatalf("Claude Code fields %v hold the app-server toggle", m.overlay.editor.fields())
	}
	if v := plain(m); strings.Contains(v, "app-server") {
		t.Fatalf("a Claude Code account shows the toggle:\n%s", v)
	}
}

// TestEditorAppServerJapanese: the toggle's label and hint in Japanese.
func TestEditorAppServerJapanese(t *testing.T) {
	t.Parallel()
	m := openAccount(t, scene(), "lay", 120, 40, LangJapanese)
	if v := plain(m); !strings.Contains(v, "app-server 方式") || !strings.Contains(v, "◂ オン ▸") {
		t.Fatalf("no Japanese toggle:\n%s", v)
	}
}

// TestEditorAppServerDefaultOn: a new Codex account (quick key 2) starts
// in app-server mode, and so does an account whose kind becomes Codex in
// the editor; a Codex account saved in hook mode gets hook mode back when
// its kind goes away and returns.
func TestEditorAppServerDefaultOn(t *testing.T) {
	t.Parallel()
	f := scene()
	f.accounts[2].AppServer = false // Lay was saved in hook mode
	m := sceneModel(t, f, 120, 40, LangEnglish)
	toParticipants(t, m, "lay")
	send(t, m, press("2"))
	if ed := m.overlay.editor; ed == nil || !ed.isNew || ed.acc.Kind != KindCodexCLI || !ed.acc.AppServer {
		t.Fatalf("quick Codex account: %+v", m.overlay.editor)
	}
	send(t, m, press("esc"))
	send(t, m, press("esc"))

	toParticipants(t, m, "gh") // an MCP account: mcp → claude_code → codex_cli
	send(t, m, press("e"))
	ed := m.overlay.editor
	if ed == nil || ed.acc.ID != "gh" {
		t.Fatal("editor not open on gh")
	}
	editField(t, m, fKind)
	send(t, m, press("right"))
	send(t, m, press("right"))
	if ed.acc.Kind != KindCodexCLI || !ed.acc.AppServer {
		t.Fatalf("kind changed to %s: AppServer %v, want on", ed.acc.Kind, ed.acc.AppServer)
	}
	setField(t, m, fDir, "/home/u/work")
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || f.saved[0].Kind != KindCodexCLI || !f.saved[0].AppServer {
		t.Fatalf("saved %+v, want a Codex account with AppServer on", f.saved)
	}

	m = openAccount(t, f, "lay", 120, 40, LangEnglish)
	ed = m.overlay.editor
	editField(t, m, fKind)
	send(t, m, press("right"))
	send(t, m, press("left"))
	if ed.acc.Kind != KindCodexCLI || ed.acc.AppServer {
		t.Fatalf("back to Codex: kind %s AppServer %v, want hook mode kept", ed.acc.Kind, ed.acc.AppServer)
	}
}
