package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return m
}

// absDir is an absolute directory valid on the running OS.
func absDir(t *testing.T) string {
	t.Helper()
	return t.TempDir()
}

func TestDataDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv(EnvHome, home)
	got, err := DataDir()
	if err != nil || got != home {
		t.Errorf("DataDir with %s = %q, %v; want %q", EnvHome, got, err, home)
	}
	t.Setenv(EnvHome, "")
	base, baseErr := os.UserConfigDir()
	got, err = DataDir()
	if baseErr != nil {
		if !errors.Is(err, ErrNoDataDir) {
			t.Errorf("DataDir without any config dir = %q, %v; want ErrNoDataDir", got, err)
		}
		return
	}
	if err != nil || got != filepath.Join(base, "pullcept") {
		t.Errorf("DataDir = %q, %v; want %q", got, err, filepath.Join(base, "pullcept"))
	}
}

func TestLoadMissingFileMakesAdmin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings for a missing file: %q", warnings)
	}
	admin, ok := c.Admin()
	if !ok || admin.ID != defaultAdminID || admin.Name == "" || admin.Kind != KindAdmin {
		t.Fatalf("default admin = %+v, %v", admin, ok)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load wrote %s before Save (stat err %v)", FileName, err)
	}
	// The same identity comes back until it is saved.
	c2, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if a2, _ := c2.Admin(); a2.ID != admin.ID {
		t.Errorf("admin id changed between loads: %q → %q", admin.ID, a2.ID)
	}
}

func TestDefaultAdminAvoidsTakenID(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	dir := writeConfig(t, `{"accounts":[{"id":"admin","name":"Bot","kind":"cli","cwd":`+jsonString(wd)+`,"command":"bot"}]}`)
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	admin, ok := c.Admin()
	if !ok || admin.ID != "admin-2" {
		t.Errorf("admin = %+v, want id admin-2", admin)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestRoundTripKeepsUnknownKeys(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	body := `{
  "theme": {"dark": true, "font": "<Mono & Co>"},
  "accounts": [
    {"future": [1, 2, 3], "id": "a1", "name": "Lin", "kind": "claude_code", "cwd": ` + jsonString(wd) + `,
     "command": "claude", "launch_options": "--dangerously-skip-permissions", "avatar": true,
     "env": [{"name": "GH_CONFIG_DIR", "value": ""}], "character": "character_Lin", "hue": 145},
    {"id": "me", "name": "Smile", "kind": "admin", "nickname": "S"}
  ],
  "panels": {"history": false}
}`
	dir := writeConfig(t, body)
	c, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("unexpected warnings: %q", warnings)
	}
	if len(c.Accounts) != 2 {
		t.Fatalf("accounts = %d, want 2 (no default admin: one exists)", len(c.Accounts))
	}
	lin := c.Accounts[0]
	if lin.Character != "character_Lin" || *lin.Hue != 145 || lin.WorkDir != wd || lin.Env[0].Name != "GH_CONFIG_DIR" {
		t.Errorf("decoded %+v", lin)
	}
	if c.Accounts[1].DisplayName() != "S" {
		t.Errorf("DisplayName = %q, want nickname S", c.Accounts[1].DisplayName())
	}
	c.Accounts[0].Name = "Lin2"
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !bytes.Contains(data, []byte(`"<Mono & Co>"`)) {
		t.Errorf("unknown value re-escaped:\n%s", data)
	}
	m := readJSON(t, filepath.Join(dir, FileName))
	if m["panels"] == nil || m["theme"] == nil {
		t.Errorf("top-level unknown keys lost: %v", m)
	}
	acc := m["accounts"].([]any)[0].(map[string]any)
	if acc["avatar"] != true || acc["future"] == nil || acc["name"] != "Lin2" {
		t.Errorf("account keys after save: %v", acc)
	}
	// Key order is kept: unknown "future" still precedes "id"; "theme" is first.
	if bytes.Index(data, []byte(`"future"`)) > bytes.Index(data, []byte(`"id"`)) ||
		bytes.Index(data, []byte(`"theme"`)) > bytes.Index(data, []byte(`"accounts"`)) {
		t.Errorf("key order changed:\n%s", data)
	}
	// No temp files left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != FileName {
			t.Errorf("stray file %q after Save", e.Name())
		}
	}
}

func TestMigrationFromOriginalApp(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	body := `{"tabs": [
  {"id": "account-1", "name": "Claude Lin", "command": "claude", "args": ["--dangerously-skip-permissions", "--session-id", "{session_id}"], "cwd": ` + jsonString(wd) + `, "hue": 145.6, "cli_kind": "x"},
  {"id": "a2", "name": "Codex", "kind": "ai", "command": "C:\\tools\\codex.cmd", "cwd": ` + jsonString(wd) + `},
  {"id": "a3", "name": "Other", "kind": "ai", "command": "/usr/bin/aider", "cwd": ` + jsonString(wd) + `, "args": ["--session-id", "{session_id}"]},
  {"id": "a4", "name": "Claude Own", "command": "claude.exe", "cwd": ` + jsonString(wd) + `, "resume_command": "claude --resume {session_id} --verbose"},
  {"id": "a5", "name": "Claude Default", "command": "claude", "cwd": ` + jsonString(wd) + `, "resume_command": "claude --resume {session_id}", "launch_options": "--session-id=x -v"},
  {"id": "me", "name": "Human", "kind": "user", "hue": -30}
]}`
	dir := writeConfig(t, body)
	c, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 {
		t.Error("migration gave no warnings")
	}
	want := map[string]struct {
		kind    Kind
		options string
		resume  string
	}{
		"account-1": {KindClaudeCode, "--dangerously-skip-permissions", ""},
		"a2":        {KindCodexCLI, "", ""},
		"a3":        {KindCLI, "--session-id {session_id}", ""},
		"a4":        {KindCLI, "", "claude --resume {session_id} --verbose"},
		"a5":        {KindClaudeCode, "-v", ""},
		"me":        {KindAdmin, "", ""},
	}
	for id, w := range want {
		a, ok := c.Account(id)
		if !ok {
			t.Fatalf("account %s missing", id)
		}
		if a.Kind != w.kind || a.LaunchOptions != w.options || a.ResumeLine != w.resume {
			t.Errorf("%s: kind %q options %q resume %q; want %q %q %q", id, a.Kind, a.LaunchOptions, a.ResumeLine, w.kind, w.options, w.resume)
		}
	}
	if a, _ := c.Account("account-1"); a.Hue == nil || *a.Hue != 146 {
		t.Errorf("float hue 145.6 → %v, want 146", a.Hue)
	}
	if a, _ := c.Account("me"); a.Hue == nil || *a.Hue != 330 {
		t.Errorf("hue -30 → %v, want 330", a.Hue)
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	m := readJSON(t, filepath.Join(dir, FileName))
	if _, ok := m["tabs"]; ok {
		t.Error(`"tabs" still written after save`)
	}
	accs := m["accounts"].([]any)
	first := accs[0].(map[string]any)
	if first["kind"] != "claude_code" || first["args"] != nil || first["cli_kind"] != "x" {
		t.Errorf("saved first account: %v", first)
	}
	if accs[5].(map[string]any)["kind"] != "admin" {
		t.Errorf("user kind not written as admin: %v", accs[5])
	}
	// A second load sees no more migrations.
	if _, warnings, err = Load(dir); err != nil || len(warnings) != 0 {
		t.Errorf("reload: warnings %q, err %v", warnings, err)
	}
}

func TestLoadRefusesBadFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       error
		mention    string
	}{
		{"not json", "{\n  \"accounts\": [\n  oops\n]}", ErrBadFile, "config.json:3:"},
		{"not an object", `[1]`, ErrBadFile, "object"},
		{"accounts not a list", `{"accounts": {}}`, ErrBadFile, "list"},
		{"wrong type", `{"accounts": [{"id": "a", "name": 3}]}`, ErrBadFile, "name"},
		{"bad hue", `{"accounts": [{"id": "a", "name": "x", "kind": "admin", "hue": "red"}]}`, ErrBadFile, "hue"},
		{"no id", `{"accounts": [{"name": "x", "kind": "admin"}]}`, ErrNoID, "accounts[0]"},
		{"duplicate id", `{"accounts": [{"id": "a", "name": "x", "kind": "admin"}, {"id": "a", "name": "y", "kind": "admin"}]}`, ErrDuplicateID, "accounts[1]"},
		{"bad kind", `{"accounts": [{"id": "a", "name": "x", "kind": "robot"}]}`, ErrBadKind, "robot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeConfig(t, tt.body)
			_, _, err := Load(dir)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("err %q does not mention %q", err, tt.mention)
			}
			data, _ := os.ReadFile(filepath.Join(dir, FileName))
			if string(data) != tt.body {
				t.Error("file changed by a failed Load")
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	hue := 400
	c := &Config{Accounts: []Account{
		{ID: "a", Name: "A", Kind: KindClaudeCode, WorkDir: wd, Command: "claude"},
		{ID: "a", Name: " ", Kind: KindCLI, Command: "x"},
		{ID: "", Name: "N", Kind: "robot"},
		{ID: "c", Name: "C", Kind: KindCodexCLI, WorkDir: "relative/dir", Hue: &hue, ScreenMode: "fancy"},
		{ID: "e", Name: "E", Kind: KindCLI, WorkDir: wd, Command: "x", LaunchOptions: `--x "open`},
		{ID: "d", Name: "D", Kind: KindCLI, WorkDir: wd, Command: "x", Env: []EnvVar{{Name: "OK"}, {Name: "ok"}, {Name: "PULLCEPT_X"}, {Name: "GH_TOKEN", Value: "s3cr3t"}}},
	}}
	err := c.Validate()
	for _, want := range []error{ErrDuplicateID, ErrNoName, ErrNoWorkDir, ErrNoID, ErrBadKind, ErrBadHue, ErrNoCommand, ErrBadScreenMode, ErrEnvDuplicate, ErrEnvReserved, ErrUnterminatedQuote} {
		if !errors.Is(err, want) {
			t.Errorf("Validate error lacks %v:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("Validate error leaks a value: %v", err)
	}
	dir := t.TempDir()
	if err := c.Save(dir); err == nil {
		t.Fatal("Save of an invalid config succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Error("an invalid Save wrote the file")
	}
}

// TestSaveKeepsStoredEnvValues: sealed values are read from "sealed" (and
// from an earlier Pullcept's "value" holding a sealed one) and written back
// byte for byte as "sealed", never opened; a value in the clear (written by
// hand) is named in a warning and kept as it was — Config.Save seals
// nothing, Book.Save seals its account's.
func TestSaveKeepsStoredEnvValues(t *testing.T) {
	t.Parallel()
	wd := absDir(t)
	body := `{"accounts": [{"id": "a", "name": "A", "kind": "cli", "cwd": ` + jsonString(wd) + `, "command": "x",
	  "env": [{"name": "GH_TOKEN", "sealed": "dpapi:0a0b"}, {"name": "OLD", "value": "keyring:00:zz"},
	          {"name": "GH_CONFIG_DIR", "value": "/x"}, {"name": "ONLY"}]}]}`
	dir := writeConfig(t, body)
	c, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{{Name: "GH_TOKEN", Sealed: "dpapi:0a0b"}, {Name: "OLD", Sealed: "keyring:00:zz"},
		{Name: "GH_CONFIG_DIR", Value: "/x"}, {Name: "ONLY"}}
	if got := c.Accounts[0].Env; !slices.Equal(got, want) {
		t.Errorf("env = %+v, want %+v", got, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "GH_CONFIG_DIR") || strings.Contains(warnings[0], "/x") {
		t.Errorf("warnings = %q, want one naming GH_CONFIG_DIR (and not its value)", warnings)
	}
	c.Accounts[0].Name = "A2"
	if err := c.Save(dir); err != nil {
		t.Fatalf("save: %v", err)
	}
	m := readJSON(t, filepath.Join(dir, FileName))
	env := m["accounts"].([]any)[0].(map[string]any)["env"]
	wantJSON := []any{
		map[string]any{"name": "GH_TOKEN", "sealed": "dpapi:0a0b"}, map[string]any{"name": "OLD", "sealed": "keyring:00:zz"},
		map[string]any{"name": "GH_CONFIG_DIR", "value": "/x"}, map[string]any{"name": "ONLY"},
	}
	if !reflect.DeepEqual(env, wantJSON) {
		t.Errorf("env in the file = %v, want %v", env, wantJSON)
	}
}

func TestInferKind(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]Kind{
		"claude": KindClaudeCode, "/usr/local/bin/claude": KindClaudeCode, `C:\npm\claude.cmd`: KindClaudeCode,
		"Claude.EXE": KindClaudeCode, "codex": KindCodexCLI, "codex.cmd": KindCodexCLI, "/opt/codex-bin": KindCodexCLI,
		"aider": KindCLI, "claude-wrapper": KindCLI, "": KindCLI,
	} {
		if got := InferKind(cmd); got != want {
			t.Errorf("InferKind(%q) = %q, want %q", cmd, got, want)
		}
	}
}
