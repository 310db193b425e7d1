package config

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The text fields of a server entry as the editor holds them (spec «ローカル
// MCP サーバ» #172: the fields are text and the app reads them, in one
// place; the screen draws what it is given and hands back what was typed).

// ParseMCPArgs reads the args field: one argument per line, never split,
// so a path with spaces stays one argument. Each line is trimmed of the
// spaces and tabs at its ends (and a Windows "\r"; a pasted token's
// trailing space is a mistake, not part of the argument) and blank lines
// are dropped. Nothing is refused.
func ParseMCPArgs(text string) []string {
	var args []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			args = append(args, line)
		}
	}
	return args
}

// MCPArgsText draws args for the field, one a line. exact is false when
// ParseMCPArgs would not read the same list back: an argument that is
// empty, holds a line break or has spaces at its ends (the editor should
// then say so rather than change it on save).
func MCPArgsText(args []string) (text string, exact bool) {
	exact = true
	for _, a := range args {
		if a == "" || a != strings.TrimSpace(a) || strings.ContainsAny(a, "\r\n") {
			exact = false
		}
	}
	return strings.Join(args, "\n"), exact
}

// CheckMCPEnvField reads the env field (one NAME=value per line) and returns the
// variables of the good lines and one FieldError per bad line (Field
// FieldEnv, Line its 1-based line, Err the problem without the line,
// wrapping the sentinel; never a value), in line order.
func CheckMCPEnvField(text string) ([]MCPEnv, []FieldError) {
	var (
		env      []MCPEnv
		problems []FieldError
		seen     = map[string]int{} // upper-case name → line
	)
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		v, err := readMCPEnvLine(line, n, seen)
		if err != nil {
			problems = append(problems, FieldError{Field: FieldEnv, Line: n, Err: err})
			continue
		}
		env = append(env, v)
	}
	return env, problems
}

// readMCPEnvLine reads one trimmed, non-blank line n of the env field;
// seen holds the names of the lines before it (upper-cased) and gets this
// one's.
func readMCPEnvLine(line string, n int, seen map[string]int) (MCPEnv, error) {
	name, raw, found := strings.Cut(line, "=")
	if !found {
		return MCPEnv{}, fmt.Errorf("%w: no \"=\" (write NAME=value)", ErrEnvSyntax)
	}
	name = strings.TrimSpace(name)
	if err := checkMCPEnvName(name); err != nil {
		return MCPEnv{}, err
	}
	key := strings.ToUpper(name)
	if prev, ok := seen[key]; ok {
		return MCPEnv{}, fmt.Errorf("%w: %s (already on line %d)", ErrEnvDuplicate, name, prev)
	}
	seen[key] = n
	value, err := unquoteEnvValue(strings.TrimSpace(raw))
	if err != nil {
		return MCPEnv{}, fmt.Errorf("%s: %w", name, err)
	}
	if c := utf8.RuneCountInString(value); c > MaxEnvValue {
		return MCPEnv{}, fmt.Errorf("%s: %w: %d characters (at most %d)", name, ErrEnvTooLong, c, MaxEnvValue)
	}
	return MCPEnv{Name: name, Value: value}, nil
}

// MCPEnvText draws env for the field: NAME=value a line, a value quoted
// ("…") when CheckMCPEnvField would otherwise not read it back (spaces at its
// ends, a quote at an end). exact is false when no line can carry it: a
// name CheckMCPEnvField refuses or that repeats, or a value with a line break.
func MCPEnvText(env []MCPEnv) (text string, exact bool) {
	exact = checkMCPEnvNames(env) == nil
	lines := make([]string, 0, len(env))
	for _, v := range env {
		val := v.Value
		if strings.ContainsAny(val, "\r\n") {
			exact = false
		}
		if val != strings.TrimSpace(val) || strings.HasPrefix(val, `"`) || strings.HasPrefix(val, "'") ||
			strings.HasSuffix(val, `"`) || strings.HasSuffix(val, "'") {
			val = `"` + val + `"`
		}
		lines = append(lines, v.Name+"="+val)
	}
	return strings.Join(lines, "\n"), exact
}

// checkMCPEnvName refuses a server env name that is empty, holds "=",
// whitespace or a control character, or is not UTF-8 (ErrEnvSyntax).
func checkMCPEnvName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: no name before \"=\"", ErrEnvSyntax)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: the name is not valid UTF-8", ErrEnvSyntax)
	}
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
			return fmt.Errorf("%w: %q: a name has no spaces", ErrEnvSyntax, name)
		case unicode.IsControl(r) || r == '=':
			return fmt.Errorf("%w: %q holds %U", ErrEnvSyntax, name, r)
		}
	}
	return nil
}

// checkMCPEnvNames applies CheckMCPEnvField's name rules to a list (SetServer,
// MCPEnvText), naming each problem's position.
func checkMCPEnvNames(env []MCPEnv) error {
	var errs []error
	seen := map[string]int{}
	for i, v := range env {
		if err := checkMCPEnvName(v.Name); err != nil {
			errs = append(errs, fmt.Errorf("variable %d: %w", i+1, err))
			continue
		}
		key := strings.ToUpper(v.Name)
		if prev, ok := seen[key]; ok {
			errs = append(errs, fmt.Errorf("variable %d: %w: %s (already variable %d)", i+1, ErrEnvDuplicate, v.Name, prev))
			continue
		}
		seen[key] = i + 1
	}
	return joinEnvErrors(errs)
}
