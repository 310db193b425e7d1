package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexAppServerRoundTrip: codex_app_server is read as written (absent
// or null = nil, true, false), AppServer is on unless it is false and only
// for Codex, and a save writes the key back only when the account has it:
// an absent key stays absent, an explicit false (hook mode) and true are
// kept, unknown keys beside it too. An edit that does not say keeps the
// stored value; one that says writes it.
func TestCodexAppServerRoundTrip(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	cwd := `"cwd": ` + jsonString(wd) + `, `
	body := `{"accounts": [
  {"id": "cx-absent", "name": "A", "kind": "codex_cli", ` + cwd + `"command": "codex"},
  {"id": "cx-on", "name": "B", "kind": "codex_cli", ` + cwd + `"command": "codex", "codex_app_server": true},
  {"id": "cx-off", "name": "C", "kind": "codex_cli", ` + cwd + `"command": "codex", "codex_app_server": false, "x_future": 1},
  {"id": "cx-null", "name": "D", "kind": "codex_cli", ` + cwd + `"command": "codex", "codex_app_server": null},
  {"id": "cl", "name": "E", "kind": "claude_code", ` + cwd + `"command": "claude", "codex_app_server": true},
  {"id": "me", "name": "M", "kind": "admin"}
]}`
	dir := writeConfig(t, body)
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		id       string
		stored   string // "nil", "true" or "false"
		appServe bool
	}{
		{"cx-absent", "nil", true},
		{"cx-on", "true", true},
		{"cx-off", "false", false},
		{"cx-null", "nil", true},
		{"cl", "true", false}, // not Codex: never app-server mode
		{"me", "nil", false},
	} {
		a, _ := c.Account(w.id)
		got := "nil"
		if a.CodexAppServer != nil {
			got = map[bool]string{true: "true", false: "false"}[*a.CodexAppServer]
		}
		if got != w.stored || a.AppServer() != w.appServe {
			t.Errorf("%s: CodexAppServer %s AppServer %v; want %s %v", w.id, got, a.AppServer(), w.stored, w.appServe)
		}
	}
	if !(Account{Kind: KindCodexCLI}).AppServer() {
		t.Error("a new Codex account is not in app-server mode")
	}

	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	accs := readJSON(t, filepath.Join(dir, FileName))["accounts"].([]any)
	key := func(i int) (any, bool) {
		v, ok := accs[i].(map[string]any)["codex_app_server"]
		return v, ok
	}
	if v, ok := key(0); ok {
		t.Errorf("absent key written as %v", v)
	}
	if v, ok := key(1); !ok || v != true {
		t.Errorf("true came back as %v (present %v)", v, ok)
	}
	if v, ok := key(2); !ok || v != false || accs[2].(map[string]any)["x_future"] == nil {
		t.Errorf("false came back as %v (present %v), account %v", v, ok, accs[2])
	}
	if v, ok := key(4); !ok || v != true {
		t.Errorf("another kind's key came back as %v (present %v)", v, ok)
	}

	checkAppServerEdits(t, dir, wd)
}

// checkAppServerEdits: through the Book, an edit without the field keeps
// the stored false, an edit with it writes it, and a new account gets it
// only when asked (dir: TestCodexAppServerRoundTrip's saved config).
func checkAppServerEdits(t *testing.T, dir, wd string) {
	t.Helper()
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBook(dir, c, nil)
	edit := AccountEdit{ID: "cx-off", Kind: "codex_cli", Name: "C2", WorkDir: wd, Command: "codex", KeepEnv: true}
	a, err := b.Save(edit)
	if err != nil || a.CodexAppServer == nil || *a.CodexAppServer || a.AppServer() {
		t.Fatalf("edit without the field: %+v, %v", a.CodexAppServer, err)
	}
	on := true
	edit.CodexAppServer = &on
	if a, err = b.Save(edit); err != nil || !a.AppServer() {
		t.Fatalf("edit to on: %+v, %v", a.CodexAppServer, err)
	}
	off := false
	if a, err = b.Save(AccountEdit{ID: "cx-absent", Kind: "codex_cli", Name: "A", WorkDir: wd, Command: "codex", KeepEnv: true, CodexAppServer: &off}); err != nil || a.AppServer() {
		t.Fatalf("edit to off: %+v, %v", a.CodexAppServer, err)
	}
	if d, err := b.Draft(AccountEdit{ID: "cx-absent", Kind: "codex_cli", Name: "A", WorkDir: wd, Command: "codex", KeepEnv: true}); err != nil || d.AppServer() {
		t.Fatalf("draft without the field lost the stored false: %+v, %v", d.CodexAppServer, err)
	}
	again, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"cx-off": true, "cx-absent": false, "cx-null": true} {
		if a, _ := again.Account(id); a.AppServer() != want {
			t.Errorf("reloaded %s: AppServer %v, want %v", id, a.AppServer(), want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	if n := strings.Count(string(data), `"codex_app_server"`); n != 4 {
		t.Errorf("codex_app_server written %d times, want 4 (on, on, off, the Claude account's):\n%s", n, data)
	}
}

// TestCodexAppServerBadValue: a codex_app_server that is not a boolean
// refuses the file, naming the key.
func TestCodexAppServerBadValue(t *testing.T) {
	t.Parallel()
	for _, v := range []string{`"yes"`, `1`, `{}`} {
		dir := writeConfig(t, `{"accounts": [{"id": "a", "name": "x", "kind": "codex_cli", "codex_app_server": `+v+`}]}`)
		_, _, err := Load(dir)
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "codex_app_server") {
			t.Errorf("%s: err = %v, want ErrBadFile naming codex_app_server", v, err)
		}
	}
}
