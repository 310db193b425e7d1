package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionBusRoundTrip: session_bus is read as written (absent or null
// = nil, true, false), SessionBusOpen only for true, and a save writes the
// key back only when the account has it, unknown keys beside it kept. An
// edit in the editor (which does not show it) keeps the stored value.
func TestSessionBusRoundTrip(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	cwd := `"cwd": ` + jsonString(wd) + `, `
	dir := writeConfig(t, `{"accounts": [
  {"id": "absent", "name": "A", "kind": "cli", `+cwd+`"command": "sh"},
  {"id": "on", "name": "B", "kind": "claude_code", `+cwd+`"command": "claude", "session_bus": true, "x_future": 1},
  {"id": "off", "name": "C", "kind": "codex_cli", `+cwd+`"command": "codex", "session_bus": false},
  {"id": "null", "name": "D", "kind": "cli", `+cwd+`"command": "sh", "session_bus": null},
  {"id": "me", "name": "M", "kind": "admin"}
]}`)
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"absent": false, "on": true, "off": false, "null": false} {
		if a, _ := c.Account(id); a.SessionBusOpen() != want {
			t.Errorf("%s: SessionBusOpen %v, want %v", id, a.SessionBusOpen(), want)
		}
	}
	b := NewBook(dir, c, nil)
	if _, err := b.Save(AccountEdit{ID: "on", Kind: "claude_code", Name: "B2", WorkDir: wd, Command: "claude", KeepEnv: true}); err != nil {
		t.Fatal(err)
	}
	again, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := again.Account("on"); !a.SessionBusOpen() || a.Name != "B2" {
		t.Errorf("an edit lost session_bus: %+v", a)
	}
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	if n := strings.Count(string(data), `"session_bus"`); n != 2 || !strings.Contains(string(data), `"x_future"`) {
		t.Errorf("session_bus written %d times, want 2 (true, false), x_future kept:\n%s", n, data)
	}
}

// TestSessionBusBadValue: a session_bus that is not a boolean refuses the
// file, naming the key.
func TestSessionBusBadValue(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `{"accounts": [{"id": "a", "name": "x", "kind": "cli", "session_bus": "yes"}]}`)
	if _, _, err := Load(dir); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "session_bus") {
		t.Errorf("err = %v, want ErrBadFile naming session_bus", err)
	}
}
