package app

import (
	"os"
	"path/filepath"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/tui"
)

// The settings overlay's part of tui.Backend (docs/design.md §10
// "Settings"): config.json's language, theme and brake through
// config.Book, the brake applied to the running hub, the view remembered
// in ui-state.json (uistate.go).

// Settings reads config.json's settings and says where the data lives. A
// hand-written language ("ja_JP.UTF-8") is shown as the language it
// picks.
func (b *Backend) Settings() (tui.SettingsInfo, error) {
	s, err := b.a.accounts.Settings()
	if err != nil {
		return tui.SettingsInfo{}, err
	}
	info := tui.SettingsInfo{
		SettingValues: tui.SettingValues{Language: uiLanguage(s.Language), Theme: s.Theme, Brake: s.Brake, SessionOps: s.SessionOps},
		LanguageEnv:   os.Getenv(config.EnvLanguage),
		BrakeMax:      config.MaxBrake,
		DataDir:       b.a.dataDir,
		DataDirFrom:   dataDirSource(b.a.dataDir),
		ConfigFile:    filepath.Join(b.a.dataDir, config.FileName),
		StateFile:     filepath.Join(b.a.dataDir, uiStateFileName),
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

// SaveSettings saves language, theme and brake in config.json (only what
// changed, keeping every other key; config.Book.SetSettings) and then
// applies the brake to every room (room.Hub.SetBrake). A hand-written
// language that picks the language chosen stays as written. Nothing is
// applied when the save fails.
func (b *Backend) SaveSettings(v tui.SettingValues) error {
	cur, err := b.a.accounts.Settings()
	if err != nil {
		return err
	}
	lang := v.Language
	if lang != "" && uiLanguage(cur.Language) == lang {
		lang = cur.Language
	}
	if err := b.a.accounts.SetSettings(config.Settings{Language: lang, Theme: v.Theme, Brake: v.Brake, SessionOps: v.SessionOps}); err != nil {
		return err
	}
	return b.a.hub.SetBrake(v.Brake)
}

// RememberView records the screen's layout in ui-state.json.
func (b *Backend) RememberView(v tui.ViewState) error { return b.a.rememberView(v) }
