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
	"time"

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

// usesGate reports whether goos's TUIs attach through the gate.
func usesGate(goos string) bool { return goos != "windows" }

// tuiGate is one app-server seat's gate.
type tuiGate struct {
	dir    string
	path   string
	srv    *http.Server
	logger *slog.Logger

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
	pid int
	err error
}

// openGate listens on a fresh private socket and proxies to the server at
// 127.0.0.1:port with token.
func openGate(port, token string, logger *slog.Logger) (*tuiGate, error) {
	dir, err := os.MkdirTemp("", "pcx-")
	if err != nil {
		return nil, fmt.Errorf("codex gate: %w", err)
	}
	g := &tuiGate{dir: dir, path: filepath.Join(dir, gateSocket), logger: logger,
		rootSet: make(chan struct{}), closed: make(chan struct{}), done: make(chan struct{})}
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
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			pid, err := peer.PID(c)
			return context.WithValue(ctx, gatePeerKey{}, gatePeer{pid: pid, err: err})
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
		if err := g.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
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
		if seen.err != nil || !peer.InTree(seen.pid, g.root) {
			g.logger.Warn("codex gate: refused a process outside the seat's terminal", "pid", seen.pid,
				"exe", peer.Exe(seen.pid), "root", g.root, "err", seen.err)
			http.Error(w, "not this seat's terminal", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
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
