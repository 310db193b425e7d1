//go:build windows

package config

import "os"

// openNoBlock opens path for reading. Windows has no FIFOs in the file
// system (named pipes live under \\.\pipe\) and the Lstat before it
// refuses a link when follow is false.
func openNoBlock(path string, _ bool) (*os.File, error) {
	return os.Open(path)
}
