package config

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/viper"
)

// Top-level config.json keys the UI reads (the user edits them by hand).
const (
	keyKeys     = "keys"
	keyLanguage = "language"
	keyTheme    = "theme"
)

// The values of config.json "theme" (docs/design.md §10 "Colours adapt").
// ThemeAuto, the key absent (or written "auto"), follows the terminal's
// background.
const (
	ThemeAuto  = ""
	ThemeLight = "light"
	ThemeDark  = "dark"
)

// EnvLanguage names the variable that overrides config.json's "language"
// at each start (UI).
const EnvLanguage = "PULLCEPT_LANGUAGE"

// themeAutoWord is how a person may write ThemeAuto in the file.
const themeAutoWord = "auto"

// UI is the screen's own settings from config.json (docs/design.md §10, §12):
// Keys overrides key bindings by action name (e.g. {"new_topic": ["ctrl+n"]});
// Language is "en", "ja" or "" (from the locale); Theme is ThemeLight,
// ThemeDark or ThemeAuto.
type UI struct {
	Keys     map[string][]string
	Language string
	Theme    string
}

// UI returns the UI settings: "keys", "language" and "theme" from
// config.json, with the scalar Language overridable by the environment
// variable PULLCEPT_LANGUAGE. Viper layers only that scalar: it lower-cases
// keys, so it never reads the keys map (action names are ours, but the rule
// is simple: maps stay with encoding/json), and its getters coerce a wrong
// value where we refuse it (docs/dependencies.md §6 says why it stays that
// small). Errors name the key and wrap ErrBadFile.
func (c *Config) UI() (UI, error) {
	var ui UI
	if raw, ok := c.top.Get(keyKeys); ok {
		if err := json.Unmarshal(raw, &ui.Keys); err != nil {
			return UI{}, fmt.Errorf("%s: %q must map action names to lists of keys: %w", FileName, keyKeys, ErrBadFile)
		}
	}
	if raw, ok := c.top.Get(keyLanguage); ok {
		if err := json.Unmarshal(raw, &ui.Language); err != nil {
			return UI{}, fmt.Errorf("%s: %q must be a string: %w", FileName, keyLanguage, ErrBadFile)
		}
	}
	theme, err := c.theme()
	if err != nil {
		return UI{}, err
	}
	ui.Theme = theme
	v := viper.New()
	if err := v.BindEnv(keyLanguage, EnvLanguage); err != nil {
		return UI{}, fmt.Errorf("language override: %w", err)
	}
	v.SetDefault(keyLanguage, ui.Language)
	ui.Language = v.GetString(keyLanguage)
	return ui, nil
}

// theme is config.json's "theme": ThemeAuto when absent, null or "auto".
// Anything but "light", "dark" or "auto" is an error naming the key and
// wrapping ErrBadFile.
func (c *Config) theme() (string, error) {
	raw, ok := c.top.Get(keyTheme)
	if !ok || strings.TrimSpace(string(raw)) == "null" {
		return ThemeAuto, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		switch s {
		case ThemeLight, ThemeDark:
			return s, nil
		case ThemeAuto, themeAutoWord:
			return ThemeAuto, nil
		}
	}
	got := jsonKind(raw)
	if got == "a string" && len(raw) <= 40 {
		got = string(raw)
	}
	return "", fmt.Errorf("%s: %q must be %q, %q or %q (from the terminal); got %s: %w",
		FileName, keyTheme, ThemeLight, ThemeDark, themeAutoWord, got, ErrBadFile)
}
