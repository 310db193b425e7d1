// Package sidecar is `pullcept sidecar`: an MCP stdio server (mark3labs/mcp-go)
// that a CLI starts from .mcp.json, and a room client (gorilla/websocket) that
// joins the topic's room over the authenticated loopback WebSocket
// (docs/design.md §7; spec «サイドカーの起動形», «部屋の作法», «床»).
//
// stdout is the MCP protocol; logs go to stderr only.
//
// Run is the entry point. It reads the PULLCEPT_* environment (config.go),
// refuses to join when the CLI was not launched as the entry's account
// (no tools, no instructions, still serving MCP), and otherwise serves six
// tools with the room's etiquette as server instructions (instructions.go):
// say_to_room, read_room_history and my_usage (tools.go), and the session
// operations list_account_sessions, control_account_session and
// account_session_status (sessiontools.go, docs/design.md §15), which the
// room answers only on a seat's own token. say_to_room waits for the room's post_result and keeps
// one draft after a floor rejection; results are rendered as tag lines and
// quoted bodies (render.go).
//
// Goroutines: Run owns the room client's run loop (client.go; ended by
// Run's context or stdin EOF, waited for before Run returns). Each room
// connection has one writer (hello, requests, ready, pings — gorilla allows
// one concurrent writer) and one reader (answers by message_id/request_id),
// both ended and waited for when the connection fails or the client stops.
// mcp-go's stdio server runs its own request goroutines inside Listen.
//
// Locks: roomClient.mu, session.mu, seat.mu (the draft) and listedWatch.mu
// (the tools/list answers awaited, sidecar.go) are never held together,
// nor across I/O.
package sidecar
