package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/tui"
)

// hasProblem reports a problem of field (on line, 0 for the field) whose
// text holds part, with the given warn.
func hasProblem(c tui.AccountCheck, field string, line int, part string, warn bool) bool {
	for _, p := range c.Problems {
		if p.Field == field && p.Line == line && strings.Contains(p.Text, part) && p.Warn == warn {
			return true
		}
	}
	return false
}

// TestCheckAccountFields: each field's problem comes back naming the
// editor's field (the env field's with its line), a missing working dir
// is marked so the editor can offer to make it, and the character's
// channel is named by kind.
func TestCheckAccountFields(t *testing.T) {
	_, b := openTest(t)
	work := t.TempDir()
	c := b.CheckAccount(tui.AccountInfo{Kind: tui.KindClaudeCode, Name: "Lin", Dir: "relative", Command: "claude",
		Options: `--x "open`, Env: "A=1\nno equals\nA=2", Character: "a/b"})
	for _, want := range []struct {
		field string
		line  int
		part  string
		warn  bool
	}{
		{tui.FieldDir, 0, "not an absolute path", false},
		{tui.FieldOptions, 0, "unterminated quote", false},
		{tui.FieldEnv, 2, `no "="`, false},
		{tui.FieldEnv, 3, "used twice", false},
		{tui.FieldCharacter, 0, "path separator", true},
	} {
		if !hasProblem(c, want.field, want.line, want.part, want.warn) {
			t.Errorf("no %s line %d problem %q (warn %v): %+v", want.field, want.line, want.part, want.warn, c.Problems)
		}
	}
	if c.CharacterVia != "outputStyle" || c.DirMissing {
		t.Errorf("via %q, dir missing %v", c.CharacterVia, c.DirMissing)
	}
	missing := filepath.Join(work, "not", "yet")
	c = b.CheckAccount(tui.AccountInfo{Kind: tui.KindCodexCLI, Name: "Lay", Dir: missing, Command: "codex",
		Env: "GH_TOKEN=x\nli_plus_output_style=luna", Character: "Luna the Cat"})
	if !c.DirMissing || !hasProblem(c, tui.FieldDir, 0, "does not exist", false) ||
		!hasProblem(c, tui.FieldEnv, 2, "character field", false) || !hasProblem(c, tui.FieldCharacter, 0, "Codex", false) ||
		c.CharacterVia != "LI_PLUS_OUTPUT_STYLE" {
		t.Errorf("Codex check: %+v", c)
	}
	// An app-server seat's character travels in its conversation's
	// developer instructions, not in LI_PLUS_OUTPUT_STYLE: a heading's
	// block of the user's own in a project without Li+'s style files
	// (#276, any name without whitespace), else the style file's body
	// (#281's grammar).
	inline := tui.AccountInfo{Kind: tui.KindCodexCLI, Name: "Lay", Dir: work, Command: "codex", Character: "character_ルナ", AppServer: true}
	if c := b.CheckAccount(inline); c.CharacterVia != "inline" || len(c.Problems) != 0 {
		t.Errorf("app-server Codex check, inline project: %+v", c)
	}
	if err := os.MkdirAll(filepath.Join(work, ".codex", "output-styles"), 0o755); err != nil {
		t.Fatal(err)
	}
	if c := b.CheckAccount(inline); c.CharacterVia != "developerInstructions" || !hasProblem(c, tui.FieldCharacter, 0, "Codex", false) {
		t.Errorf("app-server Codex check, style files: %+v", c)
	}
	if err := os.RemoveAll(filepath.Join(work, ".codex")); err != nil {
		t.Fatal(err)
	}
	body, err := b.OpenCharacter(tui.AccountInfo{Kind: tui.KindCodexCLI, Dir: missing, Character: "luna"})
	if err != nil || body.Exists || body.Path != filepath.Join(missing, ".codex", "output-styles", "luna.md") {
		t.Fatalf("a body in a dir to be made: %+v, %v", body, err)
	}
	if err := b.CreateWorkDir(missing); err != nil {
		t.Fatal(err)
	}
	if c := b.CheckAccount(tui.AccountInfo{Kind: tui.KindCodexCLI, Name: "Lay", Dir: missing, Command: "codex", Character: "luna"}); len(c.Problems) != 0 || c.DirMissing {
		t.Errorf("after CreateWorkDir: %+v", c)
	}
	if c := b.CheckAccount(tui.AccountInfo{Kind: tui.KindCLI, Name: "sh", Dir: work, Command: "sh", Character: "x"}); c.CharacterVia != "" || len(c.Problems) != 0 {
		t.Errorf("generic CLI: %+v", c)
	}
}

// TestCharacterThroughTheBackend: the body of a character is read and
// written through the backend, with the accounts that wear the same file
// and the file Claude really finds a style of that name in.
func TestCharacterThroughTheBackend(t *testing.T) {
	_, b := openTest(t)
	work := t.TempDir()
	lin := tui.AccountInfo{Kind: tui.KindClaudeCode, Name: "Claude Lin", Dir: work, Command: "claude", Character: "Lin"}
	saved, err := b.SaveAccount(lin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.SaveAccount(tui.AccountInfo{Kind: tui.KindClaudeCode, Name: "Claude Bee", Nickname: "Bee", Dir: work, Command: "claude", Character: "Lin"}); err != nil {
		t.Fatal(err)
	}
	body, err := b.OpenCharacter(saved)
	if err != nil || body.Exists || body.Path != filepath.Join(work, ".claude", "output-styles", "Lin.md") || len(body.WornBy) != 1 || body.WornBy[0] != "Bee" {
		t.Fatalf("OpenCharacter = %+v, %v", body, err)
	}
	w, err := b.SaveCharacter(saved, body, "---\nname: Lin\n---\nLin.\n", false)
	if err != nil || !w.Exists || w.Fingerprint == "" {
		t.Fatalf("SaveCharacter = %+v, %v", w, err)
	}
	if data, _ := os.ReadFile(body.Path); string(data) != "---\nname: Lin\n---\nLin.\n" {
		t.Fatalf("file = %q", data)
	}
	if _, err := b.SaveCharacter(saved, body, "again", false); err == nil {
		t.Fatal("a write over a file changed since it was read was not refused")
	}
	styles, err := b.CharacterStyles(saved)
	if err != nil || len(styles) == 0 || styles[0].Name != "Lin" || styles[0].User {
		t.Fatalf("CharacterStyles = %+v, %v", styles, err)
	}
	other := filepath.Join(work, ".claude", "output-styles", "other-file.md")
	if err := os.WriteFile(other, []byte("---\nname: Other\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	saved.Character = "Other"
	if body, err := b.OpenCharacter(saved); err != nil || body.DefinedIn != other || body.Exists {
		t.Fatalf("DefinedIn: %+v, %v", body, err)
	}
	codex := tui.AccountInfo{Kind: tui.KindCodexCLI, Name: "Lay", Dir: work, Command: "codex", Character: "luna"}
	if _, err := b.PrepareCharacterEdit(codex, false); err == nil {
		t.Fatal("the Codex folder was made unasked")
	}
	if p, err := b.PrepareCharacterEdit(codex, true); err != nil || p != filepath.Join(work, ".codex", "output-styles", "luna.md") {
		t.Fatalf("PrepareCharacterEdit = %q, %v", p, err)
	}
}
