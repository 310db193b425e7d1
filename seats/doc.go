// Package seats runs the seats (docs/design.md §5, §9; «起動とアカウント»):
// the Manager, a seat's lifecycle (decide, prepare, spawn, go live, exit),
// the seat ledger (one seat per topic and account), the typing queue with
// the unsent-input tracker, and the usage-limit runner. What differs by CLI
// kind lives behind one interface, cli.Adapter, in seats/cli/claude,
// seats/cli/codex and seats/cli/generic, registered in kinds.go; the parts
// every seat uses are packages of their own: seats/launch (the launch line,
// .mcp.json, the seat's environment), seats/pty (the child in its PTY, the
// seat guard, the seat's namespaces: isolation.go), seats/terminal (a seat's
// terminal, on our own emulator seats/terminal/emu), seats/limits
// (the usage-limit decisions) and seats/character (characters, styles,
// working directories). docs/architecture.md "Seat kinds" draws the map.
//
// The Manager implements room.Terminals so the room can type posts into
// seats; its events (Subscribe: must-deliver) and screen changes
// (WaitScreens: coalesced) reach the UI.
//
// # Goroutines
//
// This is the one statement of the seats' goroutines; the types' comments
// and the sub-packages' docs point here. Per seat, started by Manager.Start
// once the seat is listed (goLive), in order of the data flow:
//
//   - PTY reader (Manager.pump: terminal.Pump copies the PTY output into
//     the Screen). Owner: the Manager. Ends at the PTY's EOF, or when the
//     exit watcher closes the PTY. Waited for by Manager.Close, and for at
//     most outputDrain by the exit watcher (the child's last output).
//   - Screen-change forwarder (inside pump: the Screen's Changed to the
//     Manager's WaitScreens signal). Owner: the PTY reader, which ends it
//     and waits for it as it returns.
//   - Read-ahead (inside terminal.Pump): reads the PTY into a few buffers
//     while the Screen works on an earlier read. Owner: the PTY reader
//     (Pump), which waits for it; it ends at the PTY's EOF or close.
//   - Exit watcher (Manager.wait: Proc.Wait, drain, close the PTY, end the
//     kind's run (cli.Run.Ended), close the Typist, unregister .mcp.json,
//     announce "exited", free the ledger place, close Seat.Done). Owner:
//     the Manager. Ends once the child is reaped and cleaned up. Waited for
//     by Manager.Close; Stop waits for its Seat.Done.
//   - Resizer (Manager.resizer, resize.go): applies the size Seat.Resize
//     asked for once it held for ResizeQuiet, and at the child's first
//     output. Owner: the Manager. Ends at Seat.Done, giving the exited
//     seat's screen the last size. Waited for by Manager.Close.
//   - Limit watcher (Manager.watchLimits, limitseat.go; seats whose kind
//     has limit rules): ticks the limiter each second and runs the release
//     checks it asks for, one at a time. Owner: the Manager. Ends at
//     Seat.Done. Waited for by Manager.Close. Beside it, one goroutine
//     cancels a running release check at Seat.Done; it ends with the
//     watcher (its deferred cancel).
//   - Quiet watcher (Manager.watchQuiet, observe.go; seats whose kind's
//     CLI reports no activity, cli.Adapter.Observed): one timer, armed
//     when output begins and re-armed at most once a second while it goes
//     on, turns a second without output into idle. Owner: the Manager.
//     Ends at Seat.Done. Waited for by Manager.Close.
//   - The kind's tasks (cli.Run.Tasks): Claude Code's transcript watcher;
//     Codex's rollout watcher and, for an app-server seat, its server
//     watcher (seats/cli/claude and seats/cli/codex say what each does).
//     Owner: the Manager, which runs each like its own. Each ends at
//     Seat.Done. Waited for by Manager.Close.
//   - What a kind starts before the seat is listed (cli.Adapter.Prepare):
//     an app-server Codex seat's server, with its output reader, reaper
//     waiter and WebSocket reader. Owner: the kind's run; ended and waited
//     for by Run.Ended (the exit watcher) or Run.Abandon (a failed start).
//   - Typing writer (Typist.run), the only writer of the PTY: human keys,
//     emulator replies, room posts (docs/design.md §14 "One writer per
//     PTY"). Owner: the seat's Typist. Ends at Typist.Close (by the exit
//     watcher once the PTY is closed, or by an abandoned start) or at a
//     write error. Typist.Close waits for it.
//   - Flush timer of the seat's terminal.Screen (places a held grapheme
//     cluster; the emulator's replies need no goroutine). Owner: the
//     Screen; it ends at Screen.Close, which waits for it. An exited seat
//     keeps its Screen readable, so it outlives the child:
//     Screen.Close comes with Forget, with the start that replaces the
//     seat, with Manager.Close (after the seat goroutines ended), or with
//     an abandoned start.
//   - Child reaper, the only waiter on the child, so no zombie is left.
//     Owner: the pty.Proc. Ends once the child is reaped; Proc.Wait waits
//     for it.
//
// The Manager-owned ones (reader, exit watcher, resizer, limit watcher,
// quiet watcher, the kind's tasks) go through goSeat: counted in the Manager's WaitGroup
// under Manager.mu while it re-checks closed (so Close never waits on a
// count that can still grow), each recovering a panic into the log.
// Manager.Close also runs one short-lived goroutine per seat to stop them
// all at once (owner and waiter: Close). The event stream runs one pump per
// Subscription (owner: the Subscription, room/pubsub); Manager.Close closes
// the broker, which ends and waits for them.
//
// # Lock order
//
// The room's lock → Manager.mu → Seat.mu; the Ledger, Typist and
// event-queue (room/pubsub) locks are leaves, never held while calling out.
// A Screen's are Screen.mu → Screen.replyMu → the Typist's lock (the reply
// function, Typist.Reply, enqueues under replyMu once mu is released).
// A kind's run changes its seat only through cli.Seat.Report, which takes
// Seat.mu (and under it the Typist's lock, to set the typing holds a
// permission wait implies), then closes the room's permission cards
// (ManagerOptions.AskClosed) and emits SeatUpdated with neither held. The
// Codex adapter's claimed ids take their own leaf lock, and so does an
// observed seat's activity (observe.go: the PTY reader, the Typist's
// writer and the quiet watcher take it alone), and so does a
// start's isolation record (isolation.go: pty.Isolate.Got, called by the
// spawn under no lock of the Manager's).
// The room's PermissionAnswered takes Manager.mu and Seat.mu in turn.
// The room calls Manager.Enqueue while it holds its room lock: Enqueue
// takes Manager.mu (the seat lookup), Seat.mu (via Seat.State) and the
// Typist's lock, one after the other, and none of them is ever held while
// calling into the room. The Screen's reply function only enqueues into
// the Typist, so no Screen lock is ever held across a PTY write.
// Seat.limitMu serializes a seat's limiter with the actions it returns
// (limitseat.go): Seat.limitMu → the room's lock → Manager.mu → Seat.mu.
//
// A seat's lifecycle lock (Manager.Lifecycle, lifecycle.go) is taken by
// the caller before any of these, around whole Start and Stop sequences
// (the human's start and stop, the session operations); Start and Stop
// never take it. Its map's own lock is a leaf.
//
// # Typing
//
// Typing (docs/design.md §5, with two measured refinements): a post is
// typed as tag + "\n" + body in one write, then "\r" 200 ms later, but only
// after the PTY has been quiet for 200 ms, and inside bracketed-paste
// markers when the CLI enabled bracketed paste (?2004). Without them a
// starved Claude Code or Codex (measured under load and with SIGSTOP) glued
// the human's unsent text to the post or left the post unsubmitted in its
// composer (docs/clis.md).
package seats
