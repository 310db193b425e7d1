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

	// Refusals of an account change a Backend returns wrapped in these,
	// so the editor says them in the human's language (accountErrText;
	// issue 35: the env refusal showed in English in a Japanese UI).
	// ErrNoSecretStore: no store is reachable to seal env values.
	ErrNoSecretStore = errors.New("no secret store is reachable for env var values")
	// ErrKindRunning: the kind of an account whose seat runs.
	ErrKindRunning = errors.New("account has a running seat; stop it before changing its kind")
	// ErrKindMCP: an MCP server's account keeps its kind, and no account
	// becomes one.
	ErrKindMCP = errors.New("an MCP server's account keeps its kind: make a new account instead")
	// ErrAccountRunning: deleting an account whose seat runs.
	ErrAccountRunning = errors.New("account has a running seat; stop it first")
)
