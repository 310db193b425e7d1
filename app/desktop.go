package app

import (
	"os"

	"github.com/pullcept/pullcept/app/notify"
	"github.com/pullcept/pullcept/tui"
)

// The desktop notifications of this machine (tui.Desktop,
// docs/notifications.md "Desktop"); the rules are app/notify's.

var _ tui.Desktop = (*Backend)(nil)

// DesktopNotify shows title and body as a notification on this machine's
// desktop. It returns within a few seconds whatever the desktop does
// (notify.Desktop); call it from a command, never from Update.
func (b *Backend) DesktopNotify(title, body string) error {
	return notify.Desktop(title, body)
}

// DesktopHere reports whether a desktop notification would reach this
// UI's human: not when they came over ssh (their own terminal's ssh
// session, or `pullcept server --ssh`), not on Linux without a desktop
// session in this process's environment (notify.Here).
func (b *Backend) DesktopHere() bool {
	return notify.Here(b.remote, os.Getenv)
}
