package claude

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/launch"
)

func expectedHooks(topicSeg, accountSeg string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range HookEvents {
		timeout := 5.0
		if ev == "PermissionRequest" {
			// The longest wait the room takes, and a margin: a wait the
			// human lengthens while the seat runs is never cut by the CLI.
			timeout = float64(room.MaxPermissionWait/time.Second) + 10
		}
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
			"type":           "http",
			"url":            launchkit.Hooks + "/hooks/activity/" + ev + "/" + topicSeg + "/" + accountSeg,
			"timeout":        timeout,
			"headers":        map[string]any{"Authorization": "Bearer $PULLCEPT_ROOM_TOKEN"},
			"allowedEnvVars": []any{"PULLCEPT_ROOM_TOKEN"},
		}}}}
	}
	return hooks
}

func TestClaudeFresh(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindClaudeCode)
	key := launch.MCPKey(a.ID, launchkit.Topic)
	sibling := launch.MCPKey("acc-lay", launchkit.Topic)
	in := launchkit.Input(a)
	in.MCPJSON = &launch.State{Key: key, Others: []string{sibling, "pullcept-room-manual"}}
	l := mustLaunch(t, in)

	argv, js := launchkit.ArgvWithout(l.Argv, "--settings")
	want := []string{"claude", "--dangerously-skip-permissions", "--session-id", launchkit.ID,
		"--settings", "<--settings>", "--append-system-prompt", launch.RoomPrompt(key)}
	if !slices.Equal(argv, want) {
		t.Errorf("argv\n%q\nwant\n%q", argv, want)
	}
	wantSettings := map[string]any{
		"enabledMcpjsonServers":  []any{key},
		"disabledMcpjsonServers": []any{sibling, "pullcept-room-manual"},
		"outputStyle":            "character_Lin",
		"statusLine": map[string]any{"type": "command",
			"command": launchkit.Pullcept + " status-line " + launchkit.Hooks + "/hooks/status/t-1/acc-lin"},
		"hooks": expectedHooks("t-1", "acc-lin"),
		"permissions": map[string]any{"allow": []any{
			"mcp__" + key + "__say_to_room", "mcp__" + key + "__read_room_history", "mcp__" + key + "__my_usage",
			"mcp__" + key + "__list_account_sessions", "mcp__" + key + "__control_account_session",
			"mcp__" + key + "__account_session_status"}},
	}
	if got := decodeSettings(t, js); !reflect.DeepEqual(got, wantSettings) {
		t.Errorf("settings\n%v\nwant\n%v", got, wantSettings)
	}
	if l.SessionID != launchkit.ID || l.Resumed || l.MCPKey != key || l.Dir != a.WorkDir || len(l.Warnings) != 0 {
		t.Errorf("launch = %+v", l)
	}
	wantEnv := []string{"GH_TOKEN=" + launchkit.Secret, "PULLCEPT_LAUNCHED_AS=acc-lin", "PULLCEPT_ROOM_ID=t-1"}
	if !slices.Equal(l.Env, wantEnv) {
		t.Errorf("env %q, want %q", l.Env, wantEnv)
	}
	for _, e := range l.Env {
		if strings.HasPrefix(e, room.EnvRoomToken+"=") {
			t.Error("BuildLaunch set the room token")
		}
	}
}

func TestClaudeLineVariants(t *testing.T) {
	t.Parallel()
	base := launchkit.Account(config.KindClaudeCode)
	key := launch.MCPKey(base.ID, launchkit.Topic)
	tests := []struct {
		name     string
		options  string
		resume   bool
		want     []string // "<settings>" stands for the settings JSON
		warnings int
	}{
		{"session id stripped", "-v --session-id {session_id} --session-id=abc", false,
			[]string{"claude", "-v", "--session-id", launchkit.ID, "--settings", "<settings>", "--append-system-prompt", launch.RoomPrompt(key)}, 1},
		{"own system prompt", "--append-system-prompt 'be brief'", false,
			[]string{"claude", "--append-system-prompt", "be brief", "--session-id", launchkit.ID, "--settings", "<settings>"}, 0},
		{"own system prompt file", "--append-system-prompt-file=/p.txt", false,
			[]string{"claude", "--append-system-prompt-file=/p.txt", "--session-id", launchkit.ID, "--settings", "<settings>"}, 0},
		{"placeholder in options", "--name={session_id}", false,
			[]string{"claude", "--name=" + launchkit.ID, "--session-id", launchkit.ID, "--settings", "<settings>", "--append-system-prompt", launch.RoomPrompt(key)}, 0},
		{"resume", "--dangerously-skip-permissions", true,
			[]string{"claude", "--resume", launchkit.Rec, "--dangerously-skip-permissions", "--settings", "<settings>"}, 0},
		{"resume strips session id", "--session-id x -v", true,
			[]string{"claude", "--resume", launchkit.Rec, "-v", "--settings", "<settings>"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := base
			a.LaunchOptions = tt.options
			in := launchkit.Input(a)
			if tt.resume {
				in.Resume, in.SessionID = true, launchkit.Rec
			}
			l := mustLaunch(t, in)
			got, js := launchkit.ArgvWithout(l.Argv, "--settings")
			want := slices.Clone(tt.want)
			for i := range want {
				if want[i] == "<settings>" {
					want[i] = "<--settings>"
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("argv\n%q\nwant\n%q", got, want)
			}
			if m := decodeSettings(t, js); !reflect.DeepEqual(m["enabledMcpjsonServers"], []any{key}) {
				t.Errorf("settings lack the enable list: %v", m)
			}
			if len(l.Warnings) != tt.warnings {
				t.Errorf("warnings %q, want %d", l.Warnings, tt.warnings)
			}
			wantID := launchkit.ID
			if tt.resume {
				wantID = launchkit.Rec
			}
			if l.SessionID != wantID || l.Resumed != tt.resume {
				t.Errorf("SessionID %q Resumed %v", l.SessionID, l.Resumed)
			}
		})
	}
}

func TestClaudeOwnSettings(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindClaudeCode)
	a.LaunchOptions = `--settings '{"model":"opus"}'`

	// A character to declare: refused, and the reason says which.
	_, err := buildLaunch(launchkit.Input(a))
	if !errors.Is(err, ErrOwnSettings) || !strings.Contains(err.Error(), "character") {
		t.Errorf("with a character: %v", err)
	}
	// Other room entries to disable: refused, naming them.
	a.Character = ""
	in := launchkit.Input(a)
	in.MCPJSON = &launch.State{Others: []string{"pullcept-room-x-0123456789"}}
	_, err = buildLaunch(in)
	if !errors.Is(err, ErrOwnSettings) || !strings.Contains(err.Error(), "pullcept-room-x-0123456789") {
		t.Errorf("with other entries: %v", err)
	}
	// Nothing to add: passes through untouched, with a warning.
	l := mustLaunch(t, launchkit.Input(a))
	want := []string{"claude", "--settings", `{"model":"opus"}`, "--session-id", launchkit.ID, "--append-system-prompt", launch.RoomPrompt(l.MCPKey)}
	if !slices.Equal(l.Argv, want) || len(l.Warnings) != 1 {
		t.Errorf("argv %q warnings %q", l.Argv, l.Warnings)
	}
	a.LaunchOptions = "--settings=/home/me/s.json"
	if l := mustLaunch(t, launchkit.Input(a)); strings.Count(strings.Join(l.Argv, " "), "--settings") != 1 {
		t.Errorf("--settings= form not recognised: %q", l.Argv)
	}
}

func TestClaudePercentEncodesSeat(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindClaudeCode)
	a.ID = "ü&id 1"
	in := launchkit.Input(a)
	in.TopicID = "t/1?x"
	l := mustLaunch(t, in)
	_, js := launchkit.ArgvWithout(l.Argv, "--settings")
	m := decodeSettings(t, js)
	if !reflect.DeepEqual(m["hooks"], expectedHooks("t%2F1%3Fx", "%C3%BC%26id%201")) {
		t.Errorf("hooks = %v", m["hooks"])
	}
	if cmd := m["statusLine"].(map[string]any)["command"]; !strings.HasSuffix(cmd.(string), "/hooks/status/t%2F1%3Fx/%C3%BC%26id%201") {
		t.Errorf("status line = %v", cmd)
	}
}

// TestClaudeReadsTheTopicsAttachments: the topic's attachments folder is
// a folder the seat reads without asking (permissions.additionalDirectories),
// so in default permission mode an attachment's path is enough; on a
// cmd.exe line the path is \u escaped like everything Pullcept writes and
// decodes back whole.
func TestClaudeReadsTheTopicsAttachments(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(launchkit.Root(), "data (x86)", "attachments", "トピック")
	for _, goos := range []string{"linux", "windows"} {
		in := launchkit.Input(launchkit.Account(config.KindClaudeCode))
		in.GOOS, in.AttachmentsDir = goos, dir
		l := mustLaunch(t, in)
		_, js := launchkit.ArgvWithout(l.Argv, "--settings")
		perms, _ := decodeSettings(t, js)["permissions"].(map[string]any)
		if got, _ := perms["additionalDirectories"].([]any); len(got) != 1 || got[0] != dir {
			t.Errorf("%s: additionalDirectories = %v, want [%s]", goos, perms["additionalDirectories"], dir)
		}
		if goos == "windows" && !launch.ConsoleSafe(js) {
			t.Errorf("windows: the settings hold a character cmd.exe reacts to: %s", js)
		}
	}
	in := launchkit.Input(launchkit.Account(config.KindClaudeCode))
	_, js := launchkit.ArgvWithout(mustLaunch(t, in).Argv, "--settings")
	if perms, _ := decodeSettings(t, js)["permissions"].(map[string]any); perms["additionalDirectories"] != nil {
		t.Errorf("no folder given, yet additionalDirectories = %v", perms["additionalDirectories"])
	}
}

// TestClaudeCharacterIsOutputStyle: a Claude seat's character rides
// --settings as outputStyle; nothing is set in or removed from its
// environment (a Codex seat's travels there, seats/cli/codex).
func TestClaudeCharacterIsOutputStyle(t *testing.T) {
	t.Parallel()
	c := launchkit.Account(config.KindClaudeCode)
	if l := mustLaunch(t, launchkit.Input(c)); len(l.Unset) != 0 || !strings.Contains(l.Preview, `"outputStyle":"character_Lin"`) {
		t.Fatalf("Claude: unset %q, line %s", l.Unset, l.Preview)
	}
}

// TestPermissionHookOutlastsTheLongestWait: the PermissionRequest hook's
// timeout follows the longest wait the room takes (room.MaxPermissionWait),
// not the wait in force at launch, so a "permission_wait" the human
// lengthens while the seat runs applies to its next card at once and the
// room, not the CLI, ends the hook.
func TestPermissionHookOutlastsTheLongestWait(t *testing.T) {
	t.Parallel()
	if got := time.Duration(permissionHookTimeout) * time.Second; got <= room.MaxPermissionWait {
		t.Fatalf("hook timeout %s, not past the room's longest wait %s", got, room.MaxPermissionWait)
	}
}

// TestClaudePermissionMode: the account's permission mode goes on the
// fresh and the resumed line as --permission-mode (issue 35: the pinned
// Claude Code starts in auto by itself, where no card appears); none
// chosen adds nothing; launch options that choose a mode win, with a
// warning.
func TestClaudePermissionMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode, opts string
		resume     bool
		want       []string // the words after --settings' value, before the prompt
		warn       string
	}{
		{mode: config.PermissionManual, want: []string{"--permission-mode", "manual"}},
		{mode: config.PermissionAcceptEdits, resume: true, want: []string{"--permission-mode", "acceptEdits"}},
		{mode: ""},
		{mode: config.PermissionPlan, opts: "--permission-mode auto", warn: "the launch options choose the permission mode"},
		{mode: config.PermissionManual, opts: "--dangerously-skip-permissions", warn: "--dangerously-skip-permissions"},
	} {
		c := launchkit.Account(config.KindClaudeCode)
		c.PermissionMode, c.LaunchOptions = tc.mode, tc.opts
		in := launchkit.Input(c)
		if tc.resume {
			in.Resume, in.SessionID = true, "0b8a1f4e-2c3d-4e5f-8a9b-0c1d2e3f4a5b"
		}
		l := mustLaunch(t, in)
		i := slices.Index(l.Argv, "--permission-mode")
		switch {
		case tc.want == nil && tc.opts == "" && i >= 0:
			t.Errorf("mode %q: %q added", tc.mode, l.Argv[i:i+2])
		case tc.want != nil && (i < 0 || !slices.Equal(l.Argv[i:i+2], tc.want)):
			t.Errorf("mode %q resume %v: line %q lacks %q", tc.mode, tc.resume, l.Argv, tc.want)
		case tc.opts != "" && strings.Count(strings.Join(l.Argv, " "), "--permission-mode") > 1:
			t.Errorf("mode %q with options %q: two modes on %q", tc.mode, tc.opts, l.Argv)
		}
		if tc.warn != "" && !strings.Contains(strings.Join(l.Warnings, "\n"), tc.warn) {
			t.Errorf("options %q: warnings %q lack %q", tc.opts, l.Warnings, tc.warn)
		}
	}
}
