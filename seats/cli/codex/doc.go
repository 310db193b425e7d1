// Package codex is Codex CLI's seat adapter (cli.Adapter; docs/design.md §9
// "Codex CLI", §11; docs/clis.md §3). Its launch line comes in
// two modes: hook mode, the TUI with the room server on its command line
// (line.go; the launch options it checks, options.go), and app-server
// mode, the default, where Pullcept starts the seat's own `codex
// app-server`, opens (or resumes) the conversation over
// its WebSocket with the character and the room sentence as developer
// instructions — Li+'s output-style hook turned off for a conversation
// that gets its character so (stylehook.go) — and then attaches the TUI
// to it (serverline.go, server.go, rpc.go). Its resume rule is the rollout under CODEX_HOME
// (home.go). Per launch a run follows the rollout for the seat's session
// id, usage, activity and usage-limit stops (rollout.go) and, in
// app-server mode, reads the server's notes for activity and permission
// waits (notes.go); the release check asks a short-lived app-server whether
// ordinary usage is allowed again (release.go). A start removes the room
// entries an earlier build left in the project's .codex/config.toml
// (projectconfig.go).
//
// Codex rules that live elsewhere, each with the concept it belongs to:
// its character's grammar, LI_PLUS_OUTPUT_STYLE and the inline selection
// of a heading in developer_instructions (seats/character), its
// usage-limit rules and the stop marker (seats/limits, run by
// seats/limitseat.go), the account's app-server switch (config.Account's
// AppServer, the editor's toggle in tui), and the attach hold's name in
// the UI (app/backend.go holdReason).
//
// # Goroutines
//
// Per seat, run by the seats Manager as seat Tasks: the rollout watcher
// (run.watchRollout: finds a fresh seat's rollout, then tails it; ends at
// the seat's Done after a last read) and, in app-server mode, the server
// watcher (run.watchServer: releases HoldAttach once the TUI attached,
// shows a lost connection, ends the TUI when the server dies; ends at
// Done). The server itself has three goroutines owned by its codexServer,
// started in Adapter.Prepare before the seat is listed: its output reader
// (the server's PTY, read to EOF), its reaper waiter, and the WebSocket
// reader (codexConn.read: answers to their callers, notes to the seat).
// codexServer.stop ends and waits for all three; Run.Ended calls it once
// the TUI's process was reaped, Run.Abandon for a start that failed. On
// Linux and macOS the TUI's gate (gate.go; the TUI attaches there, never
// holding the server's token) has its accept loop and, per connection,
// net/http's handler proxying the TUI's WebSocket; tuiGate.close ends and
// waits for the loop, by Run.Ended or Run.Abandon. A
// release check (release.go, run by the seats Manager's limit watcher)
// waits for its short-lived app-server in one goroutine of its own, which
// ends when that process does (killed after 5 s); the check waits for it.
//
// # Locks
//
// Adapter.mu (the claimed session ids) and the codexServer's and
// codexConn's locks are leaves. A note changes the seat only inside
// cli.Seat.Report, under the seat's lock, which is also the only place the
// run's app-server activity (run.act) is read or written.
package codex
