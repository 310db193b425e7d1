package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Vault seals env var values for config.json and opens them again
// (docs/design.md §9 "Env values at rest"). Seal's result is what the file
// holds; it never contains the value. Errors name no value: Seal wraps
// ErrNoSecretStore when no store can be reached; Open wraps
// ErrNoSecretStore the same way, or ErrEnvUnopenable when this one value
// cannot be opened (sealed by another user, machine or key; damaged).
// Implementations are safe for concurrent use.
type Vault interface {
	Seal(plain string) (string, error)
	Open(sealed string) (string, error)
}

// Seal schemes: what a sealed value starts with names how it was sealed, so
// a value sealed one way is never fed to another way's opening.
const (
	// schemeDPAPI: Windows DPAPI (CryptProtectData, the current user's
	// scope, vaultEntropy), the blob in lower-case hex — the original app's
	// format, so the values it sealed open here.
	schemeDPAPI = "dpapi:"
	// schemeKeyring: AES-256-GCM under a key the OS keyring keeps
	// (macOS, Linux): "keyring:<key id>:<base64 of nonce and ciphertext>".
	schemeKeyring = "keyring:"
)

// vaultEntropy is mixed into every seal (DPAPI's optional entropy, the
// keyring scheme's additional data): a blob Pullcept sealed does not open
// under a bare CryptUnprotectData from another program of the same user.
// Not a secret (it is in the source), a second condition only. The value is
// the original app's (crates/account-env), so the values it sealed open.
var vaultEntropy = []byte("pullcept/account-env/v1")

// isSealed reports whether s starts with a seal scheme.
func isSealed(s string) bool {
	return strings.HasPrefix(s, schemeDPAPI) || strings.HasPrefix(s, schemeKeyring)
}

// SystemVault is this system's secret store for env var values: DPAPI on
// Windows; the OS keyring on macOS (login keychain) and Linux (Secret
// Service over D-Bus: gnome-keyring, KeePassXC) through
// github.com/zalando/go-keyring, which keeps one random key that seals the
// values (as Electron's safeStorage does). Where no keyring answers, sealing
// is refused with the reason (ErrNoSecretStore); nothing is stored in the
// clear instead. The vault keeps the key in memory once read.
func SystemVault() Vault { return newSystemVault() }

// unopenable is ErrEnvUnopenable with why.
func unopenable(why string) error { return fmt.Errorf("%w: %s", ErrEnvUnopenable, why) }

// otherScheme explains a value sealed by a scheme this system does not
// have, or by none known.
func otherScheme(sealed string) error {
	switch {
	case strings.HasPrefix(sealed, schemeDPAPI):
		return unopenable("it was sealed with Windows DPAPI and opens only on Windows, for the user who sealed it")
	case strings.HasPrefix(sealed, schemeKeyring):
		return unopenable("it was sealed with the OS keyring of macOS or Linux and opens only there")
	}
	return unopenable("it is not sealed in a known way")
}

// RenderEnv draws vars as the editor's env field: one "NAME=<mask>" line
// each (MaskValue; "NAME=" for a name-only variable). A value that cannot
// be opened is drawn as EnvUnreadable and its name is listed in
// unreadable. err (wrapping ErrNoSecretStore) means no value could be
// opened at all: the field must then stay read-only, since an empty or
// half-drawn field saved back would lose variables.
func RenderEnv(vars []EnvVar, v Vault) (text string, unreadable []string, err error) {
	shown, unreadable, err := shownValues(vars, v)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	for i, ev := range vars {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(ev.Name)
		b.WriteByte('=')
		b.WriteString(shown[i])
	}
	return b.String(), unreadable, nil
}

// shownValues is what the field draws for each of vars' values, in order:
// its mask, "" for none, EnvUnreadable for one that will not open (named in
// unreadable). An unreachable store fails the whole drawing.
func shownValues(vars []EnvVar, v Vault) (shown, unreadable []string, err error) {
	shown = make([]string, len(vars))
	for i, ev := range vars {
		switch {
		case ev.Sealed != "":
			plain, err := openWith(v, ev.Sealed)
			switch {
			case errors.Is(err, ErrEnvUnopenable):
				shown[i] = EnvUnreadable
				unreadable = append(unreadable, ev.Name)
			case err != nil:
				return nil, nil, fmt.Errorf("env %s: %w", ev.Name, err)
			default:
				shown[i] = MaskValue(plain)
			}
		default:
			shown[i] = MaskValue(ev.Value)
		}
	}
	return shown, unreadable, nil
}

// errNoVault is ErrNoSecretStore when the app has no vault at all.
var errNoVault = fmt.Errorf("%w: none was given", ErrNoSecretStore)

func openWith(v Vault, sealed string) (string, error) {
	if v == nil {
		return "", errNoVault
	}
	return v.Open(sealed)
}

func sealWith(v Vault, plain string) (string, error) {
	if v == nil {
		return "", errNoVault
	}
	return v.Seal(plain)
}

// OpenEnv opens vars for a launch: "NAME=value" for every variable that
// carries a value, in order (a name-only one is left out: the seat inherits
// it). Any value that will not open fails the whole launch, naming the
// variable and never its value (ErrEnvUnopenable, ErrNoSecretStore): a CLI
// started without the token or config directory it was declared to have
// would run as somebody else.
func OpenEnv(vars []EnvVar, v Vault) ([]string, error) {
	var env []string
	for _, ev := range vars {
		switch {
		case ev.Sealed != "":
			plain, err := openWith(v, ev.Sealed)
			if err != nil {
				return nil, fmt.Errorf("env %s: %w; enter its value again in the account editor", ev.Name, err)
			}
			env = append(env, ev.Name+"="+plain)
		case ev.Value != "":
			env = append(env, ev.Name+"="+ev.Value)
		}
	}
	return env, nil
}

// SettleEnv turns the editor's env field back into stored variables (spec
// «アカウントは環境変数を持つ»). The field was drawn by RenderEnv, so a row
// left alone reads back as its name and what RenderEnv drew for it: such a
// row — same name, spelled the same, and a value equal to that drawing
// (before any quote is taken off) — keeps its sealed value, and nobody
// re-types a secret to edit another field. Every other row is a typed
// value: one pair of matching quotes is taken off and it is sealed now with
// v. A variable whose row is gone is gone. A value held in the clear (a
// hand-written "value") is sealed even when its row was left alone.
//
// Refused, naming the line and the variable, never the value: the
// parseEnvLines problems, ErrEnvQuote, ErrEnvTooLong, and ErrEnvMaskEdited
// — a typed value for a name already stored (case-insensitive) that is that
// variable's drawing with a quote added or taken off, or retyped around its
// "..." keeping head and tail: sealed, it would replace the real value with
// the mask for good (#165). When the store cannot be reached
// (ErrNoSecretStore) nothing is decided: which rows were left alone cannot
// be told, and typed values cannot be sealed.
func SettleEnv(text string, prev []EnvVar, v Vault) ([]EnvVar, error) {
	lines, errs := parseEnvLines(text)
	shown, _, err := shownValues(prev, v)
	if err != nil {
		return nil, err
	}
	exact := make(map[string]int, len(prev))
	folded := make(map[string]int, len(prev))
	masks := make(map[string]int, len(prev)) // a drawn mask → its row
	for i, p := range prev {
		exact[p.Name] = i
		folded[strings.ToUpper(p.Name)] = i
		// A mask showing neither head nor tail ("..." of a short value)
		// stays a value a row may hold, as in isEditedMask.
		if m := strings.Trim(shown[i], `"'`); m != "" && m != p.Value && m != "..." {
			masks[m] = i
		}
	}
	out := make([]EnvVar, 0, len(lines))
	for _, l := range lines {
		if i, ok := exact[l.name]; ok && shown[i] == l.raw {
			out = append(out, prev[i])
			continue
		}
		if i, ok := folded[strings.ToUpper(l.name)]; ok && isEditedMask(l.raw, shown[i]) {
			errs = append(errs, fmt.Errorf("line %d: %s: %w: keep the mask exactly as drawn to keep the value, or paste the real value", l.n, l.name, ErrEnvMaskEdited))
			continue
		}
		// A renamed row still holding the mask drawn for another name would
		// store the mask as the value and drop the secret (breaker review).
		if i, ok := masks[strings.Trim(l.raw, `"'`)]; ok && prev[i].Name != l.name {
			errs = append(errs, fmt.Errorf("line %d: %s: %w: that is the mask drawn for %s; to rename a variable, paste its real value under the new name", l.n, l.name, ErrEnvMaskEdited, prev[i].Name))
			continue
		}
		value, err := l.typedValue()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, EnvVar{Name: l.name, Value: value})
	}
	if err := joinEnvErrors(errs); err != nil {
		return nil, err
	}
	return sealClear(out, v)
}

// sealClear seals every value of vars held in the clear; the first failure
// stops it (the store that refused one refuses the rest).
func sealClear(vars []EnvVar, v Vault) ([]EnvVar, error) {
	for i, ev := range vars {
		if ev.Sealed != "" || ev.Value == "" {
			continue
		}
		sealed, err := sealWith(v, ev.Value)
		if err != nil {
			return nil, fmt.Errorf("env %s: cannot be stored: %w", ev.Name, err)
		}
		vars[i] = EnvVar{Name: ev.Name, Sealed: sealed}
	}
	return vars, nil
}

// retypeSlack is how many characters longer than a mask a value may be and
// still read as that mask retyped around its "..." (isEditedMask).
const retypeSlack = 4

// isEditedMask reports whether typed is a damaged form of mask, what the
// field drew for the same name: quotes at either end are set aside on both
// sides first, so a quote added to or taken off the mask still reads as
// the mask; beyond that, anything holding "..." that starts with the mask's
// head and ends with its tail and is at most retypeSlack characters longer
// than the mask. A mask that shows neither head nor tail ("..." of a short
// value) matches only itself, so such a name can still take a value holding
// "..." (paths and options do).
func isEditedMask(typed, mask string) bool {
	typed, mask = strings.Trim(typed, `"'`), strings.Trim(mask, `"'`)
	if mask == "" {
		return false
	}
	if typed == mask {
		return true
	}
	head, tail, ok := strings.Cut(mask, maskDots)
	if !ok || head == "" && tail == "" {
		return false
	}
	n, m := utf8.RuneCountInString(typed), utf8.RuneCountInString(mask)
	return strings.Contains(typed, maskDots) && n <= m+retypeSlack &&
		n >= utf8.RuneCountInString(head)+len(maskDots)+utf8.RuneCountInString(tail) &&
		strings.HasPrefix(typed, head) && strings.HasSuffix(typed, tail)
}
