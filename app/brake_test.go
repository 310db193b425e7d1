package app

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/tui"
)

// TestBrakeThroughTheBackend: with config.json's default brake (12), the
// twelfth AI post in a row reaches the UI as tui.BrakeChanged, the topic
// list says the topic is braked, and the backend's ReleaseBrake releases it
// (docs/design.md §2 "The brake").
func TestBrakeThroughTheBackend(t *testing.T) {
	a, b := openTest(t)
	topic, _ := b.NewTopic()
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	c := a.hub.Connect() // the Shell account's sidecar: role cli, an AI post
	defer c.Close()
	if err := c.Hello(room.Hello{Protocol: room.Protocol, Name: "Shell", Room: topic, AccountID: "sh"}); err != nil {
		t.Fatal(err)
	}
	for i := range config.DefaultBrake {
		res, err := c.Post(room.Draft{Content: fmt.Sprintf("answer %d", i+1)})
		if err != nil || !res.Delivered {
			t.Fatalf("post %d: %v, delivered %v", i+1, err, res.Delivered)
		}
	}
	on := nextEvent(t, b, func(e tui.BrakeChanged) bool { return e.Topic == topic })
	if !on.On || on.Count != config.DefaultBrake {
		t.Fatalf("BrakeChanged = %+v, want on after %d", on, config.DefaultBrake)
	}
	if !braked(t, b, topic) {
		t.Fatal("the topic list does not say the topic is braked")
	}
	if err := b.ReleaseBrake(topic); err != nil {
		t.Fatal(err)
	}
	off := nextEvent(t, b, func(e tui.BrakeChanged) bool { return e.Topic == topic })
	if off.On || braked(t, b, topic) || !off.Released || off.Typed != 1 {
		// The post that engaged the brake was held; the release typed it.
		t.Fatalf("after ReleaseBrake: BrakeChanged %+v, listed braked %v", off, braked(t, b, topic))
	}
	posts, _, err := a.hub.History(topic, "", room.HistoryMax)
	if err != nil {
		t.Fatal(err)
	}
	notice := posts[len(posts)-1]
	if notice.Role != room.RoleApp || !strings.Contains(notice.Content, "presses F9") || !strings.Contains(notice.Content, "(no reply needed)") {
		t.Fatalf("the brake notice %q does not name F9 or say no reply is needed", notice.Content)
	}
}

// braked reports what the topic list says of topic's brake.
func braked(t *testing.T, b *Backend, topic string) bool {
	t.Helper()
	ts, err := b.Topics()
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range ts {
		if ti.ID == topic {
			return ti.Braked
		}
	}
	t.Fatalf("topic %s is not listed", topic)
	return false
}

// TestOpenRefusesABadBrake: a negative or absurd "brake" in config.json
// stops the start with an error naming the key; 0 (off) starts.
func TestOpenRefusesABadBrake(t *testing.T) {
	for _, v := range []string{"-1", "100000", `"12"`} {
		_, err := openConfig(t, `,"brake":`+v)
		if !errors.Is(err, config.ErrBadFile) || !strings.Contains(err.Error(), `"brake"`) {
			t.Errorf("brake %s: Open error %v, want ErrBadFile naming \"brake\"", v, err)
		}
	}
	if _, err := openConfig(t, `,"brake":0`); err != nil {
		t.Errorf("brake 0: %v", err)
	}
}

// TestHoldReason: the panel's reason is the first that applies in the
// typing queue's order; a hold after the human's answer is told apart from
// the open dialog.
func TestHoldReason(t *testing.T) {
	for _, tc := range []struct {
		st   seats.TypistState
		want tui.HoldReason
	}{
		{seats.TypistState{Ready: true}, tui.HoldNone},
		{seats.TypistState{Queued: 1}, tui.HoldNotReady},
		{seats.TypistState{Ready: true, Queued: 1, Holds: []string{cli.HoldPermission}}, tui.HoldPermission},
		{seats.TypistState{Ready: true, Queued: 2, Holds: []string{cli.HoldAnswered}}, tui.HoldAnswered},
		{seats.TypistState{Ready: true, Queued: 1, Holds: []string{cli.HoldAnswered, cli.HoldPermission}}, tui.HoldPermission},
		{seats.TypistState{Ready: true, Queued: 1, Unsent: true}, tui.HoldUnsent},
		// Confirmed delivery (docs/design.md §5): stuck before pending
		// before the turn; a permission hold or unsent text still wins.
		{seats.TypistState{Ready: true, Queued: 1, Stuck: "m1", Pending: "m2", Turn: true}, tui.HoldStuck},
		{seats.TypistState{Ready: true, Queued: 1, Pending: "m2", Turn: true}, tui.HoldConfirm},
		{seats.TypistState{Ready: true, Queued: 1, Turn: true}, tui.HoldTurn},
		{seats.TypistState{Ready: true, Queued: 1, Turn: true, Unsent: true}, tui.HoldUnsent},
		{seats.TypistState{Ready: true, Queued: 1, Stuck: "m1", Holds: []string{cli.HoldPermission}}, tui.HoldPermission},
		{seats.TypistState{Ready: true, Stuck: "m1"}, tui.HoldStuck},
	} {
		if got := holdReason(tc.st); got != tc.want {
			t.Errorf("holdReason(%+v) = %v, want %v", tc.st, got, tc.want)
		}
	}
}

// TestBrakeNoticeFollowsTheLanguage: the brake notice is worded from what
// the app keeps (the room's lock never reads the config): a settings save
// that changes the language changes the next notice's words.
func TestBrakeNoticeFollowsTheLanguage(t *testing.T) {
	a, b := openTest(t)
	if got := a.brakeNotice(3); !strings.Contains(got, "presses F9") {
		t.Fatalf("English notice %q", got)
	}
	s, err := b.Settings()
	if err != nil {
		t.Fatal(err)
	}
	s.Language = "ja"
	if err := b.SaveSettings(s.SettingValues); err != nil {
		t.Fatal(err)
	}
	if got := a.brakeNotice(3); !strings.Contains(got, "F9 でブレーキを解除") || !strings.Contains(got, "（返信不要）") {
		t.Fatalf("after the switch to Japanese: %q", got)
	}
}

// TestNoticesFollowTheLanguageInEffect: started with PULLCEPT_LANGUAGE=ja,
// Pullcept's own notices (the brake's, a fold's, a session operation's:
// uiLang) are Japanese; a switch to English in the settings makes them
// English from then on (issue 35: the brake notice stayed Japanese, the
// environment winning over the switch), a save of another setting keeps
// the language in effect, and "from the locale" is the locale's.
func TestNoticesFollowTheLanguageInEffect(t *testing.T) {
	t.Setenv(config.EnvLanguage, "ja")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "en_US.UTF-8")
	a, b := openTest(t)
	ja := func(when string) {
		t.Helper()
		if got := a.brakeNotice(3); !strings.Contains(got, "F9 でブレーキを解除") || a.uiLang() != tui.LangJapanese {
			t.Fatalf("%s: %q (%s), want Japanese", when, got, a.uiLang())
		}
	}
	en := func(when string) {
		t.Helper()
		if got := a.brakeNotice(3); !strings.Contains(got, "presses F9") || a.uiLang() != tui.LangEnglish {
			t.Fatalf("%s: %q (%s), want English", when, got, a.uiLang())
		}
	}
	ja("at the start")
	s, err := b.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.Language != "" || s.LanguageEnv != "ja" {
		t.Fatalf("settings: language %q, from the environment %q", s.Language, s.LanguageEnv)
	}
	save := func(change func(*tui.SettingValues)) {
		t.Helper()
		change(&s.SettingValues)
		if err := b.SaveSettings(s.SettingValues); err != nil {
			t.Fatal(err)
		}
	}
	save(func(v *tui.SettingValues) { v.Language = "en" })
	en("after the switch to English")
	save(func(v *tui.SettingValues) { v.Brake = 5 })
	en("after the brake changed")
	save(func(v *tui.SettingValues) { v.Language = "ja" })
	ja("after the switch back")
	save(func(v *tui.SettingValues) { v.Language = "" })
	en("from the locale (en_US)")
}
