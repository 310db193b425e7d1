package launch

import (
	"errors"
	"slices"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

func TestProcessEnv(t *testing.T) {
	t.Parallel()
	a := config.Account{ID: "acc", Env: []config.EnvVar{
		{Name: "GH_TOKEN", Sealed: "keyring:0:x"}, {Name: "NAME_ONLY"}, {Name: "LI_PLUS_AGENT_KEY", Value: "k"},
	}}
	got, err := processEnv(a, []string{"GH_TOKEN=v=1", "LI_PLUS_AGENT_KEY=k"}, "topic", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GH_TOKEN=v=1", "LI_PLUS_AGENT_KEY=k", "PULLCEPT_LAUNCHED_AS=acc", "PULLCEPT_ROOM_ID=topic"}
	if !slices.Equal(got, want) {
		t.Errorf("processEnv = %q, want %q", got, want)
	}
	a.Env = []config.EnvVar{{Name: "bad name", Value: "x"}}
	if _, err := processEnv(a, nil, "t", ""); !errors.Is(err, config.ErrEnvSyntax) {
		t.Errorf("bad name: %v", err)
	}
	// The opened values overlay the base environment, first "=" splits.
	get := SeatGetenv([]string{"CLAUDE_CONFIG_DIR=/c=d", "EMPTY="}, func(n string) string { return "base-" + n })
	if get("CLAUDE_CONFIG_DIR") != "/c=d" || get("EMPTY") != "" || get("HOME") != "base-HOME" {
		t.Errorf("SeatGetenv: %q %q %q", get("CLAUDE_CONFIG_DIR"), get("EMPTY"), get("HOME"))
	}
}

func TestSidecarVars(t *testing.T) {
	t.Parallel()
	hue := 0
	got := SidecarVars("ws://127.0.0.1:1", "Lin", "acc", "t", &hue, true)
	want := []config.EnvVar{
		{Name: room.EnvRoomURL, Value: "ws://127.0.0.1:1"}, {Name: room.EnvAgentName, Value: "Lin"},
		{Name: room.EnvAccountID, Value: "acc"}, {Name: room.EnvRoomID, Value: "t"},
		{Name: room.EnvHue, Value: "0"}, {Name: room.EnvUnseenHistory, Value: "1"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("SidecarVars = %q", got)
	}
	if got := SidecarVars("u", "n", "a", "t", nil, false); len(got) != 4 {
		t.Errorf("hue and unseen mark must be absent when not declared: %q", got)
	}
}
