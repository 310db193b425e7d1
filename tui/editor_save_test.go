package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// longOptions make a launch line as long as a real Claude seat's: the
// preview then needs more rows than a 200×50 screen leaves under the
// fields.
var longOptions = "--append-system-prompt-file /home/u/prompts/reviewer.md " + strings.Repeat("--add-dir /home/u/work/some/long/dependency/path ", 90)

// openAccount opens the editor on account id at w×h.
func openAccount(t *testing.T, f *fakeBackend, id string, w, h int, lang Lang) *Model {
	t.Helper()
	m := sceneModel(t, f, w, h, lang)
	toParticipants(t, m, id)
	send(t, m, press("e"))
	if m.overlay.open != ovEditor || m.overlay.editor.acc.ID != id {
		t.Fatalf("editor not open on %s", id)
	}
	return m
}

// openLin opens the editor on Lin (Claude Code, running) at w×h.
func openLin(t *testing.T, f *fakeBackend, w, h int, lang Lang) *Model {
	t.Helper()
	return openAccount(t, f, "lin", w, h, lang)
}

// TestEditorMessageLineAlwaysVisible: with a launch line longer than the
// screen, the message line (here "press ctrl+d again", then a save
// refusal) is on screen at 80×24 and 200×50, above the launch line, whose
// box scrolls with pgup/pgdown (issue 12: the message sat under the
// preview, off screen, and ctrl+s seemed to do nothing).
func TestEditorMessageLineAlwaysVisible(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		f := scene()
		f.accounts[2].Options = longOptions
		m := openAccount(t, f, "lay", sz[0], sz[1], LangEnglish)
		send(t, m, press("ctrl+d"))
		v := plain(m)
		msgAt := strings.Index(v, "Press Ctrl+D again to delete this account.")
		if msgAt < 0 {
			t.Fatalf("%v: the delete message is not on screen:\n%s", sz, v)
		}
		if pv := strings.Index(v, "Launch line"); pv < msgAt {
			t.Fatalf("%v: the message is not above the launch line:\n%s", sz, v)
		}
		if !strings.Contains(v, "PgUp/PgDn") {
			t.Fatalf("%v: the launch line does not say it scrolls:\n%s", sz, v)
		}
		before := m.overlay.editor.pv.YOffset()
		send(t, m, press("pgdown"))
		if m.overlay.editor.pv.YOffset() <= before {
			t.Fatalf("%v: pgdown did not scroll the launch line", sz)
		}
		f.files.problems = []FieldProblem{{Field: FieldCommand, Text: "command is required"}}
		send(t, m, press("ctrl+s"))
		if v := plain(m); !strings.Contains(v, "Not saved: command: command is required") || len(f.saved) != 0 {
			t.Fatalf("%v: the save refusal is not on screen (saved %d):\n%s", sz, len(f.saved), v)
		}
		if m.overlay.editor.field != fCommand {
			t.Fatalf("%v: the refusal did not focus its field (focus %v)", sz, m.overlay.editor.field)
		}
	}
}

// TestEditorEscAsksWithUnsavedChanges: Esc closes at once when nothing
// changed; with a change the first Esc asks, another key takes the
// question back, and Esc twice drops the change without saving.
func TestEditorEscAsksWithUnsavedChanges(t *testing.T) {
	t.Parallel()
	f := scene()
	m := openLin(t, f, 120, 40, LangEnglish)
	send(t, m, press("esc"))
	if m.overlay.open != ovNone {
		t.Fatal("Esc with nothing changed did not close")
	}
	toParticipants(t, m, "lin")
	send(t, m, press("e"))
	typeText(t, m, "x")
	send(t, m, press("esc"))
	if m.overlay.open != ovEditor || !strings.Contains(plain(m), "Unsaved changes: Esc again drops them, Ctrl+S saves.") {
		t.Fatalf("Esc with a change did not ask:\n%s", plain(m))
	}
	send(t, m, press("end"))
	send(t, m, press("esc"))
	if m.overlay.open != ovEditor {
		t.Fatal("Esc after another key closed without asking again")
	}
	send(t, m, press("esc"))
	if m.overlay.open != ovNone || len(f.saved) != 0 {
		t.Fatalf("Esc Esc: open %v, saved %d", m.overlay.open, len(f.saved))
	}
}

// TestEditorWorkDirMissingIsOffered: a working dir that does not exist is
// a problem of its field; ctrl+s names it and saves nothing, the second
// ctrl+s creates it and saves.
func TestEditorWorkDirMissingIsOffered(t *testing.T) {
	t.Parallel()
	f := scene()
	f.files.missing = map[string]bool{"/home/u/new": true}
	m := openLin(t, f, 120, 40, LangEnglish)
	setField(t, m, fDir, "/home/u/new")
	if v := plain(m); !strings.Contains(v, "working dir: working directory does not exist: /home/u/new") {
		t.Fatalf("the missing dir is not listed:\n%s", v)
	}
	send(t, m, press("ctrl+s"))
	if v := plain(m); !strings.Contains(v, "The working dir /home/u/new does not exist: saving creates it. Press Ctrl+S again to save.") ||
		len(f.saved) != 0 || len(f.files.made) != 0 {
		t.Fatalf("first ctrl+s: saved %d, made %v:\n%s", len(f.saved), f.files.made, v)
	}
	send(t, m, press("ctrl+s"))
	if len(f.files.made) != 1 || f.files.made[0] != "/home/u/new" || len(f.saved) != 1 || f.saved[0].Dir != "/home/u/new" {
		t.Fatalf("second ctrl+s: made %v, saved %+v", f.files.made, f.saved)
	}
}

// TestEditorFieldProblemsStopTheSave: every field's problems are listed
// with the field and line; a save is refused with the first, focused on
// its field; a warning does not stop it.
func TestEditorFieldProblemsStopTheSave(t *testing.T) {
	t.Parallel()
	f := scene()
	f.files.problems = []FieldProblem{{Field: FieldCharacter, Text: "a note", Warn: true}}
	m := openLin(t, f, 120, 40, LangEnglish)
	editField(t, m, fEnv)
	typeText(t, m, "GOOD=1")
	send(t, m, press("enter"))
	typeText(t, m, "no equals sign")
	v := plain(m)
	for _, want := range []string{"env (NAME=value) line 2: bad env var line", "character: a note"} {
		if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
			t.Fatalf("%q not listed:\n%s", want, v)
		}
	}
	editField(t, m, fName)
	send(t, m, press("ctrl+s"))
	if ed := m.overlay.editor; len(f.saved) != 0 || ed.field != fEnv || !strings.HasPrefix(ed.msg, "Not saved: env (NAME=value) line 2:") {
		t.Fatalf("saved %d, field %v, message %q", len(f.saved), ed.field, ed.msg)
	}
	send(t, m, press("backspace"))
	for range "no equals sign" {
		send(t, m, press("backspace"))
	}
	send(t, m, press("ctrl+s"))
	if len(f.saved) != 1 || m.overlay.open != ovNone {
		t.Fatalf("with only a warning left: saved %d, open %v", len(f.saved), m.overlay.open)
	}
}

// TestEditorPreviewOneAtATime: keys typed while a preview is on its way
// make one more request when it answers, not one each.
func TestEditorPreviewOneAtATime(t *testing.T) {
	t.Parallel()
	f := scene()
	m := openLin(t, f, 120, 40, LangEnglish)
	editField(t, m, fOptions)
	n := f.previews
	var cmds []tea.Cmd
	for _, r := range "--verbose" {
		_, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		cmds = append(cmds, cmd)
	}
	drive(t, m, tea.Batch(cmds...))
	if got := f.previews - n; got != 2 {
		t.Fatalf("9 keys made %d previews, want 2 (one, then one for the rest)", got)
	}
	if !strings.Contains(m.overlay.editor.preview, "--verbose") {
		t.Fatalf("the last preview is not of the last text: %q", m.overlay.editor.preview)
	}
}
