package seats

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
)

func TestClaudeProjectSlug(t *testing.T) {
	t.Parallel()
	// Expected values computed with Claude Code's own JavaScript rule
	// (docs/clis.md) in node.
	long := "/home/user/" + strings.Repeat("very-long-directory-name_", 9) + "プロジェクト/😀"
	tests := []struct{ cwd, want string }{
		{"/tmp/ccprobe/work_2.x y", "-tmp-ccprobe-work-2-x-y"},
		{`C:\Users\smile\Code`, "C--Users-smile-Code"},
		{"/a/😀b", "-a---b"},
		{long, "-home-user-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-directory-name-very-long-dire-edu14z"},
		{"/srv/" + strings.Repeat("x", 210), "-srv-" + strings.Repeat("x", 195) + "-o7zi13"},
		{"/srv/" + strings.Repeat("ab", 120), "-srv-" + strings.Repeat("ab", 97) + "a-jjd51d"},
	}
	for _, tt := range tests {
		if got := claudeProjectSlug(tt.cwd); got != tt.want {
			t.Errorf("slug(%q)\n= %q\nwant %q", tt.cwd, got, tt.want)
		}
	}
	got := ClaudeTranscriptPath("/cfg", "/w/x", "id-1")
	if want := filepath.Join("/cfg", "projects", "-w-x", "id-1.jsonl"); got != want {
		t.Errorf("ClaudeTranscriptPath = %q, want %q", got, want)
	}
}

func envMap(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDirs(t *testing.T) {
	t.Parallel()
	homeVar := "HOME"
	if runtime.GOOS == "windows" {
		homeVar = "USERPROFILE"
	}
	home := filepath.Join(testRoot(), "home", "me")
	if d, err := ClaudeConfigDir(envMap(map[string]string{homeVar: home})); err != nil || d != filepath.Join(home, ".claude") {
		t.Errorf("ClaudeConfigDir = %q, %v", d, err)
	}
	if d, _ := ClaudeConfigDir(envMap(map[string]string{homeVar: home, "CLAUDE_CONFIG_DIR": "/cfg"})); d != "/cfg" {
		t.Errorf("CLAUDE_CONFIG_DIR ignored: %q", d)
	}
	if d, err := CodexHome(envMap(map[string]string{homeVar: home})); err != nil || d != filepath.Join(home, ".codex") {
		t.Errorf("CodexHome = %q, %v", d, err)
	}
	if d, _ := CodexHome(envMap(map[string]string{"CODEX_HOME": "/cx"})); d != "/cx" {
		t.Errorf("CODEX_HOME ignored: %q", d)
	}
	if _, err := ClaudeConfigDir(envMap(nil)); !errors.Is(err, launch.ErrNoHome) {
		t.Errorf("no home: %v", err)
	}
	// An account's own CLAUDE_CONFIG_DIR wins over the process's.
	a := config.Account{Env: []config.EnvVar{{Name: "CLAUDE_CONFIG_DIR", Value: "/acct"}, {Name: "CODEX_HOME", Value: ""}}}
	opened, err := config.OpenEnv(a.Env, nil)
	if err != nil {
		t.Fatal(err)
	}
	get := launch.SeatGetenv(opened, envMap(map[string]string{"CLAUDE_CONFIG_DIR": "/proc", "CODEX_HOME": "/proc-cx"}))
	if d, _ := ClaudeConfigDir(get); d != "/acct" {
		t.Errorf("account CLAUDE_CONFIG_DIR: %q", d)
	}
	if d, _ := CodexHome(get); d != "/proc-cx" {
		t.Errorf("name-only CODEX_HOME must inherit: %q", d)
	}
}

// writeRollout writes a Codex rollout whose first line is session_meta.
func writeRollout(t *testing.T, home string, started time.Time, id, cwd string, complete bool) string {
	t.Helper()
	u := started.UTC()
	dir := filepath.Join(home, "sessions", u.Format("2006"), u.Format("01"), u.Format("02"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("rollout-%s-%s.jsonl", u.Format("2006-01-02T15-04-05"), id))
	line := fmt.Sprintf(`{"timestamp":%q,"type":"session_meta","payload":{"id":%q,"timestamp":%q,"cwd":%q,"originator":"codex-tui","cli_version":"0.169.0","instructions":%q}}`,
		u.Format(time.RFC3339Nano), id, u.Format(time.RFC3339Nano), cwd, strings.Repeat("base instructions ", 4000))
	if complete {
		line += "\n" + `{"timestamp":"x","type":"turn_context","payload":{"model":"gpt-5.5"}}` + "\n"
	}
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCodexRollouts(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cwd := filepath.Join(testRoot(), "work", "x")
	launched := time.Now().Add(-time.Minute)
	const (
		old    = "019a0000-0000-7000-8000-000000000001"
		other  = "019a0000-0000-7000-8000-000000000002"
		first  = "019a0000-0000-7000-8000-000000000003"
		second = "019a0000-0000-7000-8000-000000000004"
		torn   = "019a0000-0000-7000-8000-000000000005"
	)
	oldPath := writeRollout(t, home, launched.Add(-48*time.Hour), old, cwd, true)
	writeRollout(t, home, launched.Add(5*time.Second), other, filepath.Join(testRoot(), "elsewhere"), true)
	firstPath := writeRollout(t, home, launched.Add(10*time.Second), first, cwd, true)
	secondPath := writeRollout(t, home, launched.Add(20*time.Second), second, cwd+string(filepath.Separator), true)
	writeRollout(t, home, launched.Add(30*time.Second), torn, cwd, false)

	if p, ok := CodexRollout(home, old); !ok || p != oldPath {
		t.Errorf("CodexRollout(old) = %q, %v", p, ok)
	}
	for _, id := range []string{"019a0000-0000-7000-8000-00000000000f", "*", "../x", ""} {
		if _, ok := CodexRollout(home, id); ok {
			t.Errorf("CodexRollout(%q) found something", id)
		}
	}
	all, err := CodexRolloutsSince(home, cwd, launched)
	if err != nil {
		t.Fatal(err)
	}
	// Oldest first (the cwd written with a trailing separator matches), the
	// other directory's and the torn one left out.
	if len(all) != 2 || all[0].ID != first || all[0].Path != firstPath || all[1].ID != second || all[1].Path != secondPath {
		t.Errorf("CodexRolloutsSince = %+v", all)
	}
	if got, err := CodexRolloutsSince(home, cwd, time.Now().Add(time.Hour)); len(got) != 0 || err != nil {
		t.Errorf("nothing after a future time expected: %+v %v", got, err)
	}
	if got, err := CodexRolloutsSince(t.TempDir(), cwd, launched); len(got) != 0 || err != nil {
		t.Errorf("empty CODEX_HOME: %+v %v", got, err)
	}
}

func TestTranscriptExists(t *testing.T) {
	t.Parallel()
	cfg := t.TempDir()
	work := t.TempDir()
	get := envMap(map[string]string{"CLAUDE_CONFIG_DIR": cfg, "CODEX_HOME": cfg})
	claude := config.Account{Kind: config.KindClaudeCode, WorkDir: work}
	if ok, err := transcriptExists(claude, get, testRec); ok || err != nil {
		t.Errorf("before the transcript: %v %v", ok, err)
	}
	p := ClaudeTranscriptPath(cfg, work, testRec)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := transcriptExists(claude, get, testRec); !ok || err != nil {
		t.Errorf("transcript not found: %v %v", ok, err)
	}
	codex := config.Account{Kind: config.KindCodexCLI, WorkDir: work}
	if ok, _ := transcriptExists(codex, get, testRec); ok {
		t.Error("codex rollout found before it exists")
	}
	writeRollout(t, cfg, time.Now(), testRec, work, true)
	if ok, err := transcriptExists(codex, get, testRec); !ok || err != nil {
		t.Errorf("codex rollout not found: %v %v", ok, err)
	}
	if ok, err := transcriptExists(config.Account{Kind: config.KindCLI}, get, testRec); ok || err != nil {
		t.Errorf("generic CLI: %v %v", ok, err)
	}
}

func TestTranscriptExistsThroughLink(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		return // symlinks need privileges on Windows; the rule is the same
	}
	cfg, realDir := t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(realDir, link); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(realDir)
	if err != nil {
		t.Fatal(err)
	}
	p := ClaudeTranscriptPath(cfg, resolved, testRec)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a := config.Account{Kind: config.KindClaudeCode, WorkDir: link}
	if ok, err := transcriptExists(a, envMap(map[string]string{"CLAUDE_CONFIG_DIR": cfg}), testRec); !ok || err != nil {
		t.Errorf("transcript under the physical cwd not found: %v %v", ok, err)
	}
}

func TestDecideResume(t *testing.T) {
	t.Parallel()
	claude := config.Account{Name: "Lin", Kind: config.KindClaudeCode}
	codex := config.Account{Name: "Cx", Kind: config.KindCodexCLI}
	generic := config.Account{Name: "G", Kind: config.KindCLI, ResumeLine: "g --resume {session_id}"}
	bare := config.Account{Name: "B", Kind: config.KindCLI}
	admin := config.Account{Name: "Me", Kind: config.KindAdmin}
	tests := []struct {
		name         string
		a            config.Account
		id           string
		c            cli.Conversation
		resume, drop bool
		reason       bool
	}{
		{"no record", claude, "", 0, false, false, false},
		{"claude with transcript", claude, testRec, cli.ConversationResumes, true, false, true},
		{"claude transcript gone", claude, testRec, cli.ConversationGone, false, true, true},
		{"codex rollout gone", codex, testRec, cli.ConversationGone, false, true, true},
		{"codex with rollout", codex, testRec, cli.ConversationResumes, true, false, true},
		{"generic with line: unknown is not missing", generic, testRec, conversationOf(generic), true, false, true},
		{"generic without line keeps the record", bare, testRec, conversationOf(bare), false, false, true},
		{"admin", admin, testRec, cli.ConversationResumes, false, false, false},
	}
	for _, tt := range tests {
		resume, drop, reason := DecideResume(tt.a, tt.id, tt.c)
		if resume != tt.resume || drop != tt.drop || (reason != "") != tt.reason {
			t.Errorf("%s: resume %v drop %v reason %q", tt.name, resume, drop, reason)
		}
		if drop && !strings.Contains(reason, tt.id) {
			t.Errorf("%s: the status line should name the dropped id: %q", tt.name, reason)
		}
	}
	for _, tt := range []struct {
		size      int64
		resumed   bool
		seen      int64
		seenKnown bool
		want      bool
	}{
		{0, false, 0, false, false}, // fresh, no posts
		{10, false, 0, false, true}, // fresh, posts
		{10, false, 10, true, true}, // fresh: a mark of an old session does not count
		{0, true, 0, false, false},  // resumed, no posts
		{10, true, 10, true, false}, // resumed, nothing since it stopped
		{25, true, 10, true, true},  // resumed, posts since it stopped
		{10, true, 0, false, true},  // resumed without a mark: told
		{10, true, 0, true, true},   // stopped before the first post
	} {
		if got := UnseenHistory(tt.size, tt.resumed, tt.seen, tt.seenKnown); got != tt.want {
			t.Errorf("UnseenHistory(%d, %v, %d, %v) = %v", tt.size, tt.resumed, tt.seen, tt.seenKnown, got)
		}
	}
}
