package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
)

// FileName is the accounts file in the data directory (docs/design.md §12).
const FileName = "config.json"

// Top-level keys of config.json.
const (
	keyAccounts = "accounts"
	// keyLegacyTabs is the original app's name for accounts (spec «既存設定からの移行»).
	keyLegacyTabs = "tabs"
)

// Permissions of files we create: only the user reads config.json (its env
// values are sealed, but a hand-written one may be in the clear).
const (
	dirPerm  fs.FileMode = 0o700
	filePerm fs.FileMode = 0o600
)

// defaultAdminID is the id of the admin account Load makes when the file has
// none. Fixed rather than random so the same identity comes back on every
// run until the first Save writes it down (posts are logged under it).
const defaultAdminID = "admin"

// defaultAdminName is used when the OS user name is unknown.
const defaultAdminName = "You"

// Config is config.json: the accounts, plus every top-level key we do not
// know, kept in place (docs/design.md §12). Callers edit Accounts and call Save; the
// value is not safe for concurrent use (callers serialise).
type Config struct {
	Accounts []Account

	top Object
	// base is the file's top level as this run last read or wrote it:
	// Save keeps the file's own value of every key not changed since
	// (mergeDisk).
	base Object
	// fromTabs: the accounts were read from the legacy "tabs" key, which
	// Save replaces with "accounts".
	fromTabs bool
}

// Load reads <dir>/config.json (docs/design.md §12) and migrates the original app's
// shapes (see migrateAccount): "tabs" → "accounts", a missing or legacy "ai"
// kind inferred from the command, "user" → "admin", the Claude kind's
// --session-id stripped from launch options, a legacy "args" array joined
// into launch_options, float hues rounded. Nothing is written: migrations
// reach the file on the next Save, and warnings say what changed.
//
// A missing file is an empty config. Either way, when no admin account
// exists one is added in memory (id "admin", the OS user's name, else
// "You"): the UI needs an identity for the human; and every entry of
// mcp-servers.json without an mcp account gets one in memory
// (AddMCPAccounts; a file that cannot be read is a warning, not an error).
//
// Errors wrap ErrBadFile (not JSON, wrong types, with file:line:col or the
// account and key), ErrNoID, ErrDuplicateID or ErrBadKind; the file is never
// touched on error.
func Load(dir string) (*Config, []string, error) {
	path := filepath.Join(dir, FileName)
	data, err := readConfigFile(path)
	c := &Config{}
	var warnings []string
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	default:
		if warnings, err = c.decode(path, data); err != nil {
			return nil, nil, err
		}
	}
	c.ensureAdmin()
	warnings = append(warnings, c.loadMCPAccounts(dir)...)
	warnings = append(warnings, nameWarnings(path, c.Accounts)...)
	return c, warnings, nil
}

// decode fills c from the file's bytes.
func (c *Config) decode(path string, data []byte) ([]string, error) {
	if err := json.Unmarshal(data, &c.top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadFile, jsonFileError(path, data, err))
	}
	c.base = c.top.Clone()
	var warnings []string
	key := keyAccounts
	raw, ok := c.top.Get(keyAccounts)
	if !ok {
		if raw, ok = c.top.Get(keyLegacyTabs); ok {
			key, c.fromTabs = keyLegacyTabs, true
			warnings = append(warnings, fmt.Sprintf("%s: %q read as %q (written back as %q on save)", path, keyLegacyTabs, keyAccounts, keyAccounts))
		}
	}
	if !ok || string(raw) == "null" {
		return warnings, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%w: %s: %q: want a list of accounts, got %s", ErrBadFile, path, key, jsonKind(raw))
	}
	var errs []error
	seen := map[string]int{}
	for i, item := range items {
		where := fmt.Sprintf("%s: %s[%d]", path, key, i)
		var a Account
		if err := json.Unmarshal(item, &a); err != nil {
			errs = append(errs, fmt.Errorf("%w: %s: %w", ErrBadFile, where, err))
			continue
		}
		if a.ID != "" {
			where = fmt.Sprintf("%s (id %q)", where, a.ID)
		}
		w, err := migrateAccount(&a)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		for _, s := range w {
			warnings = append(warnings, where+": "+s)
		}
		switch prev, dup := seen[a.ID]; {
		case a.ID == "":
			errs = append(errs, fmt.Errorf("%s: %w", where, ErrNoID))
			continue
		case dup:
			errs = append(errs, fmt.Errorf("%s: %w (also %s[%d])", where, ErrDuplicateID, key, prev))
			continue
		}
		seen[a.ID] = i
		for _, v := range a.Env {
			if v.Value != "" {
				warnings = append(warnings, fmt.Sprintf("%s: env %s: a value in the clear (sealed when the account's env field is next changed in the editor)", where, v.Name))
			}
		}
		c.Accounts = append(c.Accounts, a)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return warnings, nil
}

// ensureAdmin adds the default admin account when none exists.
func (c *Config) ensureAdmin() {
	if _, ok := c.Admin(); ok {
		return
	}
	id := defaultAdminID
	for n := 2; c.Index(id) >= 0; n++ {
		id = fmt.Sprintf("%s-%d", defaultAdminID, n)
	}
	c.Accounts = append(c.Accounts, Account{ID: id, Name: osUserName(), Kind: KindAdmin})
}

// osUserName is the login name of the user running Pullcept ("" → "You").
// Windows names come as DOMAIN\name; the domain is dropped.
func osUserName() string {
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	if name == "" {
		name = os.Getenv("USER")
	}
	if i := strings.LastIndexByte(name, '\\'); i >= 0 {
		name = name[i+1:]
	}
	if name = strings.TrimSpace(name); name == "" {
		return defaultAdminName
	}
	return name
}

// Admin returns the first account of kind admin: the human at this screen.
func (c *Config) Admin() (Account, bool) {
	for _, a := range c.Accounts {
		if a.Kind == KindAdmin {
			return a, true
		}
	}
	return Account{}, false
}

// Index returns the position of the account with id in Accounts, or -1.
func (c *Config) Index(id string) int {
	for i, a := range c.Accounts {
		if a.ID == id {
			return i
		}
	}
	return -1
}

// Account returns a copy of the account with id.
func (c *Config) Account(id string) (Account, bool) {
	if i := c.Index(id); i >= 0 {
		return c.Accounts[i], true
	}
	return Account{}, false
}

// Validate checks what Save requires (docs/design.md §9, spec «アカウント»): ids
// non-empty and unique, names non-empty, kinds valid, hue 0–359, a seat
// kind's absolute working directory and command, launch options and resume
// line that split (no unclosed quote), a known screen mode, env
// names valid, unique (case-insensitive) and not PULLCEPT_*. Sealed values
// are not opened here (a damaged one is kept, and refused at launch). Every
// problem is reported, joined,
// naming the account and field; errors.Is finds the sentinels.
func (c *Config) Validate() error {
	var errs []error
	seen := map[string]int{}
	for i, a := range c.Accounts {
		where := fmt.Sprintf("account %d", i+1)
		if a.ID != "" {
			where = fmt.Sprintf("account %q", a.ID)
		}
		bad := func(field string, err error) { errs = append(errs, fmt.Errorf("%s: %s: %w", where, field, err)) }
		switch prev, dup := seen[a.ID]; {
		case a.ID == "":
			bad(keyID, ErrNoID)
		case dup:
			bad(keyID, fmt.Errorf("%w (also account %d)", ErrDuplicateID, prev))
		default:
			seen[a.ID] = i + 1
		}
		for _, fe := range CheckFields(a) {
			bad(fe.Field, fe.Err)
		}
	}
	return errors.Join(errs...)
}

// Save validates c and writes <dir>/config.json atomically (temp file in the
// same directory, fsync, rename; docs/design.md §12), creating dir if needed. Every
// top-level and per-account key we do not know is written back as it was;
// the legacy "tabs" key becomes "accounts". Nothing is written when
// validation fails.
func (c *Config) Save(dir string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	top, err := c.mergeDisk(dir)
	if err != nil {
		return err
	}
	accounts := c.Accounts
	if accounts == nil {
		accounts = []Account{}
	}
	if c.fromTabs && !top.Has(keyAccounts) {
		// Keep the accounts where "tabs" stood.
		top = renameKey(top, keyLegacyTabs, keyAccounts)
	}
	if err := top.SetValue(keyAccounts, accounts); err != nil {
		return err
	}
	data, err := EncodeIndented(top)
	if err != nil {
		return fmt.Errorf("encode %s: %w", FileName, err)
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, FileName), data, filePerm); err != nil {
		return err
	}
	c.top, c.fromTabs = top, false
	c.base = top.Clone()
	return nil
}

// mergeDisk is what Save writes besides the accounts: a top-level key this
// run changed (memory differs from what it last read or wrote) is ours;
// every other key is the file's as it is now, so what a person edited by
// hand while Pullcept ran — a server may run for days — is kept, not
// written over with what was read at start (a key added, changed or
// removed). A file that no longer reads as JSON is not written over
// (ErrBadFile): the person is editing it.
func (c *Config) mergeDisk(dir string) (Object, error) {
	data, err := readConfigFile(filepath.Join(dir, FileName))
	if errors.Is(err, fs.ErrNotExist) || c.base.vals == nil {
		return c.top.Clone(), nil
	}
	if err != nil {
		return Object{}, fmt.Errorf("read %s: %w", FileName, err)
	}
	var disk Object
	if err := json.Unmarshal(data, &disk); err != nil {
		return Object{}, fmt.Errorf("%w: %s changed on disk and does not read (%v); nothing was saved", ErrBadFile, FileName, err)
	}
	out := disk.Clone()
	for _, k := range c.top.Keys() {
		ours, _ := c.top.Get(k)
		base, had := c.base.Get(k)
		if had && bytes.Equal(ours, base) {
			continue // unchanged here: the file's (edited, or removed) stands
		}
		out.Set(k, ours)
	}
	for _, k := range c.base.Keys() {
		if !c.top.Has(k) {
			out.Delete(k) // this run removed it
		}
	}
	return out, nil
}

// renameKey returns o with key from renamed to to, in the same position.
func renameKey(o Object, from, to string) Object {
	var out Object
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		if k == from {
			k = to
		}
		out.Set(k, v)
	}
	return out
}

// rereadTop takes into memory what a person changed by hand in the file's
// top level since this run last read or wrote it (mergeDisk's rule), but
// the accounts, which the running app owns: keys, theme and language
// edited while a server runs reach the next terminal that attaches.
func (c *Config) rereadTop(dir string) error {
	top, err := c.mergeDisk(dir)
	if err != nil {
		return err
	}
	for _, k := range []string{keyAccounts, keyLegacyTabs} {
		if v, ok := c.top.Get(k); ok {
			top.Set(k, v)
		} else {
			top.Delete(k)
		}
	}
	c.top = top
	if data, err := readConfigFile(filepath.Join(dir, FileName)); err == nil {
		var disk Object
		if json.Unmarshal(data, &disk) == nil {
			c.base = disk
		}
	}
	return nil
}

// MaxConfigBytes bounds a read of config.json: accounts and settings are
// a few KiB; a planted sparse file or /dev/zero is refused, never read
// whole.
const MaxConfigBytes = 4 << 20

// readConfigFile reads config.json: a regular file (a link to one is
// followed: a person may keep it elsewhere, §12) of at most
// MaxConfigBytes; a FIFO is refused without waiting (docs/design.md §16).
func readConfigFile(path string) ([]byte, error) {
	return ReadRegularFile(path, MaxConfigBytes, true)
}
