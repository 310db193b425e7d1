//go:build !windows

package app

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// openTimeout bounds the opener: xdg-open and open hand the file to the
// desktop and exit at once; one that is still running after 10 s is
// stuck, and is stopped.
const openTimeout = 10 * time.Second

// systemOpen opens path with the desktop's opener: open on macOS, xdg-open
// elsewhere. The opener is started directly (no shell: the path is one
// argument, never read as a command line), with no terminal — stdin,
// stdout and stderr are the null device and it runs in a new session, so
// a program that wants a terminal cannot draw over the UI or read its
// keys.
func systemOpen(path string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("%w (%s is not installed)", errNoOpener, name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), openTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w: %.200s", name, err, out)
	}
	return nil
}
