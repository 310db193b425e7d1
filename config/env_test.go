package config

import (
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
	got, err := ParseEnv(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{
		{"GH_TOKEN", "github_pat_abc"},
		{"LI_PLUS_AGENT_KEY", "a=b=c"},
		{"QUOTED", "two words"},
		{"SINGLE", `x "y"`},
		{"OTHER", "abc'"},
		{"EMPTY", ""},
		{"lower_case", "1"},
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
	}
	for _, tt := range tests {
		_, err := ParseEnv(tt.text)
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseEnv(%q) error = %v, want %v", tt.text, err, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.line) {
			t.Errorf("ParseEnv(%q) error %q does not name %s", tt.text, err, tt.line)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("ParseEnv(%q) error leaks the value: %q", tt.text, err)
		}
	}
	// Every bad line is reported, not only the first.
	_, err := ParseEnv("A\nB=1\nC\nb=2")
	for _, l := range []string{"line 1", "line 3", "line 4"} {
		if err == nil || !strings.Contains(err.Error(), l) {
			t.Errorf("joined error %v does not name %s", err, l)
		}
	}
}

func TestMaskedValue(t *testing.T) {
	t.Parallel()
	tests := []struct{ value, want string }{
		{"", ""},
		{"abc", "..."},
		{"abcd", "a...d"},
		{"12345678", "12...78"},
		{"github_pat_11ABCDEFG0123456789abcdefNx4h", "github_pat...Nx4h"},
		{"ひみつのあいことば", "ひみ...とば"},
	}
	for _, tt := range tests {
		got := EnvVar{Name: "X", Value: tt.value}.MaskedValue()
		if got != tt.want {
			t.Errorf("MaskedValue(%q) = %q, want %q", tt.value, got, tt.want)
		}
		shown := utf8.RuneCountInString(strings.Replace(got, maskDots, "", 1))
		if n := utf8.RuneCountInString(tt.value); shown*2 > n {
			t.Errorf("MaskedValue(%q) shows %d of %d characters", tt.value, shown, n)
		}
	}
	got := FormatEnv([]EnvVar{{"A", "abcdefgh"}, {"B", ""}})
	if got != "A=ab...gh\nB=" {
		t.Errorf("FormatEnv = %q", got)
	}
}

// FuzzParseEnv: parsing never panics; what parses has valid, unique,
// unreserved names and survives being written back as NAME="value" lines.
func FuzzParseEnv(f *testing.F) {
	for _, s := range []string{"A=1", "A='x'\nB=\"y\"", "#c\n\nA=b=c", "A=\"", "PULLCEPT_X=1", "a=1\nA=2", "A= \"\" "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vars, err := ParseEnv(s)
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
		again, err := ParseEnv(strings.Join(lines, "\n"))
		if err != nil || !slices.Equal(again, vars) {
			t.Fatalf("round trip of %q: %q → %q (%v)", s, vars, again, err)
		}
	})
}
