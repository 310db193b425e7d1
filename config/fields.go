package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Field names as errors and the account editor name them (FieldError).
const (
	FieldName       = keyName
	FieldKind       = keyKind
	FieldHue        = keyHue
	FieldWorkDir    = "working directory"
	FieldCommand    = keyCommand
	FieldOptions    = "launch options"
	FieldResume     = "resume line"
	FieldScreenMode = keyScreenMode
	FieldPermMode   = "permission mode"
	FieldEnv        = keyEnv
	FieldCharacter  = keyCharacter
)

// FieldError is one problem with one field of an account. Line is the
// 1-based line of a multi-line field the problem is on (the env field),
// 0 for the field as a whole; Err wraps the sentinel.
type FieldError struct {
	Field string
	Line  int
	Err   error
}

// CheckFields lists every problem Validate finds with a's own fields (all
// but the id, whose rules span accounts), each naming its field: name
// non-empty, kind valid, hue 0–359, a seat kind's absolute working
// directory and command, launch options and resume line that split, a
// known screen mode, env names valid, unique and not PULLCEPT_*. Nothing
// here reads the disk (whether the working directory exists is the seats'
// question: seats.CheckWorkDir).
func CheckFields(a Account) []FieldError {
	var out []FieldError
	bad := func(field string, err error) { out = append(out, FieldError{Field: field, Err: err}) }
	if strings.TrimSpace(a.Name) == "" {
		bad(FieldName, ErrNoName)
	}
	if !a.Kind.Valid() {
		bad(FieldKind, fmt.Errorf("%w %q", ErrBadKind, a.Kind))
	}
	if a.Hue != nil && (*a.Hue < 0 || *a.Hue > 359) {
		bad(FieldHue, fmt.Errorf("%w, got %d", ErrBadHue, *a.Hue))
	}
	if a.Kind.Launches() {
		switch {
		case strings.TrimSpace(a.WorkDir) == "":
			bad(FieldWorkDir, ErrNoWorkDir)
		case !filepath.IsAbs(a.WorkDir):
			bad(FieldWorkDir, fmt.Errorf("%w: %q is not an absolute path", ErrNoWorkDir, a.WorkDir))
		}
		if strings.TrimSpace(a.Command) == "" {
			bad(FieldCommand, ErrNoCommand)
		}
		if _, err := SplitWords(a.LaunchOptions); err != nil {
			bad(FieldOptions, err)
		}
		if _, err := SplitWords(a.ResumeLine); err != nil {
			bad(FieldResume, err)
		}
	}
	if a.ScreenMode != ScreenInline && a.ScreenMode != ScreenAlt {
		bad(FieldScreenMode, fmt.Errorf("%w %q (want %q or %q)", ErrBadScreenMode, a.ScreenMode, ScreenInline, ScreenAlt))
	}
	if !slices.Contains(PermissionModes, a.PermissionMode) && !slices.Contains(permissionModesQuiet, a.PermissionMode) {
		want := append(slices.Clone(PermissionModes[:len(PermissionModes)-1]), permissionModesQuiet...)
		bad(FieldPermMode, fmt.Errorf("%w %q (want one of %s, or none)", ErrBadPermissionMode, a.PermissionMode, strings.Join(want, ", ")))
	}
	if err := checkEnvList(a.Env); err != nil {
		bad(FieldEnv, err)
	}
	return out
}

// EnvFieldName is one variable of the editor's env field: its name and
// the 1-based line it is on.
type EnvFieldName struct {
	Line int
	Name string
}

// CheckEnvField reads the editor's env field (parseEnvLines' rules) and
// returns its names with their lines, and one FieldError per problem line
// (Field FieldEnv, Line set; never a value in the text).
func CheckEnvField(text string) ([]EnvFieldName, []FieldError) {
	lines, errs := parseEnvLines(text)
	names := make([]EnvFieldName, 0, len(lines))
	for _, l := range lines {
		names = append(names, EnvFieldName{Line: l.n, Name: l.name})
	}
	out := make([]FieldError, 0, len(errs))
	for _, err := range errs {
		fe := FieldError{Field: FieldEnv, Err: err}
		var n int
		if _, scanErr := fmt.Sscanf(err.Error(), "line %d:", &n); scanErr == nil {
			fe.Line = n
			fe.Err = envLineError{err}
		}
		out = append(out, fe)
	}
	return names, out
}

// envLineError is a parseEnvLines error without its "line N: " prefix
// (the FieldError carries the line).
type envLineError struct{ err error }

func (e envLineError) Error() string {
	_, rest, _ := strings.Cut(e.err.Error(), ": ")
	return rest
}

func (e envLineError) Unwrap() error { return e.err }
