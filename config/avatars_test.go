package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAvatarsSetting: "initials" is appended after the keys the person
// wrote, which all stay; a reload reads it back; set back to names only
// the key leaves the file (absent is the default).
func TestAvatarsSetting(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, settingsFile)
	s := std(Settings{Language: "ja", Brake: DefaultBrake})
	if got, err := b.Settings(); err != nil || got != s {
		t.Fatalf("settings %+v, %v; want %+v (no avatars key: names only)", got, err, s)
	}
	s.Avatars = AvatarsInitials
	if err := b.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	if keys, want := topKeys(t, dir), []string{"future", "accounts", "language", "keys", "zzz", "avatars"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !strings.Contains(string(raw), `"avatars": "initials"`) {
		t.Fatalf("config.json lacks the setting:\n%s", raw)
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Settings(); err != nil || got != s {
		t.Fatalf("reloaded %+v, %v; want %+v", got, err, s)
	}
	s.Avatars = AvatarsNames
	if err := b.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	if keys, want := topKeys(t, dir), []string{"future", "accounts", "language", "keys", "zzz"}; !slices.Equal(keys, want) {
		t.Fatalf("back to names only: keys %q, want %q", keys, want)
	}
}

// TestAvatarsSettingInTheFile: "names" and null written by hand read as
// the default and stay while another setting changes; anything else is an
// error naming the key (ErrBadFile on read, ErrBadSetting on save) and
// nothing is written.
func TestAvatarsSettingInTheFile(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"avatars": "names"}`, `{"avatars": null}`} {
		b, dir := bookOn(t, body)
		got, err := b.Settings()
		if err != nil || got.Avatars != AvatarsNames {
			t.Fatalf("%s: settings %+v, %v", body, got, err)
		}
		got.Brake = 3
		if err := b.SetSettings(got); err != nil {
			t.Fatal(err)
		}
		if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); !strings.Contains(string(raw), strings.TrimSuffix(strings.TrimPrefix(body, "{"), "}")) {
			t.Fatalf("%s: the hand-written default went:\n%s", body, raw)
		}
	}
	for _, tc := range []struct{ body, got string }{
		{`{"avatars": "images"}`, `got "images"`},
		{`{"avatars": true}`, "got a boolean"},
	} {
		b, _ := bookOn(t, tc.body)
		if _, err := b.Settings(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), `"avatars"`) ||
			!strings.Contains(err.Error(), tc.got) || !strings.Contains(err.Error(), `"initials", or "names"`) {
			t.Errorf("%s: err = %v, want ErrBadFile naming the key, %s and the choices", tc.body, err, tc.got)
		}
	}
	b, dir := bookOn(t, settingsFile)
	s := std(Settings{Language: "ja", Brake: DefaultBrake, Avatars: "pictures"})
	if err := b.SetSettings(s); !errors.Is(err, ErrBadSetting) || !strings.Contains(err.Error(), `"avatars": "pictures"`) {
		t.Fatalf("err = %v, want ErrBadSetting naming the value", err)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); string(raw) != settingsFile {
		t.Fatalf("file written:\n%s", raw)
	}
}
