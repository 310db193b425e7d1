package seats

// The lines of every kind the Manager registers keep the rules every line
// shares (seats/launch): refusals, cmd.exe safety, no secret in argv or
// preview, .mcp.json handling. Each kind's own line is tested in its
// package (seats/cli/...).

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli/claude"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/pty"
)

func TestBuildLaunchRefusals(t *testing.T) {
	t.Parallel()
	cc := launchkit.Account(config.KindClaudeCode)
	with := func(f func(*launch.Input)) launch.Input {
		in := launchkit.Input(cc)
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
			in.Account = launchkit.Account(config.KindCodexCLI)
			in.RoomURL = "ws://example.com/room"
		}), launch.ErrRoomAddress},
		{"codex room wrong scheme", with(func(in *launch.Input) {
			in.Account = launchkit.Account(config.KindCodexCLI)
			in.RoomURL = launchkit.Hooks
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
			if strings.Contains(err.Error(), launchkit.Secret) || strings.Contains(err.Error(), "00ff") {
				t.Errorf("error leaks an env value: %v", err)
			}
		})
	}
}

func TestWindowsCmdExeRules(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindClaudeCode)
	a.LaunchOptions = "--dangerously-skip-permissions --add-dir a&b"
	a.Character = "Lin & Lay (test) 100%"
	in := launchkit.Input(a)
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
	_, js := launchkit.ArgvWithout(l.Argv, "--settings")
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
	in = launchkit.Input(launchkit.Account(config.KindClaudeCode))
	in.GOOS, in.PullceptPath = "windows", filepath.Join(launchkit.Root(), "Program Files (x86)", "pullcept.exe")
	l = mustLaunch(t, in)
	_, js = launchkit.ArgvWithout(l.Argv, "--settings")
	if m := decodeSettings(t, js); m["statusLine"] != nil || m["hooks"] != nil || len(l.Warnings) != 1 {
		t.Errorf("status line kept on an unsafe path: %v %q", m, l.Warnings)
	}

	// Codex: TOML strings escaped, nothing cmd.exe reacts to.
	c := launchkit.Account(config.KindCodexCLI)
	c.Nickname = "A&B (x) 50%"
	in = launchkit.Input(c)
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
	g := launchkit.Account(config.KindCLI)
	g.ResumeLine = "aider --restore {session_id} & calc"
	in = launchkit.Input(g)
	in.GOOS, in.Resume, in.SessionID = "windows", true, launchkit.Rec
	if _, err := buildLaunch(in); !errors.Is(err, pty.ErrNotConsoleSafe) {
		t.Errorf("unsafe resume line: %v", err)
	}
	// Generic options dropped on cmd.exe take their {session_id} with them.
	g.LaunchOptions = "--s {session_id} >log"
	in = launchkit.Input(g)
	in.GOOS = "windows"
	if l := mustLaunch(t, in); l.SessionID != "" || !slices.Equal(l.Argv, []string{"aider"}) {
		t.Errorf("dropped options still handed out an id: %q %q", l.Argv, l.SessionID)
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
		a := launchkit.Account(config.Kind(kind))
		if !a.Kind.Launches() {
			a.Kind = config.KindClaudeCode
		}
		a.LaunchOptions, a.Character, a.Nickname, a.ResumeLine = options, character, nick, options
		in := launchkit.Input(a)
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
		if strings.Contains(l.Preview, launchkit.Secret) {
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
	sibling := testEntry("lay", launchkit.Topic)
	if _, err := launch.Register(dir, sibling, launchkit.Room); err != nil {
		t.Fatal(err)
	}
	a := launchkit.Account(config.KindClaudeCode)
	a.WorkDir = dir
	l, err := prepareLaunch(launchkit.Input(a))
	if err != nil {
		t.Fatal(err)
	}
	_, js := launchkit.ArgvWithout(l.Argv, "--settings")
	if m := decodeSettings(t, js); !reflect.DeepEqual(m["disabledMcpjsonServers"], []any{sibling.Key}) {
		t.Errorf("sibling not disabled: %v", m["disabledMcpjsonServers"])
	}
	st, err := launch.InspectMCPJSON(dir, "none", launchkit.Room)
	if err != nil || !slices.Contains(st.Others, l.MCPKey) {
		t.Errorf("own entry not registered: %+v %v", st, err)
	}

	// A refusal writes nothing.
	before := readFile(t, filepath.Join(dir, ".mcp.json"))
	b := launchkit.Account(config.KindClaudeCode)
	b.ID, b.WorkDir, b.LaunchOptions = "acc-new", dir, "--settings {}"
	if _, err := prepareLaunch(launchkit.Input(b)); !errors.Is(err, claude.ErrOwnSettings) {
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
	l, err = prepareLaunch(launchkit.Input(a))
	if err != nil || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "settings.local.json disables "+l.MCPKey) {
		t.Errorf("disabled key not reported: %q %v", l.Warnings, err)
	}

	// Codex writes no file.
	cx := launchkit.Account(config.KindCodexCLI)
	cx.WorkDir = t.TempDir()
	if _, err := prepareLaunch(launchkit.Input(cx)); err != nil {
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
	a := launchkit.Account(config.KindCLI)
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
		in := launchkit.Input(a)
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
	a := launchkit.Account(config.KindCLI)
	a.LaunchOptions = "--say %GH_TOKEN%"
	in := launchkit.Input(a)
	if l := mustLaunch(t, in); !slices.Contains(l.Argv, "%GH_TOKEN%") {
		t.Errorf("linux: options lost: %q", l.Argv)
	}
	in.GOOS = "windows"
	l := mustLaunch(t, in)
	if slices.Contains(l.Argv, "%GH_TOKEN%") || len(l.Warnings) == 0 {
		t.Errorf("windows: %% option kept (%q), warnings %q", l.Argv, l.Warnings)
	}
	a.ResumeLine = "aider --resume {session_id} %X%"
	in = launchkit.Input(a)
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
		in := launchkit.Input(launchkit.Account(kind))
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
	l, err := buildLaunch(launchkit.Input(launchkit.Account(config.KindCLI)))
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
