//go:build windows

package pty

import (
	"fmt"
	"strings"
)

// CheckCmdLine is the last check of a Windows seat's command line before
// cmd.exe reads it (`cmd.exe /S /C "<line>"`, docs/design.md §9). The launch
// builder keeps cmd.exe's characters out of what it writes; this reads the
// composed line the way cmd.exe does, so nothing it was not shown can run:
// cmd.exe only counts quotes (a \" counts too), and outside quotes one of
// & | < > ^ ( ) ends the command or starts another. % expands a variable
// anywhere, quoted or not, before the line is read further; a control
// character ends the line anywhere. The error wraps ErrNotConsoleSafe.
func CheckCmdLine(line string) error {
	quoted := false
	for i, r := range line {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("%w: a control character at byte %d", ErrNotConsoleSafe, i)
		case r == '%':
			return fmt.Errorf("%w: %% at byte %d (cmd.exe expands variables, quoted or not)", ErrNotConsoleSafe, i)
		case r == '"':
			quoted = !quoted
		case !quoted && strings.ContainsRune("&|<>^()", r):
			return fmt.Errorf("%w: %q outside quotes at byte %d (%s)", ErrNotConsoleSafe, r, i, CmdReactive)
		}
	}
	return nil
}
