package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestParseMCPArgs: one argument a line, never split; ends trimmed, blank
// lines dropped; MCPArgsText draws them back and says when it cannot.
func TestParseMCPArgs(t *testing.T) {
	t.Parallel()
	got := ParseMCPArgs("--port 8080\r\n\n   \nC:\\Program Files\\bridge\\index.mjs  \n\t--verbose\n")
	want := []string{"--port 8080", `C:\Program Files\bridge\index.mjs`, "--verbose"}
	if !slices.Equal(got, want) {
		t.Fatalf("ParseMCPArgs = %q, want %q", got, want)
	}
	if ParseMCPArgs(" \n\n") != nil {
		t.Error("blank field read as arguments")
	}
	text, exact := MCPArgsText(want)
	if !exact || !slices.Equal(ParseMCPArgs(text), want) {
		t.Errorf("MCPArgsText(%q) = %q, %v", want, text, exact)
	}
	for _, odd := range [][]string{{""}, {" x"}, {"a\nb"}} {
		if _, exact := MCPArgsText(odd); exact {
			t.Errorf("MCPArgsText(%q) says it draws them exactly", odd)
		}
	}
}

// TestParseMCPEnv: NAME=value a line, the first "=" splits, one pair of
// surrounding quotes taken off, blank lines dropped; MCPEnvText draws the
// variables so that they read back the same.
func TestParseMCPEnv(t *testing.T) {
	t.Parallel()
	got, err := ParseMCPEnv("WEBHOOK_WORKER_URL = https://example.test/?a=b\r\n\n  QUOTED=\"  spaced  \"\nSINGLE='x'\nEMPTY=\nPULLCEPT_OK=1\nPath=a\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []MCPEnv{
		{"WEBHOOK_WORKER_URL", "https://example.test/?a=b"}, {"QUOTED", "  spaced  "}, {"SINGLE", "x"},
		{"EMPTY", ""}, {"PULLCEPT_OK", "1"}, {"Path", "a"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseMCPEnv = %+v\nwant %+v", got, want)
	}
	round := append(want, MCPEnv{"ENDS", `say "hi"`}, MCPEnv{"LEAD", "'x"})
	text, exact := MCPEnvText(round)
	if back, err := ParseMCPEnv(text); !exact || err != nil || !reflect.DeepEqual(back, round) {
		t.Errorf("MCPEnvText %q (exact %v) read back %+v, %v", text, exact, back, err)
	}
	for _, odd := range [][]MCPEnv{{{"A", "x\ny"}}, {{"A B", "1"}}, {{"A", "1"}, {"a", "2"}}} {
		if _, exact := MCPEnvText(odd); exact {
			t.Errorf("MCPEnvText(%+v) says it draws them exactly", odd)
		}
	}
}

// TestParseMCPEnvErrors: every bad line is refused with its line number
// and never its value; a name is compared without case.
func TestParseMCPEnvErrors(t *testing.T) {
	t.Parallel()
	text := strings.Join([]string{
		"GOOD=1",              // 1
		"no equals sign",      // 2
		"=secret-value",       // 3
		"MY VAR=secret-value", // 4
		"good=secret-value",   // 5: GOOD again
		`Q="secret-value`,     // 6
		"",                    // 7
		"TAB\tNAME=x",         // 8
	}, "\n")
	env, err := ParseMCPEnv(text)
	if err == nil || env != nil {
		t.Fatalf("ParseMCPEnv = %+v, %v; want refused", env, err)
	}
	msg := err.Error()
	for _, want := range []string{"line 2:", "line 3:", "line 4:", "line 5:", "already on line 1", "line 6:", "line 8:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	for _, no := range []string{"line 1:", "line 7:", "secret-value"} {
		if strings.Contains(msg, no) {
			t.Errorf("error says %q:\n%s", no, msg)
		}
	}
	for _, sentinel := range []error{ErrEnvSyntax, ErrEnvDuplicate, ErrEnvQuote} {
		if !errors.Is(err, sentinel) {
			t.Errorf("errors.Is(%v) false", sentinel)
		}
	}
	good, problems := CheckMCPEnvField(text)
	var lines []int
	for _, p := range problems {
		lines = append(lines, p.Line)
		if p.Field != FieldEnv || strings.HasPrefix(p.Err.Error(), "line") || strings.Contains(p.Err.Error(), "secret-value") {
			t.Errorf("problem %+v", p)
		}
	}
	if !slices.Equal(lines, []int{2, 3, 4, 5, 6, 8}) || !reflect.DeepEqual(good, []MCPEnv{{"GOOD", "1"}}) {
		t.Errorf("CheckMCPEnvField: lines %v, good %+v", lines, good)
	}
	many := strings.Repeat("bad line\n", 500)
	if _, err := ParseMCPEnv(many); err == nil || strings.Count(err.Error(), "\n") > maxEnvErrors+1 {
		t.Errorf("500 bad lines listed as %d lines", strings.Count(err.Error(), "\n")+1)
	}
}

// ParseMCPEnv reads the env field: one NAME=value a line; the first "="
// splits, so values may hold "="; spaces around the name and the value are
// dropped; one matching pair of quotes (" or ') around the whole value is
// taken off, as in an account's env field (a value that should keep its
// end spaces is quoted). Blank lines are dropped. Refused, each problem
// naming its line (and never a value), at most 20 listed: a line without
// "=" (ErrEnvSyntax), no name before it (ErrEnvSyntax), a name with a space
// or a control character (ErrEnvSyntax), a quote at one end only
// (ErrEnvQuote), a value over MaxEnvValue characters (ErrEnvTooLong), a
// name used twice (ErrEnvDuplicate). CheckMCPEnvField gives the same
// problems one by one, with their lines.
//
// Names are compared case-insensitively on every system, as in an
// account's env field: Windows reads PATH and Path as one variable, and
// a file that runs on one system should run on every one. Any other name
// is taken as written (these variables go to a server Pullcept starts,
// not to a seat, so PULLCEPT_ names are allowed).
func ParseMCPEnv(text string) ([]MCPEnv, error) {
	env, problems := CheckMCPEnvField(text)
	if len(problems) == 0 {
		return env, nil
	}
	errs := make([]error, 0, len(problems))
	for _, p := range problems {
		errs = append(errs, fmt.Errorf("line %d: %w", p.Line, p.Err))
	}
	return nil, joinEnvErrors(errs)
}
