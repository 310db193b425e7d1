package config

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseEnv(t *testing.T) {
	t.Parallel()
	text := strings.Join([]string{
		"# tokens",
		"GH_TOKEN = github_pat_abc ",
		"",
		"LI_PLUS_AGENT_KEY=a=b=c",
		`QUOTED="two words"`,
		`SINGLE='x "y"'`,
		`OTHER="abc'"`,
		"EMPTY=",
		"lower_case=1\r",
	}, "\n")
	got, err := parseEnv(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{
		{Name: "GH_TOKEN", Value: "github_pat_abc"},
		{Name: "LI_PLUS_AGENT_KEY", Value: "a=b=c"},
		{Name: "QUOTED", Value: "two words"},
		{Name: "SINGLE", Value: `x "y"`},
		{Name: "OTHER", Value: "abc'"},
		{Name: "EMPTY"},
		{Name: "lower_case", Value: "1"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ParseEnv =\n%q\nwant\n%q", got, want)
	}
}

func TestParseEnvErrors(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-v4lue"
	tests := []struct {
		text string
		want error
		line string
	}{
		{"NOEQUALS", ErrEnvSyntax, "line 1"},
		{"=" + secret, ErrEnvSyntax, "line 1"},
		{"\n\nBAD NAME=" + secret, ErrEnvSyntax, "line 3"},
		{"1ABC=" + secret, ErrEnvSyntax, "line 1"},
		{"A-B=" + secret, ErrEnvSyntax, "line 1"},
		{"PULLCEPT_ROOM_TOKEN=" + secret, ErrEnvReserved, "line 1"},
		{"pullcept_launched_as=" + secret, ErrEnvReserved, "line 1"},
		{"PULLCEPT_ROOM_ID=x", ErrEnvReserved, "line 1"},
		{`T="` + secret, ErrEnvQuote, "line 1"},
		{"T=" + secret + `'`, ErrEnvQuote, "line 1"},
		{`T="` + secret + `'`, ErrEnvQuote, "line 1"},
		{`T="`, ErrEnvQuote, "line 1"},
		{"GH_TOKEN=a\n# c\ngh_token=" + secret, ErrEnvDuplicate, "line 3"},
		{"\nBIG=" + secret + strings.Repeat("x", MaxEnvValue), ErrEnvTooLong, "line 2"},
	}
	for _, tt := range tests {
		_, err := parseEnv(tt.text)
		if !errors.Is(err, tt.want) {
			t.Errorf("parseEnv(%q) error = %v, want %v", tt.text, err, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.line) {
			t.Errorf("parseEnv(%q) error %q does not name %s", tt.text, err, tt.line)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("parseEnv(%q) error leaks the value: %q", tt.text, err)
		}
	}
	// Every bad line is reported, not only the first.
	_, err := parseEnv("A\nB=1\nC\nb=2")
	for _, l := range []string{"line 1", "line 3", "line 4"} {
		if err == nil || !strings.Contains(err.Error(), l) {
			t.Errorf("joined error %v does not name %s", err, l)
		}
	}
}

func TestMaskValue(t *testing.T) {
	t.Parallel()
	tests := []struct{ value, want string }{
		{"", ""},
		{"abc", "..."},
		{"abcd", "a...d"},
		{"12345678", "12...78"},
		{"0123456789abcdef", "0123...cdef"},
		{"github_pat_11ABCDEFG0123456789abcdefNx4h", "github_pat...Nx4h"},
		{"ひみつのあいことば", "ひみ...とば"},
		{"a\tb\ncdefgh\x00", "a?...h?"},
	}
	for _, tt := range tests {
		got := MaskValue(tt.value)
		if got != tt.want {
			t.Errorf("MaskValue(%q) = %q, want %q", tt.value, got, tt.want)
		}
		shown := utf8.RuneCountInString(strings.Replace(got, maskDots, "", 1))
		if n := utf8.RuneCountInString(tt.value); shown*2 > n {
			t.Errorf("MaskValue(%q) shows %d of %d characters", tt.value, shown, n)
		}
	}
}

// TestIsEditedMask: a mask with a quote added or taken off, or retyped
// around its "..." keeping head and tail, is told from a real value (#165).
func TestIsEditedMask(t *testing.T) {
	t.Parallel()
	const mask = "github_pat...Nx4h"
	for _, tt := range []struct {
		typed, mask string
		want        bool
	}{
		{mask, mask, true},
		{`"github_pat...Nx4h`, mask, true},
		{`"github_pat...Nx4h"`, mask, true},
		{"github_pa...Nx4h", `"github_pa...Nx4h`, true},
		{"github_pat_11...Nx4h", mask, true},
		{"github_pat......Nx4h", mask, true},
		{"github_pat_11ABCDEFG0123456789Nx4h", mask, false},
		{"github_pat...Zz9q", mask, false},
		{`C:\gh\...\lin`, "C:...in", false},
		{"C:x...in", "C:...in", true},
		{"github_pat_11ABCDEF...Nx4h", mask, false},
		{"...", "...", true},
		{"'...'", "...", true},
		{"a...b", "...", false},
		{"", "", false},
		{`"` + EnvUnreadable + `"`, EnvUnreadable, true},
	} {
		if got := isEditedMask(tt.typed, tt.mask); got != tt.want {
			t.Errorf("isEditedMask(%q, %q) = %v, want %v", tt.typed, tt.mask, got, tt.want)
		}
	}
}

// TestEnvVarJSON: sealed values are written as "sealed"; a value in the
// clear keeps its "value" key; a name-only variable is its name alone.
func TestEnvVarJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    EnvVar
		want string
	}{
		{EnvVar{Name: "A", Sealed: "keyring:1:x"}, `{"name":"A","sealed":"keyring:1:x"}`},
		{EnvVar{Name: "A", Value: "v"}, `{"name":"A","value":"v"}`},
		{EnvVar{Name: "A"}, `{"name":"A"}`},
	} {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("marshal %+v = %s, %v; want %s", tt.v, b, err, tt.want)
		}
		var back EnvVar
		if err := json.Unmarshal(b, &back); err != nil || back != tt.v {
			t.Errorf("unmarshal %s = %+v, %v", b, back, err)
		}
	}
}

// TestParseEnvManyBadLines: 10 000 bad lines give one readable refusal that
// names the first lines and counts the rest.
func TestParseEnvManyBadLines(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("no equals here\n", 10000)
	_, err := parseEnv(text)
	if !errors.Is(err, ErrEnvSyntax) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "line 1:") || !strings.Contains(msg, "line 20:") || strings.Contains(msg, "line 21:") ||
		!strings.Contains(msg, "and 9980 more lines") || strings.Count(msg, "\n") != maxEnvErrors {
		t.Errorf("refusal of 10 000 bad lines:\n%s", msg)
	}
}

// FuzzParseEnv: parsing never panics; what parses has valid, unique,
// unreserved names and survives being written back as NAME="value" lines.
func FuzzParseEnv(f *testing.F) {
	for _, s := range []string{"A=1", "A='x'\nB=\"y\"", "#c\n\nA=b=c", "A=\"", "PULLCEPT_X=1", "a=1\nA=2", "A= \"\" "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vars, err := parseEnv(s)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		var lines []string
		for _, v := range vars {
			if CheckEnvName(v.Name) != nil || seen[strings.ToUpper(v.Name)] {
				t.Fatalf("bad name %q accepted from %q", v.Name, s)
			}
			seen[strings.ToUpper(v.Name)] = true
			lines = append(lines, v.Name+`="`+v.Value+`"`)
		}
		again, err := parseEnv(strings.Join(lines, "\n"))
		if err != nil || !slices.Equal(again, vars) {
			t.Fatalf("round trip of %q: %q → %q (%v)", s, vars, again, err)
		}
	})
}

// parseEnv reads the env field as typed text (every row typed): the
// lines of parseEnvLines, each value with one matching pair of surrounding
// quotes taken off. Every problem is reported with its 1-based line number
// (at most maxEnvErrors of them, then how many more), and never quotes a
// value: ErrEnvSyntax, ErrEnvReserved, ErrEnvQuote, ErrEnvTooLong,
// ErrEnvDuplicate. The values come back in the clear (Value). SettleEnv
// reads the field this way for every row it does not keep.
func parseEnv(text string) ([]EnvVar, error) {
	lines, errs := parseEnvLines(text)
	vars := make([]EnvVar, 0, len(lines))
	for _, l := range lines {
		v, err := l.typedValue()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		vars = append(vars, EnvVar{Name: l.name, Value: v})
	}
	return vars, joinEnvErrors(errs)
}
