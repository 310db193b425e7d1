package config

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/viper"
)

// Top-level config.json keys the UI reads (the user edits them by hand).
const (
	keyKeys     = "keys"
	keyLanguage = "language"
)

// UI is the screen's own settings from config.json (docs/design.md §10, §12):
// Keys overrides key bindings by action name (e.g. {"new_topic": ["ctrl+n"]});
// Language is "en", "ja" or "" (from the locale).
type UI struct {
	Keys     map[string][]string
	Language string
}

// UI returns the UI settings: "keys" and "language" from config.json, with
// the scalar Language overridable by the environment variable
// PULLCEPT_LANGUAGE. Viper layers only that scalar: it lower-cases keys, so
// it never reads the keys map (action names are ours, but the rule is
// simple: maps stay with encoding/json). Errors name the key and wrap
// ErrBadFile.
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
	v := viper.New()
	v.SetEnvPrefix("PULLCEPT")
	if err := v.BindEnv(keyLanguage); err != nil {
		return UI{}, fmt.Errorf("language override: %w", err)
	}
	v.SetDefault(keyLanguage, ui.Language)
	ui.Language = v.GetString(keyLanguage)
	return ui, nil
}
