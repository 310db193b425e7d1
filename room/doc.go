// Package room owns the rooms (one per topic): the roster of connections, the
// floor, addressing (to + @mentions), roles, the tag line, and deliver (Hub.deliver) — the
// one path every post takes (docs/design.md §2–§4, §6; spec «会話ループ», «床»,
// «部屋プロトコル») — with the brake on AI-to-AI loops and Pullcept's own
// notices that enter through it (brake.go, docs/design.md §2 "The brake"),
// and the notices of local MCP servers' accounts (role mcp, Hub.MCPNotice,
// mcpnotice.go). It also owns the loopback server (WebSocket frames and the
// POST hooks) that sidecars and seat hooks talk to, and the permission
// cards (permission.go): a Claude Code seat's PermissionRequest hook held
// open for the human's answer in the room (Hub.AskPermission,
// Hub.AnswerPermission, events PermissionAsked and PermissionClosed).
//
// The package never imports UI packages. It publishes plain Go events through
// Subscription (room/pubsub: must-deliver, one order for every subscriber,
// bounded per subscriber) and
// types into terminals through the Terminals interface that the seats package
// implements.
//
// Goroutines: the Hub runs none of its own for Deliver (it runs in the
// caller's goroutine under the room lock). Each Subscription runs one pump
// goroutine (owner: the Subscription; ended and waited for by its Close, by
// Hub.Close, or by its cut-off). The Server runs its accept loop (http.Server.Serve) and, per
// WebSocket, the request's handler goroutine as the one reader plus one
// writer goroutine fed by a buffered channel (owner: the Server; Close ends
// and waits for all of them). Every one of them recovers and logs a panic.
// A held PermissionRequest waits in its request's handler goroutine
// (net/http's, which recovers it) in HeldAsk.Wait, at most the hub's
// PermissionWait: it ends when the card is answered or closed, when its
// connection closes (the request's context) or when the hub closes its
// cards; Server.Close waits for it.
//
// The Server issues each seat launch its own token (Grant, grants.go): the
// token's binding, not the hello, says which account and room a socket
// sits in, and which seat's hooks it may post. Server.mu (sockets, grants)
// is a leaf; so is connGuard.mu (idle connections, connguard.go), whose
// hook runs in the accept loop and the connections' goroutines. A seat
// launch is one member of its room: its place belongs to one sidecar
// instance at a time (place.go; seatPlace.mu is a leaf), so a child
// agent's sidecar, which inherits the token, is refused.
//
// The token's account also names the socket: an account Identities knows
// sits under its current names, and Hub.AccountChanged renames its
// connections in every room after a save (identity.go).
//
// Lock order: Hub.idMu (reading an account's names and seating them) →
// Conn.mu → Hub.mu (rooms, admin) → roomState.mu (roster, floor,
// log append, brake count, terminal enqueue) → the event broker's lock (held
// while one event is queued to every subscriber, which is what gives all of
// them one order) → Subscription.mu. The ask desk's lock (permission.go)
// is taken alone but for the event broker (a card's PermissionAsked and
// PermissionClosed are queued under it, so they never arrive out of
// order); Terminals.Reported and PermissionAnswered run without it, and
// a seat's Hub.AskClosed takes it with no seat lock held. Nothing called
// with a room lock held may take Hub.mu or block: Log.Append writes one line
// (the only file I/O under the lock), Terminals.Enqueue and event queueing
// never block. A long post's body file (Log.SaveBody, longbody.go) is
// written before deliver takes the room lock, with the body the room will
// stamp, so the file exists before any post names it; if the stamp under
// the lock differs (a rename changed which @mentions match), nothing is
// delivered and the file is written again, at most 4 times in all, then
// the post goes without a file. A file no delivered post names is removed
// (Log.DropBody) after the lock, like Log.NoteFirstPost (an index write)
// and Terminals.SidecarJoined/SidecarReady.
package room
