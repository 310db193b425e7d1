//go:build !windows

package attachclient

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// watchSize calls resized with out's size on every SIGWINCH until the
// returned stop is called.
func watchSize(out *os.File, resized func(w, h int)) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ch:
				if w, h, err := term.GetSize(out.Fd()); err == nil {
					resized(w, h)
				}
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
