package fakeapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/pullcept/pullcept/config"
)

// DefaultAuthToken is the API credential the prepared CLIs send to the
// fake. Claude Code sends it as "Authorization: Bearer …"
// (ANTHROPIC_AUTH_TOKEN needs no approval screen); Codex sends none.
const DefaultAuthToken = "sk-pullcept-fake-api-token"

// ClaudeSetup describes one isolated, offline Claude Code installation
// (docs/clis.md §2.1; docs/design.md §13).
type ClaudeSetup struct {
	// Home is the CLI's HOME (Claude writes caches, a URL-handler .desktop
	// file and ~/.config/git/ignore there). Required; created when missing.
	Home string
	// ConfigDir is CLAUDE_CONFIG_DIR (.claude.json, settings.json,
	// projects/<slug>/<session>.jsonl transcripts). Required; created.
	ConfigDir string
	// TrustedDirs are absolute seat directories, or parents of them (one
	// parent covers every seat below it): their folder-trust screen is
	// pre-answered.
	TrustedDirs []string
	// BaseURL is the fake's base URL (Server.URL()), ANTHROPIC_BASE_URL.
	BaseURL string
	// AuthToken is sent as ANTHROPIC_AUTH_TOKEN; "" means DefaultAuthToken.
	// Its last 20 characters are also pre-approved as an API key, so a test
	// may pass it as ANTHROPIC_API_KEY instead.
	AuthToken string
	// Bypass prepares for --dangerously-skip-permissions: settings.json gets
	// skipDangerousModePermissionPrompt, and as root IS_SANDBOX=1 (exactly
	// "1"; the CLI refuses bypass mode as root otherwise).
	Bypass bool
}

// PrepareClaude writes the pre-seeded configuration that skips every
// first-run screen of Claude Code 2.1.328 and returns the complete process
// environment ("NAME=value" entries) for the CLI: isolated HOME and
// CLAUDE_CONFIG_DIR, ANTHROPIC_BASE_URL on the fake, the credential, the two
// switches that leave zero DNS lookups (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC,
// CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL), the proxy fence
// (see baseEnv), TERM, LANG, and PATH/TMPDIR/SHELL/USER from this process.
// Nothing else of this process's environment leaks in (no real API keys).
//
// Files: <ConfigDir>/.claude.json gets hasCompletedOnboarding, the approved
// key and projects[dir].hasTrustDialogAccepted; <ConfigDir>/settings.json
// gets skipDangerousModePermissionPrompt when Bypass. Both are merged into
// existing files: every key we do not write is kept (Claude adds its own on
// first start), and written atomically. Errors: ErrBadOptions for a missing
// field or relative path; file errors wrapped.
func PrepareClaude(s ClaudeSetup) ([]string, error) {
	if s.Home == "" || s.ConfigDir == "" || s.BaseURL == "" {
		return nil, fmt.Errorf("claude setup needs Home, ConfigDir and BaseURL: %w", ErrBadOptions)
	}
	for _, d := range append([]string{s.Home, s.ConfigDir}, s.TrustedDirs...) {
		if !filepath.IsAbs(d) {
			return nil, fmt.Errorf("claude setup: %q is not absolute: %w", d, ErrBadOptions)
		}
	}
	token := s.AuthToken
	if token == "" {
		token = DefaultAuthToken
	}
	for _, d := range []string{s.Home, s.ConfigDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("claude setup: %w", err)
		}
	}
	err := updateJSON(filepath.Join(s.ConfigDir, ".claude.json"), func(m map[string]any) {
		m["hasCompletedOnboarding"] = true
		// The CLI stores approved keys as key.trim().slice(-20).
		short := strings.TrimSpace(token)
		if len(short) > 20 {
			short = short[len(short)-20:]
		}
		resp := object(m, "customApiKeyResponses")
		resp["approved"] = addString(resp["approved"], short)
		resp["rejected"] = removeString(resp["rejected"], short)
		projects := object(m, "projects")
		for _, d := range s.TrustedDirs {
			p := object(projects, filepath.Clean(d))
			p["hasTrustDialogAccepted"] = true
		}
	})
	if err != nil {
		return nil, fmt.Errorf("claude setup: %w", err)
	}
	if s.Bypass {
		err := updateJSON(filepath.Join(s.ConfigDir, "settings.json"), func(m map[string]any) {
			m["skipDangerousModePermissionPrompt"] = true
		})
		if err != nil {
			return nil, fmt.Errorf("claude setup: %w", err)
		}
	}
	env := baseEnv(s.Home, s.BaseURL)
	env = append(env,
		"CLAUDE_CONFIG_DIR="+s.ConfigDir,
		"ANTHROPIC_BASE_URL="+strings.TrimSuffix(s.BaseURL, "/"),
		"ANTHROPIC_AUTH_TOKEN="+token,
		// Together these two leave no DNS lookup at all (measured with strace
		// and a DNS logger): no /api/hello, title generation, telemetry,
		// npm version check, plugin marketplace download.
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		// Redundant with the switch above, kept as a second fence.
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
	)
	if s.Bypass && os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	return env, nil
}

// CodexSetup describes one isolated, offline Codex CLI installation
// (docs/clis.md §3.2; docs/design.md §13).
type CodexSetup struct {
	// Home is CODEX_HOME (config.toml, sessions/YYYY/MM/DD/rollout-*.jsonl).
	// Required; created when missing.
	Home string
	// UserHome is the CLI's HOME; "" means <Home>/home (created).
	UserHome string
	// WorkDirs are absolute seat directories marked trusted (skips the
	// "Trust this folder?" screen).
	WorkDirs []string
	// BaseURL is the fake's base URL (Server.URL()); "/v1" is appended
	// unless present, giving the provider's base_url.
	BaseURL string
	// Model is the model slug; "" means "gpt-5.5", a slug from Codex's
	// bundled catalogue, which makes Codex defer MCP tools behind
	// tool_search (the fake handles it). An unknown slug offers MCP tools
	// inline but shows a fallback-metadata warning.
	Model string
	// Effort is model_reasoning_effort ("" writes none: Codex then uses
	// the model's default and its rollout names no effort, docs/clis.md
	// §3.6).
	Effort string
	// ChatGPTLogin adds a fake ChatGPT login so `codex app-server` answers
	// account/rateLimits/read from the fake (docs/clis.md §3.7): auth.json
	// with an unsigned JWT for CodexAccountID / CodexUserID (plan "plus"),
	// chatgpt_base_url = <BaseURL>/backend-api (the fake answers
	// /backend-api/wham/usage from Options.CodexUsage),
	// cli_auth_credentials_store = "file", [features] apps = false (no
	// codex_apps MCP client on the fake) and [notice]
	// hide_rate_limit_model_nudge = true (else a window near its end opens a
	// menu that takes the next typed post). Model calls stay on the fake
	// provider, unchanged. False leaves an existing auth.json alone.
	ChatGPTLogin bool
}

// noProxy lists the loopback names the CLIs reach directly.
const noProxy = "127.0.0.1,localhost,::1"

// CodexProvider is the model_providers id PrepareCodex writes.
const CodexProvider = "pullcept-fake"

// defaultCodexModel is a catalogue slug (see CodexSetup.Model).
const defaultCodexModel = "gpt-5.5"

// PrepareCodex writes <Home>/config.toml so Codex 0.169.0 starts with no
// screen and talks only to the fake, and returns the complete process
// environment for the CLI (CODEX_HOME, an isolated HOME, the proxy fence
// (see baseEnv), TERM, LANG, and PATH/TMPDIR/SHELL/USER from this process;
// no API key).
//
// Keys written: model, model_provider, check_for_update_on_startup=false
// (no api.github.com release probe), [model_providers.pullcept-fake]
// (base_url, wire_api="responses", no retries, so a fake failure shows at
// once), [analytics] enabled=false, [features] daemon_auto_start=false
// (else the TUI leaves a background app-server daemon running after it
// exits) and plugins=false, remote_plugin=false (else every start runs `git
// ls-remote https://github.com/openai/plugins.git`), trusted
// [projects."<dir>"], the model-migration notice for gpt-5.5 answered,
// [tui] resume_cwd="session" (no directory picker on resume) and
// show_tooltips=false; with ChatGPTLogin also auth.json and the keys
// codexLoginConfig names. The file is merged: keys we do not write are kept
// (comments are not), and written atomically. Errors: ErrBadOptions, file
// and TOML errors wrapped.
func PrepareCodex(s CodexSetup) ([]string, error) {
	if s.Home == "" || s.BaseURL == "" {
		return nil, fmt.Errorf("codex setup needs Home and BaseURL: %w", ErrBadOptions)
	}
	if s.UserHome == "" {
		s.UserHome = filepath.Join(s.Home, "home")
	}
	for _, d := range append([]string{s.Home, s.UserHome}, s.WorkDirs...) {
		if !filepath.IsAbs(d) {
			return nil, fmt.Errorf("codex setup: %q is not absolute: %w", d, ErrBadOptions)
		}
	}
	for _, d := range []string{s.Home, s.UserHome} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("codex setup: %w", err)
		}
	}
	model := s.Model
	if model == "" {
		model = defaultCodexModel
	}
	base := strings.TrimSuffix(s.BaseURL, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	path := filepath.Join(s.Home, "config.toml")
	cfg := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := toml.Unmarshal(b, &cfg); err != nil {
			return nil, fmt.Errorf("codex setup: %s: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("codex setup: %w", err)
	}
	cfg["model"] = model
	if s.Effort != "" {
		cfg["model_reasoning_effort"] = s.Effort
	}
	cfg["model_provider"] = CodexProvider
	cfg["check_for_update_on_startup"] = false
	p := object(object(cfg, "model_providers"), CodexProvider)
	p["name"] = "Pullcept fake model API"
	p["base_url"] = base
	p["wire_api"] = "responses"
	p["request_max_retries"] = 0
	p["stream_max_retries"] = 0
	object(cfg, "analytics")["enabled"] = false
	features := object(cfg, "features")
	features["daemon_auto_start"] = false
	features["plugins"] = false
	features["remote_plugin"] = false
	projects := object(cfg, "projects")
	for _, d := range s.WorkDirs {
		object(projects, filepath.Clean(d))["trust_level"] = "trusted"
	}
	// What answering "Use existing model" on the upgrade screen writes.
	object(object(cfg, "notice"), "model_migrations")["gpt-5.5"] = "gpt-6-sol"
	tui := object(cfg, "tui")
	tui["resume_cwd"] = "session"
	tui["show_tooltips"] = false
	object(tui, "model_availability_nux")["gpt-6.1-sol"] = 1
	if s.ChatGPTLogin {
		codexLoginConfig(cfg, strings.TrimSuffix(strings.TrimSuffix(s.BaseURL, "/"), "/v1"))
		if err := writeCodexLogin(s.Home); err != nil {
			return nil, fmt.Errorf("codex setup: %w", err)
		}
	}
	b, err := toml.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("codex setup: encode config.toml: %w", err)
	}
	if err := config.WriteFileAtomic(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("codex setup: %w", err)
	}
	env := baseEnv(s.UserHome, s.BaseURL)
	env = append(env, "CODEX_HOME="+s.Home)
	return env, nil
}

// baseEnv is the environment every prepared CLI gets: an isolated HOME, a
// terminal type the TUIs render with, a UTF-8 locale, the proxy fence, and
// the few variables of this process a CLI needs to find programs and temp
// space.
//
// The fence: HTTP(S)_PROXY point at the fake itself and NO_PROXY exempts
// loopback, so the fake and local MCP servers are reached directly while
// any other HTTP request the CLI makes goes to the fake as a proxy request,
// is refused there (403) and recorded (Request.Escape), with no DNS lookup
// on this machine. Codex 0.169.0 fetches
// raw.githubusercontent.com/openai/codex/main/announcement_tip.toml on
// every start and no setting turns that off (strace, 2026-11-30).
func baseEnv(home, proxy string) []string {
	proxy = strings.TrimSuffix(proxy, "/")
	env := []string{"HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8",
		"HTTPS_PROXY=" + proxy, "HTTP_PROXY=" + proxy, "https_proxy=" + proxy, "http_proxy=" + proxy,
		"NO_PROXY=" + noProxy, "no_proxy=" + noProxy}
	for _, name := range []string{"PATH", "TMPDIR", "SHELL", "USER", "LOGNAME", "SYSTEMROOT"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}

// ClaudeEnv prepares an isolated Claude Code for test t in fresh temporary
// directories (bypass mode allowed) and returns the environment and the
// setup. trustedDirs must be absolute. It fails t on any error.
func ClaudeEnv(t testing.TB, baseURL string, trustedDirs ...string) ([]string, ClaudeSetup) {
	t.Helper()
	root := t.TempDir()
	s := ClaudeSetup{
		Home:        filepath.Join(root, "home"),
		ConfigDir:   filepath.Join(root, "claude-config"),
		TrustedDirs: trustedDirs,
		BaseURL:     baseURL,
		Bypass:      true,
	}
	env, err := PrepareClaude(s)
	if err != nil {
		t.Fatalf("prepare claude: %v", err)
	}
	return env, s
}

// CodexEnv prepares an isolated Codex CLI for test t in a fresh temporary
// CODEX_HOME and returns the environment and the setup. workDirs must be
// absolute. It fails t on any error.
func CodexEnv(t testing.TB, baseURL string, workDirs ...string) ([]string, CodexSetup) {
	t.Helper()
	s := CodexSetup{Home: filepath.Join(t.TempDir(), "codex-home"), WorkDirs: workDirs, BaseURL: baseURL}
	env, err := PrepareCodex(s)
	if err != nil {
		t.Fatalf("prepare codex: %v", err)
	}
	return env, s
}

// Names FindCLI knows.
const (
	CLIClaude = "claude"
	CLICodex  = "codex"
	// CLIEverything is the MCP "everything" reference server
	// (@modelcontextprotocol/server-everything), a node script: run it as
	// `node <path> stdio`.
	CLIEverything = "everything"
)

// FindCLI returns the absolute path of a pinned CLI's native binary under
// testdata/clis/node_modules (testdata/clis/package.json pins the
// versions): "claude" → @anthropic-ai/claude-code/bin/claude.exe (the native
// executable the postinstall step places there); "codex" → the vendored
// binary in @openai/codex-<platform>, not the node launcher, so a test
// process has one PID; "everything" → the reference MCP server's
// dist/index.js (a script for node, which FindCLI does not look for).
// Errors: ErrCLIMissing (run `make clis`), ErrBadOptions for an unknown
// name.
func FindCLI(name string) (string, error) {
	dir, err := clisDir()
	if err != nil {
		return "", err
	}
	var rel string
	switch name {
	case CLIClaude:
		rel = filepath.Join("@anthropic-ai", "claude-code", "bin", "claude.exe")
	case CLICodex:
		pkg, triple, ok := codexTarget(runtime.GOOS, runtime.GOARCH)
		if !ok {
			return "", fmt.Errorf("codex has no build for %s/%s: %w", runtime.GOOS, runtime.GOARCH, ErrCLIMissing)
		}
		exe := "codex"
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		rel = filepath.Join("@openai", pkg, "vendor", triple, "bin", exe)
	case CLIEverything:
		rel = filepath.Join("@modelcontextprotocol", "server-everything", "dist", "index.js")
	default:
		return "", fmt.Errorf("unknown cli %q: %w", name, ErrBadOptions)
	}
	path := filepath.Join(dir, "node_modules", rel)
	fi, err := os.Stat(path)
	script := name == CLIEverything // run by node: no exec bit needed
	if err != nil || fi.IsDir() || (runtime.GOOS != "windows" && !script && fi.Mode()&0o111 == 0) {
		return "", fmt.Errorf("%s not found at %s (run `make clis`): %w", name, path, ErrCLIMissing)
	}
	return path, nil
}

// CLIPath is FindCLI for tests: it fails t (never skips) with "run `make
// clis`" when the binary is missing.
func CLIPath(t testing.TB, name string) string {
	t.Helper()
	path, err := FindCLI(name)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return path
}

// PinnedVersion is the version testdata/clis/package.json pins for a
// CLI FindCLI knows ("claude" → @anthropic-ai/claude-code's, "codex" →
// @openai/codex's); it fails t when the file cannot say.
func PinnedVersion(t testing.TB, name string) string {
	t.Helper()
	pkgs := map[string]string{CLIClaude: "@anthropic-ai/claude-code", CLICodex: "@openai/codex"}
	dir, err := clisDir()
	if err != nil {
		t.Fatalf("%v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatalf("pinned versions: %v", err)
	}
	var pj struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		t.Fatalf("pinned versions: %v", err)
	}
	v := pj.Dependencies[pkgs[name]]
	if v == "" {
		t.Fatalf("no pinned version for %q in testdata/clis/package.json", name)
	}
	return v
}

// codexTarget maps GOOS/GOARCH to the npm platform package and target
// triple, as @openai/codex's bin/codex.js does.
func codexTarget(goos, goarch string) (pkg, triple string, ok bool) {
	switch goos + "/" + goarch {
	case "linux/amd64":
		return "codex-linux-x64", "x86_64-unknown-linux-musl", true
	case "linux/arm64":
		return "codex-linux-arm64", "aarch64-unknown-linux-musl", true
	case "darwin/amd64":
		return "codex-darwin-x64", "x86_64-apple-darwin", true
	case "darwin/arm64":
		return "codex-darwin-arm64", "aarch64-apple-darwin", true
	case "windows/amd64":
		return "codex-win32-x64", "x86_64-pc-windows-msvc", true
	case "windows/arm64":
		return "codex-win32-arm64", "aarch64-pc-windows-msvc", true
	}
	return "", "", false
}

// clisDir finds testdata/clis: upwards from the working directory (go test
// runs in the package directory), then next to this source file.
func clisDir() (string, error) {
	const marker = "testdata/clis/package.json"
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(marker))); err == nil {
				return filepath.Join(dir, "testdata", "clis"), nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", fmt.Errorf("%s not found above %v (run `make clis` in the repository): %w", marker, starts, ErrCLIMissing)
}

// updateJSON reads a JSON object file (missing = empty), lets edit change
// it, and writes it back atomically with every other key kept. A file that
// is not a JSON object is an error and is left untouched.
func updateJSON(path string, edit func(map[string]any)) error {
	m := map[string]any{}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber() // keep numbers exactly as written
		if err := dec.Decode(&m); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	edit(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return config.WriteFileAtomic(path, append(out, '\n'), 0o600)
}

// object returns m[key] as an object, replacing a missing or non-object
// value with a new empty object.
func object(m map[string]any, key string) map[string]any {
	if o, ok := m[key].(map[string]any); ok {
		return o
	}
	o := map[string]any{}
	m[key] = o
	return o
}

// addString returns list (a JSON array value) with s appended once.
func addString(list any, s string) []any {
	items, _ := list.([]any)
	for _, it := range items {
		if it == s {
			return items
		}
	}
	return append(items, s)
}

// removeString returns list without s (an empty list when list is absent).
func removeString(list any, s string) []any {
	items, _ := list.([]any)
	out := []any{}
	for _, it := range items {
		if it != s {
			out = append(out, it)
		}
	}
	return out
}
