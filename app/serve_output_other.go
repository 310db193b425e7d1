//go:build !windows

package app

import "io"

// uiOutput is what an attached UI writes to: the session itself. Bubble
// Tea's renderer counts on a newline returning the carriage here, as
// charm.land/ssh's emulated PTY makes it do (serve_windows.go has the
// other case).
func uiOutput(w io.Writer) io.Writer { return w }
