package config

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Kind is what an account is, declared when it is made and never inferred
// from a connection (docs/design.md §0, spec «アカウント»). It is stored as the
// string value and is also the role of that account's socket posts.
type Kind string

// Kinds (docs/design.md §0). KindClaudeCode, KindCodexCLI and KindCLI launch seats;
// KindAdmin (the human) and KindMCP (a local MCP server's notices) do not.
const (
	KindAdmin      Kind = "admin"
	KindClaudeCode Kind = "claude_code"
	KindCodexCLI   Kind = "codex_cli"
	KindCLI        Kind = "cli"
	KindMCP        Kind = "mcp"
)

// Valid reports whether k is one of the five kinds.
func (k Kind) Valid() bool {
	switch k {
	case KindAdmin, KindClaudeCode, KindCodexCLI, KindCLI, KindMCP:
		return true
	}
	return false
}

// Launches reports whether accounts of kind k run as seats (a CLI in a PTY).
func (k Kind) Launches() bool {
	return k == KindClaudeCode || k == KindCodexCLI || k == KindCLI
}

// Screen modes of a Codex CLI seat (spec «Codex の席は代替画面を使わずに起動する»).
const (
	// ScreenInline (the default) adds --no-alt-screen so the TUI draws
	// inline and the pane's scrollback keeps the history.
	ScreenInline = ""
	// ScreenAlt leaves Codex on its own alternate-screen default.
	ScreenAlt = "alt"
)

// Account is a stable identity whether or not it runs (docs/design.md §0, §9).
// ID is the identity and never changes; everything else is an editable
// attribute. JSON keys (config.json): id, name, nickname, kind, hue, cwd,
// command, launch_options, resume_command, character, env, screen_mode,
// permission_mode, codex_app_server, session_bus, server. Keys we do not know are kept as
// they were, in place.
type Account struct {
	// ID is opaque and case-sensitive; the .mcp.json key derives from it.
	ID string
	// Name is the original name; Nickname, when set, is what the room calls
	// the account (DisplayName).
	Name     string
	Nickname string
	Kind     Kind
	// Hue is the declared colour in degrees 0–359; nil = none declared (the
	// UI derives one). Read from integers or floats (the original app stored
	// oklch floats), written as an integer.
	Hue *int
	// WorkDir is the seat's absolute working directory (JSON "cwd"); required
	// for seat kinds, no fallback to the process cwd.
	WorkDir string
	// Command is the CLI to run: a name on PATH or an absolute path, one word
	// (spaces allowed; it is never split).
	Command string
	// LaunchOptions is what the person adds to every launch, split with
	// SplitWords. The kind's own flags (e.g. Claude's --session-id,
	// --settings) are added by the launch builder, not written here.
	LaunchOptions string
	// ResumeLine is the whole resume command line of a generic CLI with
	// {session_id} where the id goes (JSON "resume_command"); unused by kinds
	// whose CLI the app knows.
	ResumeLine string
	// Character is the Claude Code output style name (the style file's
	// frontmatter name:), passed as --settings outputStyle; "" = the working
	// directory's default.
	Character string
	// Env is set on the launched CLI's process only (see EnvVar).
	Env []EnvVar
	// ScreenMode is ScreenInline or ScreenAlt (Codex CLI only).
	ScreenMode string
	// PermissionMode is the mode a Claude Code seat starts in (JSON
	// "permission_mode", PermissionModes; "" leaves it to the CLI's own
	// settings): the launch adds --permission-mode (docs/design.md §9).
	PermissionMode string
	// CodexAppServer is how a Codex CLI seat runs (JSON "codex_app_server"):
	// nil when the file does not say (AppServer: on), true for one
	// app-server per seat with the real TUI attached, false for hook mode
	// (compatibility). Written back only when set; unused by other kinds.
	CodexAppServer *bool
	// SessionBus opts a seat into the user's D-Bus session bus (JSON
	// "session_bus"): on Linux a seat's namespaces hide it unless true
	// (docs/design.md §16), for a CLI that needs the desktop's keyring or
	// notifications. nil when the file does not say (hidden); written back
	// only when set.
	SessionBus *bool
	// Server is the mcp-servers.json entry an mcp account answers to.
	Server string

	raw Object // the account as read, unknown keys included
}

// DisplayName is the name the room uses: the trimmed nickname when set,
// else the name (spec «ニックネーム»).
func (a Account) DisplayName() string {
	if n := strings.TrimSpace(a.Nickname); n != "" {
		return n
	}
	return a.Name
}

// SessionBusOpen reports whether the account's seats may reach the session
// bus (session_bus true).
func (a Account) SessionBusOpen() bool { return a.SessionBus != nil && *a.SessionBus }

// AppServer reports whether a seat of the account runs in app-server mode:
// a Codex CLI account whose codex_app_server is not false (absent means on,
// so accounts made before the key existed get it too). False for every
// other kind.
func (a Account) AppServer() bool {
	return a.Kind == KindCodexCLI && (a.CodexAppServer == nil || *a.CodexAppServer)
}

// Claude Code's permission modes an account may choose, as the pinned
// CLI names them (claude --help: --permission-mode); "" leaves the mode to
// the CLI's own settings. PermissionManual is the one in which the CLI asks
// before each tool, so Pullcept's permission cards appear: new Claude Code
// accounts start in it (issue 35: 2.1.328 starts in auto by itself).
const (
	PermissionManual      = "manual"
	PermissionAuto        = "auto"
	PermissionPlan        = "plan"
	PermissionAcceptEdits = "acceptEdits"
)

// PermissionModes lists the modes in the editor's order, "" (the CLI's
// own) last. config.json may also name the CLI's two modes that ask
// nothing at all (permissionModesQuiet); the editor does not offer them.
var PermissionModes = []string{PermissionManual, PermissionAuto, PermissionPlan, PermissionAcceptEdits, ""}

var permissionModesQuiet = []string{"dontAsk", "bypassPermissions"}

// Known account keys, in the order a new account is written.
const (
	keyID            = "id"
	keyName          = "name"
	keyNickname      = "nickname"
	keyKind          = "kind"
	keyHue           = "hue"
	keyCwd           = "cwd"
	keyCommand       = "command"
	keyLaunchOptions = "launch_options"
	keyResumeCommand = "resume_command"
	keyCharacter     = "character"
	keyEnv           = "env"
	keyScreenMode    = "screen_mode"
	keyPermMode      = "permission_mode"
	keyAppServer     = "codex_app_server"
	keySessionBus    = "session_bus"
	keyServer        = "server"
	// keyLegacyArgs is the original app's launch options as a word array,
	// migrated into launch_options.
	keyLegacyArgs = "args"
)

// MarshalJSON writes the account's fields over the object it was read from,
// so unknown keys keep their place and value. Empty optional fields are
// omitted.
func (a Account) MarshalJSON() ([]byte, error) {
	o := a.raw.Clone()
	set := func(k string, v any, keep bool) error {
		if !keep {
			o.Delete(k)
			return nil
		}
		return o.SetValue(k, v)
	}
	for _, f := range []struct {
		k    string
		v    any
		keep bool
	}{
		{keyID, a.ID, true},
		{keyName, a.Name, true},
		{keyNickname, a.Nickname, a.Nickname != ""},
		{keyKind, a.Kind, true},
		{keyHue, a.Hue, a.Hue != nil},
		{keyCwd, a.WorkDir, a.WorkDir != ""},
		{keyCommand, a.Command, a.Command != ""},
		{keyLaunchOptions, a.LaunchOptions, a.LaunchOptions != ""},
		{keyResumeCommand, a.ResumeLine, a.ResumeLine != ""},
		{keyCharacter, a.Character, a.Character != ""},
		{keyEnv, a.Env, len(a.Env) > 0},
		{keyScreenMode, a.ScreenMode, a.ScreenMode != ""},
		{keyPermMode, a.PermissionMode, a.PermissionMode != ""},
		{keyAppServer, a.CodexAppServer, a.CodexAppServer != nil},
		{keySessionBus, a.SessionBus, a.SessionBus != nil},
		{keyServer, a.Server, a.Server != ""},
	} {
		if err := set(f.k, f.v, f.keep); err != nil {
			return nil, err
		}
	}
	return o.MarshalJSON()
}

// UnmarshalJSON reads an account object. Known keys must have the right
// JSON type (null counts as absent); errors name the key. The kind is read
// as written; migration (inferring a missing kind) happens in Load.
func (a *Account) UnmarshalJSON(data []byte) error {
	var o Object
	if err := json.Unmarshal(data, &o); err != nil {
		return err
	}
	*a = Account{raw: o}
	str := func(k string, dst *string) error {
		v, ok := o.Get(k)
		if !ok || string(v) == "null" {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("%s: want a string, got %s", k, jsonKind(v))
		}
		return nil
	}
	var kind string
	for _, f := range []struct {
		k   string
		dst *string
	}{
		{keyID, &a.ID}, {keyName, &a.Name}, {keyNickname, &a.Nickname}, {keyKind, &kind},
		{keyCwd, &a.WorkDir}, {keyCommand, &a.Command}, {keyLaunchOptions, &a.LaunchOptions},
		{keyResumeCommand, &a.ResumeLine}, {keyCharacter, &a.Character},
		{keyScreenMode, &a.ScreenMode}, {keyPermMode, &a.PermissionMode}, {keyServer, &a.Server},
	} {
		if err := str(f.k, f.dst); err != nil {
			return err
		}
	}
	a.Kind = Kind(kind)
	if v, ok := o.Get(keyHue); ok && string(v) != "null" {
		var f float64
		if err := json.Unmarshal(v, &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s: want a number of degrees, got %s", keyHue, jsonKind(v))
		}
		h := int(math.Round(math.Mod(math.Mod(f, 360)+360, 360))) % 360
		a.Hue = &h
	}
	for _, f := range []struct {
		k   string
		dst **bool
	}{{keyAppServer, &a.CodexAppServer}, {keySessionBus, &a.SessionBus}} {
		if v, ok := o.Get(f.k); ok && string(v) != "null" {
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				return fmt.Errorf("%s: want true or false, got %s", f.k, jsonKind(v))
			}
			*f.dst = &b
		}
	}
	if v, ok := o.Get(keyEnv); ok && string(v) != "null" {
		if err := json.Unmarshal(v, &a.Env); err != nil {
			return fmt.Errorf("%s: want a list of {\"name\", \"value\"}, got %s", keyEnv, jsonKind(v))
		}
	}
	return nil
}

// jsonKind names the JSON type of a raw value for error messages.
func jsonKind(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return "nothing"
	}
	switch s[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
