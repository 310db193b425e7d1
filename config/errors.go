package config

import "errors"

// Sentinel errors; callers compare with errors.Is. Validation joins one
// wrapped error per problem (errors.Join), each naming the account and field.
var (
	// ErrNoDataDir: neither PULLCEPT_HOME nor the OS config dir is known
	// (docs/design.md §12).
	ErrNoDataDir = errors.New("no data directory")
	// ErrBadFile: config.json or mcp-servers.json is not valid JSON or has
	// the wrong shape (mcp-servers.json also: not a regular file, or too
	// big). The file is left untouched.
	ErrBadFile = errors.New("bad config file")
	// ErrBadSetting: a value the settings cannot take (SetSettings): a
	// language, theme, brake, notification setting or card wait outside its
	// choices. Nothing is written.
	ErrBadSetting = errors.New("bad setting")
	// ErrDuplicateKey: a JSON object names one key twice (Object); which
	// entry the user meant is not ours to guess.
	ErrDuplicateKey = errors.New("key appears twice in one object")
	// ErrNoID: an account has an empty id (the id is the identity, docs/design.md §0).
	ErrNoID = errors.New("account id is empty")
	// ErrDuplicateID: two accounts share one id.
	ErrDuplicateID = errors.New("account id is used twice")
	// ErrNoName: an account has an empty name (spec «アカウント»: a decision
	// with an empty name is refused).
	ErrNoName = errors.New("account name is empty")
	// ErrNameTaken: the account's display name (nickname, else name) is
	// another account's display name too, compared case-insensitively
	// (spec «アカウント», «ニックネーム»: one name, one participant).
	ErrNameTaken = errors.New("name is already another account's")
	// ErrBadName: a name or nickname with a control, bidi or line-separator
	// character, one over MaxNameRunes characters, or Pullcept's own name
	// (the room could not seat it, docs/design.md §6 "Names").
	ErrBadName = errors.New("name cannot be used")
	// ErrKindChange: the screen's own admin account changes kind, or
	// another account becomes admin (spec «アカウント»).
	ErrKindChange = errors.New("kind cannot change to or from admin")
	// ErrBadKind: a kind that is not admin, claude_code, codex_cli, cli or mcp.
	ErrBadKind = errors.New("unknown account kind")
	// ErrNoWorkDir: a seat kind without an absolute working directory (no
	// fallback to the process cwd, docs/design.md §9).
	ErrNoWorkDir = errors.New("working directory is required")
	// ErrNoCommand: a seat kind without a command.
	ErrNoCommand = errors.New("command is required")
	// ErrBadHue: a hue outside 0–359 degrees.
	ErrBadHue = errors.New("hue must be 0-359 degrees")
	// ErrBadScreenMode: a screen mode other than "" or "alt".
	ErrBadScreenMode = errors.New("unknown screen mode")
	// ErrBadPermissionMode: a permission mode not in PermissionModes.
	ErrBadPermissionMode = errors.New("unknown permission mode")
	// ErrEnvSyntax: an env line without "=" or name, or with a name that is not
	// a valid environment variable name.
	ErrEnvSyntax = errors.New("bad env var line")
	// ErrEnvQuote: a value with a quote at one end only, or different quotes
	// at each end (spec «アカウントは環境変数を持つ», #165).
	ErrEnvQuote = errors.New("unbalanced quotes around env var value")
	// ErrEnvDuplicate: the same name twice, compared case-insensitively
	// (Windows reads names that way).
	ErrEnvDuplicate = errors.New("env var name is used twice")
	// ErrEnvReserved: a name the app sets itself (PULLCEPT_*).
	ErrEnvReserved = errors.New("env var name is set by pullcept itself")
	// ErrUnterminatedQuote: a launch-options or resume line opens a quote it
	// never closes (SplitWords).
	ErrUnterminatedQuote = errors.New("unterminated quote")
	// ErrUnknownAccount: no account has that id.
	ErrUnknownAccount = errors.New("unknown account")
	// ErrAdminAccount: the screen's own admin account cannot be deleted.
	ErrAdminAccount = errors.New("the screen's own admin account cannot be deleted")
	// ErrNoFreeID: NewAccountID found no free id.
	ErrNoFreeID = errors.New("no free account id")
	// ErrEnvTooLong: a value longer than MaxEnvValue characters (Windows'
	// limit for one variable).
	ErrEnvTooLong = errors.New("env var value is too long")
	// ErrEnvMaskEdited: a typed value for a stored name looks like that
	// variable's mask retyped or with a quote added or taken off; sealed, it
	// would replace the real value with the mask's few characters for good
	// (spec «アカウントは環境変数を持つ», #165).
	ErrEnvMaskEdited = errors.New("env var value looks like its mask edited, not a new value")
	// ErrNoSecretStore: no secret store is reachable to seal or open env var
	// values — the OS keyring (Secret Service on Linux, the login keychain
	// on macOS) did not answer or refused, or DPAPI failed (docs/design.md
	// §9 "Env values at rest"). Nothing is stored in the clear instead.
	ErrNoSecretStore = errors.New("no secret store is reachable for env var values")
	// ErrEnvUnopenable: one stored value cannot be opened: sealed by another
	// user, machine or key, or damaged in the file. Its row is kept; a seat
	// of that account is refused.
	ErrEnvUnopenable = errors.New("env var value cannot be opened")
	// ErrAccountChanged: the account was saved by someone else between the
	// start and the end of a save (its env was sealed outside the lock).
	ErrAccountChanged = errors.New("account changed while it was being saved; open it again")
)
