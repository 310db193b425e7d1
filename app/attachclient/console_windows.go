package attachclient

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// vtOutput sets out's console, when it is one, to what Bubble Tea sets
// for its own output (charm.land/bubbletea tty_windows.go): the escape
// sequences the UI sends are interpreted (ENABLE_VIRTUAL_TERMINAL_PROCESSING)
// and writing the last column does not wrap at once
// (DISABLE_NEWLINE_AUTO_RETURN). restore puts the console's mode back.
func vtOutput(out *os.File) (restore func(), err error) {
	h := windows.Handle(out.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return func() {}, nil // not a console: a pipe or a file takes bytes
	}
	want := mode | windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING | windows.DISABLE_NEWLINE_AUTO_RETURN
	if err := windows.SetConsoleMode(h, want); err != nil {
		return nil, fmt.Errorf("this console does not take escape sequences (Windows 10 1809 or later does): %w", err)
	}
	return func() { _ = windows.SetConsoleMode(h, mode) }, nil
}
