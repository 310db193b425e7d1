package tui

import "errors"

// Sentinel errors; callers compare with errors.Is.
var (
	// ErrUnknownBinding: KeyMap.Override named a binding that does not exist.
	ErrUnknownBinding = errors.New("unknown key binding")
	// ErrNoKeys: KeyMap.Override gave a binding no keys (or a blank key).
	ErrNoKeys = errors.New("key binding without keys")
	// ErrNoBackend: New was given a nil Backend.
	ErrNoBackend = errors.New("no backend")
	// ErrUnknownLanguage: Options.Lang names a language the catalog lacks.
	ErrUnknownLanguage = errors.New("unknown ui language")
	// ErrUnknownTheme: Options.Theme is none of ThemeAuto, ThemeLight and
	// ThemeDark.
	ErrUnknownTheme = errors.New("unknown ui theme")
)
