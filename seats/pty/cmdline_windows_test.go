//go:build windows

package pty

import (
	"errors"
	"testing"
)

// TestCheckCmdLine: the line is read with cmd.exe's quote counting.
func TestCheckCmdLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		ok   bool
	}{
		{`C:\npm\claude.cmd --no-alt-screen`, true},
		{`"C:\Program Files (x86)\npm\claude.cmd" --x`, true}, // inside quotes
		{`claude --settings "{\"a\":1}"`, true},               // \" counts: "…\"…\"…" ends quoted
		{`claude a&calc`, false},
		{`claude "a b"&calc`, false},
		{`claude "a\"&calc"`, false}, // the \" closes the quote for cmd.exe
		{`claude -test.run=^Foo$`, false},
		{`claude (x)`, false},
		{`claude "a|b"`, true},
		{"claude a\nb", false},
		{"claude \"a\rb\"", false},
		{`claude %PATH%`, false}, // expanded before the line is read
		{`claude "100%"`, false}, // inside quotes too
		{`claude "x!y!"`, true},  // /V:OFF: ! is text
	}
	for _, tt := range tests {
		err := CheckCmdLine(tt.line)
		if (err == nil) != tt.ok {
			t.Errorf("CheckCmdLine(%q) = %v, want ok=%v", tt.line, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrNotConsoleSafe) {
			t.Errorf("CheckCmdLine(%q) = %v, not ErrNotConsoleSafe", tt.line, err)
		}
	}
}
