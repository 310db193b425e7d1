package config

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/pullcept/pullcept/room/blank"
)

// An account's identity (docs/design.md §9 "Identity"; spec «アカウント»,
// «ニックネーム»): the id is who it is; the display name (nickname, else
// name) is what the room calls it, and no two accounts may share one. The
// running room reads names from here (Book.AccountIdentity), so a saved
// rename reaches every topic at once.

// MaxNameRunes is the longest name or nickname, in characters: the room
// seats no name longer (docs/design.md §6 "Names").
const MaxNameRunes = 64

// ReservedName is the speaker of Pullcept's own notices (room.AppSpeaker):
// no account may be called so, or its posts would pass for the app's.
const ReservedName = "Pullcept"

// AccountIdentity is what the room calls the account with id now
// (room.Identities): its display name; its original name when a nickname
// hides it, else ""; a copy of its declared hue. ok is false for an
// unknown id.
func (b *Book) AccountIdentity(id string) (name, fullName string, hue *int, ok bool) {
	a, ok := b.Account(id)
	if !ok {
		return "", "", nil, false
	}
	name = a.DisplayName()
	if n := strings.TrimSpace(a.Name); n != name {
		fullName = n
	}
	if a.Hue != nil {
		h := *a.Hue
		hue = &h
	}
	return name, fullName, hue, true
}

// checkIdentity refuses a's names when another account already goes by
// a's display name, or a is not the human and goes by the human's name or
// nickname (ErrNameTaken, naming that account: a nickname hides the name
// from the roster, not from the tag's full_name, and a notice or seat
// under it would pass for the human, issue 32), or when a name could not
// be seated in a room (ErrBadName); and a kind change to or from admin of
// an account c holds (ErrKindChange). Only the account being saved is
// checked: a file that already holds two accounts of one name loads (with
// a warning, nameWarnings) and saves its other accounts.
func (c *Config) checkIdentity(a Account) error {
	for _, f := range [...]struct{ field, v string }{{keyName, a.Name}, {keyNickname, a.Nickname}} {
		if err := checkNameText(f.v); err != nil {
			return fmt.Errorf("%s: %w", f.field, err)
		}
	}
	display := a.DisplayName()
	if nameKey(display) == nameKey(ReservedName) {
		return fmt.Errorf("%q: %w: it is Pullcept's own", display, ErrBadName)
	}
	if prev, ok := c.Account(a.ID); ok && prev.Kind != a.Kind && (prev.Kind == KindAdmin || a.Kind == KindAdmin) {
		return fmt.Errorf("%s → %s: %w", prev.Kind, a.Kind, ErrKindChange)
	}
	if o, ok := c.nameHolder(a); ok {
		who := describe(o)
		if nameKey(o.DisplayName()) != nameKey(display) {
			who = fmt.Sprintf("%q, the name of %s", o.Name, who)
		}
		return fmt.Errorf("%q: %w: %s", display, ErrNameTaken, who)
	}
	return nil
}

// nameHolder is the other account whose display name is a's, compared as
// nameKey does, or — when a is not the human's — the human's account when
// its name (a nickname may hide it) is a's display name.
func (c *Config) nameHolder(a Account) (Account, bool) {
	key := nameKey(a.DisplayName())
	for _, o := range c.Accounts {
		if o.ID == a.ID {
			continue
		}
		if nameKey(o.DisplayName()) == key || o.Kind == KindAdmin && a.Kind != KindAdmin && nameKey(o.Name) == key {
			return o, true
		}
	}
	return Account{}, false
}

// describe names an account for a message: its display name, kind and id.
func describe(a Account) string {
	return fmt.Sprintf("%q (%s, id %s)", a.DisplayName(), a.Kind, a.ID)
}

// checkNameText refuses a name the room could not seat: invalid UTF-8, a
// control, bidi-control or line-separator character, or more than
// MaxNameRunes characters.
func checkNameText(s string) error {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: not valid UTF-8", ErrBadName)
	}
	if n := utf8.RuneCountInString(s); n > MaxNameRunes {
		return fmt.Errorf("%w: %d characters, at most %d", ErrBadName, n, MaxNameRunes)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("%w: it holds the control character %U", ErrBadName, r)
		}
		// Invisible characters make two names that look alike, or a name
		// that draws as nothing (a breaker review: "Shelly\u200b" beside
		// "Shelly", "Pullcept\u200b").
		if blank.Hidden(r) && !unicode.Is(unicode.Variation_Selector, r) {
			return fmt.Errorf("%w: it holds the invisible character %U", ErrBadName, r)
		}
	}
	return nil
}

// nameKey is the form two names are compared in: NFKC (full-width Ｓ is S,
// a decomposed é is é), what draws nothing dropped (format characters,
// variation selectors, the other default-ignorable code points: the
// combining grapheme joiner, Hangul fillers …) and a braille blank read as
// a space, spaces at the ends trimmed, case-folded. Names equal here are
// one name to the room's readers ("Alice\uFE0F" is drawn "Alice": breaker
// review of issue 32).
func nameKey(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\u2800':
			return ' '
		case blank.Hidden(r):
			return -1
		}
		return r
	}, norm.NFKC.String(s))
	return cases.Fold().String(strings.TrimSpace(s))
}

// NameKey is nameKey for the room, which refuses a notice or a hello under
// the human's name compared so.
func NameKey(s string) string { return nameKey(s) }

// nameWarnings says which accounts of a loaded file share a display name
// (an older file may hold them; the next save of either is refused until
// one is renamed).
func nameWarnings(path string, accounts []Account) []string {
	var out []string
	first := map[string]Account{}
	for _, a := range accounts {
		k := nameKey(a.DisplayName())
		if k == "" {
			continue
		}
		if o, dup := first[k]; dup {
			out = append(out, fmt.Sprintf("%s: accounts %s and %s are both called %q: rename one in the editor (@%s addresses both)",
				path, o.ID, a.ID, a.DisplayName(), a.DisplayName()))
			continue
		}
		first[k] = a
	}
	return out
}

// identityLocked is a as Save stores it: leaveKind applied against the
// stored account, then checkIdentity. Holds b.mu.
func (b *Book) identityLocked(a Account) (Account, error) {
	prev, _ := b.cfg.Account(a.ID)
	a = leaveKind(prev, a)
	return a, b.cfg.checkIdentity(a)
}

// leaveKind drops from a what belonged to its stored kind prev when its
// kind changes and the editor does not show: Codex's screen mode and an
// MCP account's server entry (the editor itself resets the name, command
// and launch options it shows, docs/design.md §9 "Identity").
func leaveKind(prev, a Account) Account {
	if prev.Kind == a.Kind {
		return a
	}
	if prev.Kind == KindCodexCLI {
		a.ScreenMode = ScreenInline
	}
	if prev.Kind == KindMCP {
		a.Server = ""
	}
	return a
}
