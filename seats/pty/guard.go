package pty

import "runtime"

// GuardCommand is `pullcept seat-guard -- <command…>`: on Unix an
// app-server Codex seat's server runs under it (docs/design.md §9 "App-server
// mode"). The guard is the server PTY's session leader (on Linux the
// foreground job of the server's namespace init, which passes the hangup
// on); when that PTY hangs up (Pullcept ended, even by SIGKILL) or it is
// told to stop, it kills every process of its session at once. Codex 0.169.0 catches SIGHUP and shuts
// down gracefully, which was measured to hang for minutes with its room
// sidecar still running; the guard does not wait for it.
const GuardCommand = "seat-guard"

// Guarded wraps argv in the guard where there is one (Unix; Windows ends
// the tree with the PTY's Job object).
func Guarded(pullcept string, argv []string) []string {
	if runtime.GOOS == "windows" || pullcept == "" {
		return argv
	}
	return append([]string{pullcept, GuardCommand, "--"}, argv...)
}
