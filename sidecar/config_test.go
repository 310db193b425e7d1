package sidecar

import (
	"errors"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/room"
)

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	base := func() map[string]string { return testEnv("ws://127.0.0.1:4000/room") }
	cases := []struct {
		name    string
		mutate  func(map[string]string)
		refused string // substring of the reason; "" = joins
		check   func(*testing.T, config, []string)
	}{
		{name: "complete", check: func(t *testing.T, c config, notes []string) {
			if c.name != "Lin" || c.roomID != "topic-1" || c.accountID != "acct-lin" || c.token != testToken ||
				c.hue == nil || *c.hue != 200 || c.unseenHistory || len(notes) != 0 {
				t.Fatalf("config = %+v notes %v", c, notes)
			}
		}},
		{name: "launched as another", mutate: func(e map[string]string) { e[room.EnvLaunchedAs] = "acct-x" }, refused: `launched as account "acct-x"`},
		{name: "no launched as", mutate: func(e map[string]string) { e[room.EnvLaunchedAs] = "  " }, refused: room.EnvLaunchedAs + " is not set"},
		{name: "no account id", mutate: func(e map[string]string) { delete(e, room.EnvAccountID) }, refused: room.EnvAccountID + " is not set"},
		{name: "neither", mutate: func(e map[string]string) { delete(e, room.EnvAccountID); delete(e, room.EnvLaunchedAs) }, refused: "are not set"},
		{name: "no token", mutate: func(e map[string]string) { delete(e, room.EnvRoomToken) }, refused: room.EnvRoomToken},
		{name: "no url", mutate: func(e map[string]string) { delete(e, room.EnvRoomURL) }, refused: room.EnvRoomURL},
		{name: "no name", mutate: func(e map[string]string) { e[room.EnvAgentName] = "" }, refused: room.EnvAgentName},
		{name: "no room", mutate: func(e map[string]string) { delete(e, room.EnvRoomID) }, refused: room.EnvRoomID},
		{name: "remote host", mutate: func(e map[string]string) { e[room.EnvRoomURL] = "ws://example.com:4000/room" }, refused: "not a loopback"},
		{name: "wss", mutate: func(e map[string]string) { e[room.EnvRoomURL] = "wss://127.0.0.1:4000/room" }, refused: "not a ws:// URL"},
		{name: "ipv6 loopback and localhost", mutate: func(e map[string]string) { e[room.EnvRoomURL] = "ws://[::1]:4000/room" }},
		{name: "localhost", mutate: func(e map[string]string) { e[room.EnvRoomURL] = "ws://localhost:4000/" }},
		{name: "hue out of range", mutate: func(e map[string]string) { e[room.EnvHue] = "360" }, check: func(t *testing.T, c config, notes []string) {
			if c.hue != nil || len(notes) != 1 || !strings.Contains(notes[0], room.EnvHue) {
				t.Fatalf("hue 360: hue %v notes %v", c.hue, notes)
			}
		}},
		{name: "hue not a number", mutate: func(e map[string]string) { e[room.EnvHue] = "blue" }, check: func(t *testing.T, c config, notes []string) {
			if c.hue != nil || len(notes) != 1 {
				t.Fatalf("hue blue: hue %v notes %v", c.hue, notes)
			}
		}},
		{name: "hue unset", mutate: func(e map[string]string) { delete(e, room.EnvHue) }, check: func(t *testing.T, c config, notes []string) {
			if c.hue != nil || len(notes) != 0 {
				t.Fatalf("no hue: hue %v notes %v", c.hue, notes)
			}
		}},
		{name: "hue zero", mutate: func(e map[string]string) { e[room.EnvHue] = "0" }, check: func(t *testing.T, c config, _ []string) {
			if c.hue == nil || *c.hue != 0 {
				t.Fatalf("hue 0 → %v", c.hue)
			}
		}},
		{name: "unseen history", mutate: func(e map[string]string) { e[room.EnvUnseenHistory] = "1" }, check: func(t *testing.T, c config, _ []string) {
			if !c.unseenHistory {
				t.Fatal("PULLCEPT_UNSEEN_HISTORY=1 not read")
			}
		}},
		{name: "unseen history 0", mutate: func(e map[string]string) { e[room.EnvUnseenHistory] = "0" }, check: func(t *testing.T, c config, _ []string) {
			if c.unseenHistory {
				t.Fatal("PULLCEPT_UNSEEN_HISTORY=0 read as set")
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := base()
			if tc.mutate != nil {
				tc.mutate(env)
			}
			cfg, notes, err := loadConfig(func(k string) string { return env[k] })
			if tc.refused != "" {
				if !errors.Is(err, ErrNotJoining) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("err = %v, want ErrNotJoining mentioning %q", err, tc.refused)
				}
				if strings.Contains(err.Error(), testToken) {
					t.Fatal("the reason names the token")
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if tc.check != nil {
				tc.check(t, cfg, notes)
			}
		})
	}
}
