//go:build unix

package fakecli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// recordSizes appends the terminal's size to path (when not "") now and
// at every SIGWINCH, and with redraw (-redraw) also writes a line to the
// terminal at each, as a full-screen CLI redraws at a resize; until stop.
// Its goroutine (in the fake CLI process) ends at stop, which waits for it.
func recordSizes(path string, redraw io.Writer) (stop func(), err error) {
	f := io.Discard
	if path != "" {
		file, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, err
		}
		defer func() {
			if stop == nil {
				_ = file.Close()
			}
		}()
		f = file
	}
	size := func() string {
		ws, err := unix.IoctlGetWinsize(int(os.Stdin.Fd()), unix.TIOCGWINSZ)
		if err != nil {
			return fmt.Sprintf("error %v", err)
		}
		return fmt.Sprintf("%dx%d", ws.Col, ws.Row)
	}
	write := func() { fmt.Fprintln(f, size()) }
	sig := make(chan os.Signal, 16)
	signal.Notify(sig, syscall.SIGWINCH)
	write()
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-sig:
				write()
				if redraw != nil {
					fmt.Fprintf(redraw, "%s %s\n", Redrawn, size())
				}
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sig)
		close(quit)
		<-done
		if c, ok := f.(io.Closer); ok {
			_ = c.Close()
		}
	}, nil
}

// Sizes reads a -winch file: the size at start, then one per SIGWINCH.
func Sizes(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}
