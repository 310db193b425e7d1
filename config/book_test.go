package config

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// newBook loads a config with one Claude account into a Book saving to its
// own directory.
func newBook(t *testing.T) (*Book, string) {
	t.Helper()
	work := absDir(t)
	dir := writeConfig(t, `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"},
		{"id":"claude-1","name":"Claude","kind":"claude_code","cwd":`+quote(work)+`,"command":"claude","x_keep":"kept"}]}`)
	cfg, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return NewBook(dir, cfg, nil), work
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// TestBookSaveMintsIDAndKeepsHiddenFields: a new account gets a readable
// unique id; editing an account changes only what the editor shows, trims
// names, directory and command, and keeps every other key in the file.
func TestBookSaveMintsIDAndKeepsHiddenFields(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	a, err := b.Save(AccountEdit{Kind: "codex_cli", Name: "  Codex One ", WorkDir: " " + work + " ", Command: " codex "})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^codex-one-[0-9a-f]{6}$`).MatchString(a.ID) || a.Name != "Codex One" || a.WorkDir != work || a.Command != "codex" {
		t.Fatalf("new account = %+v", a)
	}
	if got, ok := b.Account(a.ID); !ok || got.Name != "Codex One" {
		t.Fatalf("stored = %+v, %v", got, ok)
	}
	if _, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Claudia", WorkDir: work, Command: "claude"}); err != nil {
		t.Fatal(err)
	}
	m := readJSON(t, filepath.Join(b.dir, FileName))
	var found bool
	for _, x := range m["accounts"].([]any) {
		if acc := x.(map[string]any); acc["id"] == "claude-1" {
			found = acc["name"] == "Claudia" && acc["x_keep"] == "kept"
		}
	}
	if !found {
		t.Fatalf("edited account lost a key or the edit: %v", m["accounts"])
	}
	// A bad env line is refused with its line number and saves nothing.
	if _, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "X", WorkDir: work, Command: "claude", Env: "OK=1\nno equals"}); !errors.Is(err, ErrEnvSyntax) {
		t.Fatalf("bad env: %v", err)
	}
	if got, _ := b.Account("claude-1"); got.Name != "Claudia" {
		t.Fatalf("refused edit changed the account: %+v", got)
	}
}

// TestBookRollsBackAFailedSave: when config.json cannot be written, Save
// (and put, under it) and Delete return the error and the accounts in memory stay as they
// were (memory never disagrees with the file).
func TestBookRollsBackAFailedSave(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	// A file where the data directory should be: MkdirAll fails, even as root.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	b.dir = filepath.Join(blocked, "data")
	before := b.All()
	if err := b.put(Account{ID: "new-1", Name: "New", Kind: KindCLI, WorkDir: work, Command: "sh"}); err == nil {
		t.Fatal("Put into an unwritable dir succeeded")
	}
	if _, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Renamed", WorkDir: work, Command: "claude"}); err == nil {
		t.Fatal("Save into an unwritable dir succeeded")
	}
	if err := b.Delete("claude-1"); err == nil {
		t.Fatal("Delete into an unwritable dir succeeded")
	}
	after := b.All()
	if len(after) != len(before) || after[1].Name != "Claude" {
		t.Fatalf("accounts after failed saves = %+v, want %+v", after, before)
	}
	// Validation failures roll back too.
	b.dir = t.TempDir()
	if err := b.put(Account{ID: "bad", Kind: KindClaudeCode}); !errors.Is(err, ErrNoName) {
		t.Fatalf("Put of an invalid account: %v", err)
	}
	if _, ok := b.Account("bad"); ok {
		t.Fatal("an invalid account stayed in memory")
	}
}

// TestBookDeleteRefusals: the admin account and unknown ids are refused.
func TestBookDeleteRefusals(t *testing.T) {
	t.Parallel()
	b, _ := newBook(t)
	if err := b.Delete("admin"); !errors.Is(err, ErrAdminAccount) {
		t.Fatalf("delete admin: %v", err)
	}
	if err := b.Delete("nobody"); !errors.Is(err, ErrUnknownAccount) {
		t.Fatalf("delete unknown: %v", err)
	}
	if err := b.Delete("claude-1"); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Account("claude-1"); ok {
		t.Fatal("deleted account still there")
	}
	if kind, ok := b.AccountKind("admin"); !ok || kind != "admin" {
		t.Fatalf("AccountKind(admin) = %q, %v", kind, ok)
	}
}

// TestNewAccountID: readable, lower-case, cut at 16, never a taken id.
func TestNewAccountID(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"Claude Code":                  `^claude-code-[0-9a-f]{6}$`,
		"  --My__Seat--  ":             `^my-seat-[0-9a-f]{6}$`,
		"ＣＪＫ名前":                        `^account-[0-9a-f]{6}$`,
		"a very long account name yes": `^a-very-long-acco-[0-9a-f]{6}$`,
	} {
		id, err := NewAccountID(name, func(string) bool { return false })
		if err != nil || !regexp.MustCompile(want).MatchString(id) {
			t.Errorf("NewAccountID(%q) = %q, %v; want %s", name, id, err, want)
		}
	}
	seen := map[string]bool{}
	tries := 0
	id, err := NewAccountID("x", func(id string) bool { tries++; t := tries < 3; seen[id] = true; return t })
	if err != nil || tries != 3 || !seen[id] {
		t.Fatalf("after 2 taken ids: %q, %v (tries %d)", id, err, tries)
	}
	if _, err := NewAccountID("x", func(string) bool { return true }); !errors.Is(err, ErrNoFreeID) {
		t.Fatalf("all taken: %v", err)
	}
}

// put is putLocked under the lock, for the tests.
func (b *Book) put(a Account) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.putLocked(a)
}
