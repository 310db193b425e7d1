package config

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Book is config.json's accounts as the running app shares them: the UI
// edits them, the room and the seats read them while it does. Config is not
// safe for concurrent use; Book serialises every access with one lock (a
// leaf: nothing is called out while it is held but the file write). The
// vault is never called under it: a keyring may take seconds (or wait on
// an unlock prompt) while the room reads kinds. Every change is saved at
// once, and a change whose save fails leaves memory as it was, so memory
// and disk never disagree. Book implements room.Accounts.
type Book struct {
	dir   string
	vault Vault // seals and opens env values; nil: values cannot be stored

	mu  sync.Mutex
	cfg *Config
}

// NewBook shares cfg, saving changes to dir's config.json and sealing env
// values with vault (SystemVault in the app; nil refuses every value with
// ErrNoSecretStore). The caller hands cfg over: it must not use it
// afterwards.
func NewBook(dir string, cfg *Config, vault Vault) *Book {
	return &Book{dir: dir, cfg: cfg, vault: vault}
}

// Account returns a copy of the account with id.
func (b *Book) Account(id string) (Account, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.Account(id)
}

// AccountKind is the kind of the account with id (room.Accounts: the kind
// named in a hello sets a post's role).
func (b *Book) AccountKind(id string) (string, bool) {
	a, ok := b.Account(id)
	if !ok {
		return "", false
	}
	return string(a.Kind), true
}

// Admin is this screen's human.
func (b *Book) Admin() (Account, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.Admin()
}

// UI returns config.json's UI settings (keys, language, theme).
func (b *Book) UI() (UI, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.UI()
}

// Brake returns config.json's brake on AI-to-AI loops (Config.Brake).
func (b *Book) Brake() (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.Brake()
}

// All returns copies of every account, in file order.
func (b *Book) All() []Account {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Account(nil), b.cfg.Accounts...)
}

// putLocked creates or replaces the account with a.ID and saves
// config.json. On any error (validation, the write) the accounts are left
// as they were. Holds b.mu.
func (b *Book) putLocked(a Account) error {
	old := append([]Account(nil), b.cfg.Accounts...)
	if i := b.cfg.Index(a.ID); i >= 0 {
		b.cfg.Accounts[i] = a
	} else {
		b.cfg.Accounts = append(b.cfg.Accounts, a)
	}
	if err := b.cfg.Save(b.dir); err != nil {
		b.cfg.Accounts = old
		return err
	}
	return nil
}

// Delete removes the account with id and saves config.json. The screen's
// own admin account is refused (ErrAdminAccount), an unknown id too
// (ErrUnknownAccount); a failed save leaves the accounts as they were.
func (b *Book) Delete(id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if admin, ok := b.cfg.Admin(); ok && admin.ID == id {
		return ErrAdminAccount
	}
	i := b.cfg.Index(id)
	if i < 0 {
		return fmt.Errorf("delete account %s: %w", id, ErrUnknownAccount)
	}
	old := append([]Account(nil), b.cfg.Accounts...)
	b.cfg.Accounts = append(b.cfg.Accounts[:i:i], b.cfg.Accounts[i+1:]...)
	if err := b.cfg.Save(b.dir); err != nil {
		b.cfg.Accounts = old
		return err
	}
	return nil
}

// AccountEdit is the part of an account an editor shows (docs/design.md
// §9). Env is the env field as the editor holds it: the `NAME=<mask>` rows
// EnvText drew, some perhaps retyped. KeepEnv says the field was not drawn
// (it failed, or is still loading) or not changed: the stored variables
// are kept exactly, Env is not read and no value is opened or sealed. Hue
// is in degrees, nil for none. CodexAppServer, when not nil, is the
// account's codex_app_server; nil keeps the stored one. Server, when not
// empty, is the mcp-servers.json entry an mcp account answers to (a new
// one's: NewMCPServerName); "" keeps the stored one, and other kinds
// ignore it. An empty ID is a new account.
type AccountEdit struct {
	ID, Kind, Name, Nickname string
	Hue                      *int
	WorkDir, Command         string
	LaunchOptions            string
	ResumeLine, Character    string
	Env                      string
	KeepEnv                  bool
	CodexAppServer           *bool
	// PermissionMode, when not nil, is a Claude Code account's mode as the
	// editor holds it; nil keeps the stored one (other kinds).
	PermissionMode *string
	Server         string
}

// Draft is the account e would save, for the launch preview: e's fields
// applied onto the stored account with e.ID (keeping every field the
// editor does not show) or onto a new one; names, directory and command
// trimmed; the env field's names checked (errors name the line) and carried
// without values (a preview never shows one, so none is opened). Nothing is
// saved and no id is made.
func (b *Book) Draft(e AccountEdit) (Account, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.applyLocked(e)
	if e.KeepEnv {
		return a, nil
	}
	lines, errs := parseEnvLines(e.Env)
	if err := joinEnvErrors(errs); err != nil {
		return a, err
	}
	a.Env = make([]EnvVar, 0, len(lines))
	for _, l := range lines {
		a.Env = append(a.Env, EnvVar{Name: l.name})
	}
	return a, nil
}

// applyLocked is e's fields (but env) on the stored account e.ID, or on a
// new one. Holds b.mu.
func (b *Book) applyLocked(e AccountEdit) Account {
	a, ok := b.cfg.Account(e.ID)
	if !ok {
		a = Account{ID: e.ID}
	}
	a.Kind, a.Name, a.Nickname, a.Hue = Kind(e.Kind), strings.TrimSpace(e.Name), strings.TrimSpace(e.Nickname), e.Hue
	a.WorkDir, a.Command, a.LaunchOptions = strings.TrimSpace(e.WorkDir), strings.TrimSpace(e.Command), e.LaunchOptions
	a.ResumeLine, a.Character = e.ResumeLine, e.Character
	if e.CodexAppServer != nil {
		v := *e.CodexAppServer
		a.CodexAppServer = &v
	}
	if e.PermissionMode != nil {
		a.PermissionMode = *e.PermissionMode
	}
	if e.Server != "" && a.Kind == KindMCP {
		a.Server = e.Server
	}
	return a
}

// Save applies e, gives a new account its id (NewAccountID) and saves it.
// The env field is settled (SettleEnv: rows left alone keep their sealed
// values, typed values — and values the file held in the clear — are
// sealed with the Book's vault) unless e.KeepEnv, which keeps the stored
// variables exactly and calls no vault (spec: a field not touched makes no
// encryption round trip). The vault runs outside the lock; the account is
// then put only if its stored env did not change meanwhile (else
// ErrAccountChanged). A display name another account goes by, or a name
// the room could not seat, is refused (ErrNameTaken, ErrBadName), as is a
// kind change to or from admin (ErrKindChange); a kind change drops what
// only the old kind used (identity.go). On any error (names, parse, seal,
// validation, the write) the accounts and the file are left as they were.
// It returns the account as stored.
func (b *Book) Save(e AccountEdit) (Account, error) {
	b.mu.Lock()
	before, existed := b.cfg.Account(e.ID)
	_, err := b.identityLocked(b.applyLocked(e)) // before the vault: a taken name asks no keyring
	b.mu.Unlock()
	if err != nil {
		return Account{}, err
	}
	env, err := b.settle(e, before.Env)
	if err != nil {
		return Account{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now, exists := b.cfg.Account(e.ID)
	if exists != existed || !slices.Equal(now.Env, before.Env) {
		return Account{}, fmt.Errorf("save account %s: %w", e.ID, ErrAccountChanged)
	}
	if e.ID == "" {
		id, err := NewAccountID(e.Name, func(id string) bool { return b.cfg.Index(id) >= 0 })
		if err != nil {
			return Account{}, err
		}
		e.ID = id
	}
	a := b.applyLocked(e)
	a.Env = env
	a, err = b.identityLocked(a)
	if err != nil {
		return a, err
	}
	if err := b.putLocked(a); err != nil {
		return a, err
	}
	return a, nil
}

// settle is the env a save stores: the stored one (KeepEnv) or the field
// settled. Runs the vault; never holds b.mu.
func (b *Book) settle(e AccountEdit, stored []EnvVar) ([]EnvVar, error) {
	if e.KeepEnv {
		return stored, nil
	}
	return SettleEnv(e.Env, stored, b.vault)
}

// EnvText draws the env field of the account with id for the editor
// (RenderEnv): "NAME=<mask>" rows, the names whose values cannot be opened,
// or an error (wrapping ErrNoSecretStore, ErrUnknownAccount) when the field
// cannot be drawn at all — it then stays read-only and a save keeps the
// variables. The vault runs outside the lock.
func (b *Book) EnvText(id string) (text string, unreadable []string, err error) {
	a, ok := b.Account(id)
	if !ok {
		return "", nil, fmt.Errorf("account %s: %w", id, ErrUnknownAccount)
	}
	return RenderEnv(a.Env, b.vault)
}

// OpenEnv opens the env of the account with id for a launch (OpenEnv).
func (b *Book) OpenEnv(a Account) ([]string, error) { return OpenEnv(a.Env, b.vault) }

// accountIDBase bounds the readable part of a new id.
const accountIDBase = 16

// NewAccountID makes a stable, readable id for a new account named name:
// the name reduced to lower-case ASCII letters, digits and single '-', cut
// to 16 characters ("account" when nothing is left), plus '-' and 6 random
// hex digits, so two accounts named "Claude" never share an id. An id never
// changes once made (docs/design.md §0). taken reports ids in use; after 8
// collisions it gives up (ErrNoFreeID).
func NewAccountID(name string, taken func(id string) bool) (string, error) {
	var sb strings.Builder
	for _, r := range strings.ToLower(name) {
		if sb.Len() >= accountIDBase {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			sb.WriteRune(r)
		case r == ' ' || r == '-' || r == '_':
			if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "-") {
				sb.WriteByte('-')
			}
		}
	}
	base := strings.Trim(sb.String(), "-")
	if base == "" {
		base = "account"
	}
	for range 8 {
		var r [3]byte
		if _, err := rand.Read(r[:]); err != nil {
			return "", fmt.Errorf("new account id: %w", err)
		}
		if id := base + "-" + hex.EncodeToString(r[:]); !taken(id) {
			return id, nil
		}
	}
	return "", fmt.Errorf("new account id for %q: %w", name, ErrNoFreeID)
}

// Reread takes in the top-level keys a person edited by hand in
// config.json since this run last read or wrote it (the accounts stay the
// running app's): a UI that attaches to a long-running server then shows
// the file's keys, theme and language. A file that does not read is left
// alone (ErrBadFile) and memory stays as it was.
func (b *Book) Reread() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg.rereadTop(b.dir)
}
