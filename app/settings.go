package app

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/tui"
)

// The settings overlay's part of tui.Backend (docs/design.md §10
// "Settings"): config.json's settings through config.Book, the brake and
// the permission cards' wait applied to the running hub, the view
// remembered in ui-state.json (uistate.go).

// Settings reads config.json's settings and says where the data lives. A
// hand-written language ("ja_JP.UTF-8") is shown as the language it
// picks.
func (b *Backend) Settings() (tui.SettingsInfo, error) {
	s, err := b.a.accounts.Settings()
	if err != nil {
		return tui.SettingsInfo{}, err
	}
	info := tui.SettingsInfo{
		SettingValues: tui.SettingValues{Language: uiLanguage(s.Language), Theme: s.Theme, Avatars: s.Avatars, Brake: s.Brake, SessionOps: s.SessionOps,
			Notify: s.Notify, NotifySequence: s.NotifySequence, NotifyDwell: s.NotifyDwell, NotifyCooldown: s.NotifyCooldown,
			PermissionWait: s.PermissionWait},
		LanguageEnv:       os.Getenv(config.EnvLanguage),
		BrakeMax:          config.MaxBrake,
		PermissionWaitMax: config.MaxPermissionWait,
		DataDir:           b.a.dataDir,
		DataDirFrom:       dataDirSource(b.a.dataDir),
		ConfigFile:        filepath.Join(b.a.dataDir, config.FileName),
		StateFile:         filepath.Join(b.a.dataDir, uiStateFileName),
	}
	if info.SessionOps == "" {
		info.SessionOps = tui.SessionOpsTopic // the default, which the file leaves out
	}
	return info, nil
}

// uiLanguage is a language of config.json as the overlay offers it: "en",
// "ja", or "" (the locale's) for anything it cannot read.
func uiLanguage(s string) string {
	if s == "" {
		return ""
	}
	l, err := tui.ParseLang(s)
	if err != nil {
		return ""
	}
	return string(l)
}

// dataDirSource says how dir was chosen: the default and PULLCEPT_HOME
// are what config.DataDir gives now; any other directory came from the
// --data option.
func dataDirSource(dir string) tui.DataDirSource {
	d, err := config.DataDir()
	switch {
	case err != nil || d != dir:
		return tui.DataDirFlag
	case os.Getenv(config.EnvHome) != "":
		return tui.DataDirEnv
	}
	return tui.DataDirDefault
}

// SaveSettings saves the settings in config.json (only what changed,
// keeping every other key; config.Book.SetSettings) and then applies the
// brake to every room (room.Hub.SetBrake) and the wait to the permission
// cards opened from now on (room.Hub.SetPermissionWait); the notification
// settings are only saved (nothing in the hub rings). A hand-written
// language that picks the language chosen stays as written; Pullcept's
// notices follow a language switch from then on (App.switchLanguage).
// Nothing is applied when the save fails.
func (b *Backend) SaveSettings(v tui.SettingValues) error {
	cur, err := b.a.accounts.Settings()
	if err != nil {
		return err
	}
	lang := v.Language
	switched := uiLanguage(cur.Language) != lang
	if !switched && lang != "" {
		lang = cur.Language
	}
	if err := b.a.accounts.SetSettings(config.Settings{Language: lang, Theme: v.Theme, Avatars: v.Avatars, Brake: v.Brake, SessionOps: v.SessionOps,
		Notify: v.Notify, NotifySequence: v.NotifySequence, NotifyDwell: v.NotifyDwell, NotifyCooldown: v.NotifyCooldown,
		PermissionWait: v.PermissionWait}); err != nil {
		return err
	}
	b.a.switchLanguage(switched, v.Language)
	return errors.Join(b.a.hub.SetBrake(v.Brake), b.a.hub.SetPermissionWait(time.Duration(v.PermissionWait)*time.Second))
}

// RememberView records the screen's layout in ui-state.json.
func (b *Backend) RememberView(v tui.ViewState) error { return b.a.rememberView(v) }
