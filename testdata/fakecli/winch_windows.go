//go:build windows

package fakecli

import (
	"errors"
	"io"
)

// recordSizes: a Windows console has no SIGWINCH.
func recordSizes(string, io.Writer) (func(), error) {
	return nil, errors.New("-winch and -redraw need SIGWINCH (Unix)")
}
