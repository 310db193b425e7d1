package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
)

// TestProjectDirName: CLAUDE_CODE_PROJECT_DIR_NAME names the project
// folder only while CLAUDE_CONFIG_DIR is set, and only a name Claude Code
// takes (1–64 of A–Z a–z 0–9 _ -, no Windows device name).
func TestProjectDirName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		config, name, want string
	}{
		{"/cfg", "pullcept-work_2", "pullcept-work_2"},
		{"", "pullcept-work", ""}, // the default folder: the slug
		{"/cfg", "", ""},
		{"/cfg", "has space", ""},
		{"/cfg", "../up", ""},
		{"/cfg", "dot.name", ""},
		{"/cfg", "日本", ""},
		{"/cfg", strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{"/cfg", strings.Repeat("a", 65), ""},
		{"/cfg", "con", ""},
		{"/cfg", "NUL", ""},
		{"/cfg", "Com7", ""},
		{"/cfg", "lpt0", ""},
		{"/cfg", "com10", "com10"},
		{"/cfg", "console", "console"},
	} {
		env := map[string]string{EnvConfigDir: c.config, EnvProjectDirName: c.name}
		if got := ProjectDirName(func(k string) string { return env[k] }); got != c.want {
			t.Errorf("config %q, name %q: %q, want %q", c.config, c.name, got, c.want)
		}
	}
}

// TestTranscriptInANamedProject: with CLAUDE_CODE_PROJECT_DIR_NAME a
// seat's transcript is found in projects/<name>/ — to resume and for the
// usage-limit watcher — and a fresh one is watched for there; a
// transcript under the slug is still found (Claude Code looks there too).
// Before, only the slug was looked at, and a named project's stops were
// never seen.
func TestTranscriptInANamedProject(t *testing.T) {
	t.Parallel()
	const id = "99999999-8888-4777-8666-555555555555"
	cfg, work := t.TempDir(), t.TempDir()
	env := map[string]string{EnvConfigDir: cfg, EnvProjectDirName: "my-project"}
	get := func(k string) string { return env[k] }
	named := filepath.Join(cfg, "projects", "my-project", id+".jsonl")
	conv := func() cli.Conversation {
		c, err := (&Adapter{}).Conversation(config.Account{Kind: config.KindClaudeCode, WorkDir: work}, id, get)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if got := claudeTranscript(cfg, work, id, ProjectDirName(get)); got != named {
		t.Fatalf("a fresh seat's transcript is watched at %q, want %q", got, named)
	}
	if c := conv(); c != cli.ConversationGone {
		t.Fatalf("before any transcript: %v", c)
	}
	write := func(p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(named)
	if c := conv(); c != cli.ConversationResumes {
		t.Fatalf("the named project's transcript not found: %v", c)
	}
	if got := claudeTranscript(cfg, work, id, ProjectDirName(get)); got != named {
		t.Fatalf("watched %q, want %q", got, named)
	}
	// The same session under the slug, the named one gone: found there.
	if err := os.Remove(named); err != nil {
		t.Fatal(err)
	}
	slug := TranscriptPath(cfg, work, id)
	write(slug)
	if c := conv(); c != cli.ConversationResumes {
		t.Fatalf("the slug's transcript not found with a name set: %v", c)
	}
	if got := claudeTranscript(cfg, work, id, ProjectDirName(get)); got != slug {
		t.Fatalf("watched %q, want the slug's %q", got, slug)
	}
}
