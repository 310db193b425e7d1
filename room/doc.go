// Package room owns the rooms (one per topic): the roster of connections, the
// floor, addressing (to + @mentions), roles, the tag line, and Deliver — the
// one path every post takes (DESIGN §2–§4, §6; spec «会話ループ», «床»,
// «部屋プロトコル»). It also owns the loopback server (WebSocket frames and the
// POST hooks) that sidecars talk to.
//
// The package never imports UI packages. It publishes plain Go events through
// Subscription (must-deliver, unbounded, in Deliver order) and types into
// terminals through the Terminals interface that the seats package implements.
//
// Goroutines: the Hub runs none of its own for Deliver (it runs in the caller's
// goroutine under the room lock). Each Subscription runs one pump goroutine
// (owner: the Subscription, ended by Close or its context). The Server runs its
// accept loop (http.Server) and, per WebSocket connection, one reader and one
// writer goroutine (owner: the Server; ended by Close).
//
// Lock order: Hub.mu (rooms map) → Room.mu (roster, floor, log append,
// terminal enqueue, event enqueue) → Subscription.mu. Nothing is called with
// Room.mu held that can take Hub.mu or block: Log.Append writes one line,
// Terminals.Enqueue and event enqueue never block.
package room
