package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNotifySettingsRoundTrip: the notification settings and the card's
// wait reach config.json as the overlay changes them, appended after the
// keys the person wrote, which all stay; a reload reads them back; back to
// the defaults, the two choices leave the file and the numbers stay
// written (as the brake does).
func TestNotifySettingsRoundTrip(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, settingsFile)
	s := std(Settings{Language: "ja", Brake: DefaultBrake})
	s.Notify, s.NotifySequence, s.NotifyDwell, s.NotifyCooldown, s.PermissionWait = NotifyDesktop, SequenceOSC777, 0, 300, 600
	if err := b.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	want := []string{"future", "accounts", "language", "keys", "zzz",
		"notifications", "notify_sequence", "notify_dwell", "notify_cooldown", "permission_wait"}
	if keys := topKeys(t, dir); !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	for _, w := range []string{`"notifications": "desktop"`, `"notify_sequence": "osc777"`, `"notify_dwell": 0`,
		`"notify_cooldown": 300`, `"permission_wait": 600`, `"zzz": "last"`, `"new_topic": [`} {
		if !strings.Contains(string(raw), w) {
			t.Errorf("config.json lacks %s:\n%s", w, raw)
		}
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Settings(); err != nil || got != s {
		t.Fatalf("reloaded %+v, %v; want %+v", got, err, s)
	}
	if n, err := b.PermissionWait(); err != nil || n != 600 {
		t.Fatalf("PermissionWait = %d, %v", n, err)
	}

	s.Notify, s.NotifySequence, s.NotifyDwell, s.NotifyCooldown, s.PermissionWait = NotifyTerminal, SequenceAuto,
		DefaultNotifyDwell, DefaultNotifyCooldown, DefaultPermissionWait
	if err := b.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	want = []string{"future", "accounts", "language", "keys", "zzz", "notify_dwell", "notify_cooldown", "permission_wait"}
	if keys := topKeys(t, dir); !slices.Equal(keys, want) {
		t.Fatalf("back to the defaults: keys %q, want %q", keys, want)
	}
}

// TestNotifySettingsRefused: a value outside its choices or range is
// refused naming its key and what it takes; nothing is written.
func TestNotifySettingsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		set  func(*Settings)
		want []string
	}{
		{"notifications", func(s *Settings) { s.Notify = "loud" }, []string{`"notifications": "loud"`, `"off", "desktop", or "terminal"`}},
		{"sequence", func(s *Settings) { s.NotifySequence = "osc98" }, []string{`"notify_sequence": "osc98"`, `"osc9", "osc777", "osc99", "bel", or "auto"`}},
		{"negative dwell", func(s *Settings) { s.NotifyDwell = -1 }, []string{`"notify_dwell": -1`, "from 0 to 600"}},
		{"dwell too long", func(s *Settings) { s.NotifyDwell = MaxNotifyDwell + 1 }, []string{`"notify_dwell": 601`}},
		{"cooldown too long", func(s *Settings) { s.NotifyCooldown = 3601 }, []string{`"notify_cooldown": 3601`, "from 0 to 3600"}},
		{"no card wait", func(s *Settings) { s.PermissionWait = 0 }, []string{`"permission_wait": 0`, "from 30 to 3600"}},
		{"card wait too short", func(s *Settings) { s.PermissionWait = MinPermissionWait - 1 }, []string{`"permission_wait": 29`}},
		{"card wait too long", func(s *Settings) { s.PermissionWait = MaxPermissionWait + 1 }, []string{`"permission_wait": 3601`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, dir := bookOn(t, settingsFile)
			s := std(Settings{Language: "ja", Brake: DefaultBrake})
			tc.set(&s)
			err := b.SetSettings(s)
			if !errors.Is(err, ErrBadSetting) {
				t.Fatalf("err = %v, want ErrBadSetting", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %s", err, w)
				}
			}
			if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); string(raw) != settingsFile {
				t.Fatalf("file written:\n%s", raw)
			}
		})
	}
}

// TestNotifySettingsInTheFile: what a person may write by hand — the
// defaults spelt out ("terminal", "auto"), null — reads as the defaults,
// and stays as written while another setting changes; anything else is
// an error naming the key (ErrBadFile), which the overlay shows.
func TestNotifySettingsInTheFile(t *testing.T) {
	t.Parallel()
	b, dir := bookOn(t, `{"notifications": "terminal", "notify_sequence": "auto", "notify_dwell": null, "permission_wait": 3600}`)
	got, err := b.Settings()
	want := std(Settings{Brake: DefaultBrake})
	want.PermissionWait = 3600
	if err != nil || got != want {
		t.Fatalf("settings %+v, %v; want %+v", got, err, want)
	}
	got.Brake = 3
	if err := b.SetSettings(got); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !strings.Contains(string(raw), `"notifications": "terminal"`) || !strings.Contains(string(raw), `"notify_sequence": "auto"`) {
		t.Fatalf("the hand-written defaults went:\n%s", raw)
	}

	for _, tc := range []struct{ body, key, got string }{
		{`{"notifications": "bell"}`, `"notifications"`, `got "bell"`},
		{`{"notifications": true}`, `"notifications"`, "got a boolean"},
		{`{"notify_sequence": 9}`, `"notify_sequence"`, "got a number"},
		{`{"notify_dwell": "5"}`, `"notify_dwell"`, "got a string"},
		{`{"notify_dwell": 2.5}`, `"notify_dwell"`, "got 2.5"},
		{`{"notify_cooldown": -1}`, `"notify_cooldown"`, "got -1"},
		{`{"permission_wait": 7200}`, `"permission_wait"`, "got 7200"},
		{`{"permission_wait": 10}`, `"permission_wait"`, "from 30 to 3600"},
	} {
		b, _ := bookOn(t, tc.body)
		if _, err := b.Settings(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), tc.key) || !strings.Contains(err.Error(), tc.got) {
			t.Errorf("%s: err = %v, want ErrBadFile naming %s and %s", tc.body, err, tc.key, tc.got)
		}
	}
	bad, _ := bookOn(t, `{"permission_wait": "long"}`)
	if _, err := bad.PermissionWait(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), `"permission_wait"`) {
		t.Fatalf("PermissionWait of a string: %v", err)
	}
}
