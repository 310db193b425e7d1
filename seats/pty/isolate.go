package pty

// NamespaceCommand is `pullcept seat-ns [--bus] --exe PATH -- <argv…>`: on
// Linux a seat's PTY child is this init, started in a user, PID and mount
// namespace of its own; it mounts a fresh /proc, hides the session bus
// (unless --bus), starts argv and stays PID 1 of the namespace until argv
// ends (docs/design.md §16 "Seats that cannot see each other"). Not run by
// hand.
const NamespaceCommand = "seat-ns"

// Isolate asks Start to separate the child from every other process of the
// user (docs/design.md §16): on Linux it runs as `Init seat-ns -- argv…` in
// namespaces of its own; where the kernel refuses them, and on macOS and
// Windows, the child starts as it would without Isolate and Got says why.
type Isolate struct {
	// Init is the pullcept executable that runs NamespaceCommand.
	Init string
	// SessionBus leaves the user's D-Bus session bus reachable from the
	// child (the account's "session_bus" opt-in).
	SessionBus bool
	// ReadOnly are directories the child may connect to sockets in but
	// never change: Pullcept's socket directory, so a seat cannot unlink
	// the room's socket (or a gate's, or the server's) and listen in its
	// place (issue 31 review). A socket in a read-only mount still takes
	// connections. Each must exist.
	ReadOnly []string
	// Hide are files the child must not open: /dev/null is bound over each
	// in its mount namespace. The data directory's lock, so no seat can
	// take pullcept.lock and refuse Pullcept's next start (issue 32).
	Hide []string
	// Got, when set, is told once how the started child runs, before Start
	// returns it.
	Got func(Isolation)
}

// Isolation is how a child runs: Isolated in namespaces of its own, or not,
// and then Reason says why (the kernel's refusal, or what the OS does not
// offer).
type Isolation struct {
	Isolated bool
	Reason   string
	// SessionBus: the session bus was left reachable (Isolate.SessionBus).
	SessionBus bool
}

// String is how the panel and the launch preview say it.
func (i Isolation) String() string {
	switch {
	case i.Isolated && i.SessionBus:
		return "isolated (own user, PID and mount namespaces); the session bus is reachable (session_bus)"
	case i.Isolated:
		return "isolated (own user, PID and mount namespaces)"
	}
	return "not isolated: " + i.Reason
}

// report tells iso's Got (if any) how the child runs.
func (iso *Isolate) report(got Isolation) {
	if iso != nil && iso.Got != nil {
		got.SessionBus = got.Isolated && iso.SessionBus
		iso.Got(got)
	}
}
