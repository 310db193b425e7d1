package codex

import (
	"errors"
	"fmt"
	"maps"
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

// appServerAccount is testAccount's Codex account in app-server mode with
// the given launch options.
func appServerAccount(options string) config.Account {
	a := launchkit.Account(config.KindCodexCLI)
	a.CodexAppServer = nil // the default: app-server mode
	a.LaunchOptions = options
	return a
}

// codexRoomServer is the -c value carrying the room server for testInput.
func codexRoomServer(key, unseen string) string {
	return fmt.Sprintf(`mcp_servers.%s={command=%q, args=["sidecar"], env={PULLCEPT_ROOM_URL=%q, PULLCEPT_AGENT_NAME="Lin", PULLCEPT_ACCOUNT_ID="acc-lin", PULLCEPT_ROOM_ID="t-1", PULLCEPT_HUE="145"%s}, env_vars=["PULLCEPT_ROOM_TOKEN", "PULLCEPT_LAUNCHED_AS", "PULLCEPT_ROOM_SOCKET"], enabled=true, default_tools_approval_mode="approve"}`,
		key, launchkit.Pullcept, launchkit.Room, unseen)
}

// wantServerLine is the whole server line for options routed to server.
func wantServerLine(key string, server []string) []string {
	argv := append([]string{"codex"}, server...)
	return append(argv, "-c", codexRoomServer(key, ""), "app-server", "--listen", "ws://127.0.0.1:0",
		"--ws-auth", "capability-token", "--ws-token-sha256", DigestWord)
}

// wantTUILine is the whole TUI line for id and the TUI's own words.
func wantTUILine(id string, tui []string) []string {
	argv := []string{"codex", "resume", id, "--remote", "unix://" + GateWord, "-c", codexNudgeKey + "=true"}
	return append(argv, tui...)
}

// TestCodexNudgeOff: both modes hide Codex's rate-limit model menu, unless
// the options set the key themselves.
func TestCodexNudgeOff(t *testing.T) {
	t.Parallel()
	for _, appServer := range []bool{false, true} {
		a := appServerAccount("")
		a.CodexAppServer = &appServer
		l, err := buildLaunch(launchkit.Input(a))
		if err != nil || !slices.Contains(l.Argv, codexNudgeKey+"=true") {
			t.Errorf("app-server %v: %q lacks the nudge off (%v)", appServer, l.Argv, err)
		}
		a.LaunchOptions = "-c " + codexNudgeKey + "=false"
		if l, err = buildLaunch(launchkit.Input(a)); err != nil || slices.Contains(l.Argv, codexNudgeKey+"=true") {
			t.Errorf("app-server %v: the options' own setting was overridden: %q", appServer, l.Argv)
		}
	}
}

// mustAppServer builds an app-server launch and checks what every such
// launch must hold: a server plan, the two-line preview that reads back as
// the two lines, and no env value or token on either line.
func mustAppServer(t *testing.T, in launch.Input) launch.Launch {
	t.Helper()
	l, err := buildLaunch(in)
	if err != nil {
		t.Fatalf("buildLaunch(%q): %v", in.Account.LaunchOptions, err)
	}
	if l.Server == nil {
		t.Fatalf("buildLaunch(%q): no server plan", in.Account.LaunchOptions)
	}
	server, terminal, ok := strings.Cut(l.Preview, "\n")
	terminal, conversation, _ := strings.Cut(terminal, "\n")
	if !ok || !strings.HasPrefix(server, "app-server: ") || !strings.HasPrefix(terminal, "terminal: ") {
		t.Fatalf("Preview is not the lines app-server:/terminal:\n%s", l.Preview)
	}
	if want := codexPlan(l).Describe(); (want == "") != (conversation == "") || conversation != "" && conversation != "conversation: "+want {
		t.Fatalf("Preview's conversation line %q, want the settings %q", conversation, want)
	}
	for _, tc := range []struct {
		line string
		argv []string
	}{
		{strings.TrimPrefix(server, "app-server: "), codexPlan(l).Argv},
		{strings.TrimPrefix(terminal, "terminal: "), l.Argv},
	} {
		back, err := config.SplitWords(tc.line)
		if err != nil || !slices.Equal(back, tc.argv) {
			t.Fatalf("preview line %q does not read back as %q (%v)", tc.line, tc.argv, err)
		}
	}
	for _, w := range slices.Concat([]string{l.Preview}, l.Argv, codexPlan(l).Argv, l.Warnings) {
		if strings.Contains(w, launchkit.Secret) {
			t.Fatalf("env value on a line: %q", w)
		}
		if strings.Contains(w, EnvRemoteToken+"=") {
			t.Fatalf("a token value on a line: %q", w)
		}
	}
	for _, e := range l.Env {
		if strings.HasPrefix(e, EnvRemoteToken+"=") {
			t.Fatalf("BuildLaunch put the remote token in the env: %q", e)
		}
	}
	return l
}

// TestCodexAppServerLines: the two lines of a fresh and of a resumed
// app-server seat, and the preview showing both.
func TestCodexAppServerLines(t *testing.T) {
	t.Parallel()
	a := appServerAccount("")
	key := launch.MCPKey(a.ID, launchkit.Topic)
	l := mustAppServer(t, launchkit.Input(a))
	if want := wantServerLine(key, nil); !slices.Equal(codexPlan(l).Argv, want) {
		t.Errorf("server line\n%q\nwant\n%q", codexPlan(l).Argv, want)
	}
	if want := wantTUILine(ThreadWord, []string{"--no-alt-screen"}); !slices.Equal(l.Argv, want) {
		t.Errorf("TUI line\n%q\nwant\n%q", l.Argv, want)
	}
	if l.SessionID != "" || l.Resumed || l.MCPKey != key || codexPlan(l).Thread != (Thread{}) || codexPlan(l).Config != nil {
		t.Errorf("fresh launch: SessionID %q Resumed %v key %q thread %+v config %v", l.SessionID, l.Resumed, l.MCPKey, codexPlan(l).Thread, codexPlan(l).Config)
	}
	wantPreview := "app-server: " + config.JoinWords(codexPlan(l).Argv) + "\nterminal: " + config.JoinWords(l.Argv)
	if l.Preview != wantPreview {
		t.Errorf("Preview\n%s\nwant\n%s", l.Preview, wantPreview)
	}
	for _, w := range []string{"--ws-token-sha256 '<sha256>'", "resume '<conversation id>' --remote 'unix://<tui socket>'"} {
		if !strings.Contains(l.Preview, w) {
			t.Errorf("Preview lacks %q:\n%s", w, l.Preview)
		}
	}
	if !slices.Contains(l.Env, "GH_TOKEN="+launchkit.Secret) {
		t.Errorf("the account's env is not in Env: %q", l.Env)
	}

	in := launchkit.Input(a)
	in.Resume, in.SessionID, in.UnseenHistory = true, launchkit.Rec, true
	l = mustAppServer(t, in)
	if want := wantTUILine(launchkit.Rec, []string{"--no-alt-screen"}); !slices.Equal(l.Argv, want) {
		t.Errorf("resumed TUI line\n%q\nwant\n%q", l.Argv, want)
	}
	if !l.Resumed || l.SessionID != launchkit.Rec {
		t.Errorf("resumed: Resumed %v SessionID %q", l.Resumed, l.SessionID)
	}
	wantServer := wantServerLine(key, nil)
	wantServer[2] = "mcp_servers." + key + "=" + strings.TrimPrefix(codexRoomServer(key, `, PULLCEPT_UNSEEN_HISTORY="1"`), "mcp_servers."+key+"=")
	if !slices.Equal(codexPlan(l).Argv, wantServer) {
		t.Errorf("resumed server line\n%q\nwant\n%q", codexPlan(l).Argv, wantServer)
	}
	if strings.Contains(l.Preview, ThreadWord) || strings.Contains(l.Preview, config.SessionIDPlaceholder) {
		t.Errorf("resumed preview still holds a placeholder:\n%s", l.Preview)
	}
}

// TestCodexAppServerMode: nil and true are app-server mode; an explicit
// false keeps the hook line without a server.
func TestCodexAppServerMode(t *testing.T) {
	t.Parallel()
	on, off := true, false
	for _, tc := range []struct {
		name   string
		mode   *bool
		server bool
	}{{"nil", nil, true}, {"true", &on, true}, {"false", &off, false}} {
		a := launchkit.Account(config.KindCodexCLI)
		a.CodexAppServer = tc.mode
		if got := AppServer(a); got != tc.server {
			t.Errorf("%s: AppServer = %v", tc.name, got)
		}
		if !tc.server {
			l := mustLaunch(t, launchkit.Input(a))
			if l.Server != nil || strings.Contains(l.Preview, "app-server") || !slices.Contains(l.Argv, "--model") {
				t.Errorf("%s: hook mode launch %q server %+v", tc.name, l.Argv, l.Server)
			}
			continue
		}
		l := mustAppServer(t, launchkit.Input(a))
		if codexPlan(l).Thread.Model != "gpt-5.5" {
			t.Errorf("%s: thread %+v", tc.name, codexPlan(l).Thread)
		}
	}
	// Only Codex accounts have an app-server mode.
	a := launchkit.Account(config.KindClaudeCode)
	a.CodexAppServer, a.Character = &on, ""
	if l := mustLaunch(t, launchkit.Input(a)); l.Server != nil {
		t.Errorf("a Claude account got a server plan: %+v", l.Server)
	}
}

// TestCodexAppServerRouting: each launch option lands on the conversation,
// the server line or the TUI line.
func TestCodexAppServerRouting(t *testing.T) {
	t.Parallel()
	const nas = "--no-alt-screen"
	tests := []struct {
		options string
		thread  Thread
		config  map[string]any
		server  []string // the server line's words before the room server
		tui     []string // the TUI line's words after its fixed start
	}{
		{"", Thread{}, nil, nil, []string{nas}},
		{"-m gpt-5.5", Thread{Model: "gpt-5.5"}, nil, nil, []string{nas}},
		{"--model gpt-5.5", Thread{Model: "gpt-5.5"}, nil, nil, []string{nas}},
		{"--model=gpt-5.5", Thread{Model: "gpt-5.5"}, nil, nil, []string{nas}},
		{"-a untrusted", Thread{Approval: "untrusted"}, nil, nil, []string{nas}},
		{"-a on-request", Thread{Approval: "on-request"}, nil, nil, []string{nas}},
		{"-a never", Thread{Approval: "never"}, nil, nil, []string{nas}},
		{"--ask-for-approval never", Thread{Approval: "never"}, nil, nil, []string{nas}},
		{"--ask-for-approval=on-request", Thread{Approval: "on-request"}, nil, nil, []string{nas}},
		{"-s read-only", Thread{Sandbox: "read-only"}, nil, nil, []string{nas}},
		{"--sandbox workspace-write", Thread{Sandbox: "workspace-write"}, nil, nil, []string{nas}},
		{"--sandbox=danger-full-access", Thread{Sandbox: "danger-full-access"}, nil, nil, []string{nas}},
		{"--yolo", Thread{Approval: "never", Sandbox: "danger-full-access"}, nil, nil, []string{nas}},
		{"--dangerously-bypass-approvals-and-sandbox", Thread{Approval: "never", Sandbox: "danger-full-access"}, nil, nil, []string{nas}},

		// -c of a conversation setting: the conversation and the server line.
		{"-c model=o3", Thread{Model: "o3"}, nil, []string{"-c", "model=o3"}, []string{nas}},
		{`-c 'model="gpt-5.5"'`, Thread{Model: "gpt-5.5"}, nil, []string{"-c", `model="gpt-5.5"`}, []string{nas}},
		{"-c approval_policy=never", Thread{Approval: "never"}, nil, []string{"-c", "approval_policy=never"}, []string{nas}},
		{`--config 'sandbox_mode="read-only"'`, Thread{Sandbox: "read-only"}, nil, []string{"-c", `sandbox_mode="read-only"`}, []string{nas}},
		{"--config=model_reasoning_effort=high", Thread{Effort: "high"}, map[string]any{"model_reasoning_effort": "high"},
			[]string{"-c", "model_reasoning_effort=high"}, []string{nas}},
		{"-c ' model = o3'", Thread{Model: "o3"}, nil, []string{"-c", " model = o3"}, []string{nas}},
		{"-c model=a -c model=b", Thread{Model: "b"}, nil, []string{"-c", "model=a", "-c", "model=b"}, []string{nas}},

		// A flag beats the -c of its setting, before or after it.
		{"-m flag -c model=conf", Thread{Model: "flag"}, nil, []string{"-c", "model=conf"}, []string{nas}},
		{"-c model=conf -m flag", Thread{Model: "flag"}, nil, []string{"-c", "model=conf"}, []string{nas}},
		{"-a untrusted -c approval_policy=never", Thread{Approval: "untrusted"}, nil, []string{"-c", "approval_policy=never"}, []string{nas}},
		{"-c approval_policy=never -a untrusted", Thread{Approval: "untrusted"}, nil, []string{"-c", "approval_policy=never"}, []string{nas}},
		{"-c sandbox_mode=read-only -s workspace-write", Thread{Sandbox: "workspace-write"}, nil, []string{"-c", "sandbox_mode=read-only"}, []string{nas}},
		{"-s workspace-write -c sandbox_mode=read-only", Thread{Sandbox: "workspace-write"}, nil, []string{"-c", "sandbox_mode=read-only"}, []string{nas}},
		{"--yolo -c approval_policy=untrusted -c sandbox_mode=read-only", Thread{Approval: "never", Sandbox: "danger-full-access"}, nil,
			[]string{"-c", "approval_policy=untrusted", "-c", "sandbox_mode=read-only"}, []string{nas}},
		{"-c approval_policy=untrusted -c sandbox_mode=read-only --yolo", Thread{Approval: "never", Sandbox: "danger-full-access"}, nil,
			[]string{"-c", "approval_policy=untrusted", "-c", "sandbox_mode=read-only"}, []string{nas}},

		// Other -c: the server line only.
		{"-c model_provider=oss", Thread{}, nil, []string{"-c", "model_provider=oss"}, []string{nas}},
		{"--config features.web_search=true", Thread{}, nil, []string{"-c", "features.web_search=true"}, []string{nas}},
		{"-c tuition=1", Thread{}, nil, []string{"-c", "tuition=1"}, []string{nas}},

		// tui.*: the TUI line only.
		{"-c tui.notifications=true", Thread{}, nil, nil, []string{"-c", "tui.notifications=true", nas}},
		{"--config=tui.animations=false", Thread{}, nil, nil, []string{"-c", "tui.animations=false", nas}},
		{"-c tui.alternate_screen=never", Thread{}, nil, nil, []string{"-c", "tui.alternate_screen=never"}},
		{"--config tui.alternate_screen=always", Thread{}, nil, nil, []string{"-c", "tui.alternate_screen=always"}},

		// --enable/--disable: the server line.
		{"--enable unified_exec", Thread{}, nil, []string{"--enable", "unified_exec"}, []string{nas}},
		{"--disable=web_search --enable x", Thread{}, nil, []string{"--disable", "web_search", "--enable", "x"}, []string{nas}},

		// --no-alt-screen: the TUI line, once.
		{"--no-alt-screen", Thread{}, nil, nil, []string{nas}},

		// All at once, each to its place, in order.
		{"-m gpt-5.5 -c tui.notifications=true --enable a -c model_reasoning_effort=low -s read-only --no-alt-screen -c x.y=1",
			Thread{Model: "gpt-5.5", Sandbox: "read-only", Effort: "low"}, map[string]any{"model_reasoning_effort": "low"},
			[]string{"--enable", "a", "-c", "model_reasoning_effort=low", "-c", "x.y=1"},
			[]string{"-c", "tui.notifications=true", nas}},
	}
	for _, tt := range tests {
		t.Run(tt.options, func(t *testing.T) {
			t.Parallel()
			a := appServerAccount(tt.options)
			l := mustAppServer(t, launchkit.Input(a))
			if codexPlan(l).Thread != tt.thread {
				t.Errorf("thread %+v, want %+v", codexPlan(l).Thread, tt.thread)
			}
			if !maps.Equal(codexPlan(l).Config, tt.config) || (codexPlan(l).Config == nil) != (tt.config == nil) {
				t.Errorf("config %v, want %v", codexPlan(l).Config, tt.config)
			}
			if want := wantServerLine(launch.MCPKey(a.ID, launchkit.Topic), tt.server); !slices.Equal(codexPlan(l).Argv, want) {
				t.Errorf("server line\n%q\nwant\n%q", codexPlan(l).Argv, want)
			}
			if want := wantTUILine(ThreadWord, tt.tui); !slices.Equal(l.Argv, want) {
				t.Errorf("TUI line\n%q\nwant\n%q", l.Argv, want)
			}
		})
	}
}

// TestCodexAppServerScreenMode: the alternate screen adds no
// --no-alt-screen; inline adds one unless the options decide the screen.
func TestCodexAppServerScreenMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode, options string
		want          []string
	}{
		{config.ScreenAlt, "", nil},
		{config.ScreenAlt, "-c tui.notifications=true", []string{"-c", "tui.notifications=true"}},
		{config.ScreenAlt, "--no-alt-screen", []string{"--no-alt-screen"}},
		{config.ScreenInline, "", []string{"--no-alt-screen"}},
		{config.ScreenInline, "--no-alt-screen", []string{"--no-alt-screen"}},
		{config.ScreenInline, "-c tui.alternate_screen=auto", []string{"-c", "tui.alternate_screen=auto"}},
	} {
		a := appServerAccount(tc.options)
		a.ScreenMode = tc.mode
		l := mustAppServer(t, launchkit.Input(a))
		if want := wantTUILine(ThreadWord, tc.want); !slices.Equal(l.Argv, want) {
			t.Errorf("mode %q options %q: TUI line\n%q\nwant\n%q", tc.mode, tc.options, l.Argv, want)
		}
		if slices.Contains(codexPlan(l).Argv, "--no-alt-screen") {
			t.Errorf("mode %q options %q: --no-alt-screen on the server line %q", tc.mode, tc.options, codexPlan(l).Argv)
		}
	}
	a := appServerAccount("")
	a.ScreenMode = "fancy"
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, config.ErrBadScreenMode) {
		t.Errorf("unknown screen mode: %v", err)
	}
}

// TestCodexAppServerRefusals: options with no place in an app-server seat
// are refused, naming the word; so are missing and unknown values.
func TestCodexAppServerRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		options string
		says    []string // substrings of the error
	}{
		{"-a on-failure", []string{`-a "on-failure"`, "untrusted, on-request, never"}},
		{"-a always", []string{`-a "always"`}},
		{"--ask-for-approval=bogus", []string{`--ask-for-approval "bogus"`}},
		{"-s full", []string{`-s "full"`, "read-only, workspace-write, danger-full-access"}},
		{"--sandbox=none", []string{`--sandbox "none"`}},
		{"--yolo=1", []string{"--yolo takes no value"}},
		{"--dangerously-bypass-approvals-and-sandbox=true", []string{"--dangerously-bypass-approvals-and-sandbox takes no value"}},
		{"-C /tmp", []string{"-C", "working directory"}},
		{"--cd /tmp", []string{"--cd", "working directory"}},
		{"--cd=/tmp", []string{"--cd", "working directory"}},
		{"-p work", []string{`"-p"`, "hook mode"}},
		{"--profile work", []string{`"--profile"`}},
		{"--search", []string{`"--search"`}},
		{"-i img.png", []string{`"-i"`}},
		{"--image=img.png", []string{`"--image=img.png"`}},
		{"--oss", []string{`"--oss"`}},
		{"-m gpt-5.5 --full-auto", []string{`"--full-auto"`}},
		{"hello", []string{`"hello"`}},
		{"-mgpt-5.5", []string{`"-mgpt-5.5"`}},
		{"-m", []string{"-m needs a value"}},
		{"--model", []string{"--model needs a value"}},
		{"-a", []string{"-a needs a value"}},
		{"--ask-for-approval", []string{"--ask-for-approval needs a value"}},
		{"-s", []string{"-s needs a value"}},
		{"--sandbox", []string{"--sandbox needs a value"}},
		{"-c", []string{"-c needs a value"}},
		{"--config", []string{"--config needs a value"}},
		{"--enable", []string{"--enable needs a value"}},
		{"--disable", []string{"--disable needs a value"}},
		{"-m gpt-5.5 -c", []string{"-c needs a value"}},
		{"-c model", []string{`-c "model" is not key=value`}},
		{"-c =x", []string{`-c "=x" is not key=value`}},
		{"--config ' =x'", []string{`--config " =x" is not key=value`}},
	}
	for _, tt := range tests {
		a := appServerAccount(tt.options)
		l, err := buildLaunch(launchkit.Input(a))
		if !errors.Is(err, ErrOption) {
			t.Errorf("%q: err %v (launch %q), want ErrOption", tt.options, err, l.Argv)
			continue
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%q: %q does not say %q", tt.options, err, s)
			}
		}
	}
}

// TestCodexAppServerPlaceholder: {session_id} has no place on the server
// line, fresh or resumed, nor on a fresh TUI line.
func TestCodexAppServerPlaceholder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		options string
		resume  bool
	}{
		{"-c note={session_id}", false},
		{"-c note={session_id}", true},
		{"--enable {session_id}", false},
		{"--disable=x{session_id}", true},
		{"-c tui.note={session_id}", false},
	} {
		in := launchkit.Input(appServerAccount(tc.options))
		if tc.resume {
			in.Resume, in.SessionID = true, launchkit.Rec
		}
		if _, err := buildLaunch(in); !errors.Is(err, launch.ErrPlaceholder) {
			t.Errorf("%q (resume %v): %v, want ErrPlaceholder", tc.options, tc.resume, err)
		}
	}
}

// TestCodexAppServerPreviewConversation: settings that go to the
// conversation are on neither line, so the preview says them on a third.
func TestCodexAppServerPreviewConversation(t *testing.T) {
	t.Parallel()
	l := mustAppServer(t, launchkit.Input(appServerAccount("--model gpt-5.5 -s workspace-write -a never -c model_reasoning_effort=low")))
	if want := "\nconversation: model gpt-5.5 · approval never · sandbox workspace-write · effort low"; !strings.HasSuffix(l.Preview, want) {
		t.Errorf("preview\n%s\nlacks %q", l.Preview, want)
	}
}

// TestCodexAppServerCharacter: the plan says where the conversation's
// character comes from — Li+'s style file when the project has
// .codex/output-styles or [liplus] output_style, else a heading of the
// user's developer_instructions (#276), which the preview names — and
// checks the name by that mode's rule.
func TestCodexAppServerCharacter(t *testing.T) {
	t.Parallel()
	a := appServerAccount("-m gpt-5.5")
	a.WorkDir = t.TempDir()
	for _, tc := range []struct {
		name string
		want Character
	}{{"character_Lin", Character{"character_Lin", true}}, {"  character_ルナ ", Character{"character_ルナ", true}}, {"", Character{}}} {
		a.Character = tc.name
		l := mustAppServer(t, launchkit.Input(a))
		if got := codexPlan(l).Character; got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.name, got, tc.want)
		}
		if _, conv, _ := strings.Cut(l.Preview, "\nconversation: "); tc.want.Name != "" && conv != "model gpt-5.5 · inline: "+tc.want.Name {
			t.Errorf("%q: preview\n%s", tc.name, l.Preview)
		}
	}
	for _, bad := range []string{"character_Lin x", "character_"} {
		a.Character = bad
		if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, character.ErrName) {
			t.Errorf("inline %q: %v", bad, err)
		}
	}

	if err := os.MkdirAll(filepath.Join(a.WorkDir, ".codex", "output-styles"), 0o755); err != nil {
		t.Fatal(err)
	}
	a.Character = "luna"
	l := mustAppServer(t, launchkit.Input(a))
	if got := codexPlan(l).Character; got != (Character{Name: "luna"}) || strings.Contains(l.Preview, "inline") {
		t.Errorf("file mode: %+v, preview\n%s", got, l.Preview)
	}
	a.Character = "character_ルナ"
	if _, err := buildLaunch(launchkit.Input(a)); !errors.Is(err, character.ErrName) {
		t.Errorf("a style file's name outside #281: %v", err)
	}

	// The selector alone is file mode too; a broken config.toml refuses.
	sel := appServerAccount("")
	sel.WorkDir, sel.Character = t.TempDir(), "luna"
	cfg := filepath.Join(sel.WorkDir, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[liplus]\noutput_style = \"luna\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := codexPlan(mustAppServer(t, launchkit.Input(sel))).Character; got.Inline {
		t.Errorf("selector: %+v", got)
	}
	if err := os.WriteFile(cfg, []byte("[liplus\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := buildLaunch(launchkit.Input(sel)); err == nil || !strings.Contains(err.Error(), "config.toml") {
		t.Errorf("a broken config.toml: %v", err)
	}
}
