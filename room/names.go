package room

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room/blank"
)

// Bounds on what a socket names (docs/design.md §6). A name is drawn in the
// roster, the chat and every seat's tag; a newline in one drew over the
// topic list, and a 90 000-name `to` list froze every room for 37 s.
const (
	maxNameRunes     = 64  // hello name, each `to` name
	maxFullNameRunes = 128 // hello full_name
	maxIDBytes       = 256 // hello account and room
	maxInstanceBytes = 64  // hello instance
	maxTo            = 64  // names in one post's `to`
)

// ErrBadName: a name or id carries a control or bidi character, or is too
// long; ErrTooManyAddressees: a post names more than maxTo addressees.
var (
	ErrBadName           = errors.New("bad name")
	ErrTooManyAddressees = errors.New("too many addressees")
)

// hiddenRune reports a character that must not be in a name: C0/C1
// controls and DEL (a newline breaks the layout, ESC starts a sequence),
// bidi controls (U+202E reverses what follows), and the line and paragraph
// separators.
func hiddenRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// foldName is the form two names are compared in where one must not pass
// for the other (config.NameKey: NFKC, what draws nothing dropped, case
// folded, spaces at the ends trimmed).
func foldName(s string) string { return config.NameKey(s) }

// checkName refuses a field value with a hidden character, invalid UTF-8 or
// more than maxRunes characters.
func checkName(field, s string, maxRunes int) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrBadName, field)
	}
	if n := utf8.RuneCountInString(s); n > maxRunes {
		return fmt.Errorf("%w: %s is %d characters, limit %d", ErrBadName, field, n, maxRunes)
	}
	for _, r := range s {
		if hiddenRune(r) {
			return fmt.Errorf("%w: %s holds the control character %U", ErrBadName, field, r)
		}
	}
	return nil
}

// checkSigner is checkName for an MCP notice's signer, which the tag
// carries into every seat: it also refuses what draws nothing (format and
// tag characters, variation selectors, the other default-ignorable code
// points, a braille blank), which would carry text no one sees (breaker
// review of issue 32). Account names get this rule from config.
func checkSigner(s string) error {
	if err := checkName("signed", s, maxNameRunes); err != nil {
		return err
	}
	for _, r := range s {
		if blank.Hidden(r) {
			return fmt.Errorf("%w: signed holds the invisible character %U", ErrBadName, r)
		}
	}
	return nil
}

// checkHello refuses a hello whose names or ids could hide, break the
// layout or grow without bound (wrapping ErrBadHello and ErrBadName).
func checkHello(hl Hello) error {
	for _, f := range []struct {
		field, value string
		max          int
	}{
		{"name", hl.Name, maxNameRunes},
		{"full_name", hl.FullName, maxFullNameRunes},
		{"account", hl.AccountID, maxIDBytes},
		{"room", hl.Room, maxIDBytes},
	} {
		if err := checkName(f.field, f.value, f.max); err != nil {
			return fmt.Errorf("%w: %w", ErrBadHello, err)
		}
	}
	if len(hl.AccountID) > maxIDBytes || len(hl.Room) > maxIDBytes {
		return fmt.Errorf("%w: %w: account or room over %d bytes", ErrBadHello, ErrBadName, maxIDBytes)
	}
	if !plainInstance(hl.Instance) {
		return fmt.Errorf("%w: %w: instance is not at most %d ASCII letters, digits, - and _", ErrBadHello, ErrBadName, maxInstanceBytes)
	}
	return nil
}

// plainInstance accepts a hello's instance id: at most maxInstanceBytes
// ASCII letters, digits, '-' and '_' ("" is none).
func plainInstance(s string) bool {
	if len(s) > maxInstanceBytes {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// checkTo refuses a `to` list that is too long (checked first, so a huge
// list costs nothing more) or names something no roster name can be.
func checkTo(to []string) error {
	if len(to) > maxTo {
		return fmt.Errorf("%w: %d, limit %d", ErrTooManyAddressees, len(to), maxTo)
	}
	total := 0
	for _, name := range to {
		if err := checkName("a `to` name", name, maxNameRunes); err != nil {
			return err
		}
		total += len(name)
	}
	if total > maxToBytes {
		return fmt.Errorf("%w: the names are %d bytes, limit %d", ErrTooManyAddressees, total, maxToBytes)
	}
	return nil
}

// maxToBytes bounds a `to` list's names together: 64 names of 64 four-byte
// characters passed each name's check and made the room's remembered ids
// 279 MiB (breaker review). A room's seats are a handful of short names.
const maxToBytes = 1 << 10

// maxMessageIDBytes bounds a sender's message_id: a UUID is 36 bytes. The
// room keeps recent ids, logs them and types them in every tag.
const maxMessageIDBytes = 128

// checkMessageID refuses a message_id that is too long or holds a hidden
// character ("" is fine: the room makes one).
func checkMessageID(id string) error {
	if len(id) > maxMessageIDBytes {
		return fmt.Errorf("%w: message_id is %d bytes, limit %d", ErrBadName, len(id), maxMessageIDBytes)
	}
	return checkName("message_id", id, maxMessageIDBytes)
}
