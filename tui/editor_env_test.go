package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// openEnvEditor opens the editor on lay with its env field drawn as f
// answers AccountEnv.
func openEnvEditor(t *testing.T, f *fakeBackend) *Model {
	t.Helper()
	m := mainModel(t, f)
	toParticipants(t, m, "lay")
	send(t, m, press("e"))
	if m.overlay.open != ovEditor || m.overlay.editor.acc.ID != "lay" {
		t.Fatal("editor not open on lay")
	}
	return m
}

func toEnvField(t *testing.T, m *Model) {
	t.Helper()
	for m.overlay.editor.field != fEnv {
		send(t, m, press("tab"))
	}
}

const drawnEnv = "GH_TOKEN=github_pat...Nx4h\nLI_PLUS_AGENT_KEY=..."

// TestEditorEnvUntouchedIsKept: the field is drawn from AccountEnv (values
// masked, and hidden while another field has focus); a save that changed
// other fields only sends KeepEnv, so nothing is opened or sealed.
func TestEditorEnvUntouchedIsKept(t *testing.T) {
	t.Parallel()
	f := scene()
	f.envFields = map[string]EnvField{"lay": {Text: drawnEnv}}
	m := openEnvEditor(t, f)
	if f.envReads != 1 {
		t.Fatalf("AccountEnv asked %d times, want once", f.envReads)
	}
	if v := plain(m); strings.Contains(v, "github_pat") || !strings.Contains(v, "GH_TOKEN=••••") {
		t.Fatalf("env not hidden while another field has focus:\n%s", v)
	}
	typeText(t, m, "x")
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || !f.saved[0].KeepEnv || f.saved[0].Env != drawnEnv {
		t.Fatalf("saved = %+v; want KeepEnv with the drawn text", f.saved)
	}
}

// TestEditorEnvEditedIsSent: a field typed in is sent to be settled
// (KeepEnv false), the drawn rows as they were plus what was typed; a
// field changed and changed back counts as untouched.
func TestEditorEnvEditedIsSent(t *testing.T) {
	t.Parallel()
	f := scene()
	f.envFields = map[string]EnvField{"lay": {Text: drawnEnv}}
	m := openEnvEditor(t, f)
	toEnvField(t, m)
	if !strings.Contains(plain(m), "github_pat...Nx4h") {
		t.Fatalf("the focused field shows its masks:\n%s", plain(m))
	}
	send(t, m, press("end"))
	typeText(t, m, "z")
	send(t, m, press("backspace"))
	if a := m.overlay.editor.collect(); !a.KeepEnv {
		t.Fatalf("typed and erased: KeepEnv false, want true")
	}
	send(t, m, tea.PasteMsg{Content: "\nGH_CONFIG_DIR=/home/u/gh"})
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || f.saved[0].KeepEnv || f.saved[0].Env != drawnEnv+"\nGH_CONFIG_DIR=/home/u/gh" {
		t.Fatalf("saved = %+v", f.saved)
	}
}

// TestEditorEnvReadOnlyUntilDrawn: while AccountEnv has not answered, and
// when it failed, the field takes no key or paste (it says why) and a save
// keeps the stored variables: an empty field saved back would erase them.
func TestEditorEnvReadOnlyUntilDrawn(t *testing.T) {
	t.Parallel()
	f := scene()
	f.envFields = map[string]EnvField{"lay": {Text: drawnEnv}}
	m := mainModel(t, f)
	a, _ := m.accounts.find("lay")
	m.openEditor(a, false) // its commands not run: AccountEnv has not answered
	ed := m.overlay.editor
	toEnvField(t, m)
	typeText(t, m, "A=1")
	send(t, m, tea.PasteMsg{Content: "B=2"})
	if ed.envArea.Value() != "" || !strings.Contains(ed.msg, "Opening the values") {
		t.Fatalf("loading field took input %q (msg %q)", ed.envArea.Value(), ed.msg)
	}
	if c := ed.collect(); !c.KeepEnv {
		t.Fatal("a save while loading must keep the env")
	}
	ed.envLoaded(&m.env, envLoadedMsg{id: "lin", field: EnvField{Text: "OTHER=1"}})
	if !ed.env.loading {
		t.Fatal("another account's answer was taken")
	}

	f.envErr = errors.New("no secret store is reachable for env var values: the OS keyring did not answer")
	m2 := openEnvEditor(t, f)
	ed = m2.overlay.editor
	toEnvField(t, m2)
	typeText(t, m2, "A=1")
	v := plain(m2)
	if ed.envArea.Value() != "" || !strings.Contains(v, "read-only") || !strings.Contains(v, "keyring did not answer") {
		t.Fatalf("failed field:\n%s", v)
	}
	send(t, m2, press("ctrl+s"))
	if len(f.saved) != 1 || !f.saved[0].KeepEnv {
		t.Fatalf("saved = %+v; want KeepEnv", f.saved)
	}
}

// TestEditorEnvTenThousandLines: a stored field of 10 000 rows is more than
// the field holds: it is read-only with the reason and a save keeps every
// variable; a paste of 10 000 rows is refused whole, the field unchanged.
func TestEditorEnvTenThousandLines(t *testing.T) {
	t.Parallel()
	var rows []string
	for i := range 10000 {
		rows = append(rows, fmt.Sprintf("VAR_%05d=va...%d", i, i%10))
	}
	many := strings.Join(rows, "\n")
	f := scene()
	f.envFields = map[string]EnvField{"lay": {Text: many}}
	m := openEnvEditor(t, f)
	toEnvField(t, m)
	if v := plain(m); !strings.Contains(v, "10000 env lines") || !strings.Contains(v, "keeps them all") {
		t.Fatalf("10 000 stored rows:\n%s", v)
	}
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || !f.saved[0].KeepEnv {
		t.Fatalf("saved = %+v; want KeepEnv", f.saved)
	}

	f2 := scene()
	f2.envFields = map[string]EnvField{"lay": {Text: drawnEnv}}
	m2 := openEnvEditor(t, f2)
	toEnvField(t, m2)
	send(t, m2, tea.PasteMsg{Content: many})
	ed := m2.overlay.editor
	if ed.envArea.Value() != drawnEnv || !strings.Contains(ed.msg, "Paste not taken") {
		t.Fatalf("paste of 10 000 rows: field %d bytes, msg %q", len(ed.envArea.Value()), ed.msg)
	}
}

// TestEditorEnvUnreadableNamed: values that cannot be opened are named
// under the field with what to do.
func TestEditorEnvUnreadableNamed(t *testing.T) {
	t.Parallel()
	f := scene()
	f.envFields = map[string]EnvField{"lay": {Text: "GH_TOKEN=(cannot decrypt)\nX=...", Unreadable: []string{"GH_TOKEN"}}}
	m := openEnvEditor(t, f)
	if v := plain(m); !strings.Contains(v, "Cannot be opened") || !strings.Contains(v, "GH_TOKEN") {
		t.Fatalf("unreadable value not named:\n%s", v)
	}
}
