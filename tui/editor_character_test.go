package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

const linBody = "/home/u/work/.claude/output-styles/Lin.md"

// characterScene is scene with Lin wearing the character Lin, whose body
// file exists, and two styles Claude would find.
func characterScene() *fakeBackend {
	f := scene()
	f.accounts[1].Character = "Lin"
	f.files.bodies = map[string]CharacterBody{linBody: {Path: linBody, Exists: true, FolderExists: true,
		Text: "---\nname: Lin\n---\nLin speaks softly.", Fingerprint: "fp0", FrontName: "Lin", FrontLine: 2}}
	f.files.styles = []CharacterStyle{
		{Name: "Lin", File: linBody},
		{Name: "Reviewer", File: "/home/u/.claude/output-styles/reviewer.md", User: true},
	}
	return f
}

// flat is the open editor's text without its frame, runs of spaces as one
// (wrapped lines joined), for finding sentences.
func flat(m *Model) string {
	box := ansi.Strip(m.overlay.editor.view(&m.env, m.width, m.height))
	return strings.Join(strings.Fields(strings.ReplaceAll(box, "│", " ")), " ")
}

// TestEditorCharacterFieldsByKind: Claude Code and Codex CLI accounts have
// the character and its body; a generic CLI has neither (spec).
func TestEditorCharacterFieldsByKind(t *testing.T) {
	t.Parallel()
	for kind, want := range map[string]bool{KindClaudeCode: true, KindCodexCLI: true, KindCLI: false, KindMCP: false, KindAdmin: false} {
		ed := newEditor(&env{}, AccountInfo{Kind: kind, Name: "x"}, true, false, false)
		fs := ed.fields()
		if slices.Contains(fs, fCharacter) != want || slices.Contains(fs, fBody) != want {
			t.Errorf("%s: fields %v", kind, fs)
		}
	}
}

// TestEditorCharacterStylesPicked: the character field says how many
// styles the CLI would find; ctrl+l lists them with where they are, and
// one picked fills the field, reads its body and shows its effect on the
// launch line.
func TestEditorCharacterStylesPicked(t *testing.T) {
	t.Parallel()
	f := characterScene()
	m := openLin(t, f, 160, 40, LangEnglish)
	editField(t, m, fCharacter)
	if !strings.Contains(flat(m), "Ctrl+L lists 2 styles") {
		t.Fatalf("no styles hint:\n%s", plain(m))
	}
	send(t, m, press("ctrl+l"))
	v := flat(m)
	if !strings.Contains(v, "Reviewer user /home/u/.claude/output-styles/reviewer.md") || !strings.Contains(v, "Lin project "+linBody) {
		t.Fatalf("styles list:\n%s", plain(m))
	}
	send(t, m, press("down"))
	send(t, m, press("enter"))
	ed := m.overlay.editor
	if got := ed.inputs[fCharacter].Value(); got != "Reviewer" || ed.chr.picking {
		t.Fatalf("picked %q (list open %v)", got, ed.chr.picking)
	}
	if last := f.files.opens[len(f.files.opens)-1]; last != "/home/u/work/.claude/output-styles/Reviewer.md" {
		t.Fatalf("body read from %q", last)
	}
	if !strings.Contains(flat(m), "character: Reviewer → outputStyle in --settings") {
		t.Fatalf("the effect is not shown:\n%s", plain(m))
	}
	send(t, m, press("ctrl+l"))
	send(t, m, press("esc"))
	if m.overlay.open != ovEditor || m.overlay.editor.chr.picking {
		t.Fatal("Esc in the styles list must close the list only")
	}
}

// TestEditorCharacterStylesListLetsKeysThrough: with no styles ctrl+l only
// says so, and with the list open a letter closes it and is typed — the
// first letter after ctrl+l was lost (a newcomer typed "reviewer" and got
// "eviewer").
func TestEditorCharacterStylesListLetsKeysThrough(t *testing.T) {
	t.Parallel()
	f := characterScene()
	f.files.styles = nil
	m := openLin(t, f, 160, 40, LangEnglish)
	editField(t, m, fCharacter)
	m.overlay.editor.inputs[fCharacter].SetValue("")
	send(t, m, press("ctrl+l"))
	if ed := m.overlay.editor; ed.chr.picking || !strings.Contains(ed.msg, "no output styles") {
		t.Fatalf("ctrl+l with no styles: list open %v, message %q", ed.chr.picking, ed.msg)
	}
	for _, r := range "rev" {
		send(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if got := m.overlay.editor.inputs[fCharacter].Value(); got != "rev" {
		t.Fatalf("typed %q after ctrl+l, want rev", got)
	}
	f.files.styles = characterScene().files.styles
	m = openLin(t, f, 160, 40, LangEnglish)
	editField(t, m, fCharacter)
	m.overlay.editor.inputs[fCharacter].SetValue("")
	send(t, m, press("ctrl+l"))
	send(t, m, tea.KeyPressMsg{Code: 'x', Text: "x"})
	if ed := m.overlay.editor; ed.chr.picking || ed.inputs[fCharacter].Value() != "x" {
		t.Fatalf("a letter in the open list: list open %v, field %q", ed.chr.picking, ed.inputs[fCharacter].Value())
	}
}

// TestEditorCharacterBodySaved: the body is read when the editor opens,
// edited in place, and written with the account's save — only when it
// changed.
func TestEditorCharacterBodySaved(t *testing.T) {
	t.Parallel()
	f := characterScene()
	m := openLin(t, f, 120, 40, LangEnglish)
	if v := flat(m); !strings.Contains(v, linBody+" · 4 lines") {
		t.Fatalf("body row:\n%s", plain(m))
	}
	send(t, m, press("ctrl+s"))
	if len(f.files.saves) != 0 || len(f.saved) != 1 {
		t.Fatalf("an unchanged body was written: %v (saved %d)", f.files.saves, len(f.saved))
	}
	toParticipants(t, m, "lin")
	send(t, m, press("e"))
	editField(t, m, fBody)
	if !strings.Contains(plain(m), "Lin speaks softly.") {
		t.Fatalf("the body field does not show the text:\n%s", plain(m))
	}
	send(t, m, press("ctrl+end"))
	typeText(t, m, " Always.")
	if !strings.Contains(flat(m), "· unsaved") {
		t.Fatalf("no unsaved mark:\n%s", plain(m))
	}
	send(t, m, press("ctrl+s"))
	want := linBody + "|---\nname: Lin\n---\nLin speaks softly. Always."
	if len(f.files.saves) != 1 || f.files.saves[0] != want || len(f.saved) != 2 || m.overlay.open != ovNone {
		t.Fatalf("saves %q, accounts saved %d, open %v", f.files.saves, len(f.saved), m.overlay.open)
	}
}

// TestEditorCharacterChangedElsewhere: a body changed on disk since it was
// read is not overwritten, and the account is not saved either; ctrl+r
// reads the file again.
func TestEditorCharacterChangedElsewhere(t *testing.T) {
	t.Parallel()
	f := characterScene()
	m := openLin(t, f, 120, 40, LangEnglish)
	editField(t, m, fBody)
	typeText(t, m, "x")
	f.mu.Lock()
	b := f.files.bodies[linBody]
	b.Text, b.Fingerprint = "someone else's", "fp-other"
	f.files.bodies[linBody] = b
	f.mu.Unlock()
	send(t, m, press("ctrl+s"))
	if ed := m.overlay.editor; !strings.Contains(ed.msg, "changed since it was opened") || len(f.files.saves) != 0 || len(f.saved) != 0 {
		t.Fatalf("message %q, saves %v, saved %d", ed.msg, f.files.saves, len(f.saved))
	}
	send(t, m, press("ctrl+r"))
	if ed := m.overlay.editor; ed.chr.area.Value() != "someone else's" || ed.bodyDirty() {
		t.Fatalf("ctrl+r read %q", ed.chr.area.Value())
	}
}

// TestEditorCharacterWornAndFrontName: a body other accounts wear is saved
// only at a second ctrl+s that says so; a frontmatter name: other than the
// character is named with its line.
func TestEditorCharacterWornAndFrontName(t *testing.T) {
	t.Parallel()
	f := characterScene()
	f.files.wornBy = []string{"Bee"}
	b := f.files.bodies[linBody]
	b.FrontName = "Claude Lin"
	f.files.bodies[linBody] = b
	m := openLin(t, f, 160, 50, LangEnglish)
	v := flat(m)
	for _, want := range []string{"Also worn by Bee: saving changes their character too.",
		"Line 2 names it “Claude Lin”: Claude selects a style by its name:, so “Lin” will not select this file."} {
		if !strings.Contains(v, want) {
			t.Fatalf("%q not shown:\n%s", want, plain(m))
		}
	}
	editField(t, m, fBody)
	typeText(t, m, "x")
	send(t, m, press("ctrl+s"))
	if !strings.Contains(flat(m), "The body is also worn by Bee: saving changes their character too. Press Ctrl+S again to save.") || len(f.files.saves) != 0 {
		t.Fatalf("first ctrl+s (saves %v):\n%s", f.files.saves, plain(m))
	}
	send(t, m, press("ctrl+s"))
	if len(f.files.saves) != 1 || len(f.saved) != 1 {
		t.Fatalf("second ctrl+s: saves %v, saved %d", f.files.saves, len(f.saved))
	}
}

// TestEditorCharacterMoved: with unsaved edits, changing the character
// does not drop them: the body field says its place moved, a save is
// refused, and ctrl+r reads the new place.
func TestEditorCharacterMoved(t *testing.T) {
	t.Parallel()
	f := characterScene()
	m := openLin(t, f, 120, 40, LangEnglish)
	editField(t, m, fBody)
	typeText(t, m, "draft")
	reads := len(f.files.opens)
	setField(t, m, fCharacter, "Lay")
	ed := m.overlay.editor
	if len(f.files.opens) != reads || !ed.chr.moved || !strings.Contains(ed.chr.area.Value(), "draft") {
		t.Fatalf("the move read the new place (%d reads) or lost the edit (moved %v)", len(f.files.opens)-reads, ed.chr.moved)
	}
	send(t, m, press("ctrl+s"))
	if !strings.HasPrefix(ed.msg, "Not saved: the body's place changed") || len(f.saved) != 0 {
		t.Fatalf("message %q, saved %d", ed.msg, len(f.saved))
	}
	setField(t, m, fCharacter, "Lin")
	if ed.chr.moved {
		t.Fatal("back at its place, the body is still marked moved")
	}
	setField(t, m, fCharacter, "Lay")
	editField(t, m, fName) // ctrl+r reads the new place from any field once the body moved
	send(t, m, press("ctrl+r"))
	if ed.chr.moved || ed.chr.area.Value() != "" || f.files.opens[len(f.files.opens)-1] != "/home/u/work/.claude/output-styles/Lay.md" {
		t.Fatalf("ctrl+r: moved %v, text %q, read %v", ed.chr.moved, ed.chr.area.Value(), f.files.opens)
	}
}

// TestEditorCharacterHeldReadOnly: a file the field cannot hold exactly
// (a tab) is read-only here, with the reason; a read error is shown.
func TestEditorCharacterHeldReadOnly(t *testing.T) {
	t.Parallel()
	f := characterScene()
	b := f.files.bodies[linBody]
	b.Text = "code:\n\tindented"
	f.files.bodies[linBody] = b
	m := openLin(t, f, 120, 40, LangEnglish)
	editField(t, m, fBody)
	typeText(t, m, "x")
	ed := m.overlay.editor
	if !ed.chr.held || ed.bodyDirty() || !strings.Contains(ed.msg, "read-only here; Ctrl+O opens it in your editor") {
		t.Fatalf("held %v, dirty %v, message %q", ed.chr.held, ed.bodyDirty(), ed.msg)
	}
	f.files.openErr = errors.New("character file is not UTF-8")
	send(t, m, press("ctrl+r"))
	if !strings.Contains(flat(m), "The body cannot be opened: character file is not UTF-8") {
		t.Fatalf("read error not shown:\n%s", plain(m))
	}
}

// TestEditorCharacterPasteTooBig: a paste the body cannot hold whole (over
// 128 KiB) is refused whole with the reason.
func TestEditorCharacterPasteTooBig(t *testing.T) {
	t.Parallel()
	f := characterScene()
	m := openLin(t, f, 120, 40, LangEnglish)
	editField(t, m, fBody)
	before := m.overlay.editor.chr.area.Value()
	send(t, m, tea.PasteMsg{Content: strings.Repeat("x", characterMaxBytes)})
	ed := m.overlay.editor
	if ed.chr.area.Value() != before || !strings.HasPrefix(ed.msg, "Paste not taken: the body would be") {
		t.Fatalf("message %q", ed.msg)
	}
}

// TestEditorCodexCharacter: an app-server Codex account's character
// reaches the seat in its conversation's developer instructions (shown on
// the launch line's box; TestEditorCodexCharacterVia has hook mode); its
// body file is .codex/output-styles/<name>.md, and creating that folder,
// which switches every Codex seat there to Li+'s file mode, is said first
// and done at the second ctrl+s.
func TestEditorCodexCharacter(t *testing.T) {
	t.Parallel()
	f := scene()
	f.accounts[2].Character = "character_codex_luna"
	m := openAccount(t, f, "lay", 160, 50, LangEnglish)
	v := flat(m)
	for _, want := range []string{
		"character: character_codex_luna → the style's body in the conversation's developer instructions (app-server mode)",
		"/home/u/work/.codex/output-styles does not exist: creating it switches every Codex seat in this folder to Li+'s file mode",
		"/home/u/work/.codex/output-styles/character_codex_luna.md · new file",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("%q not shown:\n%s", want, plain(m))
		}
	}
	editField(t, m, fBody)
	typeText(t, m, "Luna.")
	send(t, m, press("ctrl+s"))
	if !strings.Contains(flat(m), "saving creates it, and every Codex seat in this folder then uses Li+'s file mode. Press Ctrl+S again to save.") || len(f.files.saves) != 0 {
		t.Fatalf("first ctrl+s (saves %v):\n%s", f.files.saves, plain(m))
	}
	send(t, m, press("ctrl+s"))
	if len(f.files.saves) != 1 || f.files.saves[0] != "/home/u/work/.codex/output-styles/character_codex_luna.md|Luna." || len(f.saved) != 1 {
		t.Fatalf("second ctrl+s: saves %v, saved %d", f.files.saves, len(f.saved))
	}
}

// TestEditorCodexCharacterVia: the launch box says how a Codex account's
// character travels in its mode, in both languages: the conversation's
// developer instructions in app-server mode (never LI_PLUS_OUTPUT_STYLE,
// which that launch does not set), the seat's environment in hook mode;
// flipping the toggle changes the line.
func TestEditorCodexCharacterVia(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang          Lang
		server, hooks string
	}{
		{LangEnglish,
			"character: luna → the style's body in the conversation's developer instructions (app-server mode)",
			"character: luna → LI_PLUS_OUTPUT_STYLE=luna in the seat's environment (Li+ hook mode)"},
		{LangJapanese,
			"キャラクター: luna → スタイルの本文を会話の developer instructions で渡す（app-server 方式）",
			"キャラクター: luna → 席の環境変数 LI_PLUS_OUTPUT_STYLE=luna（Li+ の hook 方式）"},
	} {
		f := scene() // Lay is a Codex account in app-server mode
		f.accounts[2].Character = "luna"
		m := openAccount(t, f, "lay", 160, 50, tc.lang)
		if v := flat(m); !strings.Contains(v, tc.server) || strings.Contains(v, "LI_PLUS_OUTPUT_STYLE") {
			t.Fatalf("%s: app-server mode does not show %q alone:\n%s", tc.lang, tc.server, plain(m))
		}
		editField(t, m, fAppServer)
		send(t, m, press("space"))
		if v := flat(m); !strings.Contains(v, tc.hooks) {
			t.Fatalf("%s: hook mode does not show %q:\n%s", tc.lang, tc.hooks, plain(m))
		}
	}
}

// TestEditorCodexInlineVia: in a project without Li+'s style files an
// app-server Codex account's character is a heading of the user's own
// developer_instructions (#276), and the launch box says so in both
// languages, with or without a name.
func TestEditorCodexInlineVia(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang        Lang
		named, none string
	}{
		{LangEnglish,
			"character: character_Lin → the block under # character_Lin in your developer_instructions, other characters' blocks left out (inline, app-server mode)",
			"character: none → your developer_instructions as they are (no Li+ style files in this project)"},
		{LangJapanese,
			"キャラクター: character_Lin → developer_instructions の見出し # character_Lin のブロックを選び、他のキャラのブロックを除いて渡す（inline、app-server 方式）",
			"キャラクター: なし → developer_instructions をそのまま渡す（この project に Li+ のスタイルファイルなし）"},
	} {
		for _, name := range []string{"character_Lin", ""} {
			f := scene()
			f.files.inline = map[string]bool{f.accounts[2].Dir: true}
			f.accounts[2].Character = name
			want := tc.named
			if name == "" {
				want = tc.none
			}
			m := openAccount(t, f, "lay", 200, 50, tc.lang)
			// Japanese wraps between any two characters: compared without
			// the spaces the lines' ends became.
			if v := strings.ReplaceAll(flat(m), " ", ""); !strings.Contains(v, strings.ReplaceAll(want, " ", "")) {
				t.Fatalf("%s %q: no %q:\n%s", tc.lang, name, want, plain(m))
			}
		}
	}
}

// TestEditorOpenInEditor: ctrl+o runs $VISUAL (else $EDITOR) on the body
// file and reads it again after; it is refused without an editor set or
// with unsaved edits, and a Codex folder it must create is asked first.
func TestEditorOpenInEditor(t *testing.T) {
	t.Parallel()
	f := characterScene()
	f.accounts[2].Character = "luna"
	envs := map[string]string{"EDITOR": "vi", "VISUAL": "code --wait"}
	opts := testOptions()
	opts.StartTopic = "t-main"
	opts.Getenv = func(k string) string { return envs[k] }
	m := newTestModel(t, f, opts, 120, 40)
	toParticipants(t, m, "lin")
	send(t, m, press("e"))
	ed := m.overlay.editor
	var ran [][]string
	ed.exec = func(argv []string, path string, done func(error) tea.Msg) tea.Cmd {
		ran = append(ran, append(slices.Clone(argv), path))
		return func() tea.Msg { return done(nil) }
	}
	editField(t, m, fBody)
	reads := len(f.files.opens)
	send(t, m, press("ctrl+o"))
	if len(ran) != 1 || !slices.Equal(ran[0], []string{"code", "--wait", linBody}) || len(f.files.opens) != reads+1 {
		t.Fatalf("ran %q, reads %d", ran, len(f.files.opens)-reads)
	}
	typeText(t, m, "x")
	send(t, m, press("ctrl+o"))
	if len(ran) != 1 || !strings.Contains(ed.msg, "unsaved edits") {
		t.Fatalf("ran with unsaved edits: %q, %q", ran, ed.msg)
	}
	delete(envs, "VISUAL")
	delete(envs, "EDITOR")
	send(t, m, press("ctrl+r"))
	send(t, m, press("ctrl+o"))
	if len(ran) != 1 || !strings.Contains(ed.msg, "Set $VISUAL or $EDITOR") {
		t.Fatalf("ran without an editor: %q, %q", ran, ed.msg)
	}
	envs["EDITOR"] = "vi"
	send(t, m, press("esc"))
	toParticipants(t, m, "lay")
	send(t, m, press("e"))
	ed = m.overlay.editor
	ed.exec = func(argv []string, path string, done func(error) tea.Msg) tea.Cmd {
		ran = append(ran, append(slices.Clone(argv), path))
		return func() tea.Msg { return done(nil) }
	}
	editField(t, m, fBody)
	send(t, m, press("ctrl+o"))
	if len(ran) != 1 || !strings.Contains(ed.msg, ".codex/output-styles does not exist: press the key again to create it") {
		t.Fatalf("Codex folder not asked first: %q, %q", ran, ed.msg)
	}
	send(t, m, press("ctrl+o"))
	if len(ran) != 2 || ran[1][1] != "/home/u/work/.codex/output-styles/luna.md" {
		t.Fatalf("second ctrl+o: %q", ran)
	}
}
