//go:build !linux

package fakecli

import "errors"

// rawTerminal: prompt mode is for the Linux tmux tests.
func rawTerminal() (func(), error) {
	return nil, errors.New("-prompt needs Linux")
}
