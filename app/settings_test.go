package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

// TestSettingsThroughTheBackend: the settings overlay's calls (docs/design.md
// §10 "Settings"): Settings reads config.json as written (a hand-written
// language as the language it picks) and where the data lives;
// SaveSettings writes only what changed, keeps every other key, and the
// running hub brakes at the new limit at once; a bad value is refused and
// changes nothing; the next start's options carry the theme.
func TestSettingsThroughTheBackend(t *testing.T) {
	a, err := openConfig(t, `,"future":{"x":[1]},"language":"ja_JP.UTF-8"`)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(a)
	t.Cleanup(b.Close)
	info, err := b.Settings()
	if err != nil {
		t.Fatal(err)
	}
	want := tui.SettingValues{Language: "ja", Theme: tui.ThemeAuto, Brake: config.DefaultBrake, SessionOps: tui.SessionOpsTopic,
		NotifyDwell: config.DefaultNotifyDwell, NotifyCooldown: config.DefaultNotifyCooldown, PermissionWait: config.DefaultPermissionWait}
	if info.SettingValues != want || info.BrakeMax != config.MaxBrake || info.DataDir != a.dataDir ||
		info.DataDirFrom != tui.DataDirFlag || info.ConfigFile != filepath.Join(a.dataDir, config.FileName) {
		t.Fatalf("settings = %+v", info)
	}

	v := info.SettingValues
	v.Theme, v.Brake = tui.ThemeDark, 2
	if err := b.SaveSettings(v); err != nil {
		t.Fatal(err)
	}
	var file map[string]json.RawMessage
	raw, _ := os.ReadFile(filepath.Join(a.dataDir, config.FileName))
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"language": `"ja_JP.UTF-8"`, "theme": `"dark"`, "brake": "2", "future": `{"x":[1]}`} {
		if got := strings.Join(strings.Fields(string(file[k])), ""); got != v {
			t.Errorf("config.json %q = %s, want %s", k, got, v)
		}
	}
	if opts, err := a.uiOptions(); err != nil || opts.Theme != tui.ThemeDark {
		t.Fatalf("next start's theme %q, %v", opts.Theme, err)
	}

	// The running hub brakes at 2.
	topic, _ := b.NewTopic()
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	c := a.hub.Connect()
	defer c.Close()
	if err := c.Hello(room.Hello{Protocol: room.Protocol, Name: "Shell", Room: topic, AccountID: "sh"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"one", "two"} {
		if res, err := c.Post(room.Draft{Content: s}); err != nil || !res.Delivered {
			t.Fatalf("post %s: %v", s, err)
		}
	}
	on := nextEvent(t, b, func(e tui.BrakeChanged) bool { return e.Topic == topic })
	if !on.On || on.Count != 2 {
		t.Fatalf("BrakeChanged = %+v, want on after 2", on)
	}

	// A bad value: refused, naming the key; nothing changes.
	v.Brake = config.MaxBrake + 1
	err = b.SaveSettings(v)
	if !errors.Is(err, config.ErrBadSetting) || !strings.Contains(err.Error(), `"brake"`) {
		t.Fatalf("err = %v, want ErrBadSetting naming \"brake\"", err)
	}
	if now, _ := b.Settings(); now.Brake != 2 {
		t.Fatalf("brake %d after a refused save", now.Brake)
	}
}

// TestViewRememberedBesideTheTopic: RememberView and rememberTopic each
// write their key of ui-state.json and keep the other's, and keys a later
// version wrote; the next start opens with both.
func TestViewRememberedBesideTheTopic(t *testing.T) {
	a, b := openTest(t)
	path := filepath.Join(a.dataDir, uiStateFileName)
	if err := os.WriteFile(path, []byte(`{"later":{"k":true},"last_topic":"t-0"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if a.lastView() != nil {
		t.Fatal("a view before any was remembered")
	}
	v := tui.ViewState{Topics: false, Participants: true, Panes: true, PaneShare: 70}
	if err := b.RememberView(v); err != nil {
		t.Fatal(err)
	}
	if err := b.RememberTopic("t-1"); err != nil {
		t.Fatal(err)
	}
	opts, err := a.uiOptions()
	if err != nil {
		t.Fatal(err)
	}
	if opts.LastTopic != "t-1" || opts.View == nil || *opts.View != v {
		t.Fatalf("options: last topic %q, view %+v", opts.LastTopic, opts.View)
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"later":{"k":true}`) {
		t.Fatalf("ui-state.json lost a key: %s", raw)
	}
}

// TestNotifySettingsThroughTheBackend: the notification settings and the
// permission cards' wait (issue 33) pass between config.json and the
// overlay as the file has them; the hub starts with the file's wait, and a
// saved wait applies to the next card at once; a wait the room does not
// take is refused naming its key, and nothing changes.
func TestNotifySettingsThroughTheBackend(t *testing.T) {
	a, err := openConfig(t, `,"notifications":"desktop","notify_sequence":"osc9","notify_cooldown":0,"permission_wait":600`)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(a)
	t.Cleanup(b.Close)
	info, err := b.Settings()
	if err != nil {
		t.Fatal(err)
	}
	v := info.SettingValues
	if v.Notify != tui.NotifyDesktop || v.NotifySequence != tui.NotifySeqOSC9 || v.NotifyDwell != config.DefaultNotifyDwell ||
		v.NotifyCooldown != 0 || v.PermissionWait != 600 || info.PermissionWaitMax != config.MaxPermissionWait {
		t.Fatalf("settings = %+v", info)
	}
	if got := a.hub.PermissionWait(); got != 10*time.Minute {
		t.Fatalf("the hub started with a wait of %s, want the file's 10m0s", got)
	}

	v.Notify, v.NotifySequence, v.NotifyDwell, v.PermissionWait = tui.NotifyTerminal, tui.NotifySeqAuto, 30, 1800
	if err := b.SaveSettings(v); err != nil {
		t.Fatal(err)
	}
	if got := a.hub.PermissionWait(); got != 30*time.Minute {
		t.Fatalf("the hub's wait after the save: %s, want 30m0s", got)
	}
	raw, _ := os.ReadFile(filepath.Join(a.dataDir, config.FileName))
	var file map[string]json.RawMessage
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"notify_cooldown": "0", "notify_dwell": "30", "permission_wait": "1800"} {
		if got := string(file[k]); got != want {
			t.Errorf("config.json %q = %s, want %s", k, got, want)
		}
	}
	for _, k := range []string{"notifications", "notify_sequence"} {
		if _, ok := file[k]; ok {
			t.Errorf("config.json keeps %q at its default:\n%s", k, raw)
		}
	}

	v.PermissionWait = config.MaxPermissionWait + 1
	err = b.SaveSettings(v)
	if !errors.Is(err, config.ErrBadSetting) || !strings.Contains(err.Error(), `"permission_wait"`) {
		t.Fatalf("err = %v, want ErrBadSetting naming \"permission_wait\"", err)
	}
	if got := a.hub.PermissionWait(); got != 30*time.Minute {
		t.Fatalf("a refused save moved the hub's wait to %s", got)
	}
}

// TestAvatarsSettingThroughTheBackend: "avatars" passes between
// config.json and the overlay; names only again takes the key out.
func TestAvatarsSettingThroughTheBackend(t *testing.T) {
	a, err := openConfig(t, `,"avatars":"initials"`)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(a)
	t.Cleanup(b.Close)
	info, err := b.Settings()
	if err != nil || info.Avatars != tui.AvatarsInitials {
		t.Fatalf("settings = %+v, %v; want initials", info, err)
	}
	v := info.SettingValues
	v.Avatars = tui.AvatarsNames
	if err := b.SaveSettings(v); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(a.dataDir, config.FileName))
	if strings.Contains(string(raw), `"avatars"`) {
		t.Fatalf("config.json keeps \"avatars\" at its default:\n%s", raw)
	}
	if info, err := b.Settings(); err != nil || info.Avatars != tui.AvatarsNames {
		t.Fatalf("after the save: %+v, %v", info, err)
	}
}

// TestBadPermissionWaitStopsTheStart: a "permission_wait" the room cannot
// take stops the start naming the key, as a bad brake does.
func TestBadPermissionWaitStopsTheStart(t *testing.T) {
	_, err := openConfig(t, `,"permission_wait":7200`)
	if !errors.Is(err, config.ErrBadFile) || !strings.Contains(err.Error(), `"permission_wait"`) {
		t.Fatalf("err = %v, want ErrBadFile naming \"permission_wait\"", err)
	}
}

// TestNotifyValuesMatch: the overlay's values are config.json's, passed
// through as they are.
func TestNotifyValuesMatch(t *testing.T) {
	t.Parallel()
	for _, p := range [][2]string{
		{tui.NotifyTerminal, config.NotifyTerminal}, {tui.NotifyOff, config.NotifyOff}, {tui.NotifyDesktop, config.NotifyDesktop},
		{tui.NotifySeqAuto, config.SequenceAuto}, {tui.NotifySeqOSC9, config.SequenceOSC9},
		{tui.NotifySeqOSC777, config.SequenceOSC777}, {tui.NotifySeqBEL, config.SequenceBEL}, {tui.NotifySeqOSC99, config.SequenceOSC99},
		{tui.AvatarsNames, config.AvatarsNames}, {tui.AvatarsInitials, config.AvatarsInitials},
	} {
		if p[0] != p[1] {
			t.Errorf("tui %q, config %q", p[0], p[1])
		}
	}
}
