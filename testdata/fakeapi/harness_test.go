package fakeapi

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

func readJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// TestPrepareClaude: the pre-seeded files, merged into what is there, and
// an environment with nothing of ours leaking in.
func TestPrepareClaude(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "cfg")
	seats := filepath.Join(root, "seats")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	// What Claude writes itself on first start, and a user's own keys.
	existing := `{"userID":"u-1","numStartups":3,"customApiKeyResponses":{"approved":["other"],"rejected":["kept","0123456789-api-token"]},
 "projects":{"` + seats + `":{"allowedTools":["Bash"],"hasTrustDialogAccepted":false},"/elsewhere":{"x":1}}}`
	if err := os.WriteFile(filepath.Join(cfg, ".claude.json"), []byte(existing), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"theme":"dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANTHROPIC_API_KEY", "sk-real-key-must-not-leak")
	t.Setenv("PATH", "/usr/bin:/bin")
	env, err := PrepareClaude(ClaudeSetup{
		Home: filepath.Join(root, "home"), ConfigDir: cfg, TrustedDirs: []string{seats},
		BaseURL: "http://127.0.0.1:4242/", AuthToken: "sk-test-0123456789-api-token", Bypass: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	m := readJSONFile(t, filepath.Join(cfg, ".claude.json"))
	if m["hasCompletedOnboarding"] != true || m["userID"] != "u-1" || m["numStartups"] != float64(3) {
		t.Errorf(".claude.json = %v", m)
	}
	keys := m["customApiKeyResponses"].(map[string]any)
	// The CLI keeps the last 20 characters of the key.
	if approved := keys["approved"].([]any); len(approved) != 2 || approved[0] != "other" || approved[1] != "0123456789-api-token" {
		t.Errorf("approved = %v", approved)
	}
	if rejected := keys["rejected"].([]any); len(rejected) != 1 || rejected[0] != "kept" {
		t.Errorf("rejected = %v, want the approved key removed and others kept", rejected)
	}
	projects := m["projects"].(map[string]any)
	seat := projects[seats].(map[string]any)
	if seat["hasTrustDialogAccepted"] != true || seat["allowedTools"] == nil || projects["/elsewhere"] == nil {
		t.Errorf("projects = %v", projects)
	}
	if s := readJSONFile(t, filepath.Join(cfg, "settings.json")); s["skipDangerousModePermissionPrompt"] != true || s["theme"] != "dark" {
		t.Errorf("settings.json = %v", s)
	}
	e := envMap(env)
	want := map[string]string{
		"HOME": filepath.Join(root, "home"), "CLAUDE_CONFIG_DIR": cfg, "ANTHROPIC_BASE_URL": "http://127.0.0.1:4242",
		"ANTHROPIC_AUTH_TOKEN": "sk-test-0123456789-api-token", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1", "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
		"HTTPS_PROXY": "http://127.0.0.1:4242", "HTTP_PROXY": "http://127.0.0.1:4242", "NO_PROXY": "127.0.0.1,localhost,::1",
	}
	for k, v := range want {
		if e[k] != v {
			t.Errorf("env %s = %q, want %q", k, e[k], v)
		}
	}
	if _, ok := e["ANTHROPIC_API_KEY"]; ok {
		t.Errorf("the process's ANTHROPIC_API_KEY leaked into the CLI env")
	}
	if root := os.Geteuid() == 0; (e["IS_SANDBOX"] == "1") != root {
		t.Errorf("IS_SANDBOX = %q as uid %d", e["IS_SANDBOX"], os.Geteuid())
	}
	if fi, err := os.Stat(filepath.Join(root, "home")); err != nil || !fi.IsDir() {
		t.Errorf("home not created: %v", err)
	}
}

// TestPrepareClaudeErrors: bad setups fail clearly and a corrupt file is
// left as it was.
func TestPrepareClaudeErrors(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if _, err := PrepareClaude(ClaudeSetup{Home: root, ConfigDir: root}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("no BaseURL: %v", err)
	}
	if _, err := PrepareClaude(ClaudeSetup{Home: "rel", ConfigDir: root, BaseURL: "http://127.0.0.1:1"}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("relative home: %v", err)
	}
	corrupt := filepath.Join(root, ".claude.json")
	if err := os.WriteFile(corrupt, []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareClaude(ClaudeSetup{Home: root, ConfigDir: root, BaseURL: "http://127.0.0.1:1"}); err == nil {
		t.Errorf("corrupt .claude.json accepted")
	}
	if b, _ := os.ReadFile(corrupt); string(b) != "{torn" {
		t.Errorf("corrupt file rewritten: %q", b)
	}
	// No Bypass: no settings.json, no IS_SANDBOX.
	clean := filepath.Join(root, "clean")
	env, err := PrepareClaude(ClaudeSetup{Home: clean, ConfigDir: clean, BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(clean, "settings.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("settings.json written without Bypass: %v", err)
	}
	if _, ok := envMap(env)["IS_SANDBOX"]; ok {
		t.Errorf("IS_SANDBOX without Bypass")
	}
	if envMap(env)["ANTHROPIC_AUTH_TOKEN"] != DefaultAuthToken {
		t.Errorf("default token not used")
	}
}

// TestPrepareCodex: config.toml keys, merged with what Codex wrote itself.
func TestPrepareCodex(t *testing.T) {
	home := filepath.Join(t.TempDir(), "codex")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	existing := "model = \"old\"\n[tui]\nscreen_reader_detection_done = true\n[projects.\"/old\"]\ntrust_level = \"trusted\"\n[mcp_servers.mine]\ncommand = \"/bin/mine\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(existing), 0o600); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "seat")
	t.Setenv("OPENAI_API_KEY", "sk-real-must-not-leak")
	env, err := PrepareCodex(CodexSetup{Home: home, WorkDirs: []string{work}, BaseURL: "http://127.0.0.1:4242"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := toml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("config.toml: %v\n%s", err, b)
	}
	get := func(path ...string) any {
		var v any = cfg
		for _, p := range path {
			m, _ := v.(map[string]any)
			v = m[p]
		}
		return v
	}
	checks := []struct {
		path []string
		want any
	}{
		{[]string{"model"}, "gpt-5.5"},
		{[]string{"model_provider"}, CodexProvider},
		{[]string{"check_for_update_on_startup"}, false},
		{[]string{"model_providers", CodexProvider, "base_url"}, "http://127.0.0.1:4242/v1"},
		{[]string{"model_providers", CodexProvider, "wire_api"}, "responses"},
		{[]string{"model_providers", CodexProvider, "request_max_retries"}, int64(0)},
		{[]string{"model_providers", CodexProvider, "stream_max_retries"}, int64(0)},
		{[]string{"analytics", "enabled"}, false},
		{[]string{"features", "daemon_auto_start"}, false},
		{[]string{"features", "plugins"}, false},
		{[]string{"features", "remote_plugin"}, false},
		{[]string{"tui", "show_tooltips"}, false},
		{[]string{"projects", work, "trust_level"}, "trusted"},
		{[]string{"notice", "model_migrations", "gpt-5.5"}, "gpt-6-sol"},
		{[]string{"tui", "resume_cwd"}, "session"},
		// Kept from the existing file:
		{[]string{"tui", "screen_reader_detection_done"}, true},
		{[]string{"projects", "/old", "trust_level"}, "trusted"},
		{[]string{"mcp_servers", "mine", "command"}, "/bin/mine"},
	}
	for _, c := range checks {
		if got := get(c.path...); got != c.want {
			t.Errorf("%s = %#v, want %#v", strings.Join(c.path, "."), got, c.want)
		}
	}
	e := envMap(env)
	if e["CODEX_HOME"] != home || e["HOME"] != filepath.Join(home, "home") || e["TERM"] != "xterm-256color" ||
		e["https_proxy"] != "http://127.0.0.1:4242" || e["no_proxy"] != "127.0.0.1,localhost,::1" {
		t.Errorf("env = %v", e)
	}
	if _, ok := e["OPENAI_API_KEY"]; ok {
		t.Errorf("OPENAI_API_KEY leaked")
	}

	// A second run (a resume test) keeps everything and does not duplicate.
	if _, err := PrepareCodex(CodexSetup{Home: home, WorkDirs: []string{work}, BaseURL: "http://127.0.0.1:4242/v1", Model: "gpt-x"}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(home, "config.toml"))
	cfg = nil
	if err := toml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if get("model") != "gpt-x" || get("model_providers", CodexProvider, "base_url") != "http://127.0.0.1:4242/v1" || get("mcp_servers", "mine", "command") != "/bin/mine" {
		t.Errorf("second run config:\n%s", b)
	}
}

func TestPrepareCodexErrors(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, err := PrepareCodex(CodexSetup{Home: home}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("no BaseURL: %v", err)
	}
	if _, err := PrepareCodex(CodexSetup{Home: home, BaseURL: "http://x", WorkDirs: []string{"rel"}}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("relative work dir: %v", err)
	}
	path := filepath.Join(home, "config.toml")
	if err := os.WriteFile(path, []byte("model = [unclosed"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareCodex(CodexSetup{Home: home, BaseURL: "http://x"}); err == nil {
		t.Errorf("corrupt config.toml accepted")
	}
	if b, _ := os.ReadFile(path); string(b) != "model = [unclosed" {
		t.Errorf("corrupt file rewritten: %q", b)
	}
}

// TestFindCLI: the pinned binaries are where FindCLI says (this checkout
// has them: `make clis`), and names and platforms are checked.
func TestFindCLI(t *testing.T) {
	t.Parallel()
	for _, name := range []string{CLIClaude, CLICodex, CLIEverything} {
		path := CLIPath(t, name)
		if !filepath.IsAbs(path) || !strings.Contains(path, filepath.Join("testdata", "clis", "node_modules")) {
			t.Errorf("%s path = %s", name, path)
		}
	}
	if _, err := FindCLI("vim"); !errors.Is(err, ErrBadOptions) {
		t.Errorf("unknown cli: %v", err)
	}
	if _, _, ok := codexTarget("plan9", "386"); ok {
		t.Errorf("codex target for plan9")
	}
	pkg, triple, ok := codexTarget(runtime.GOOS, runtime.GOARCH)
	if ok && !slices.Contains([]string{"x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl", "x86_64-apple-darwin",
		"aarch64-apple-darwin", "x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc"}, triple) || (ok && !strings.HasPrefix(pkg, "codex-")) {
		t.Errorf("codex target %s %s", pkg, triple)
	}
}
