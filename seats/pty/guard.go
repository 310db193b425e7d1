package pty

// GuardCommand is `pullcept seat-guard [--report] -- <command…>`
// (Options.Guard): on Unix an app-server Codex seat's server runs under it
// (docs/design.md §9 "App-server mode"). The guard is the server PTY's
// session leader (on Linux the foreground job of the server's namespace
// init, which passes the hangup on); when that PTY hangs up (Pullcept
// ended, even by SIGKILL) or it is told to stop, it kills every process of
// its session at once. Codex 0.169.0 catches SIGHUP and shuts down
// gracefully, which was measured to hang for minutes with its room sidecar
// still running; the guard does not wait for it. With --report it says on
// fd 3 when a signal ended its command (end_unix.go).
const GuardCommand = "seat-guard"

// guardLine is argv under the guard, which reports its end to Start.
func guardLine(pullcept string, argv []string) []string {
	return append([]string{pullcept, GuardCommand, "--report", "--"}, argv...)
}
