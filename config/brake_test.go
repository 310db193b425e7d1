package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrakeSetting: config.json's "brake" (docs/design.md §2 "The brake"):
// absent or null is the default, 0 is off, a whole number up to MaxBrake is
// kept, anything else is refused naming the key (ErrBadFile).
func TestBrakeSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value string // the raw JSON value; "" leaves the key out
		want  int
		bad   string // a word the error must hold; "" = no error
	}{
		{"", DefaultBrake, ""},
		{"null", DefaultBrake, ""},
		{"0", 0, ""},
		{"1", 1, ""},
		{"12", 12, ""},
		{"1000", MaxBrake, ""},
		{"-1", 0, "got -1"},
		{"1001", 0, "got 1001"},
		{"1e9", 0, "got 1e9"},
		{"2.5", 0, "got 2.5"},
		{`"12"`, 0, "got a string"},
		{"true", 0, "got a boolean"},
		{"[12]", 0, "got an array"},
		{"123456789012345678901234567890", 0, "got a number"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			body := `{"accounts":[]}`
			if tt.value != "" {
				body = `{"accounts":[],"brake":` + tt.value + `}`
			}
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			c, _, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			n, err := c.Brake()
			if tt.bad == "" {
				if err != nil || n != tt.want {
					t.Fatalf("Brake() = %d, %v; want %d", n, err, tt.want)
				}
				return
			}
			if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), `"brake"`) || !strings.Contains(err.Error(), tt.bad) {
				t.Fatalf("Brake() = %d, %v; want ErrBadFile naming \"brake\" and %q", n, err, tt.bad)
			}
		})
	}
}
