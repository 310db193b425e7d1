// Package launchkit holds the launch-line fixtures the seat kinds' tests
// share (seats/launch, seats/cli/...): an account of each kind with a
// secret in its env, the input that builds its line, and a Build that
// fails the test when the line leaks the secret or its preview does not
// read back as its argv (docs/design.md §9: the editor previews the exact
// line; env values never reach argv, preview or warnings).
package launchkit

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
)

// The fixtures' ids, room and secret.
const (
	ID     = "11111111-2222-4333-8444-555555555555" // a fresh session id
	Rec    = "99999999-8888-4777-8666-555555555555" // a recorded one
	Topic  = "t-1"
	Secret = "s3cr3t-token-value"
	Room   = "ws://127.0.0.1:4100/room"
	Hooks  = "http://127.0.0.1:4100"
)

// Root is an absolute root on the running OS.
func Root() string {
	if runtime.GOOS == "windows" {
		return `C:\`
	}
	return "/"
}

// Pullcept is where the fixtures say our executable is.
var Pullcept = filepath.Join(Root(), "opt", "pullcept", "bin", "pullcept")

// Account is "Claude Lin" of kind, with a secret and a name-only variable
// in its env and the kind's usual command and options (a Codex account in
// hook mode; the app-server lines have their own fixtures).
func Account(kind config.Kind) config.Account {
	hue := 145
	a := config.Account{
		ID: "acc-lin", Name: "Claude Lin", Nickname: "Lin", Kind: kind, Hue: &hue,
		WorkDir: filepath.Join(Root(), "work", "shared"),
		Env:     []config.EnvVar{{Name: "GH_TOKEN", Value: Secret}, {Name: "GH_CONFIG_DIR", Value: ""}},
	}
	switch kind {
	case config.KindClaudeCode:
		a.Command, a.LaunchOptions, a.Character = "claude", "--dangerously-skip-permissions", "character_Lin"
	case config.KindCodexCLI:
		hook := false
		a.Command, a.LaunchOptions, a.CodexAppServer = "codex", "--model gpt-5.5", &hook
	default:
		a.Command, a.LaunchOptions = "aider", "--yes"
	}
	return a
}

// Input is a's launch input in Topic on Linux, with the env the Manager
// would open from a.Env and ID for a fresh session id.
func Input(a config.Account) launch.Input {
	return launch.Input{
		Account: a, TopicID: Topic, PullceptPath: Pullcept,
		RoomURL: Room, HooksURL: Hooks, GOOS: "linux",
		NewID: func() (string, error) { return ID, nil },
		Env:   []string{"GH_TOKEN=" + Secret},
	}
}

// Build builds in's line for kind k and fails t when it is refused, when
// the secret shows in argv, preview or warnings, or when the preview does
// not read back as argv.
func Build(t *testing.T, in launch.Input, k launch.Kind) launch.Launch {
	t.Helper()
	l, err := launch.Build(in, k)
	if err != nil {
		t.Fatalf("launch.Build: %v", err)
	}
	back, err := config.SplitWords(l.Preview)
	if err != nil || !slices.Equal(back, l.Argv) {
		t.Fatalf("Preview %q does not read back as Argv %q (%v)", l.Preview, l.Argv, err)
	}
	for _, w := range append(append([]string{l.Preview}, l.Argv...), l.Warnings...) {
		if strings.Contains(w, Secret) {
			t.Fatalf("env value leaked into argv/preview/warnings: %q", w)
		}
	}
	return l
}

// ArgvWithout returns argv with the value after flag replaced by "<flag>",
// so tests can compare the rest exactly and the value separately.
func ArgvWithout(argv []string, flag string) ([]string, string) {
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
