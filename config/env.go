package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EnvVar is one environment variable an account sets on the process of the
// CLI it launches (docs/design.md §9, spec «アカウントは環境変数を持つ»). Name is
// case-sensitive as written. A value reaches the process environment only —
// never argv, the preview, a log or .mcp.json — and is shown masked
// (RenderEnv). A variable with neither Sealed nor Value is "name only": the
// seat inherits it from Pullcept's own environment.
//
// config.json holds {"name", "sealed"}: the value sealed by a Vault
// (SystemVault: DPAPI on Windows, the OS keyring elsewhere), never in the
// clear. A {"name", "value"} entry is a value written in the clear by hand
// (or kept by an older Pullcept); it is used as it is until its account's
// env field is changed and saved, which seals it.
type EnvVar struct {
	Name string
	// Sealed is the value as config.json holds it: "dpapi:<hex>" or
	// "keyring:<key id>:<base64>" (see Vault); "" when the value is in Value
	// or there is none.
	Sealed string
	// Value is a value in the clear: set in memory (the sidecar's entry
	// variables, tests) or read from a hand-written "value". Pullcept never
	// writes one it was given: settling the account's env seals it.
	Value string
}

// envVarJSON is an EnvVar as config.json holds it.
type envVarJSON struct {
	Name   string `json:"name"`
	Sealed string `json:"sealed,omitempty"`
	Value  string `json:"value,omitempty"`
}

// MarshalJSON writes {"name", "sealed"} (or a hand-written "value" as it
// was read, or the name alone).
func (v EnvVar) MarshalJSON() ([]byte, error) {
	j := envVarJSON{Name: v.Name, Sealed: v.Sealed}
	if v.Sealed == "" {
		j.Value = v.Value
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads {"name", "sealed"?, "value"?}. A "value" that starts
// with a seal scheme ("dpapi:", "keyring:") is read as sealed: an earlier
// Pullcept kept sealed values there.
func (v *EnvVar) UnmarshalJSON(data []byte) error {
	var j envVarJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*v = EnvVar(j)
	if v.Sealed == "" && isSealed(v.Value) {
		v.Sealed, v.Value = v.Value, ""
	}
	return nil
}

// ReservedEnvPrefix starts every variable Pullcept sets on a launch itself
// (PULLCEPT_LAUNCHED_AS, PULLCEPT_ROOM_TOKEN, PULLCEPT_ROOM_ID, the sidecar's
// entry variables). Accounts may not set such names: a silent override at
// launch would look set and do nothing, and PULLCEPT_LAUNCHED_AS from an
// account would let one CLI seat another account's registration (#208).
const ReservedEnvPrefix = "PULLCEPT_"

// MaxEnvValue bounds one value, in characters: Windows' limit for one
// environment variable (32,767), so a value that launches on one system
// launches on every one.
const MaxEnvValue = 32767

// maxEnvErrors bounds the problems one refusal lists: pasting 10 000 bad
// lines must give a message a person can read, not 10 000 of them.
const maxEnvErrors = 20

// EnvUnreadable is drawn in place of a value that cannot be opened (sealed
// by another user, machine or key, or damaged in the file). Drawn rather
// than refused, so the editor still opens and the row can be deleted or
// replaced; left as it is, the row keeps its sealed value (SettleEnv).
const EnvUnreadable = "(cannot decrypt)"

// Mask shape (spec «アカウントは環境変数を持つ»): show at most maskHead
// leading and maskTail trailing characters, each at most a quarter of the
// value, so even a short value is at least half hidden.
const (
	maskHead = 10
	maskTail = 4
	maskDots = "..."
)

// MaskValue is a value as the UI may show it: head + "..." + tail
// (e.g. "github_pat...Nx4h"), counted in characters, never bytes. Values
// shorter than 4 characters show only "..."; an empty value shows "". A
// control character shown (a tab, a newline of a hand-written value) is
// drawn as "?": the mask is one line of plain text, so the editor holds it
// exactly and a row left alone reads back equal (SettleEnv).
func MaskValue(value string) string {
	if value == "" {
		return ""
	}
	n := utf8.RuneCountInString(value)
	quarter := n / 4
	head, tail := min(maskHead, quarter), min(maskTail, quarter)
	if head == 0 {
		return maskDots
	}
	r := []rune(value)
	plain := func(rs []rune) string {
		return strings.Map(func(c rune) rune {
			if unicode.IsControl(c) {
				return '?'
			}
			return c
		}, string(rs))
	}
	return plain(r[:head]) + maskDots + plain(r[n-tail:])
}

// envLine is one NAME=value line of the editor's env field, the value as
// typed (trimmed, quotes not yet taken off).
type envLine struct {
	n         int // 1-based line number
	name, raw string
}

// parseEnvLines reads the env field's lines: one NAME=value per line; the
// first "=" splits, so values may hold "="; blank lines and lines starting
// with "#" are skipped; spaces around name and value are dropped (a pasted
// token's trailing space is a mistake, not a value). Problems, each naming
// its line and never a value: ErrEnvSyntax (no "=", no name, invalid
// name), ErrEnvReserved, ErrEnvDuplicate (case-insensitive).
func parseEnvLines(text string) ([]envLine, []error) {
	var (
		lines []envLine
		errs  []error
		seen  = map[string]int{} // upper-case name → line
	)
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			errs = append(errs, fmt.Errorf("line %d: %w: no \"=\" (write NAME=value)", n, ErrEnvSyntax))
			continue
		}
		name := strings.TrimSpace(line[:eq])
		if err := CheckEnvName(name); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			continue
		}
		key := strings.ToUpper(name)
		if prev, ok := seen[key]; ok {
			errs = append(errs, fmt.Errorf("line %d: %w: %s (already on line %d)", n, ErrEnvDuplicate, name, prev))
			continue
		}
		seen[key] = n
		lines = append(lines, envLine{n: n, name: name, raw: strings.TrimSpace(line[eq+1:])})
	}
	return lines, errs
}

// typedValue is a typed line's value: one matching pair of surrounding
// quotes (" or ') taken off, at most MaxEnvValue characters. Errors name the
// line and the variable: ErrEnvQuote, ErrEnvTooLong.
func (l envLine) typedValue() (string, error) {
	v, err := unquoteEnvValue(l.raw)
	if err != nil {
		return "", fmt.Errorf("line %d: %s: %w", l.n, l.name, err)
	}
	if n := utf8.RuneCountInString(v); n > MaxEnvValue {
		return "", fmt.Errorf("line %d: %s: %w: %d characters (at most %d)", l.n, l.name, ErrEnvTooLong, n, MaxEnvValue)
	}
	return v, nil
}

// joinEnvErrors joins at most maxEnvErrors problems and says how many more
// there were; errors.Is still finds the sentinels of those listed.
func joinEnvErrors(errs []error) error {
	if len(errs) > maxEnvErrors {
		more := len(errs) - maxEnvErrors
		errs = append(errs[:maxEnvErrors:maxEnvErrors], fmt.Errorf("… and %d more lines with problems", more))
	}
	return errors.Join(errs...)
}

// CheckEnvName accepts portable environment variable names: ASCII letters,
// digits and "_", not starting with a digit, and not ReservedEnvPrefix
// (case-insensitive). Errors wrap ErrEnvSyntax or ErrEnvReserved.
func CheckEnvName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: no name before \"=\"", ErrEnvSyntax)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return fmt.Errorf("%w: %q is not a valid name (letters, digits and _, not starting with a digit)", ErrEnvSyntax, name)
		}
	}
	if strings.HasPrefix(strings.ToUpper(name), ReservedEnvPrefix) {
		return fmt.Errorf("%w: %s (names starting with %s are set at launch)", ErrEnvReserved, name, ReservedEnvPrefix)
	}
	return nil
}

// checkEnvList applies the name rules and the duplicate rule to stored vars
// (the same rules the editor's field is read with), naming each by position.
func checkEnvList(vars []EnvVar) error {
	var errs []error
	seen := map[string]int{}
	for i, v := range vars {
		if err := CheckEnvName(v.Name); err != nil {
			errs = append(errs, fmt.Errorf("env %d: %w", i+1, err))
			continue
		}
		key := strings.ToUpper(v.Name)
		if prev, ok := seen[key]; ok {
			errs = append(errs, fmt.Errorf("env %d: %w: %s (already env %d)", i+1, ErrEnvDuplicate, v.Name, prev))
			continue
		}
		seen[key] = i + 1
	}
	return joinEnvErrors(errs)
}

// unquoteEnvValue strips one matching pair of surrounding quotes. A quote at
// one end only, or different quotes at the two ends, is refused: guessing
// which end was meant would store a value nobody wrote (#165). A value that
// really ends in a quote is written inside the other kind ("abc'" → abc').
func unquoteEnvValue(v string) (string, error) {
	isQuote := func(c byte) bool { return c == '"' || c == '\'' }
	if v == "" {
		return v, nil
	}
	first, last := v[0], v[len(v)-1]
	switch {
	case len(v) >= 2 && isQuote(first) && first == last:
		return v[1 : len(v)-1], nil
	case len(v) >= 2 && isQuote(first) && isQuote(last):
		return "", fmt.Errorf("%w: different quotes at the two ends", ErrEnvQuote)
	case isQuote(first) || isQuote(last):
		return "", fmt.Errorf("%w: a quote at one end only (close it, or wrap the value in the other kind of quote)", ErrEnvQuote)
	}
	return v, nil
}
