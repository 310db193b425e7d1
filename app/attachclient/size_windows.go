package attachclient

import (
	"os"
	"time"

	"github.com/charmbracelet/x/term"
)

// watchSize polls out's size (Windows sends no SIGWINCH) and calls
// resized on a change until the returned stop is called.
func watchSize(out *os.File, resized func(w, h int)) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		lw, lh, _ := term.GetSize(out.Fd())
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if w, h, err := term.GetSize(out.Fd()); err == nil && (w != lw || h != lh) {
					lw, lh = w, h
					resized(w, h)
				}
			}
		}
	}()
	return func() { close(done) }
}
