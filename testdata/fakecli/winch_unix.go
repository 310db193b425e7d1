//go:build unix

package fakecli

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// recordSizes appends the terminal's size to path now and at every
// SIGWINCH, until stop. Its goroutine (in the fake CLI process) ends at
// stop, which waits for it.
func recordSizes(path string) (stop func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	write := func() {
		ws, err := unix.IoctlGetWinsize(int(os.Stdin.Fd()), unix.TIOCGWINSZ)
		if err != nil {
			fmt.Fprintf(f, "error %v\n", err)
			return
		}
		fmt.Fprintf(f, "%dx%d\n", ws.Col, ws.Row)
	}
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
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sig)
		close(quit)
		<-done
		_ = f.Close()
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
