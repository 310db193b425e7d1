//go:build windows

package fakecli

import "errors"

// recordSizes: a Windows console has no SIGWINCH.
func recordSizes(string) (func(), error) {
	return nil, errors.New("-winch needs SIGWINCH (Unix)")
}
