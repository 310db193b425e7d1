// Package seats owns the seats: accounts → launch lines per kind, .mcp.json
// registration, resume rules, PTY spawn/write/resize/kill, the seat ledger
// (one seat per topic and account), the typing queue with the unsent-input
// tracker, and the terminal emulator (docs/design.md §5, §9;
// «起動とアカウント»).
//
// The Manager implements room.Terminals so the room can type posts into
// seats; its events (Subscribe: must-deliver) and screen changes
// (WaitScreens: coalesced) reach the UI.
//
// # Goroutines
//
// This is the one statement of the package's goroutines; the types'
// comments point here. Per seat, started by Manager.Start once the seat is
// listed (goLive), in order of the data flow:
//
//   - PTY reader (Manager.pump: Pump copies the PTY output into the
//     Screen). Owner: the Manager. Ends at the PTY's EOF, or when the exit
//     watcher closes the PTY. Waited for by Manager.Close, and for at most
//     outputDrain by the exit watcher (the child's last output).
//   - Screen-change forwarder (inside pump: the Screen's Changed to the
//     Manager's WaitScreens signal). Owner: the PTY reader, which ends it
//     and waits for it as it returns.
//   - Read-ahead (inside Pump): reads the PTY into at most pumpAhead (16)
//     buffers while the Screen works on an earlier read, so a fast program
//     is not stopped at each of the emulator's turns. Owner: the PTY reader
//     (Pump), which waits for it; it ends at the PTY's EOF or close.
//   - Exit watcher (Manager.wait: Proc.Wait, drain, close the PTY and the
//     Typist, unregister .mcp.json, announce "exited", free the ledger
//     place, close Seat.Done). Owner: the Manager. Ends once the child is
//     reaped and cleaned up. Waited for by Manager.Close; Stop waits for
//     its Seat.Done.
//   - Resizer (Manager.resizer, resize.go): applies the size Seat.Resize
//     asked for once it held for ResizeQuiet, and at the child's first
//     output (re-applying a size applied while the child started). Owner:
//     the Manager. Ends at Seat.Done, giving the exited seat's screen the
//     last size. Waited for by Manager.Close.
//   - Codex rollout watcher (Manager.watchCodexRollout, every Codex seat):
//     a fresh seat's first looks for its rollout each CodexPoll and records
//     the session id; then, fresh or resumed, it tails the rollout for the
//     seat's usage and activity (each second, each 10 s after a minute
//     without a line; docs/design.md §11). Owner: the Manager. Ends at
//     Seat.Done (after a last read), or at once when CODEX_HOME cannot be
//     found or a resumed seat's rollout is missing. Waited for by
//     Manager.Close.
//   - App-server Codex seats (codexserver.go, codexseat.go): the server
//     watcher (Manager.watchCodexServer; a goSeat goroutine ending at
//     Seat.Done) releases HoldAttach once the TUI attached, shows a lost
//     connection, and ends the TUI when the server dies under it. The
//     server itself has three goroutines owned by its codexServer, started
//     before the seat is listed: its output reader (the server's PTY, read
//     to EOF), its reaper waiter, and the WebSocket reader (codexConn.read:
//     answers to their callers, notes to the seat's activity under
//     Seat.mu). codexServer.stop ends and waits for all three; the exit
//     watcher calls it after the TUI ended, a failed start before that.
//   - Typing writer (Typist.run), the only writer of the PTY: human keys,
//     emulator replies, room posts (docs/design.md §14 "One writer per
//     PTY"). Owner: the seat's Typist. Ends at Typist.Close (by the exit
//     watcher once the PTY is closed, or by an abandoned start) or at a
//     write error. Typist.Close waits for it.
//   - Reply reader and flush timer (Screen.readReplies, Screen.flusher).
//     The timer feeds what the Screen holds back: a trailing cluster after
//     8 ms, a line flood after at most 100 ms (scrollbatch.go).
//     Owner: the seat's Screen. End at Screen.Close, which waits for both.
//     An exited seat keeps its Screen readable, so they outlive the child:
//     Screen.Close comes with Forget, with the start that replaces the
//     seat, with Manager.Close (after the seat goroutines ended), or with
//     an abandoned start.
//   - Child reaper (unixProc.reap, winProc.reap), the only waiter on the
//     child, so no zombie is left. Owner: the PTY layer. Ends once the
//     child is reaped. Proc.Wait waits for it.
//
// The Manager-owned ones (reader, exit watcher, resizer, rollout watcher) go through
// goSeat: counted in the Manager's WaitGroup under Manager.mu while it
// re-checks closed (so Close never waits on a count that can still grow),
// each recovering a panic into the log. Manager.Close also runs one
// short-lived goroutine per seat to stop them all at once (owner and
// waiter: Close). The event stream runs one pump per Subscription (owner:
// the Subscription, room/pubsub); Manager.Close closes the broker, which
// ends and waits for them.
//
// # Lock order
//
// The room's lock → Manager.mu → Seat.mu; the Ledger, Typist, Screen and
// event-queue (room/pubsub) locks are leaves, never held while calling out.
// The rollout watcher takes Manager.mu (the claimed ids) and Seat.mu (the
// session id, the usage and activity) one after the other, and emits
// SeatUpdated with neither held.
// The room's permission cards (room/permission.go) close through
// ManagerOptions.AskClosed, called with no seat lock held, after the hook,
// key or exit that ended their requests was applied under Seat.mu; the
// room's PermissionAnswered takes Manager.mu and Seat.mu in turn.
// The room calls Manager.Enqueue while it holds its room lock: Enqueue
// takes Manager.mu (the seat lookup), Seat.mu (via Seat.State) and the
// Typist's lock, one after the other, and none of them is ever held while
// calling into the room. The Screen's reply function only enqueues into
// the Typist, so the emulator lock is never held across a PTY write.
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
