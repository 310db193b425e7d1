package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// settingsFile is a config.json a person wrote by hand: keys Pullcept does
// not know at the top and in an account, the keys map, a language.
const settingsFile = `{
  "future": {"x": [1, 2]},
  "accounts": [
    {"id": "admin", "name": "Me", "kind": "admin", "mine": true}
  ],
  "language": "ja",
  "keys": {"new_topic": ["ctrl+n", "f3"]},
  "zzz": "last"
}
`

// TestSessionOperationsSetting: "all" and "off" are written, the default
// ("topic") leaves the key out, anything else is refused.
func TestSessionOperationsSetting(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, settingsFile)
	base := std(Settings{Language: "ja", Brake: DefaultBrake})
	for _, v := range []string{SessionOpsAll, SessionOpsOff} {
		s := base
		s.SessionOps = v
		if err := b.SetSettings(s); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, FileName))
		if !strings.Contains(string(raw), `"session_operations": "`+v+`"`) || !strings.Contains(string(raw), `"zzz": "last"`) {
			t.Fatalf("after %q:\n%s", v, raw)
		}
		if got, _ := b.SessionOperations(); got != v {
			t.Fatalf("SessionOperations = %q, want %q", got, v)
		}
	}
	s := base
	s.SessionOps = SessionOpsTopic
	if err := b.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); strings.Contains(string(raw), "session_operations") {
		t.Fatalf("the default kept the key:\n%s", raw)
	}
	s.SessionOps = "everyone"
	if err := b.SetSettings(s); !errors.Is(err, ErrBadSetting) || !strings.Contains(err.Error(), `"session_operations"`) {
		t.Fatalf("bad value: %v", err)
	}
	bad, _ := bookOn(t, `{"accounts":[{"id":"admin","name":"Me","kind":"admin"}],"session_operations":7}`)
	if _, err := bad.SessionOperations(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "a number") {
		t.Fatalf("a number in the file: %v", err)
	}
}

// std is s with the notification settings and the card's wait at their
// defaults, as Settings reads a file that leaves them out.
func std(s Settings) Settings {
	s.NotifyDwell, s.NotifyCooldown, s.PermissionWait = DefaultNotifyDwell, DefaultNotifyCooldown, DefaultPermissionWait
	return s
}

// bookOn writes body as dir's config.json and opens a Book on it.
func bookOn(t *testing.T, body string) (*Book, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return NewBook(dir, c, nil), dir
}

// topKeys is the file's top-level keys in order.
func topKeys(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	var o Object
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return o.Keys()
}

// TestSettingsRoundTripKeepsUnknownKeys: the settings overlay's changes
// reach config.json at once, each key in its place, and every key Pullcept
// does not know stays as written (docs/design.md §12); a reload reads them
// back.
func TestSettingsRoundTripKeepsUnknownKeys(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, settingsFile)
	got, err := b.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if want := std(Settings{Language: "ja", Theme: ThemeAuto, Brake: DefaultBrake}); got != want {
		t.Fatalf("settings = %+v, want %+v", got, want)
	}
	if err := b.SetSettings(std(Settings{Language: "en", Theme: ThemeDark, Brake: 4})); err != nil {
		t.Fatal(err)
	}
	if keys, want := topKeys(t, dir), []string{"future", "accounts", "language", "keys", "zzz", "theme", "brake"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Settings()
	if err != nil || s != std(Settings{Language: "en", Theme: ThemeDark, Brake: 4}) {
		t.Fatalf("reloaded settings = %+v, %v", s, err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	for _, want := range []string{`"future": {`, `"mine": true`, `"new_topic": [`, `"zzz": "last"`} {
		if !strings.Contains(strings.Join(strings.Fields(string(raw)), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("config.json lost %s:\n%s", want, raw)
		}
	}

	// Back to the defaults: language and theme leave the file (absent is
	// the locale's and the terminal's); the brake stays written.
	if err := b.SetSettings(std(Settings{Language: "", Theme: ThemeAuto, Brake: DefaultBrake})); err != nil {
		t.Fatal(err)
	}
	if keys, want := topKeys(t, dir), []string{"future", "accounts", "keys", "zzz", "brake"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	c, _, _ = Load(dir)
	if ui, err := c.UI(); err != nil || ui.Theme != ThemeAuto || len(ui.Keys) != 1 {
		t.Fatalf("ui = %+v, %v", ui, err)
	}
}

// TestSettingsUnchangedWritesNothing: the same values again leave the file
// as it is, byte for byte.
func TestSettingsUnchangedWritesNothing(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, settingsFile)
	if err := b.SetSettings(std(Settings{Language: "ja", Brake: DefaultBrake})); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); string(raw) != settingsFile {
		t.Fatalf("file rewritten:\n%s", raw)
	}
}

// TestSettingsRefuseBadValues: a value outside its choices is refused with
// an error naming the key and what to choose; nothing is written and
// memory is unchanged.
func TestSettingsRefuseBadValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    Settings
		want []string
	}{
		{"language", std(Settings{Language: "fr", Theme: ThemeAuto, Brake: DefaultBrake}), []string{`"language": "fr"`, `"en", "ja"`}},
		{"theme", std(Settings{Language: "ja", Theme: "blue", Brake: DefaultBrake}), []string{`"theme": "blue"`, `"light", "dark"`}},
		{"negative brake", std(Settings{Language: "ja", Brake: -1}), []string{`"brake": -1`, "0 to turn the brake off"}},
		{"brake too big", std(Settings{Language: "ja", Brake: MaxBrake + 1}), []string{`"brake": 1001`, "from 1 to 1000"}},
		{"all three", std(Settings{Language: "x", Theme: "y", Brake: -5}), []string{`"language"`, `"theme"`, `"brake"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, dir := bookOn(t, settingsFile)
			err := b.SetSettings(tc.s)
			if !errors.Is(err, ErrBadSetting) {
				t.Fatalf("err = %v, want ErrBadSetting", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); string(raw) != settingsFile {
				t.Fatalf("file written:\n%s", raw)
			}
			if s, _ := b.Settings(); s != std(Settings{Language: "ja", Brake: DefaultBrake}) {
				t.Fatalf("memory changed: %+v", s)
			}
		})
	}
	b, _ := bookOn(t, settingsFile)
	if err := b.SetSettings(std(Settings{Language: "en", Theme: ThemeLight, Brake: 0})); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsKeepAHandWrittenLanguage: a locale-like language written by
// hand stays while another setting changes; changing it is checked.
func TestSettingsKeepAHandWrittenLanguage(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, `{"language": "ja_JP.UTF-8", "brake": 3}`)
	if err := b.SetSettings(std(Settings{Language: "ja_JP.UTF-8", Theme: ThemeLight, Brake: 3})); err != nil {
		t.Fatal(err)
	}
	c, _, _ := Load(dir)
	if s, _ := c.Settings(); s != std(Settings{Language: "ja_JP.UTF-8", Theme: ThemeLight, Brake: 3}) {
		t.Fatalf("settings = %+v", s)
	}
}

// TestSettingsFailedSaveLeavesMemory: a save that fails (the data
// directory is a file) leaves the settings as they were.
func TestSettingsFailedSaveLeavesMemory(t *testing.T) {
	t.Parallel()
	c, _, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	b := NewBook(notDir, c, nil)
	if err := b.SetSettings(std(Settings{Language: "en", Theme: ThemeDark, Brake: 2})); err == nil {
		t.Fatal("a save into a file as the data directory succeeded")
	}
	if s, _ := b.Settings(); s != std(Settings{Brake: DefaultBrake}) {
		t.Fatalf("settings after a failed save = %+v", s)
	}
}

// TestThemeSetting: config.json's "theme": light, dark, or from the
// terminal (absent, null, "auto"); anything else stops the start naming
// the key (ErrBadFile).
func TestThemeSetting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value, want, bad string
	}{
		{"", ThemeAuto, ""},
		{"null", ThemeAuto, ""},
		{`"auto"`, ThemeAuto, ""},
		{`""`, ThemeAuto, ""},
		{`"light"`, ThemeLight, ""},
		{`"dark"`, ThemeDark, ""},
		{`"Dark"`, "", `got "Dark"`},
		{`"blue"`, "", `got "blue"`},
		{"3", "", "got a number"},
		{"[]", "", "got an array"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			t.Parallel()
			body := `{}`
			if tc.value != "" {
				body = `{"theme": ` + tc.value + `}`
			}
			b, _ := bookOn(t, body)
			ui, err := b.UI()
			if tc.bad == "" {
				if err != nil || ui.Theme != tc.want {
					t.Fatalf("theme %q, %v; want %q", ui.Theme, err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), `"theme"`) || !strings.Contains(err.Error(), tc.bad) {
				t.Fatalf("err = %v, want ErrBadFile naming \"theme\" and %s", err, tc.bad)
			}
		})
	}
}
