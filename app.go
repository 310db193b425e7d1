package main

import (
	"errors"
	"io"
)

// runApp starts the terminal UI. Wired in the next commit.
func runApp(dataDir string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("the terminal UI is not wired yet")
}
