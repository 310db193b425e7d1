// Package claude is Claude Code's seat adapter (cli.Adapter; docs/design.md
// §9, §11; docs/clis.md §2): its launch line (--session-id, the inline
// --settings with the room's MCP key, status line and http hooks, the
// system prompt naming say_to_room), its resume rule (the transcript under
// CLAUDE_CONFIG_DIR or ~/.claude for the working directory), and per
// launch a run that reads the status line and hooks the room hands it
// (usage, activity, the permission wait that holds typing) and follows the
// transcript for usage-limit stops (limit.go).
//
// # Goroutines
//
// One per seat, run by the seats Manager as a seat Task: the transcript
// watcher (run.watchTranscript), which ends at the seat's Done after a
// last read.
//
// # Locks
//
// None of its own: hook reports change the seat only inside
// cli.Seat.Report, under the seat's lock.
package claude
