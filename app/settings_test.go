package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	want := tui.SettingValues{Language: "ja", Theme: tui.ThemeAuto, Brake: config.DefaultBrake, SessionOps: tui.SessionOpsTopic}
	if info.SettingValues != want || info.BrakeMax != config.MaxBrake || info.DataDir != a.dataDir ||
		info.DataDirFrom != tui.DataDirFlag || info.ConfigFile != filepath.Join(a.dataDir, config.FileName) {
		t.Fatalf("settings = %+v", info)
	}

	if err := b.SaveSettings(tui.SettingValues{Language: "ja", Theme: tui.ThemeDark, Brake: 2}); err != nil {
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
	err = b.SaveSettings(tui.SettingValues{Language: "ja", Theme: tui.ThemeDark, Brake: config.MaxBrake + 1})
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
