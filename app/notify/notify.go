// Package notify shows a desktop notification on the machine Pullcept runs
// on, without cgo, through github.com/gen2brain/beeep: D-Bus (then
// notify-send, kdialog) on Linux and the BSDs, the notification centre
// (then osascript) on macOS, a toast (then PowerShell) on Windows
// (docs/notifications.md "Desktop", docs/dependencies.md §10).
//
// Domain code under app, like app/localmcp: it imports no UI library.
//
// Goroutines: Desktop runs beeep in one goroutine of its own, recovered,
// and waits for it at most showWait. One that outlives the wait (a D-Bus
// daemon or a fallback command that hangs) keeps the one slot until beeep
// returns, and Desktop refuses (ErrBusy) meanwhile: there is never more
// than one. beeep's D-Bus path uses godbus's shared session-bus
// connection, whose reader goroutine lives as long as the process.
package notify

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gen2brain/beeep"

	"github.com/pullcept/pullcept/room/blank"
	"github.com/pullcept/pullcept/room/textcut"
)

// TextMax caps a notification's title and its body, each, in bytes.
const TextMax = 200

// showWait is how long Desktop waits for the notification to be shown.
const showWait = 3 * time.Second

var (
	// ErrBusy: the last notification has not been shown yet.
	ErrBusy = errors.New("notify: a desktop notification is still on its way")
	// ErrTimeout: the notification was not shown within showWait.
	ErrTimeout = errors.New("notify: the desktop did not take the notification in time")
)

func init() {
	// The sender's name in the notification (D-Bus app_name, the
	// toast's AppUserModelID and its registry entry on Windows).
	beeep.AppName = "Pullcept"
}

// slot is taken by the one notification on its way.
var slot = make(chan struct{}, 1)

// Desktop shows title and body as a desktop notification and returns
// within a few seconds, whatever the desktop does. Both are cleaned first
// (Text): one line each, no control character, nothing hidden, capped.
func Desktop(title, body string) error {
	return show(beeepShow, showWait, runtime.GOOS, title, body)
}

func beeepShow(title, body string) error { return beeep.Notify(title, body, "") }

// show is Desktop with its notifier, wait and system given (tests).
func show(notify func(title, body string) error, wait time.Duration, goos, title, body string) error {
	title, body = forSystem(goos, Text(title), false), forSystem(goos, Text(body), true)
	select {
	case slot <- struct{}{}:
	default:
		return ErrBusy
	}
	done := make(chan error, 1)
	go func() {
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("notify: panic: %v", r)
				}
			}()
			return notify(title, body)
		}()
		// The slot is free before the answer: a notification right after
		// this one returned must not find it still taken.
		<-slot
		done <- err
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return ErrTimeout
	}
}

// Text is s as one line of a notification: line breaks and tabs become
// spaces, every other C0 and C1 control, DEL and invalid byte is dropped,
// what draws nothing is shown as its code (room/blank: a bidi override
// cannot reverse the words), and it is cut to TextMax bytes between
// characters.
func Text(s string) string {
	var b strings.Builder
	// Reading on past four times the cap is wasted: at most that is kept.
	for len(s) > 0 && b.Len() < 4*TextMax {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	shown, _ := blank.Show(strings.TrimSpace(b.String()))
	return strings.TrimSpace(textcut.Bytes(shown, TextMax))
}

// forSystem guards clean text against what beeep's path on goos makes of
// it. Linux: notification servers read a body (not a title) as markup
// (<a href>, <img>), and notify-send and kdialog would take a leading "-"
// for an option. Windows: go-toast puts the text in an XML CDATA section,
// which "]]>" ends, and its PowerShell fallback in a double-quoted
// here-string, where "$(…)" runs code and "`" escapes: look-alikes take
// their place. macOS needs nothing: its osascript fallback quotes with
// %q, which escapes '"' and '\' as AppleScript does, and Text left no
// control character.
func forSystem(goos, s string, body bool) string {
	switch goos {
	case "windows":
		s = strings.NewReplacer("$", "＄", "`", "｀", "]]>", "]] >").Replace(s)
	case "darwin":
	default:
		if body {
			s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
		}
		if strings.HasPrefix(s, "-") {
			s = " " + s
		}
	}
	return s
}

// Remote reports whether the terminal whose environment getenv reads is
// an ssh session: its human sits at another machine.
func Remote(getenv func(string) string) bool {
	return getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != ""
}

// Here reports whether a desktop notification shown by this process would
// reach its human: not when the human is remote (their terminal reached
// it over ssh), not on Linux or a BSD without a desktop session in this
// process's environment (getenv: no D-Bus session bus, no X11 or Wayland
// display); on macOS and Windows there is always one.
func Here(remote bool, getenv func(string) string) bool {
	return here(runtime.GOOS, remote, getenv)
}

func here(goos string, remote bool, getenv func(string) string) bool {
	switch {
	case remote:
		return false
	case goos == "darwin" || goos == "windows":
		return true
	}
	return getenv("DBUS_SESSION_BUS_ADDRESS") != "" || getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}
