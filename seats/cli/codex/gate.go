package codex

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/pullcept/pullcept/room/peer"
)

// The TUI's gate (docs/design.md §9 "App-server mode", §16; issue 31): an
// app-server seat's TUI does not get the server's capability token — a
// sibling seat could read it from the TUI's environment and take the
// conversation over (it connected as a full client and injected a
// developer message). On Linux and macOS the TUI attaches with `--remote
// unix://<gate>` instead: a Unix socket Pullcept holds, where the kernel
// names the connecting process, and only the seat's TUI (its process or a
// descendant) is let through; the gate proxies its WebSocket to the server
// with the token added. The token stays in Pullcept's memory (the server's
// line carries only its SHA-256). On Windows the TUI still reads the token
// from its environment (EnvRemoteToken).
//
// Goroutines (owner: the gate, ended by close): the accept loop and one
// per connection (net/http), each a reverse proxy of one WebSocket.

// GateWord stands for the gate's socket path in the TUI's line until the
// start made it (the preview shows it so).
const GateWord = "<tui socket>"

// gateSocket is the gate's file name in its private directory.
const gateSocket = "tui.sock"

// gateRootWait bounds how long a connection waits for the TUI's pid: the
// gate opens before the TUI is spawned, and the TUI may connect within
// milliseconds of its spawn.
const gateRootWait = 30 * time.Second

// gateMaxConns bounds the gate's connections at once: the TUI holds one
// (a reconnect overlaps). More are closed at accept: a seat's own tree
// must not use up Pullcept's descriptors either.
const gateMaxConns = 8

// usesGate reports whether goos's TUIs attach through the gate.
func usesGate(goos string) bool { return goos != "windows" }

// tuiGate is one app-server seat's gate.
type tuiGate struct {
	dir    string
	path   string
	srv    *http.Server
	logger *slog.Logger

	open      atomic.Int32  // connections accepted and not closed
	refusals  *rate.Limiter // bounds the refusals' log lines
	rootOnce  sync.Once
	rootSet   chan struct{} // closed when root is known
	root      int
	closeOnce sync.Once
	closed    chan struct{}
	done      chan struct{} // the accept loop ended
}

type gatePeerKey struct{}

// gatePeer is what the kernel said of a gate connection's process.
type gatePeer struct {
	proc peer.Process
	err  error
}

// openGate listens on a fresh private socket in parent ("" = the system's
// temporary directory; the app gives the room socket's directory, which
// no seat can change) and proxies to the server at 127.0.0.1:port with
// token.
func openGate(parent, port, token string, logger *slog.Logger) (*tuiGate, error) {
	dir, err := os.MkdirTemp(parent, "gate-")
	if err != nil {
		return nil, fmt.Errorf("codex gate: %w", err)
	}
	g := &tuiGate{dir: dir, path: filepath.Join(dir, gateSocket), logger: logger,
		refusals: rate.NewLimiter(rate.Every(time.Second), 5),
		rootSet:  make(chan struct{}), closed: make(chan struct{}), done: make(chan struct{})}
	ln, err := net.Listen("unix", g.path)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("codex gate: %w", err)
	}
	target := &url.URL{Scheme: "http", Host: "127.0.0.1:" + port}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = target.Host
			r.Out.Header.Set("Authorization", "Bearer "+token)
		},
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
	}
	g.srv = &http.Server{
		Handler:           g.check(proxy),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if gc, ok := c.(*gateConn); ok {
				c = gc.Conn
			}
			proc, err := peer.Identify(c)
			return context.WithValue(ctx, gatePeerKey{}, gatePeer{proc: proc, err: err})
		},
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(g.done)
		defer func() {
			if r := recover(); r != nil {
				logger.Error("codex gate: accept loop panicked", "panic", fmt.Sprint(r))
			}
		}()
		if err := g.srv.Serve(&gateListener{Listener: ln, g: g}); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Warn("codex gate: serve", "err", err)
		}
	}()
	return g, nil
}

// setRoot names the TUI's process (its pid as spawned); once.
func (g *tuiGate) setRoot(pid int) {
	g.rootOnce.Do(func() {
		g.root = pid
		close(g.rootSet)
	})
}

// check lets a request through only from the TUI's process tree.
func (g *tuiGate) check(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ := r.Context().Value(gatePeerKey{}).(gatePeer)
		select {
		case <-g.rootSet:
		case <-g.closed:
			http.Error(w, "the seat ended", http.StatusServiceUnavailable)
			return
		case <-time.After(gateRootWait):
			http.Error(w, "the seat's terminal did not start", http.StatusServiceUnavailable)
			return
		}
		if !g.admits(seen) {
			w.Header().Set("Connection", "close")
			http.Error(w, "not this seat's terminal", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admits reports whether seen is the TUI's process or a descendant, still
// running (a connection kept from an ended process says nothing); a
// refusal is logged, at most 5 lines and then 1 a second.
func (g *tuiGate) admits(seen gatePeer) bool {
	if seen.err == nil && seen.proc.Alive() && peer.InTree(seen.proc.PID, g.root) && seen.proc.Alive() {
		return true
	}
	if g.refusals.Allow() {
		g.logger.Warn("codex gate: refused a process outside the seat's terminal", "pid", seen.proc.PID,
			"exe", peer.Exe(seen.proc.PID), "root", g.root, "err", seen.err)
	}
	return false
}

// gateListener closes, at accept and before a byte is read, a connection
// over gateMaxConns or — once the TUI's pid is known — from outside its
// tree: a refused process holds no descriptor of Pullcept's.
type gateListener struct {
	net.Listener
	g *tuiGate
}

func (l *gateListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.g.open.Load() >= gateMaxConns {
			_ = c.Close()
			continue
		}
		select {
		case <-l.g.rootSet:
			proc, err := peer.Identify(c)
			if !l.g.admits(gatePeer{proc: proc, err: err}) {
				_ = c.Close()
				continue
			}
		default: // judged by the handler, which waits for the pid
		}
		l.g.open.Add(1)
		return &gateConn{Conn: c, g: l.g}, nil
	}
}

// gateConn gives its slot back once closed.
type gateConn struct {
	net.Conn
	g    *tuiGate
	once sync.Once
}

func (c *gateConn) Close() error {
	c.once.Do(func() { c.g.open.Add(-1) })
	return c.Conn.Close()
}

// close ends the gate, its connections and its directory. Idempotent.
func (g *tuiGate) close() {
	g.closeOnce.Do(func() {
		close(g.closed)
		_ = g.srv.Close()
		<-g.done
		_ = os.RemoveAll(g.dir)
	})
}
