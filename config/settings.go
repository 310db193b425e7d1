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
// ThemeAuto), Avatars ("avatars": AvatarsNames or AvatarsInitials), Brake
// (0 off, up to MaxBrake; DefaultBrake when absent),
// SessionOps ("session_operations", docs/design.md §15: "" or SessionOpsTopic
// for the default, which the file says by leaving the key out), and how
// the human is called back (notify.go): Notify ("notifications":
// NotifyTerminal, NotifyOff, NotifyDesktop), NotifySequence
// ("notify_sequence": SequenceAuto, SequenceOSC9, SequenceOSC777,
// SequenceBEL), NotifyDwell and NotifyCooldown ("notify_dwell",
// "notify_cooldown", seconds) and PermissionWait ("permission_wait",
// seconds a permission card waits).
type Settings struct {
	Language   string
	Theme      string
	Avatars    string
	Brake      int
	SessionOps string

	Notify         string
	NotifySequence string
	NotifyDwell    int
	NotifyCooldown int
	PermissionWait int
}

// The languages a setting may choose ("" is the locale's). The file may
// hold a locale-like value ("ja_JP.UTF-8") written by hand: it is kept
// while the language is not changed.
const (
	langEnglish  = "en"
	langJapanese = "ja"
)

// Settings returns the file's settings, each key's default when it is
// absent. A value the file holds wrongly is an error naming its key
// (ErrBadFile), as UI and Brake say it.
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
	if err := c.readDisplay(&s); err != nil {
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
	if err := c.readNotify(&s); err != nil {
		return Settings{}, err
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
// key's place (appended when new); a string setting set back to its
// default (the locale's language, the terminal's theme, …) removes its key
// (absent is that default), a number is written as its number. Every other
// key stays as it was. Only the values that change are checked: a
// hand-written language such as "ja_JP.UTF-8" stays while another setting
// changes. It reports whether anything changed; on an error (every
// problem reported) nothing did.
func (c *Config) SetSettings(s Settings) (bool, error) {
	cur, err := c.Settings()
	if err != nil {
		return false, err
	}
	if s.SessionOps == SessionOpsTopic {
		s.SessionOps = "" // the default: the key left out
	}
	if v, ok := avatarsKey.normal(s.Avatars); ok {
		s.Avatars = v
	}
	if v, ok := notifyKey.normal(s.Notify); ok {
		s.Notify = v
	}
	if v, ok := sequenceKey.normal(s.NotifySequence); ok {
		s.NotifySequence = v
	}
	edits := settingEdits(s, cur)
	errs := make([]error, 0, len(edits))
	for _, e := range edits {
		errs = append(errs, e.err)
	}
	if err := errors.Join(errs...); err != nil {
		return false, err
	}
	if len(edits) == 0 {
		return false, nil
	}
	top := c.top.Clone()
	for _, e := range edits {
		if e.drop {
			top.Delete(e.key)
			continue
		}
		if err := top.SetValue(e.key, e.value); err != nil {
			return false, err
		}
	}
	c.top = top
	return true, nil
}

// settingEdit is one key a SetSettings changes: its new value, whether the
// key goes instead (a string back to its default, ""), and why the value
// is refused (nil: it is not).
type settingEdit struct {
	key   string
	value any
	drop  bool
	err   error
}

// settingEdits are the keys s changes from cur, in the order they are
// appended when new.
func settingEdits(s, cur Settings) []settingEdit {
	var out []settingEdit
	str := func(key, v, was string, check func(string) error) {
		if v != was {
			out = append(out, settingEdit{key: key, value: v, drop: v == "", err: check(v)})
		}
	}
	num := func(key string, v, was int, check func(int) error) {
		if v != was {
			out = append(out, settingEdit{key: key, value: v, err: check(v)})
		}
	}
	str(keyLanguage, s.Language, cur.Language, checkLanguage)
	str(keyTheme, s.Theme, cur.Theme, checkTheme)
	str(keyAvatars, s.Avatars, cur.Avatars, avatarsKey.check)
	num(keyBrake, s.Brake, cur.Brake, checkBrake)
	str(keySessionOps, s.SessionOps, cur.SessionOps, checkSessionOps)
	str(keyNotify, s.Notify, cur.Notify, notifyKey.check)
	str(keyNotifySequence, s.NotifySequence, cur.NotifySequence, sequenceKey.check)
	num(keyNotifyDwell, s.NotifyDwell, cur.NotifyDwell, dwellKey.check)
	num(keyNotifyCooldown, s.NotifyCooldown, cur.NotifyCooldown, cooldownKey.check)
	num(keyPermissionWait, s.PermissionWait, cur.PermissionWait, permissionWaitKey.check)
	return out
}

// Settings returns config.json's settings as the file has them
// (Config.Settings).
func (b *Book) Settings() (Settings, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.Settings()
}

// SetSettings changes config.json's settings (Config.SetSettings) and saves the file at once, keeping every key it
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
