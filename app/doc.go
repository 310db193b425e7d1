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
// app is the only package that imports both tui and the domain packages
// (make arch checks it). It holds no rule of its own beyond the order of
// steps that span several domain packages (opening and closing the app,
// deleting a topic, refusing to delete an account whose seat runs, saving
// the settings before the running hub takes the new brake):
// every other rule lives in the package that owns the concept, and the
// backend only converts between the domain's types and the UI's plain data.
//
// Goroutines: one of its own, per Backend: the MCP change forwarder
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
// Lock order: Backend.mu (closed, the subscriptions replaced after a
// cut-off, the skipped-lines counts) and App.stateMu (ui-state.json's
// writes, held across one atomic write) are leaves.
package app
