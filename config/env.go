package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// EnvVar is one environment variable an account sets on the process of the
// CLI it launches (docs/design.md §9, spec «アカウントは環境変数を持つ»). Name is
// case-sensitive as written. Value reaches the process environment only —
// never argv, the preview or a log; show it with MaskedValue. An empty Value
// means "name only": the seat inherits the variable from Pullcept's own
// environment (values cannot be stored until secret storage lands).
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ReservedEnvPrefix starts every variable Pullcept sets on a launch itself
// (PULLCEPT_LAUNCHED_AS, PULLCEPT_ROOM_TOKEN, PULLCEPT_ROOM_ID, the sidecar's
// entry variables). Accounts may not set such names: a silent override at
// launch would look set and do nothing, and PULLCEPT_LAUNCHED_AS from an
// account would let one CLI seat another account's registration (#208).
const ReservedEnvPrefix = "PULLCEPT_"

// sealedPrefix marks a value the original (Windows) app sealed with DPAPI;
// it cannot be opened here.
const sealedPrefix = "dpapi:"

// Mask shape (spec «アカウントは環境変数を持つ»): show at most maskHead
// leading and maskTail trailing characters, each at most a quarter of the
// value, so even a short value is at least half hidden.
const (
	maskHead = 10
	maskTail = 4
	maskDots = "..."
)

// MaskedValue is the value as the UI may show it: head + "..." + tail
// (e.g. "github_pat...Nx4h"), counted in characters, never bytes. Values
// shorter than 4 characters show only "..."; an empty value shows "".
func (v EnvVar) MaskedValue() string {
	if v.Value == "" {
		return ""
	}
	n := utf8.RuneCountInString(v.Value)
	quarter := n / 4
	head, tail := min(maskHead, quarter), min(maskTail, quarter)
	if head == 0 {
		return maskDots
	}
	r := []rune(v.Value)
	return string(r[:head]) + maskDots + string(r[n-tail:])
}

// Sealed reports a value the original app encrypted with Windows DPAPI
// ("dpapi:<hex>"). It is kept in the file as is, but no launch may use it:
// a CLI started without its declared token runs as somebody else.
func (v EnvVar) Sealed() bool { return strings.HasPrefix(v.Value, sealedPrefix) }

// FormatEnv renders vars as the account editor shows them: one
// "NAME=<masked value>" line each (a name-only variable shows "NAME=").
func FormatEnv(vars []EnvVar) string {
	var b strings.Builder
	for i, v := range vars {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(v.Name)
		b.WriteByte('=')
		b.WriteString(v.MaskedValue())
	}
	return b.String()
}

// ParseEnv reads the account editor's env field (docs/design.md §9): one NAME=value
// per line; the first "=" splits, so values may hold "="; blank lines and
// lines starting with "#" are skipped; spaces around name and value are
// dropped (a pasted token's trailing space is a mistake, not a value); one
// matching pair of surrounding quotes (" or ') is stripped. Every problem is
// reported with its 1-based line number, joined, and never quotes a value:
// ErrEnvSyntax (no "=", no name, invalid name), ErrEnvReserved, ErrEnvQuote,
// ErrEnvDuplicate (case-insensitive).
func ParseEnv(text string) ([]EnvVar, error) {
	var (
		vars []EnvVar
		errs []error
		seen = map[string]int{} // upper-case name → line
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
		value, err := unquoteEnvValue(strings.TrimSpace(line[eq+1:]))
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %s: %w", n, name, err))
			continue
		}
		key := strings.ToUpper(name)
		if prev, ok := seen[key]; ok {
			errs = append(errs, fmt.Errorf("line %d: %w: %s (already on line %d)", n, ErrEnvDuplicate, name, prev))
			continue
		}
		seen[key] = n
		vars = append(vars, EnvVar{Name: name, Value: value})
	}
	return vars, errors.Join(errs...)
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
// (the same rules ParseEnv applies to typed text), naming each by position.
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
	return errors.Join(errs...)
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
