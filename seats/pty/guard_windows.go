//go:build windows

package pty

import (
	"fmt"
	"io"
)

// RunGuard is Unix only: on Windows the PTY layer's Job object ends a
// server's tree (Start never runs the guard there).
func RunGuard(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "pullcept seat-guard: not used on Windows")
	return 2
}
