// Package app wires Pullcept together (docs/architecture.md). It opens the
// data directory, the account book (config), the topic logs (logstore), the
// room hub and its loopback server (room) and the seat manager (seats), in
// that order, closes them in reverse, and adapts them to the UI's Backend
// (tui/backend.go). It also runs the `pullcept status-line` subcommand.
//
// app is the only package that imports both tui and the domain packages
// (make arch checks it). It holds no rule of its own beyond the order of
// steps that span several domain packages (opening and closing the app,
// deleting a topic, refusing to delete an account whose seat runs, saving
// the settings before the running hub takes the new brake):
// every other rule lives in the package that owns the concept, and the
// backend only converts between the domain's types and the UI's plain data.
//
// Goroutines: none of its own. Each Backend's NextEvents and WaitScreens run
// in the UI's bridge commands (one call of each at a time); they read the
// subscriptions the Backend holds (room/pubsub pumps, owned by the hub and
// the seat manager) and return when the Backend closes.
//
// Lock order: backend.mu guards the skipped-lines counts only and is a leaf.
package app
