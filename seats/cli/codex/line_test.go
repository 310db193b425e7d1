package codex

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
)

func TestCodexLines(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindCodexCLI)
	key := launch.MCPKey(a.ID, launchkit.Topic)
	server := fmt.Sprintf(`mcp_servers.%s={command=%q, args=["sidecar"], env={PULLCEPT_ROOM_URL=%q, PULLCEPT_AGENT_NAME="Lin", PULLCEPT_ACCOUNT_ID="acc-lin", PULLCEPT_ROOM_ID="t-1", PULLCEPT_HUE="145"}, env_vars=["PULLCEPT_ROOM_TOKEN", "PULLCEPT_LAUNCHED_AS", "PULLCEPT_ROOM_SOCKET"], enabled=true, default_tools_approval_mode="approve"}`,
		key, launchkit.Pullcept, launchkit.Room)
	// %q writes an ASCII path exactly as a TOML basic string does.

	l := mustLaunch(t, launchkit.Input(a))
	want := []string{"codex", "--model", "gpt-5.5", "-c", server, "-c", codexNudgeKey + "=true", "--no-alt-screen"}
	if !slices.Equal(l.Argv, want) {
		t.Errorf("fresh argv\n%q\nwant\n%q", l.Argv, want)
	}
	if l.SessionID != "" || l.MCPKey != key {
		t.Errorf("fresh Codex SessionID %q (want none: read from the rollout later), key %q", l.SessionID, l.MCPKey)
	}

	in := launchkit.Input(a)
	in.Resume, in.SessionID, in.UnseenHistory = true, launchkit.Rec, true
	l = mustLaunch(t, in)
	resumed := strings.Replace(server, `PULLCEPT_HUE="145"}`, `PULLCEPT_HUE="145", PULLCEPT_UNSEEN_HISTORY="1"}`, 1)
	want = []string{"codex", "resume", launchkit.Rec, "--model", "gpt-5.5", "-c", resumed, "-c", codexNudgeKey + "=true", "--no-alt-screen"}
	if !slices.Equal(l.Argv, want) || l.SessionID != launchkit.Rec || !l.Resumed {
		t.Errorf("resume argv\n%q\nwant\n%q", l.Argv, want)
	}
}

func TestCodexScreenMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode, options string
		flag          int
	}{
		{config.ScreenInline, "", 1},
		{config.ScreenAlt, "", 0},
		{config.ScreenInline, "--no-alt-screen", 1},
		{config.ScreenInline, "-c tui.alternate_screen=never", 0},
		{config.ScreenInline, "--config=tui.alternate_screen=always", 0},
		{config.ScreenInline, "--config tui.alternate_screen=auto", 0},
	}
	for _, tt := range tests {
		a := launchkit.Account(config.KindCodexCLI)
		a.ScreenMode, a.LaunchOptions = tt.mode, tt.options
		l := mustLaunch(t, launchkit.Input(a))
		if got := strings.Count(l.Preview, "--no-alt-screen"); got != tt.flag {
			t.Errorf("mode %q options %q: %q", tt.mode, tt.options, l.Argv)
		}
	}
	a := launchkit.Account(config.KindCodexCLI)
	a.ScreenMode = "fancy"
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, config.ErrBadScreenMode) {
		t.Errorf("unknown screen mode: %v", err)
	}
}

func TestCodexPlaceholderAndEscaping(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindCodexCLI)
	a.LaunchOptions = "--note {session_id}"
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, launch.ErrPlaceholder) {
		t.Errorf("fresh Codex with {session_id}: %v", err)
	}
	in := launchkit.Input(a)
	in.Resume, in.SessionID = true, launchkit.Rec
	if l := mustLaunch(t, in); !slices.Contains(l.Argv, launchkit.Rec) || strings.Contains(l.Preview, "{session_id}") {
		t.Errorf("resume did not substitute: %q", l.Argv)
	}

	a = launchkit.Account(config.KindCodexCLI)
	a.Nickname = "Lin \"the\" \\ one\x01x"
	l := mustLaunch(t, launchkit.Input(a))
	if !strings.Contains(l.Argv[4], `PULLCEPT_AGENT_NAME="Lin \"the\" \\ one\u0001x"`) {
		t.Errorf("TOML escaping: %s", l.Argv[4])
	}
}

// TestCodexCharacterLaunch: a Codex seat's character is LI_PLUS_OUTPUT_STYLE
// in its environment, never on the line; without one nothing is set and
// an inherited value is removed; a name outside #281's grammar and the
// variable in the account's own env are refused, and so is a character in
// a project that selects inline (#276: no Li+ style files), which hook
// mode cannot deliver.
func TestCodexCharacterLaunch(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindCodexCLI)
	a.WorkDir = t.TempDir()
	a.Character = "character_codex_luna"
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, character.ErrInlineHookMode) {
		t.Fatalf("a character in an inline project, hook mode: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(a.WorkDir, ".codex", "output-styles"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := mustLaunch(t, launchkit.Input(a))
	if !slices.Contains(l.Env, character.EnvOutputStyle+"=character_codex_luna") || !slices.Equal(l.Unset, []string{character.EnvOutputStyle}) {
		t.Fatalf("env %q, unset %q", l.Env, l.Unset)
	}
	if strings.Contains(l.Preview, "luna") {
		t.Fatalf("the character is on the line: %s", l.Preview)
	}
	a.Character = ""
	l = mustLaunch(t, launchkit.Input(a))
	for _, kv := range l.Env {
		if strings.HasPrefix(kv, character.EnvOutputStyle+"=") {
			t.Fatalf("no character, env has %s", kv)
		}
	}
	if !slices.Equal(l.Unset, []string{character.EnvOutputStyle}) {
		t.Fatalf("an inherited %s is not removed: %q", character.EnvOutputStyle, l.Unset)
	}
	a.Character = "Luna the Cat"
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, character.ErrName) {
		t.Fatalf("bad name: %v", err)
	}
	a.Character = "luna"
	a.Env = append(a.Env, config.EnvVar{Name: "li_plus_output_style", Value: "x"})
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, character.ErrEnvAppOwned) {
		t.Fatalf("the account's own %s: %v", character.EnvOutputStyle, err)
	}
	if got := launch.UnsetEnv([]string{"A=1", "li_plus_output_style=x", "LI_PLUS_OUTPUT_STYLE=y", "B=2"}, []string{character.EnvOutputStyle}); !slices.Equal(got, []string{"A=1", "B=2"}) {
		t.Fatalf("unsetEnv = %q", got)
	}
}
