// Package app wires Pullcept together (docs/architecture.md). It opens the
// data directory (its lock, then the app log), the account book (config),
// the topic logs (logstore), the seat manager (seats), the room hub and its
// loopback server (room: the hub needs the Manager as its Terminals, and
// the Manager learns the server's address after), then the local MCP
// servers (app/localmcp) and the session operations (app/sessionops), in
// that order; it closes them with the seats first (App.Close), and adapts
// them to the UI's Backend (tui/backend.go). It also runs the `pullcept
// status-line` and `pullcept export` subcommands.
//
// `pullcept server` (Serve, docs/serve.md) opens the App once and shows one
// UI per attached SSH session on its Unix socket, each with its own
// Backend; what they share (the rooms they hold, whose size a seat takes)
// is shared.go. `pullcept --no-server` (Run) is the single process.
//
// app is the only package that imports both tui and the domain packages
// (make arch checks it). It holds no rule of its own beyond the order of
// steps that span several domain packages (opening and closing the app,
// deleting a topic, refusing to delete an account whose seat runs, saving
// the settings before the running hub takes the new brake):
// every other rule lives in the package that owns the concept, and the
// backend only converts between the domain's types and the UI's plain data.
//
// Goroutines: one per App, the running-seats recorder (resumable.go:
// keeps running-seats.json in step with the seat manager; ended and waited
// for by App.Close after the seats stopped). One per Backend: the MCP change forwarder
// (Backend.watchMCP: the local MCP supervisor's changes become
// tui.MCPServerChanged events; ended and waited for by Backend.Close; it
// recovers a panic into the app log). The session-operations worker and
// the local MCP servers' runs are started through their packages, which
// own them (sessionops.Ops, localmcp.Supervisor); App.Close ends them.
// Each Backend's NextEvents and WaitScreens run in the UI's bridge
// commands (one call of each at a time); they read the subscriptions the
// Backend holds (room/pubsub pumps, owned by the hub and the seat manager)
// and return when the Backend closes.
//
// Served goroutines (serve.go): charm.land/ssh's accept loop and per
// connection its own; per session the handler running the UI (tui.RunOn),
// a window-change forwarder and a stop watcher; the exit-empty ticker. The
// server's Close ends every session, and Serve waits for the handlers
// before App.Close stops the seats. Each recovers a panic into the log.
//
// Lock order: Backend.mu (closed, the subscriptions replaced after a
// cut-off, the skipped-lines counts), App.stateMu (ui-state.json's
// writes, held across one atomic write), roomHolds.mu, seatMarks.mu
// (running-seats.json, held across one atomic write) and server.mu are
// leaves; seatSizes.mu is held across a seat's Resize (Seat.mu only).
package app
