// Package seats owns the seats: accounts → launch lines per kind, .mcp.json
// registration, resume rules, PTY spawn/write/resize/kill, the seat ledger
// (one seat per topic and account), the typing queue with the unsent-input
// tracker, and the terminal emulator (DESIGN §5, §9; spec «起動とアカウント»).
//
// It implements room.Terminals so the room can type posts into seats.
package seats
