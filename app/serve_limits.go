package app

import (
	"sync/atomic"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// What one signed-in client may hold of the server (docs/serve.md
// "Limits"): charm.land/ssh keeps every "env" request of a session, of any
// number and size, before a handler sees it, and opens any number of
// sessions on a connection (the breaker's review: 5,000 env requests of
// 200 KB took the server to 1.6 GB; 50,000 sessions, +280 MB).
const (
	maxSessionsPerConn = 8
	maxEnvRequests     = 32
	maxEnvRequestBytes = 1024
	maxAttachedUIs     = 32
	maxSocketConns     = 64
)

// connSessions counts a connection's open sessions (kept in its context).
type connSessions struct{ n atomic.Int32 }

type ctxKey struct{ name string }

var sessionsKey = &ctxKey{"sessions"}

// limitedSessions is charm.land/ssh's session handler behind the limits
// above: a session over the connection's count is refused, and its "env"
// requests past the count or size are answered no (through the library's
// API: the channel's request stream is filtered before its handler reads
// it).
func limitedSessions(srv *ssh.Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	count, _ := ctx.Value(sessionsKey).(*connSessions)
	if count == nil {
		count = &connSessions{}
		ctx.SetValue(sessionsKey, count)
	}
	if count.n.Add(1) > maxSessionsPerConn {
		count.n.Add(-1)
		_ = newChan.Reject(gossh.ResourceShortage, "too many sessions on this connection")
		return
	}
	defer count.n.Add(-1)
	ssh.DefaultSessionHandler(srv, conn, envLimited{newChan}, ctx)
}

// envLimited accepts a session channel whose requests pass through
// filterRequests.
type envLimited struct{ gossh.NewChannel }

func (c envLimited) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go filterRequests(reqs, out)
	return ch, out, nil
}

// filterRequests passes a session's requests on, answering no to the env
// requests beyond maxEnvRequests or maxEnvRequestBytes. It ends when the
// channel's requests end (the session closed).
func filterRequests(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(out)
	defer func() { _ = recover() }()
	envs := 0
	for r := range in {
		if r.Type == "env" {
			envs++
			if envs > maxEnvRequests || len(r.Payload) > maxEnvRequestBytes {
				if r.WantReply {
					_ = r.Reply(false, nil)
				}
				continue
			}
		}
		out <- r
	}
}
