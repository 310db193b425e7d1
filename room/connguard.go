package room

import (
	"container/list"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// defaultMaxIdleConns bounds the TCP connections the server holds that do
// no work: those still sending their first request (a caller without the
// token, a slowloris) and keep-alive connections idle between hook
// requests. A person's seats need a handful; an unprivileged local user
// held 19 990 such connections and Pullcept ran out of file descriptors
// (a post was typed but not logged, seats could not start). 1 024 fds is
// little beside the limit Go raises to at start (the hard limit); with 256,
// a tokenless flood of 3 000 connections redialling every second evicted a
// seat's own new connection before its request was read, on a loaded
// 2-core box (testdata/soak): the oldest goes first, so the larger the cap
// the longer a new connection has to send its request.
const defaultMaxIdleConns = 1024

// connGuard keeps the server's idle connections under a cap by closing the
// oldest one when a new one would pass it (docs/design.md §6 "Limits").
// Refusing the newest instead would let whoever holds the cap lock out
// every new seat; evicting the oldest means a legitimate sidecar, which
// sends its request at once, is only ever at risk for the moment between
// its connect and its first bytes. Connections that are doing work —
// a request being served, an upgraded WebSocket — are not idle: hook
// slots and per-seat socket caps bound those.
//
// It is driven by http.Server.ConnState, which net/http calls from the
// accept loop for a new connection (so the cap holds before the next
// Accept) and from each connection's goroutine afterwards. g.mu is a leaf
// lock; evicted connections are closed outside it.
type connGuard struct {
	max     int
	evicted atomic.Int64 // connections closed to stay under max

	mu   sync.Mutex
	idle *list.List // net.Conn, oldest idle first
	at   map[net.Conn]*list.Element
}

func newConnGuard(limit int) *connGuard {
	return &connGuard{max: limit, idle: list.New(), at: make(map[net.Conn]*list.Element)}
}

// track is the http.Server.ConnState hook.
func (g *connGuard) track(c net.Conn, st http.ConnState) {
	var victim net.Conn
	g.mu.Lock()
	if e, ok := g.at[c]; ok {
		g.idle.Remove(e)
		delete(g.at, c)
	}
	if st == http.StateNew || st == http.StateIdle {
		g.at[c] = g.idle.PushBack(c)
		if g.idle.Len() > g.max {
			front := g.idle.Front()
			victim = front.Value.(net.Conn)
			g.idle.Remove(front)
			delete(g.at, victim)
		}
	}
	g.mu.Unlock()
	if victim != nil {
		g.evicted.Add(1)
		victim.Close() // its serve goroutine then ends with a read error
	}
}
