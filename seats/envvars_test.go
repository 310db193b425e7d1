package seats

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

func TestProcessEnv(t *testing.T) {
	t.Parallel()
	a := config.Account{ID: "acc", Env: []config.EnvVar{
		{Name: "GH_TOKEN", Sealed: "keyring:0:x"}, {Name: "NAME_ONLY"}, {Name: "LI_PLUS_AGENT_KEY", Value: "k"},
	}}
	got, err := processEnv(a, []string{"GH_TOKEN=v=1", "LI_PLUS_AGENT_KEY=k"}, "topic")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GH_TOKEN=v=1", "LI_PLUS_AGENT_KEY=k", "PULLCEPT_LAUNCHED_AS=acc", "PULLCEPT_ROOM_ID=topic"}
	if !slices.Equal(got, want) {
		t.Errorf("processEnv = %q, want %q", got, want)
	}
	a.Env = []config.EnvVar{{Name: "bad name", Value: "x"}}
	if _, err := processEnv(a, nil, "t"); !errors.Is(err, config.ErrEnvSyntax) {
		t.Errorf("bad name: %v", err)
	}
	// The opened values overlay the base environment, first "=" splits.
	get := SeatGetenv([]string{"CLAUDE_CONFIG_DIR=/c=d", "EMPTY="}, func(n string) string { return "base-" + n })
	if get("CLAUDE_CONFIG_DIR") != "/c=d" || get("EMPTY") != "" || get("HOME") != "base-HOME" {
		t.Errorf("SeatGetenv: %q %q %q", get("CLAUDE_CONFIG_DIR"), get("EMPTY"), get("HOME"))
	}
}

// Every variable a launch sets itself is refused in an account's env field,
// so no account can shadow it («アカウントは環境変数を持つ»).
func TestAppLaunchEnvIsReserved(t *testing.T) {
	t.Parallel()
	names := append(slices.Clone(AppLaunchEnv), room.EnvRoomURL, room.EnvAgentName, room.EnvAccountID, room.EnvRoomID, room.EnvHue, room.EnvUnseenHistory)
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
		if slices.Contains(AppLaunchEnv, name) {
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

func TestSidecarVars(t *testing.T) {
	t.Parallel()
	hue := 0
	got := sidecarVars("ws://127.0.0.1:1", "Lin", "acc", "t", &hue, true)
	want := []config.EnvVar{
		{Name: room.EnvRoomURL, Value: "ws://127.0.0.1:1"}, {Name: room.EnvAgentName, Value: "Lin"},
		{Name: room.EnvAccountID, Value: "acc"}, {Name: room.EnvRoomID, Value: "t"},
		{Name: room.EnvHue, Value: "0"}, {Name: room.EnvUnseenHistory, Value: "1"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("sidecarVars = %q", got)
	}
	if got := sidecarVars("u", "n", "a", "t", nil, false); len(got) != 4 {
		t.Errorf("hue and unseen mark must be absent when not declared: %q", got)
	}
}
