package seats

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/cli/claude"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/pty"
)

const (
	testID     = "11111111-2222-4333-8444-555555555555"
	testRec    = "99999999-8888-4777-8666-555555555555"
	testTopic  = "t-1"
	testSecret = "s3cr3t-token-value"
	testRoom   = "ws://127.0.0.1:4100/room"
	testHooks  = "http://127.0.0.1:4100"
)

// testRoot is an absolute root on the running OS.
func testRoot() string {
	if runtime.GOOS == "windows" {
		return `C:\`
	}
	return "/"
}

var testPullcept = filepath.Join(testRoot(), "opt", "pullcept", "bin", "pullcept")

func testAccount(kind config.Kind) config.Account {
	hue := 145
	a := config.Account{
		ID: "acc-lin", Name: "Claude Lin", Nickname: "Lin", Kind: kind, Hue: &hue,
		WorkDir: filepath.Join(testRoot(), "work", "shared"),
		Env:     []config.EnvVar{{Name: "GH_TOKEN", Value: testSecret}, {Name: "GH_CONFIG_DIR", Value: ""}},
	}
	switch kind {
	case config.KindClaudeCode:
		a.Command, a.LaunchOptions, a.Character = "claude", "--dangerously-skip-permissions", "character_Lin"
	case config.KindCodexCLI:
		// Hook mode: the app-server lines have their own tests
		// (launch_codexserver_test.go).
		hook := false
		a.Command, a.LaunchOptions, a.CodexAppServer = "codex", "--model gpt-5.5", &hook
	default:
		a.Command, a.LaunchOptions = "aider", "--yes"
	}
	return a
}

func testInput(a config.Account) launch.Input {
	return launch.Input{
		Account: a, TopicID: testTopic, PullceptPath: testPullcept,
		RoomURL: testRoom, HooksURL: testHooks, GOOS: "linux",
		NewID: func() (string, error) { return testID, nil },
		Env:   []string{"GH_TOKEN=" + testSecret}, // what the Manager opens from a.Env
	}
}

func mustLaunch(t *testing.T, in launch.Input) launch.Launch {
	t.Helper()
	l, err := buildLaunch(in)
	if err != nil {
		t.Fatalf("BuildLaunch: %v", err)
	}
	back, err := config.SplitWords(l.Preview)
	if err != nil || !slices.Equal(back, l.Argv) {
		t.Fatalf("Preview %q does not read back as Argv %q (%v)", l.Preview, l.Argv, err)
	}
	for _, w := range append(append([]string{l.Preview}, l.Argv...), l.Warnings...) {
		if strings.Contains(w, testSecret) {
			t.Fatalf("env value leaked into argv/preview/warnings: %q", w)
		}
	}
	return l
}

// argvWithout returns argv with the value after flag replaced by "<flag>",
// so tests can compare the rest exactly and the value separately.
func argvWithout(argv []string, flag string) ([]string, string) {
	out := slices.Clone(argv)
	for i := range out {
		if out[i] == flag && i+1 < len(out) {
			v := out[i+1]
			out[i+1] = "<" + flag + ">"
			return out, v
		}
	}
	return out, ""
}

func expectedHooks(topicSeg, accountSeg string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range claude.HookEvents {
		timeout := 5.0
		if ev == "PermissionRequest" {
			timeout = 190
		}
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
			"type":           "http",
			"url":            testHooks + "/hooks/activity/" + ev + "/" + topicSeg + "/" + accountSeg,
			"timeout":        timeout,
			"headers":        map[string]any{"Authorization": "Bearer $PULLCEPT_ROOM_TOKEN"},
			"allowedEnvVars": []any{"PULLCEPT_ROOM_TOKEN"},
		}}}}
	}
	return hooks
}

func decodeSettings(t *testing.T, js string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("--settings is not JSON: %v\n%s", err, js)
	}
	return m
}

func TestClaudeFresh(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindClaudeCode)
	key := launch.MCPKey(a.ID, testTopic)
	sibling := launch.MCPKey("acc-lay", testTopic)
	in := testInput(a)
	in.MCPJSON = &launch.State{Key: key, Others: []string{sibling, "pullcept-room-manual"}}
	l := mustLaunch(t, in)

	argv, js := argvWithout(l.Argv, "--settings")
	want := []string{"claude", "--dangerously-skip-permissions", "--session-id", testID,
		"--settings", "<--settings>", "--append-system-prompt", launch.RoomPrompt(key)}
	if !slices.Equal(argv, want) {
		t.Errorf("argv\n%q\nwant\n%q", argv, want)
	}
	wantSettings := map[string]any{
		"enabledMcpjsonServers":  []any{key},
		"disabledMcpjsonServers": []any{sibling, "pullcept-room-manual"},
		"outputStyle":            "character_Lin",
		"statusLine": map[string]any{"type": "command",
			"command": testPullcept + " status-line " + testHooks + "/hooks/status/t-1/acc-lin"},
		"hooks": expectedHooks("t-1", "acc-lin"),
		"permissions": map[string]any{"allow": []any{
			"mcp__" + key + "__say_to_room", "mcp__" + key + "__read_room_history", "mcp__" + key + "__my_usage",
			"mcp__" + key + "__list_account_sessions", "mcp__" + key + "__control_account_session",
			"mcp__" + key + "__account_session_status"}},
	}
	if got := decodeSettings(t, js); !reflect.DeepEqual(got, wantSettings) {
		t.Errorf("settings\n%v\nwant\n%v", got, wantSettings)
	}
	if l.SessionID != testID || l.Resumed || l.MCPKey != key || l.Dir != a.WorkDir || len(l.Warnings) != 0 {
		t.Errorf("launch = %+v", l)
	}
	wantEnv := []string{"GH_TOKEN=" + testSecret, "PULLCEPT_LAUNCHED_AS=acc-lin", "PULLCEPT_ROOM_ID=t-1"}
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
	base := testAccount(config.KindClaudeCode)
	key := launch.MCPKey(base.ID, testTopic)
	tests := []struct {
		name     string
		options  string
		resume   bool
		want     []string // "<settings>" stands for the settings JSON
		warnings int
	}{
		{"session id stripped", "-v --session-id {session_id} --session-id=abc", false,
			[]string{"claude", "-v", "--session-id", testID, "--settings", "<settings>", "--append-system-prompt", launch.RoomPrompt(key)}, 1},
		{"own system prompt", "--append-system-prompt 'be brief'", false,
			[]string{"claude", "--append-system-prompt", "be brief", "--session-id", testID, "--settings", "<settings>"}, 0},
		{"own system prompt file", "--append-system-prompt-file=/p.txt", false,
			[]string{"claude", "--append-system-prompt-file=/p.txt", "--session-id", testID, "--settings", "<settings>"}, 0},
		{"placeholder in options", "--name={session_id}", false,
			[]string{"claude", "--name=" + testID, "--session-id", testID, "--settings", "<settings>", "--append-system-prompt", launch.RoomPrompt(key)}, 0},
		{"resume", "--dangerously-skip-permissions", true,
			[]string{"claude", "--resume", testRec, "--dangerously-skip-permissions", "--settings", "<settings>"}, 0},
		{"resume strips session id", "--session-id x -v", true,
			[]string{"claude", "--resume", testRec, "-v", "--settings", "<settings>"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := base
			a.LaunchOptions = tt.options
			in := testInput(a)
			if tt.resume {
				in.Resume, in.SessionID = true, testRec
			}
			l := mustLaunch(t, in)
			got, js := argvWithout(l.Argv, "--settings")
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
			wantID := testID
			if tt.resume {
				wantID = testRec
			}
			if l.SessionID != wantID || l.Resumed != tt.resume {
				t.Errorf("SessionID %q Resumed %v", l.SessionID, l.Resumed)
			}
		})
	}
}

func TestClaudeOwnSettings(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindClaudeCode)
	a.LaunchOptions = `--settings '{"model":"opus"}'`

	// A character to declare: refused, and the reason says which.
	_, err := buildLaunch(testInput(a))
	if !errors.Is(err, claude.ErrOwnSettings) || !strings.Contains(err.Error(), "character") {
		t.Errorf("with a character: %v", err)
	}
	// Other room entries to disable: refused, naming them.
	a.Character = ""
	in := testInput(a)
	in.MCPJSON = &launch.State{Others: []string{"pullcept-room-x-0123456789"}}
	_, err = buildLaunch(in)
	if !errors.Is(err, claude.ErrOwnSettings) || !strings.Contains(err.Error(), "pullcept-room-x-0123456789") {
		t.Errorf("with other entries: %v", err)
	}
	// Nothing to add: passes through untouched, with a warning.
	l := mustLaunch(t, testInput(a))
	want := []string{"claude", "--settings", `{"model":"opus"}`, "--session-id", testID, "--append-system-prompt", launch.RoomPrompt(l.MCPKey)}
	if !slices.Equal(l.Argv, want) || len(l.Warnings) != 1 {
		t.Errorf("argv %q warnings %q", l.Argv, l.Warnings)
	}
	a.LaunchOptions = "--settings=/home/me/s.json"
	if l := mustLaunch(t, testInput(a)); strings.Count(strings.Join(l.Argv, " "), "--settings") != 1 {
		t.Errorf("--settings= form not recognised: %q", l.Argv)
	}
}

func TestClaudePercentEncodesSeat(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindClaudeCode)
	a.ID = "ü&id 1"
	in := testInput(a)
	in.TopicID = "t/1?x"
	l := mustLaunch(t, in)
	_, js := argvWithout(l.Argv, "--settings")
	m := decodeSettings(t, js)
	if !reflect.DeepEqual(m["hooks"], expectedHooks("t%2F1%3Fx", "%C3%BC%26id%201")) {
		t.Errorf("hooks = %v", m["hooks"])
	}
	if cmd := m["statusLine"].(map[string]any)["command"]; !strings.HasSuffix(cmd.(string), "/hooks/status/t%2F1%3Fx/%C3%BC%26id%201") {
		t.Errorf("status line = %v", cmd)
	}
}

func TestCodexLines(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCodexCLI)
	key := launch.MCPKey(a.ID, testTopic)
	server := fmt.Sprintf(`mcp_servers.%s={command=%q, args=["sidecar"], env={PULLCEPT_ROOM_URL=%q, PULLCEPT_AGENT_NAME="Lin", PULLCEPT_ACCOUNT_ID="acc-lin", PULLCEPT_ROOM_ID="t-1", PULLCEPT_HUE="145"}, env_vars=["PULLCEPT_ROOM_TOKEN", "PULLCEPT_LAUNCHED_AS"], enabled=true, default_tools_approval_mode="approve"}`,
		key, testPullcept, testRoom)
	// %q writes an ASCII path exactly as a TOML basic string does.

	l := mustLaunch(t, testInput(a))
	want := []string{"codex", "--model", "gpt-5.5", "-c", server, "-c", codexNudgeKey + "=true", "--no-alt-screen"}
	if !slices.Equal(l.Argv, want) {
		t.Errorf("fresh argv\n%q\nwant\n%q", l.Argv, want)
	}
	if l.SessionID != "" || l.MCPKey != key {
		t.Errorf("fresh Codex SessionID %q (want none: read from the rollout later), key %q", l.SessionID, l.MCPKey)
	}

	in := testInput(a)
	in.Resume, in.SessionID, in.UnseenHistory = true, testRec, true
	l = mustLaunch(t, in)
	resumed := strings.Replace(server, `PULLCEPT_HUE="145"}`, `PULLCEPT_HUE="145", PULLCEPT_UNSEEN_HISTORY="1"}`, 1)
	want = []string{"codex", "resume", testRec, "--model", "gpt-5.5", "-c", resumed, "-c", codexNudgeKey + "=true", "--no-alt-screen"}
	if !slices.Equal(l.Argv, want) || l.SessionID != testRec || !l.Resumed {
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
		a := testAccount(config.KindCodexCLI)
		a.ScreenMode, a.LaunchOptions = tt.mode, tt.options
		l := mustLaunch(t, testInput(a))
		if got := strings.Count(l.Preview, "--no-alt-screen"); got != tt.flag {
			t.Errorf("mode %q options %q: %q", tt.mode, tt.options, l.Argv)
		}
	}
	a := testAccount(config.KindCodexCLI)
	a.ScreenMode = "fancy"
	if _, err := buildLaunch(testInput(a)); !errors.Is(err, config.ErrBadScreenMode) {
		t.Errorf("unknown screen mode: %v", err)
	}
}

func TestCodexPlaceholderAndEscaping(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCodexCLI)
	a.LaunchOptions = "--note {session_id}"
	if _, err := buildLaunch(testInput(a)); !errors.Is(err, launch.ErrPlaceholder) {
		t.Errorf("fresh Codex with {session_id}: %v", err)
	}
	in := testInput(a)
	in.Resume, in.SessionID = true, testRec
	if l := mustLaunch(t, in); !slices.Contains(l.Argv, testRec) || strings.Contains(l.Preview, "{session_id}") {
		t.Errorf("resume did not substitute: %q", l.Argv)
	}

	a = testAccount(config.KindCodexCLI)
	a.Nickname = "Lin \"the\" \\ one\x01x"
	l := mustLaunch(t, testInput(a))
	if !strings.Contains(l.Argv[4], `PULLCEPT_AGENT_NAME="Lin \"the\" \\ one\u0001x"`) {
		t.Errorf("TOML escaping: %s", l.Argv[4])
	}
}

func TestGenericLines(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCLI)
	l := mustLaunch(t, testInput(a))
	if !slices.Equal(l.Argv, []string{"aider", "--yes"}) || l.SessionID != "" {
		t.Errorf("plain generic: %q id %q", l.Argv, l.SessionID)
	}
	if m := mustLaunch(t, testInput(a)); m.MCPKey != launch.MCPKey(a.ID, testTopic) {
		t.Errorf("key %q", m.MCPKey)
	}

	calls := 0
	a.LaunchOptions = "--session {session_id} --log=/tmp/{session_id}.log"
	in := testInput(a)
	in.NewID = func() (string, error) { calls++; return testID, nil }
	l = mustLaunch(t, in)
	want := []string{"aider", "--session", testID, "--log=/tmp/" + testID + ".log"}
	if !slices.Equal(l.Argv, want) || l.SessionID != testID || calls != 1 {
		t.Errorf("generic with placeholder: %q id %q (%d ids made)", l.Argv, l.SessionID, calls)
	}

	a.ResumeLine = "aider --restore {session_id} --yes"
	in = testInput(a)
	in.Resume, in.SessionID = true, testRec
	l = mustLaunch(t, in)
	if !slices.Equal(l.Argv, []string{"aider", "--restore", testRec, "--yes"}) || l.SessionID != testRec {
		t.Errorf("generic resume: %q", l.Argv)
	}
	a.ResumeLine = "aider --continue"
	in.Account = a
	if l = mustLaunch(t, in); len(l.Warnings) != 1 {
		t.Errorf("resume line without {session_id} gave no warning: %q", l.Warnings)
	}
	a.ResumeLine = ""
	in.Account = a
	if _, err := buildLaunch(in); !errors.Is(err, launch.ErrNoResumeLine) {
		t.Errorf("resume without a line: %v", err)
	}
}

func TestBuildLaunchRefusals(t *testing.T) {
	t.Parallel()
	cc := testAccount(config.KindClaudeCode)
	with := func(f func(*launch.Input)) launch.Input {
		in := testInput(cc)
		f(&in)
		return in
	}
	tests := []struct {
		name string
		in   launch.Input
		want error
	}{
		{"admin", with(func(in *launch.Input) { in.Account.Kind = config.KindAdmin }), launch.ErrKindNotLaunched},
		{"mcp", with(func(in *launch.Input) { in.Account.Kind = config.KindMCP }), launch.ErrKindNotLaunched},
		{"no work dir", with(func(in *launch.Input) { in.Account.WorkDir = "" }), launch.ErrNoWorkDir},
		{"relative work dir", with(func(in *launch.Input) { in.Account.WorkDir = "rel/dir" }), launch.ErrNoWorkDir},
		{"no command", with(func(in *launch.Input) { in.Account.Command = " " }), launch.ErrNoCommand},
		{"no topic", with(func(in *launch.Input) { in.TopicID = "" }), launch.ErrNoTopic},
		{"resume without id", with(func(in *launch.Input) { in.Resume = true }), launch.ErrNoSessionID},
		{"unclosed quote", with(func(in *launch.Input) { in.Account.LaunchOptions = `--x "open` }), config.ErrUnterminatedQuote},
		{"--resume in options", with(func(in *launch.Input) { in.Account.LaunchOptions = "--resume abc" }), claude.ErrOptionsConflict},
		{"--continue in options", with(func(in *launch.Input) { in.Account.LaunchOptions = "-c" }), claude.ErrOptionsConflict},
		{"hooks not loopback", with(func(in *launch.Input) { in.HooksURL = "http://192.0.2.1:80" }), launch.ErrRoomAddress},
		{"no hooks URL", with(func(in *launch.Input) { in.HooksURL = "" }), launch.ErrRoomAddress},
		{"relative pullcept", with(func(in *launch.Input) { in.PullceptPath = "pullcept" }), launch.ErrNoPullceptPath},
		{"reserved env", with(func(in *launch.Input) {
			in.Account.Env = []config.EnvVar{{Name: "PULLCEPT_LAUNCHED_AS", Value: "other"}}
		}), config.ErrEnvReserved},
		{"codex room not loopback", with(func(in *launch.Input) {
			in.Account = testAccount(config.KindCodexCLI)
			in.RoomURL = "ws://example.com/room"
		}), launch.ErrRoomAddress},
		{"codex room wrong scheme", with(func(in *launch.Input) {
			in.Account = testAccount(config.KindCodexCLI)
			in.RoomURL = testHooks
		}), launch.ErrRoomAddress},
		{"bad id maker", with(func(in *launch.Input) {
			in.NewID = func() (string, error) { return "", nil }
		}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := buildLaunch(tt.in)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if strings.Contains(err.Error(), testSecret) || strings.Contains(err.Error(), "00ff") {
				t.Errorf("error leaks an env value: %v", err)
			}
		})
	}
}

func TestWindowsCmdExeRules(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindClaudeCode)
	a.LaunchOptions = "--dangerously-skip-permissions --add-dir a&b"
	a.Character = "Lin & Lay (test) 100%"
	in := testInput(a)
	in.GOOS = "windows"
	in.MCPJSON = &launch.State{Others: []string{"pullcept-room-odd(name)"}}
	l := mustLaunch(t, in)
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "cmd.exe") {
		t.Errorf("warnings %q", l.Warnings)
	}
	if slices.Contains(l.Argv, "--dangerously-skip-permissions") {
		t.Errorf("unsafe options were not dropped as a whole: %q", l.Argv)
	}
	for _, w := range l.Argv {
		if !launch.ConsoleSafe(w) {
			t.Errorf("argument %q holds something cmd.exe reacts to", w)
		}
	}
	_, js := argvWithout(l.Argv, "--settings")
	if strings.ContainsAny(js, "&()%$") {
		t.Errorf("settings not escaped for cmd.exe: %s", js)
	}
	m := decodeSettings(t, js)
	if m["outputStyle"] != a.Character || !reflect.DeepEqual(m["disabledMcpjsonServers"], []any{"pullcept-room-odd(name)"}) {
		t.Errorf("escaped settings decode to %v", m)
	}
	if h := m["hooks"].(map[string]any)["Stop"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any); h["headers"].(map[string]any)["Authorization"] != "Bearer $PULLCEPT_ROOM_TOKEN" {
		t.Errorf("header after escaping: %v", h)
	}

	// An .exe runs under cmd.exe too: the options are left out the same way.
	in.Account.Command = `claude.exe`
	if l := mustLaunch(t, in); slices.Contains(l.Argv, "a&b") {
		t.Errorf(".exe line kept options cmd.exe would cut: %q", l.Argv)
	}
	// A command cmd.exe would cut is refused.
	in.Account.Command = `claude(x).cmd`
	if _, err := buildLaunch(in); !errors.Is(err, pty.ErrNotConsoleSafe) {
		t.Errorf("unsafe command: %v", err)
	}
	in.Account.Command, in.CommandPath = "claude", `C:\Program Files (x86)\nodejs\claude.cmd`
	if _, err := buildLaunch(in); !errors.Is(err, pty.ErrNotConsoleSafe) {
		t.Errorf("unsafe resolved command: %v", err)
	}
	in.CommandPath = ""
	// A pullcept path the status-line shell cannot take: no status line or hooks.
	in = testInput(testAccount(config.KindClaudeCode))
	in.GOOS, in.PullceptPath = "windows", filepath.Join(testRoot(), "Program Files (x86)", "pullcept.exe")
	l = mustLaunch(t, in)
	_, js = argvWithout(l.Argv, "--settings")
	if m := decodeSettings(t, js); m["statusLine"] != nil || m["hooks"] != nil || len(l.Warnings) != 1 {
		t.Errorf("status line kept on an unsafe path: %v %q", m, l.Warnings)
	}

	// Codex: TOML strings escaped, nothing cmd.exe reacts to.
	c := testAccount(config.KindCodexCLI)
	c.Nickname = "A&B (x) 50%"
	in = testInput(c)
	in.GOOS = "windows"
	l = mustLaunch(t, in)
	for _, w := range l.Argv {
		if !launch.ConsoleSafe(w) || strings.Contains(w, "%") {
			t.Errorf("codex argument %q holds something cmd.exe reacts to", w)
		}
	}
	if !strings.Contains(l.Argv[4], `PULLCEPT_AGENT_NAME="A\u0026B \u0028x\u0029 50\u0025"`) {
		t.Errorf("codex name not escaped: %s", l.Argv[4])
	}

	// Generic resume line that cmd.exe would cut: refused, not trimmed.
	g := testAccount(config.KindCLI)
	g.ResumeLine = "aider --restore {session_id} & calc"
	in = testInput(g)
	in.GOOS, in.Resume, in.SessionID = "windows", true, testRec
	if _, err := buildLaunch(in); !errors.Is(err, pty.ErrNotConsoleSafe) {
		t.Errorf("unsafe resume line: %v", err)
	}
	// Generic options dropped on cmd.exe take their {session_id} with them.
	g.LaunchOptions = "--s {session_id} >log"
	in = testInput(g)
	in.GOOS = "windows"
	if l := mustLaunch(t, in); l.SessionID != "" || !slices.Equal(l.Argv, []string{"aider"}) {
		t.Errorf("dropped options still handed out an id: %q %q", l.Argv, l.SessionID)
	}
}

func TestViaCmdExe(t *testing.T) {
	t.Parallel()
	for goos, want := range map[string]bool{"linux": false, "darwin": false, "windows": true} {
		if got := launch.ViaCmdExe(goos); got != want {
			t.Errorf("ViaCmdExe(%q) = %v", goos, got)
		}
	}
}

func TestRoomPromptIsLineSafe(t *testing.T) {
	t.Parallel()
	key := launch.MCPKey("8f14e45f-ceea-467a-b160-6f14e45fceea", "topic-with-a-long-id")
	p := launch.RoomPrompt(key)
	for _, r := range p {
		if !launch.LineSafeText(r) {
			t.Fatalf("RoomPrompt holds %q, outside the line-safe set: %s", r, p)
		}
	}
	if !strings.Contains(p, launch.ToolName(key, "say_to_room")) || !strings.Contains(p, "reaches nobody") {
		t.Errorf("RoomPrompt = %s", p)
	}
}

// FuzzBuildLaunch: any options, character and names build without a panic;
// a built line reads back from its preview, never carries the env value,
// and on a cmd.exe line holds no character cmd.exe reacts to.
func FuzzBuildLaunch(f *testing.F) {
	f.Add("claude_code", "--x 'a b'", "char", "Lin", "t", false)
	f.Add("codex_cli", "-c tui.alternate_screen=never", "", "A&B", "t/x", true)
	f.Add("cli", "{session_id} \"q\"", "", "名前", "トピック", true)
	f.Fuzz(func(t *testing.T, kind, options, character, nick, topic string, windows bool) {
		a := testAccount(config.Kind(kind))
		if !a.Kind.Launches() {
			a.Kind = config.KindClaudeCode
		}
		a.LaunchOptions, a.Character, a.Nickname, a.ResumeLine = options, character, nick, options
		in := testInput(a)
		in.TopicID = topic
		if windows {
			in.GOOS = "windows"
		}
		l, err := buildLaunch(in)
		if err != nil {
			return
		}
		back, err := config.SplitWords(l.Preview)
		if err != nil || !slices.Equal(back, l.Argv) {
			t.Fatalf("preview %q does not read back as %q", l.Preview, l.Argv)
		}
		if strings.Contains(l.Preview, testSecret) {
			t.Fatal("env value in the preview")
		}
		if launch.ViaCmdExe(in.GOOS) {
			for _, w := range l.Argv {
				if !launch.ConsoleSafe(w) {
					t.Fatalf("cmd.exe line holds %q", w)
				}
			}
		}
	})
}

func TestPrepareLaunch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sibling := testEntry("lay", testTopic)
	if _, err := launch.Register(dir, sibling, testRoom); err != nil {
		t.Fatal(err)
	}
	a := testAccount(config.KindClaudeCode)
	a.WorkDir = dir
	l, err := prepareLaunch(testInput(a))
	if err != nil {
		t.Fatal(err)
	}
	_, js := argvWithout(l.Argv, "--settings")
	if m := decodeSettings(t, js); !reflect.DeepEqual(m["disabledMcpjsonServers"], []any{sibling.Key}) {
		t.Errorf("sibling not disabled: %v", m["disabledMcpjsonServers"])
	}
	st, err := launch.InspectMCPJSON(dir, "none", testRoom)
	if err != nil || !slices.Contains(st.Others, l.MCPKey) {
		t.Errorf("own entry not registered: %+v %v", st, err)
	}

	// A refusal writes nothing.
	before := readFile(t, filepath.Join(dir, ".mcp.json"))
	b := testAccount(config.KindClaudeCode)
	b.ID, b.WorkDir, b.LaunchOptions = "acc-new", dir, "--settings {}"
	if _, err := prepareLaunch(testInput(b)); !errors.Is(err, claude.ErrOwnSettings) {
		t.Fatalf("want ErrOwnSettings, got %v", err)
	}
	if string(readFile(t, filepath.Join(dir, ".mcp.json"))) != string(before) {
		t.Error("a refused launch changed .mcp.json")
	}

	// A past "continue without" answer is reported.
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.local.json"), []byte(`{"disabledMcpjsonServers":["`+l.MCPKey+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = prepareLaunch(testInput(a))
	if err != nil || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "settings.local.json disables "+l.MCPKey) {
		t.Errorf("disabled key not reported: %q %v", l.Warnings, err)
	}

	// Codex writes no file.
	cx := testAccount(config.KindCodexCLI)
	cx.WorkDir = t.TempDir()
	if _, err := prepareLaunch(testInput(cx)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cx.WorkDir, ".mcp.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a Codex seat wrote .mcp.json (%v)", err)
	}
}

// TestConsoleSafetyReadsTheResolvedCommand: on Windows cmd.exe's check
// reads the file a bare name resolves to on PATH: npm's claude.cmd under a
// folder with a parenthesis is refused (cmd.exe would cut the line), and
// elsewhere — a .cmd or an .exe, both run under cmd.exe — launch options
// holding "&" are dropped with a warning. Before, the check read only the
// name as written.
func TestConsoleSafetyReadsTheResolvedCommand(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCLI)
	a.Command, a.LaunchOptions = "claude", "--say a&b"
	for _, tc := range []struct {
		resolved    string
		refused     bool
		keptOptions bool
	}{
		{`C:\Program Files (x86)\nodejs\claude.cmd`, true, false},
		{`C:\Program Files (x86)\Anthropic\claude.exe`, false, false}, // quoted whole on the line
		{`C:\Tools&More\claude.exe`, true, false},                     // no space: not quoted
		{`C:\Program Files\100%\claude.exe`, true, false},             // % expands even quoted
		{`C:\Users\lin\AppData\Roaming\npm\claude.cmd`, false, false},
		{`C:\tools\claude.exe`, false, false},
		{"", false, false}, // not found on PATH: judged as written (a bare name may be a .cmd)
	} {
		in := testInput(a)
		in.GOOS, in.CommandPath = "windows", tc.resolved
		l, err := buildLaunch(in)
		if tc.refused {
			if !errors.Is(err, pty.ErrNotConsoleSafe) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.resolved)) {
				t.Errorf("%s: %v, want ErrNotConsoleSafe naming the resolved path", tc.resolved, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.resolved, err)
		}
		if kept := slices.Contains(l.Argv, "a&b"); kept != tc.keptOptions {
			t.Errorf("%s: options kept %v, want %v (argv %q, warnings %q)", tc.resolved, kept, tc.keptOptions, l.Argv, l.Warnings)
		}
	}
}

// TestPercentIsNotConsoleSafe: cmd.exe expands %NAME% before it reads the
// line, so an option naming a variable whose value holds & would run it
// (and an env value would land on the command line): options holding %
// are left out on Windows, a resume line holding one is refused; Unix
// keeps them.
func TestPercentIsNotConsoleSafe(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCLI)
	a.LaunchOptions = "--say %GH_TOKEN%"
	in := testInput(a)
	if l := mustLaunch(t, in); !slices.Contains(l.Argv, "%GH_TOKEN%") {
		t.Errorf("linux: options lost: %q", l.Argv)
	}
	in.GOOS = "windows"
	l := mustLaunch(t, in)
	if slices.Contains(l.Argv, "%GH_TOKEN%") || len(l.Warnings) == 0 {
		t.Errorf("windows: %% option kept (%q), warnings %q", l.Argv, l.Warnings)
	}
	a.ResumeLine = "aider --resume {session_id} %X%"
	in = testInput(a)
	in.GOOS, in.Resume, in.SessionID = "windows", true, "abc"
	if _, err := buildLaunch(in); !errors.Is(err, pty.ErrNotConsoleSafe) {
		t.Errorf("windows resume line with %%: %v, want ErrNotConsoleSafe", err)
	}
}

// TestRecordedSessionIDMustBePlain: a recorded id comes from files a seat
// can write; one that is not a plain id never reaches the line.
func TestRecordedSessionIDMustBePlain(t *testing.T) {
	t.Parallel()
	for _, kind := range []config.Kind{config.KindClaudeCode, config.KindCodexCLI} {
		in := testInput(testAccount(kind))
		in.Resume = true
		for _, id := range []string{"x&calc", "%TOKEN%", "a b", "id\nnext"} {
			in.SessionID = id
			if _, err := buildLaunch(in); !errors.Is(err, launch.ErrNoSessionID) {
				t.Errorf("%s resume with id %q: %v, want ErrNoSessionID", kind, id, err)
			}
		}
		in.SessionID = "0193f0a1-7c1e-7d2a-9b1c-3f4e5d6a7b8c"
		mustLaunch(t, in)
	}
}

// TestResolveCommandFindsTheFileOnPATH: a bare name resolves the way the
// spawn resolves it — on Windows with PATHEXT, so "tool" is tool.cmd —
// and a path is left as written.
func TestResolveCommandFindsTheFileOnPATH(t *testing.T) {
	dir := t.TempDir()
	file := "tool"
	if runtime.GOOS == "windows" {
		file = "tool.cmd"
		t.Setenv("PATHEXT", ".COM;.EXE;.BAT;.CMD")
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte("@echo off\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	got := launch.ResolveCommand("tool")
	if !strings.EqualFold(got, filepath.Join(dir, file)) {
		t.Fatalf("ResolveCommand(tool) = %q, want %q", got, filepath.Join(dir, file))
	}
	if got := launch.ResolveCommand(filepath.Join(dir, file)); got != "" {
		t.Fatalf("a path resolved to %q", got)
	}
	if got := launch.ResolveCommand("no-such-tool"); got != "" {
		t.Fatalf("a missing name resolved to %q", got)
	}
}

// TestClaudeReadsTheTopicsAttachments: the topic's attachments folder is
// a folder the seat reads without asking (permissions.additionalDirectories),
// so in default permission mode an attachment's path is enough; on a
// cmd.exe line the path is \u escaped like everything Pullcept writes and
// decodes back whole.
func TestClaudeReadsTheTopicsAttachments(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testRoot(), "data (x86)", "attachments", "トピック")
	for _, goos := range []string{"linux", "windows"} {
		in := testInput(testAccount(config.KindClaudeCode))
		in.GOOS, in.AttachmentsDir = goos, dir
		l := mustLaunch(t, in)
		_, js := argvWithout(l.Argv, "--settings")
		perms, _ := decodeSettings(t, js)["permissions"].(map[string]any)
		if got, _ := perms["additionalDirectories"].([]any); len(got) != 1 || got[0] != dir {
			t.Errorf("%s: additionalDirectories = %v, want [%s]", goos, perms["additionalDirectories"], dir)
		}
		if goos == "windows" && !launch.ConsoleSafe(js) {
			t.Errorf("windows: the settings hold a character cmd.exe reacts to: %s", js)
		}
	}
	in := testInput(testAccount(config.KindClaudeCode))
	_, js := argvWithout(mustLaunch(t, in).Argv, "--settings")
	if perms, _ := decodeSettings(t, js)["permissions"].(map[string]any); perms["additionalDirectories"] != nil {
		t.Errorf("no folder given, yet additionalDirectories = %v", perms["additionalDirectories"])
	}
}

// Every variable a launch sets itself is refused in an account's env field,
// so no account can shadow it («アカウントは環境変数を持つ»).
func TestAppLaunchEnvIsReserved(t *testing.T) {
	t.Parallel()
	names := append(slices.Clone(launch.AppLaunchEnv), room.EnvRoomURL, room.EnvAgentName, room.EnvAccountID, room.EnvRoomID, room.EnvHue, room.EnvUnseenHistory)
	for _, n := range names {
		if _, err := config.SettleEnv(n+"=x", nil, nil); !errors.Is(err, config.ErrEnvReserved) {
			t.Errorf("the env field accepts %s: %v", n, err)
		}
	}
	l, err := buildLaunch(testInput(testAccount(config.KindCLI)))
	if err != nil {
		t.Fatal(err)
	}
	set := 0
	for _, e := range l.Env {
		name, _, _ := strings.Cut(e, "=")
		if slices.Contains(launch.AppLaunchEnv, name) {
			set++
			if !errors.Is(config.CheckEnvName(name), config.ErrEnvReserved) {
				t.Errorf("launch variable %s is not reserved", name)
			}
		}
	}
	if set != 2 {
		t.Errorf("launch env %q should set %s and %s", l.Env, room.EnvLaunchedAs, room.EnvRoomID)
	}
}

// TestCodexCharacterLaunch: a Codex seat's character is LI_PLUS_OUTPUT_STYLE
// in its environment, never on the line; without one nothing is set and
// an inherited value is removed; a name outside #281's grammar and the
// variable in the account's own env are refused.
func TestCodexCharacterLaunch(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCodexCLI)
	a.Character = "character_codex_luna"
	l := mustLaunch(t, testInput(a))
	if !slices.Contains(l.Env, character.EnvOutputStyle+"=character_codex_luna") || !slices.Equal(l.Unset, []string{character.EnvOutputStyle}) {
		t.Fatalf("env %q, unset %q", l.Env, l.Unset)
	}
	if strings.Contains(l.Preview, "luna") {
		t.Fatalf("the character is on the line: %s", l.Preview)
	}
	a.Character = ""
	l = mustLaunch(t, testInput(a))
	for _, kv := range l.Env {
		if strings.HasPrefix(kv, character.EnvOutputStyle+"=") {
			t.Fatalf("no character, env has %s", kv)
		}
	}
	if !slices.Equal(l.Unset, []string{character.EnvOutputStyle}) {
		t.Fatalf("an inherited %s is not removed: %q", character.EnvOutputStyle, l.Unset)
	}
	a.Character = "Luna the Cat"
	if _, err := buildLaunch(testInput(a)); !errors.Is(err, character.ErrName) {
		t.Fatalf("bad name: %v", err)
	}
	a.Character = "luna"
	a.Env = append(a.Env, config.EnvVar{Name: "li_plus_output_style", Value: "x"})
	if _, err := buildLaunch(testInput(a)); !errors.Is(err, character.ErrEnvAppOwned) {
		t.Fatalf("the account's own %s: %v", character.EnvOutputStyle, err)
	}
	c := testAccount(config.KindClaudeCode)
	if l := mustLaunch(t, testInput(c)); len(l.Unset) != 0 || !strings.Contains(l.Preview, `"outputStyle":"character_Lin"`) {
		t.Fatalf("Claude: unset %q, line %s", l.Unset, l.Preview)
	}
	if got := launch.UnsetEnv([]string{"A=1", "li_plus_output_style=x", "LI_PLUS_OUTPUT_STYLE=y", "B=2"}, []string{character.EnvOutputStyle}); !slices.Equal(got, []string{"A=1", "B=2"}) {
		t.Fatalf("unsetEnv = %q", got)
	}
}
