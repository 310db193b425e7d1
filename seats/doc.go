// Package seats owns the seats: accounts → launch lines per kind, .mcp.json
// registration, resume rules, PTY spawn/write/resize/kill, the seat ledger
// (one seat per topic and account), the typing queue with the unsent-input
// tracker, and the terminal emulator (DESIGN §5, §9; spec «起動とアカウント»).
//
// The Manager implements room.Terminals so the room can type posts into
// seats; its Events (must-deliver) and Changed (coalesced) reach the UI.
//
// Goroutines, per seat (owner: the Manager; each recovers, Close waits for
// them): the PTY reader (Pump → Screen), the exit watcher (Proc.Wait, then
// drain, close, unregister, release), the Typist's writer (the only writer
// of the PTY: human keys, emulator replies, room posts), the Screen's reply
// reader and flush timer, the screen-change forwarder, and for a fresh Codex
// seat a rollout watcher that records its session id. The PTY layer owns one
// reaper goroutine per child (Wait always). The Manager's event queue runs
// one pump goroutine.
//
// Lock order: Manager.mu → Seat.mu; the Ledger, Typist, Screen and event
// queue locks are leaves (never held while calling out). The Screen's reply
// function only enqueues into the Typist, so the emulator lock is never held
// across a PTY write.
//
// Typing (DESIGN §5, with two measured refinements): a post is typed as
// tag + "\n" + body in one write, then "\r" 200 ms later, but only after the
// PTY has been quiet for 200 ms, and inside bracketed-paste markers when the
// CLI enabled bracketed paste (?2004). Without them a starved Claude Code or
// Codex (measured under load and with SIGSTOP) glued the human's unsent text
// to the post or left the post unsubmitted in its composer.
package seats
