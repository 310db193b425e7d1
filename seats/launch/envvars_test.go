package launch

import (
	"errors"
	"path/filepath"
	"runtime"
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

// TestSeatDir: a folder a seat's environment names is the CLI's: a
// relative one is under the seat's working directory, an absolute one is
// as written; on Windows a path rooted without a drive takes the working
// directory's drive.
func TestSeatDir(t *testing.T) {
	t.Parallel()
	work := filepath.Join(string(filepath.Separator), "work", "seat")
	abs := filepath.Join(string(filepath.Separator), "cfg")
	if runtime.GOOS == "windows" {
		work, abs = `D:\work\seat`, `C:\cfg`
		if got := SeatDir(work, `\cfg`); got != `D:\cfg` {
			t.Errorf("rooted without a drive: %q", got)
		}
	}
	for _, tc := range []struct{ work, dir, want string }{
		{work, "cx", filepath.Join(work, "cx")},
		{work, filepath.Join("..", "cx"), filepath.Join(filepath.Dir(work), "cx")},
		{work, abs, abs},
		{work, "", ""},
		{"", "cx", "cx"},
	} {
		if got := SeatDir(tc.work, tc.dir); got != tc.want {
			t.Errorf("SeatDir(%q, %q) = %q, want %q", tc.work, tc.dir, got, tc.want)
		}
	}
}
