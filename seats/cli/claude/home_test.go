package claude

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/launchkit"
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
	got := TranscriptPath("/cfg", "/w/x", "id-1")
	if want := filepath.Join("/cfg", "projects", "-w-x", "id-1.jsonl"); got != want {
		t.Errorf("TranscriptPath = %q, want %q", got, want)
	}
}

// TestClaudeConfigDir: $CLAUDE_CONFIG_DIR, else <home>/.claude; an account's
// own CLAUDE_CONFIG_DIR wins over the process's.
func TestClaudeConfigDir(t *testing.T) {
	t.Parallel()
	homeVar := "HOME"
	if runtime.GOOS == "windows" {
		homeVar = "USERPROFILE"
	}
	home := filepath.Join(string(filepath.Separator), "home", "me")
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := ConfigDir(get(map[string]string{homeVar: home}), ""); err != nil || d != filepath.Join(home, ".claude") {
		t.Errorf("ConfigDir = %q, %v", d, err)
	}
	if d, _ := ConfigDir(get(map[string]string{homeVar: home, "CLAUDE_CONFIG_DIR": "/cfg"}), ""); d != "/cfg" {
		t.Errorf("CLAUDE_CONFIG_DIR ignored: %q", d)
	}
	if _, err := ConfigDir(get(nil), ""); !errors.Is(err, launch.ErrNoHome) {
		t.Errorf("no home: %v", err)
	}
	a := config.Account{Env: []config.EnvVar{{Name: "CLAUDE_CONFIG_DIR", Value: "/acct"}}}
	opened, err := config.OpenEnv(a.Env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := ConfigDir(launch.SeatGetenv(opened, get(map[string]string{"CLAUDE_CONFIG_DIR": "/proc"})), ""); d != "/acct" {
		t.Errorf("account CLAUDE_CONFIG_DIR: %q", d)
	}
	work := filepath.Join(launchkit.Root(), "work", "seat")
	if d, _ := ConfigDir(get(map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join("..", "cfg")}), work); d != filepath.Join(launchkit.Root(), "work", "cfg") {
		t.Errorf("a relative CLAUDE_CONFIG_DIR is the seat's working directory's: %q", d)
	}
}

// TestClaudeConversationRelativeConfigDir: a relative CLAUDE_CONFIG_DIR is
// where the seat's CLI finds it, under the seat's working directory, not
// Pullcept's: the transcript there resumes.
func TestClaudeConversationRelativeConfigDir(t *testing.T) {
	t.Parallel()
	const id = "99999999-8888-4777-8666-555555555555"
	work := t.TempDir()
	get := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": "claude-cfg"}[k] }
	p := TranscriptPath(filepath.Join(work, "claude-cfg"), work, id)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := (&Adapter{}).Conversation(config.Account{Kind: config.KindClaudeCode, WorkDir: work}, id, get); c != cli.ConversationResumes || err != nil {
		t.Errorf("transcript under the seat's relative CLAUDE_CONFIG_DIR: %v, %v", c, err)
	}
}

// TestClaudeConversation: a Claude conversation resumes while its
// transcript is on disk, under the working directory as written or, when
// that is a link, as it resolves (the CLI records its physical cwd).
func TestClaudeConversation(t *testing.T) {
	t.Parallel()
	const id = "99999999-8888-4777-8666-555555555555"
	cfg := t.TempDir()
	get := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": cfg}[k] }
	conv := func(workDir string) cli.Conversation {
		c, err := (&Adapter{}).Conversation(config.Account{Kind: config.KindClaudeCode, WorkDir: workDir}, id, get)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	work := t.TempDir()
	if c := conv(work); c != cli.ConversationGone {
		t.Errorf("before the transcript: %v", c)
	}
	write := func(cwd string) {
		p := TranscriptPath(cfg, cwd, id)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(work)
	if c := conv(work); c != cli.ConversationResumes {
		t.Errorf("transcript not found: %v", c)
	}
	if runtime.GOOS == "windows" {
		return // symlinks need privileges on Windows; the rule is the same
	}
	realDir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(realDir, link); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(realDir)
	if err != nil {
		t.Fatal(err)
	}
	write(resolved)
	if c := conv(link); c != cli.ConversationResumes {
		t.Errorf("transcript under the physical cwd not found: %v", c)
	}
}
