package config

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Settings are the config.json keys the settings overlay changes
// (docs/design.md §10 "Settings", §12): Language as the file has it ("en",
// "ja", or "" for the locale; PULLCEPT_LANGUAGE is not layered here: the
// overlay says when it overrides the file), Theme (ThemeLight, ThemeDark or
// ThemeAuto), Brake (0 off, up to MaxBrake; DefaultBrake when absent) and
// SessionOps ("session_operations", docs/design.md §15: "" or SessionOpsTopic
// for the default, which the file says by leaving the key out).
type Settings struct {
	Language   string
	Theme      string
	Brake      int
	SessionOps string
}

// The languages a setting may choose ("" is the locale's). The file may
// hold a locale-like value ("ja_JP.UTF-8") written by hand: it is kept
// while the language is not changed.
const (
	langEnglish  = "en"
	langJapanese = "ja"
)

// Settings returns the file's language, theme and brake. A value the file
// holds wrongly is an error naming its key (ErrBadFile), as UI and Brake
// say it.
func (c *Config) Settings() (Settings, error) {
	var s Settings
	if raw, ok := c.top.Get(keyLanguage); ok {
		var lang *string
		if err := json.Unmarshal(raw, &lang); err != nil {
			return Settings{}, fmt.Errorf("%s: %q must be a string: %w", FileName, keyLanguage, ErrBadFile)
		}
		if lang != nil {
			s.Language = *lang
		}
	}
	var err error
	if s.Theme, err = c.theme(); err != nil {
		return Settings{}, err
	}
	if s.Brake, err = c.Brake(); err != nil {
		return Settings{}, err
	}
	if s.SessionOps, err = c.SessionOperations(); err != nil {
		return Settings{}, err
	}
	if s.SessionOps == SessionOpsTopic {
		s.SessionOps = "" // the default
	}
	return s, nil
}

// The settings' own checks refuse a value they cannot take, naming its key
// (ErrBadSetting): a language but "en", "ja" or "" (the locale), a theme
// but ThemeLight, ThemeDark or ThemeAuto, a brake outside 0–MaxBrake.

func checkLanguage(lang string) error {
	switch lang {
	case "", langEnglish, langJapanese:
		return nil
	}
	return fmt.Errorf("%q: %q is not a language Pullcept speaks: choose %q, %q or none (from the locale): %w",
		keyLanguage, lang, langEnglish, langJapanese, ErrBadSetting)
}

func checkTheme(theme string) error {
	switch theme {
	case ThemeAuto, ThemeLight, ThemeDark:
		return nil
	}
	return fmt.Errorf("%q: %q is not a theme: choose %q, %q or none (from the terminal): %w",
		keyTheme, theme, ThemeLight, ThemeDark, ErrBadSetting)
}

func checkSessionOps(v string) error {
	switch v {
	case "", SessionOpsTopic, SessionOpsAll, SessionOpsOff:
		return nil
	}
	return fmt.Errorf("%q: %q is not a choice: %q, %q or %q: %w", keySessionOps, v, SessionOpsTopic, SessionOpsAll, SessionOpsOff, ErrBadSetting)
}

func checkBrake(n int) error {
	if n >= 0 && n <= MaxBrake {
		return nil
	}
	return fmt.Errorf("%q: %d is not a whole number of AI posts from 1 to %d, or 0 to turn the brake off: %w",
		keyBrake, n, MaxBrake, ErrBadSetting)
}

// SetSettings puts s into the file's keys in memory (Save writes them):
// only the values that differ from the file's are written, each in its
// key's place (appended when new); a language or theme set back to the
// locale's or the terminal's removes its key (absent is that default), a
// brake is written as its number. Every other key stays as it was. Only the
// values that change are checked: a hand-written language
// such as "ja_JP.UTF-8" stays while another setting changes. It reports
// whether anything changed; on an error (every problem reported) nothing
// did.
func (c *Config) SetSettings(s Settings) (bool, error) {
	cur, err := c.Settings()
	if err != nil {
		return false, err
	}
	if s.SessionOps == SessionOpsTopic {
		s.SessionOps = "" // the default: the key left out
	}
	var errs []error
	if s.Language != cur.Language {
		errs = append(errs, checkLanguage(s.Language))
	}
	if s.Theme != cur.Theme {
		errs = append(errs, checkTheme(s.Theme))
	}
	if s.Brake != cur.Brake {
		errs = append(errs, checkBrake(s.Brake))
	}
	if s.SessionOps != cur.SessionOps {
		errs = append(errs, checkSessionOps(s.SessionOps))
	}
	if err := errors.Join(errs...); err != nil {
		return false, err
	}
	if s == cur {
		return false, nil
	}
	top := c.top.Clone()
	setOrDrop := func(key, v string) error {
		if v == "" {
			top.Delete(key)
			return nil
		}
		return top.SetValue(key, v)
	}
	if s.Language != cur.Language {
		if err := setOrDrop(keyLanguage, s.Language); err != nil {
			return false, err
		}
	}
	if s.Theme != cur.Theme {
		if err := setOrDrop(keyTheme, s.Theme); err != nil {
			return false, err
		}
	}
	if s.Brake != cur.Brake {
		if err := top.SetValue(keyBrake, s.Brake); err != nil {
			return false, err
		}
	}
	if s.SessionOps != cur.SessionOps {
		if err := setOrDrop(keySessionOps, s.SessionOps); err != nil {
			return false, err
		}
	}
	c.top = top
	return true, nil
}

// Settings returns config.json's language, theme and brake as the file
// has them (Config.Settings).
func (b *Book) Settings() (Settings, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.Settings()
}

// SetSettings changes config.json's language, theme and brake
// (Config.SetSettings) and saves the file at once, keeping every key it
// does not change. A refused value or a failed save leaves memory and the
// file as they were. Nothing is written when nothing changed.
func (b *Book) SetSettings(s Settings) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.cfg.top.Clone()
	changed, err := b.cfg.SetSettings(s)
	if err != nil || !changed {
		return err
	}
	if err := b.cfg.Save(b.dir); err != nil {
		b.cfg.top = old
		return err
	}
	return nil
}
