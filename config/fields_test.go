package config

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckFields: every problem of an account's own fields, each naming
// its field, and exactly the problems Validate reports for that account.
func TestCheckFields(t *testing.T) {
	t.Parallel()
	hue := 400
	a := Account{ID: "x", Name: " ", Kind: KindClaudeCode, Hue: &hue, WorkDir: "rel/dir", LaunchOptions: `--a "open`,
		ScreenMode: "weird", PermissionMode: "yolo", Env: []EnvVar{{Name: "A"}, {Name: "a"}}}
	got := CheckFields(a)
	want := map[string]error{FieldName: ErrNoName, FieldHue: ErrBadHue, FieldWorkDir: ErrNoWorkDir, FieldCommand: ErrNoCommand,
		FieldOptions: ErrUnterminatedQuote, FieldScreenMode: ErrBadScreenMode, FieldPermMode: ErrBadPermissionMode, FieldEnv: ErrEnvDuplicate}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d: %v", len(got), len(want), got)
	}
	verr := (&Config{Accounts: []Account{a}}).Validate()
	for _, fe := range got {
		if !errors.Is(fe.Err, want[fe.Field]) {
			t.Errorf("%s: %v, want %v", fe.Field, fe.Err, want[fe.Field])
		}
		if !strings.Contains(verr.Error(), fe.Field+": "+fe.Err.Error()) {
			t.Errorf("Validate does not report %v:\n%v", fe.Err, verr)
		}
	}
	if fs := CheckFields(Account{ID: "ok", Name: "Ok", Kind: KindAdmin}); len(fs) != 0 {
		t.Fatalf("a good admin: %v", fs)
	}
}

// TestCheckEnvField: the env field's names with their lines, and each
// problem with its line, never a value.
func TestCheckEnvField(t *testing.T) {
	t.Parallel()
	names, errs := CheckEnvField("GH_TOKEN=sekrit\n\n# note\nbad line\nPULLCEPT_X=1\ngh_token=again\nOK=1")
	if len(names) != 2 || names[0] != (EnvFieldName{1, "GH_TOKEN"}) || names[1] != (EnvFieldName{7, "OK"}) {
		t.Fatalf("names %v", names)
	}
	wantLines := []int{4, 5, 6}
	if len(errs) != len(wantLines) {
		t.Fatalf("errs %v", errs)
	}
	for i, fe := range errs {
		if fe.Field != FieldEnv || fe.Line != wantLines[i] || strings.Contains(fe.Err.Error(), "sekrit") || strings.HasPrefix(fe.Err.Error(), "line ") {
			t.Errorf("problem %d: %+v (%v)", i, fe, fe.Err)
		}
	}
	if !errors.Is(errs[1].Err, ErrEnvReserved) || !errors.Is(errs[2].Err, ErrEnvDuplicate) {
		t.Errorf("sentinels lost: %v", errs)
	}
}

// TestPermissionModeRoundTrip: permission_mode is read and written as it
// stands (written only when set), the CLI's quiet modes are accepted from
// the file, and an edit without one keeps the stored mode.
func TestPermissionModeRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir() // absolute on every system ("/w" is not on Windows)
	for _, mode := range append(PermissionModes, permissionModesQuiet...) {
		a := Account{ID: "c", Name: "C", Kind: KindClaudeCode, WorkDir: dir, Command: "claude", PermissionMode: mode}
		if fs := CheckFields(a); len(fs) != 0 {
			t.Fatalf("mode %q refused: %v", mode, fs)
		}
		js, err := a.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(js), "permission_mode") != (mode != "") {
			t.Fatalf("mode %q written as %s", mode, js)
		}
		var back Account
		if err := back.UnmarshalJSON(js); err != nil || back.PermissionMode != mode {
			t.Fatalf("mode %q read back as %q (%v)", mode, back.PermissionMode, err)
		}
	}
}
