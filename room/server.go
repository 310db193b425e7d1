package room

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"
)

// Server defaults (ServerOptions zero values).
const (
	// defaultMaxFrameBytes bounds one incoming WebSocket message. A post is
	// typed text; 1 MiB is hundreds of pages, far above any real post.
	defaultMaxFrameBytes = MaxFrameBytes
	// defaultMaxHookBytes bounds one POST hook body. Claude Code's status
	// line JSON and hook payloads are a few KiB; tool inputs can be larger.
	defaultMaxHookBytes = 1 << 20
	// defaultMaxConns caps open sockets: far above the seats a person runs
	// (a handful per topic), yet it bounds goroutines and buffers (two
	// goroutines and ~10 KiB per socket).
	defaultMaxConns = 128
	// defaultMaxHooks caps hook requests served at once; each is answered
	// immediately, so more in flight means a misbehaving sender.
	defaultMaxHooks = 32
	// defaultPongWait: a socket that answers no ping for this long is dead
	// (the sidecar's gorilla client answers pings while it reads).
	defaultPongWait = 60 * time.Second
	// defaultWriteWait bounds one frame write to a loopback peer.
	defaultWriteWait = 10 * time.Second
	// defaultReadHeaderTimeout bounds reading request headers (slowloris).
	defaultReadHeaderTimeout = 5 * time.Second
	// defaultHookReadTimeout bounds reading a whole hook request; the
	// WebSocket upgrade clears it (gorilla resets deadlines on Upgrade).
	defaultHookReadTimeout = 10 * time.Second
	// defaultSendQueue is the frames queued per socket for its writer.
	// Answers go only to the requester, one per request, so a full queue
	// means the peer stopped reading: it is disconnected.
	defaultSendQueue = 64
	// defaultSendQueueBytes bounds the bytes queued per socket beyond the
	// frame being written: 8 sockets that never read, each asking 64
	// history pages, held 3 GB before.
	defaultSendQueueBytes = 8 << 20
	// closeGrace bounds the close frame written to each socket at Close.
	closeGrace = 200 * time.Millisecond
	// tokenBytes: 256 random bits for the per-run bearer token (≥128 asked).
	tokenBytes = 32
)

// ServerOptions configures NewServer. Zero values take the defaults above.
type ServerOptions struct {
	// MaxFrameBytes bounds one incoming WebSocket message (bytes); bigger
	// ones close the socket with 1009 (message too big).
	MaxFrameBytes int64
	// MaxHookBytes bounds one POST hook body (bytes); bigger gets 413.
	MaxHookBytes int64
	// MaxConns caps open WebSockets on the run's own token (in-process and
	// tests); more get 503. Seat tokens have their own share each
	// (maxSocketsPerSeat) and never count here.
	MaxConns int
	// MaxHooks caps hook requests in flight; more get 503.
	MaxHooks int
	// MaxIdleConns caps connections that are not serving a request or a
	// WebSocket (connecting, or keep-alive between hooks); the oldest is
	// closed when a new one would pass it (connguard.go).
	MaxIdleConns int
	// PongWait is how long a socket may stay silent (no pong, no frame)
	// before it is dropped; pings go every PongWait/2.
	PongWait time.Duration
	// WriteWait bounds writing one frame.
	WriteWait time.Duration
	// ReadHeaderTimeout bounds reading request headers.
	ReadHeaderTimeout time.Duration
	// HookReadTimeout bounds reading a whole hook request.
	HookReadTimeout time.Duration
	// SendQueue is the per-socket queue of answers (frames).
	SendQueue int
	// SendQueueBytes bounds the bytes of that queue; one frame is always
	// taken when the queue is empty, however large.
	SendQueueBytes int64
	// Logger receives the server's lines (nil: discarded).
	Logger *slog.Logger
	// SocketDir, when set, is a directory only this user can enter where
	// the server also listens on a Unix socket (SocketName); seat tokens
	// then count only there, from the seat's own processes (seatpeer.go).
	SocketDir string
}

// Server is the loopback server sidecars and hooks talk to (docs/design.md §6, spec
// «部屋プロトコル»): one listener on 127.0.0.1, GET /room upgrades to a
// WebSocket carrying the room frames, POST /hooks/status/<topic>/<account>
// and POST /hooks/activity/<event>/<topic>/<account> hand seat reports to
// the hub (Hub.Report).
// Every request must carry `Authorization: Bearer <Token()>`, a loopback Host
// and no Origin.
//
// Goroutines (owner: the Server, ended and waited for by Close): the accept
// loop (http.Server.Serve) and, per WebSocket, its handler goroutine as the
// one reader plus one writer fed by a buffered channel (gorilla allows one
// concurrent writer).
type Server struct {
	hub      *Hub
	opts     ServerOptions
	logger   *slog.Logger
	token    []byte
	ln       net.Listener
	port     string
	sock     net.Listener // the room socket; nil without SocketDir
	sockPath string
	// refusals bounds the log lines of refused seat tokens: a seat that
	// floods refusals must not grow the app log without bound.
	refusals *rate.Limiter
	http     *http.Server
	upgrader websocket.Upgrader
	hookSlot chan struct{}
	guard    *connGuard

	mu      sync.Mutex // guards closed, sockets, active, grants
	closed  bool
	sockets map[*websocket.Conn]struct{}
	grants  map[string]*grant // seat tokens by grantKey (grants.go)
	active  int               // run-token sockets upgrading or open
	wg      sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// NewServer listens on 127.0.0.1:0 at once with a fresh random token and
// serves in its own goroutine until Close. Errors: no hub, no random bytes,
// listen failure.
func NewServer(h *Hub, opts ServerOptions) (*Server, error) {
	if h == nil {
		return nil, errors.New("new room server: nil hub")
	}
	opts = withServerDefaults(opts)
	token := make([]byte, tokenBytes)
	if _, err := rand.Read(token); err != nil {
		return nil, fmt.Errorf("new room server: token: %w", err)
	}
	// Loopback only: nothing may reach beyond this machine (docs/design.md §6).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("new room server: listen: %w", err)
	}
	_, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("new room server: listen address: %w", err)
	}
	s := &Server{
		hub:      h,
		opts:     opts,
		logger:   opts.Logger,
		token:    []byte(hex.EncodeToString(token)),
		ln:       ln,
		port:     port,
		hookSlot: make(chan struct{}, opts.MaxHooks),
		guard:    newConnGuard(opts.MaxIdleConns),
		sockets:  make(map[*websocket.Conn]struct{}),
		grants:   make(map[string]*grant),
		refusals: rate.NewLimiter(rate.Every(time.Second), 20),
	}
	s.upgrader = websocket.Upgrader{
		HandshakeTimeout: opts.WriteWait,
		// gorilla's default lets same-host Origins through, which a DNS
		// rebinding page can fake; ServeHTTP refuses any Origin already,
		// this keeps the upgrader from ever accepting one.
		CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == "" },
	}
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.HookReadTimeout,
		WriteTimeout:      opts.WriteWait,
		IdleTimeout:       opts.PongWait,
		MaxHeaderBytes:    64 << 10, // one bearer header and a few more; 1 MiB default is needless
		ConnState:         s.guard.track,
		ConnContext:       connContext,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelDebug),
	}
	if opts.SocketDir != "" {
		if s.sock, s.sockPath, err = listenSocket(opts.SocketDir); err != nil {
			ln.Close()
			return nil, fmt.Errorf("new room server: socket: %w", err)
		}
	}
	s.serve(ln)
	if s.sock != nil {
		s.serve(s.sock)
	}
	return s, nil
}

// serve runs one listener's accept loop until Close.
func (s *Server) serve(ln net.Listener) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("room server: accept loop panicked", "panic", fmt.Sprint(r))
			}
		}()
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logger.Error("room server: serve", "err", err)
		}
	}()
}

func withServerDefaults(o ServerOptions) ServerOptions {
	if o.MaxFrameBytes <= 0 {
		o.MaxFrameBytes = defaultMaxFrameBytes
	}
	if o.MaxHookBytes <= 0 {
		o.MaxHookBytes = defaultMaxHookBytes
	}
	if o.MaxConns <= 0 {
		o.MaxConns = defaultMaxConns
	}
	if o.MaxHooks <= 0 {
		o.MaxHooks = defaultMaxHooks
	}
	if o.MaxIdleConns <= 0 {
		o.MaxIdleConns = defaultMaxIdleConns
	}
	if o.PongWait <= 0 {
		o.PongWait = defaultPongWait
	}
	if o.WriteWait <= 0 {
		o.WriteWait = defaultWriteWait
	}
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = defaultReadHeaderTimeout
	}
	if o.HookReadTimeout <= 0 {
		o.HookReadTimeout = defaultHookReadTimeout
	}
	if o.SendQueueBytes <= 0 {
		o.SendQueueBytes = defaultSendQueueBytes
	}
	if o.SendQueue <= 0 {
		o.SendQueue = defaultSendQueue
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// URL is the WebSocket address sidecars dial, ws://127.0.0.1:<port>/room
// (PULLCEPT_ROOM_URL).
func (s *Server) URL() string { return "ws://127.0.0.1:" + s.port + "/room" }

// HooksURL is the base of the POST hooks, http://127.0.0.1:<port>.
func (s *Server) HooksURL() string { return "http://127.0.0.1:" + s.port }

// Token is this run's bearer token (hex, 256 random bits). It goes to seats
// through the process environment only, never a file or argv (docs/design.md §7).
func (s *Server) Token() string { return string(s.token) }

// Close stops accepting, closes every socket (their connections leave the
// rosters) and waits for every goroutine the server started. Idempotent;
// later calls return the first result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		socks := make([]*websocket.Conn, 0, len(s.sockets))
		for ws := range s.sockets {
			socks = append(socks, ws)
		}
		s.mu.Unlock()
		s.closeErr = s.http.Close()
		for _, ws := range socks {
			// WriteControl and Close may run concurrently with the
			// socket's reader and writer (gorilla's concurrency rules).
			_ = ws.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.CloseGoingAway, "pullcept is closing"),
				time.Now().Add(closeGrace))
			ws.Close()
		}
		s.wg.Wait()
	})
	return s.closeErr
}

// ServeHTTP checks Host, Origin and token on every request, then routes
// (docs/design.md §6): GET /room with an upgrade → WebSocket; POST hooks; else 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hostOK(r.Host) {
		// A browser page reaching us through DNS rebinding names its own host.
		refuse(w, "forbidden host", http.StatusForbidden)
		return
	}
	if r.Header.Get("Origin") != "" {
		// Sidecars and hooks are not browsers; any Origin is a web page.
		refuse(w, "forbidden origin", http.StatusForbidden)
		return
	}
	key, g, ok := s.authorize(r.Header.Get("Authorization"))
	if !ok {
		w.Header().Set("WWW-Authenticate", "Bearer")
		// Closed after the answer: a caller without the token must not keep
		// connections open (19 990 kept-alive 401s exhausted the fds).
		refuse(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if err := s.checkSeatPeer(r, g); err != nil {
		refuse(w, err.Error(), http.StatusForbidden)
		return
	}
	path := r.URL.EscapedPath()
	switch {
	case path == "/room" && r.Method == http.MethodGet && websocket.IsWebSocketUpgrade(r):
		s.serveSocket(w, r, key, g)
	case strings.HasPrefix(path, hooksPrefix) && r.Method == http.MethodPost:
		s.serveHook(w, r, g)
	default:
		refuse(w, "404 page not found", http.StatusNotFound)
	}
}

// refuse answers a request it will not serve and ends its connection at
// once: the body is never read, so the connection is not kept waiting for
// net/http to drain it (up to 256 KiB, until the read timeout) — a request
// that sent its headers and a Content-Length but no body is StateActive,
// which the idle cap does not count, and 2 000 of them held as many fds
// for 10 s each (from a breaker review; TestHostileUnreadBodies).
func refuse(w http.ResponseWriter, msg string, code int) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
}

// hostOK accepts only this listener's loopback names with its port.
func (s *Server) hostOK(host string) bool {
	for _, name := range [...]string{"127.0.0.1", "localhost", "[::1]"} {
		if strings.EqualFold(host, name+":"+s.port) {
			return true
		}
	}
	return false
}

// authorize reads the bearer token: a seat's token (Grant) gives its grant;
// the run's own token (Token, held by this process and its tests only,
// never handed to a seat) gives none, unbound. The scheme is
// case-insensitive (RFC 9110); a token anywhere else (query) never counts.
func (s *Server) authorize(header string) (key string, g *grant, ok bool) {
	const scheme = "bearer "
	if len(header) < len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return "", nil, false
	}
	token := header[len(scheme):]
	if subtle.ConstantTimeCompare([]byte(token), s.token) == 1 {
		return "", nil, true
	}
	key, g = s.seatGrant(token)
	return key, g, g != nil
}

// serveHook stores one POST hook body per seat via Hub.Report and answers
// 200 {} at once — but a PermissionRequest, which is held open for the
// human's answer on its card (serveAsk). The path is one ParseHookPath
// reads (HookStatusURL, HookActivityURL); any other is 404.
func (s *Server) serveHook(w http.ResponseWriter, r *http.Request, g *grant) {
	hook, ok := ParseHookPath(r.URL.EscapedPath())
	if !ok {
		refuse(w, "404 page not found", http.StatusNotFound)
		return
	}
	if g != nil && (hook.Topic != g.binding.Topic || hook.Account != g.binding.Account) {
		// A seat reports for itself only.
		refuse(w, ErrWrongSeat.Error(), http.StatusForbidden)
		return
	}
	release, ok := s.takeHookSlots(w, g)
	if !ok {
		s.reportAsk(hook)
		return
	}
	body, ok := s.readHookBody(w, r, g, hook)
	if !ok {
		release()
		return
	}
	if hook.Kind == ReportActivity && hook.Event == HookPermissionRequest {
		held, err := s.hub.AskPermission(hook.Topic, hook.Account, json.RawMessage(body))
		// The wait holds no hook slot: the cards have their own bounds
		// (maxAsksPerSeat, maxAsks), and the seat's other hooks go on.
		release()
		if err != nil {
			http.Error(w, "no running seat for this hook", http.StatusNotFound)
			return
		}
		s.serveAsk(w, r, held)
		return
	}
	defer release()
	if err := s.hub.Report(hook.Topic, hook.Account, hook.Kind, hook.Event, json.RawMessage(body)); err != nil {
		// No running seat takes it: refused, nothing kept.
		http.Error(w, "no running seat for this hook", http.StatusNotFound)
		return
	}
	writeHookAnswer(w, nil)
}

// takeHookSlots counts a hook request against its seat's share
// (maxHooksPerSeat) and the server's MaxHooks; release gives them back.
// ok is false when either is full: the request was refused with 503.
func (s *Server) takeHookSlots(w http.ResponseWriter, g *grant) (release func(), ok bool) {
	if g != nil {
		// Its share of the hook slots: one seat holding requests open must
		// not leave the others' PermissionRequests refused.
		s.mu.Lock()
		full := g.hooks >= maxHooksPerSeat
		if !full {
			g.hooks++
		}
		s.mu.Unlock()
		if full {
			refuse(w, "too many hook requests for this seat", http.StatusServiceUnavailable)
			return nil, false
		}
	}
	seat := func() {
		if g != nil {
			s.mu.Lock()
			g.hooks--
			s.mu.Unlock()
		}
	}
	select {
	case s.hookSlot <- struct{}{}:
	default:
		seat()
		refuse(w, "too many hook requests", http.StatusServiceUnavailable)
		return nil, false
	}
	var once sync.Once
	return func() { once.Do(func() { <-s.hookSlot; seat() }) }, true
}

// readHookBody reads a hook's body: at most MaxHookBytes (over it 413, and
// an activity hook still reaches its seat as its bare event), JSON (else
// 400), from a token not revoked meanwhile (else 401). ok is false when
// the request was refused.
func (s *Server) readHookBody(w http.ResponseWriter, r *http.Request, g *grant, hook Hook) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxHookBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.reportBare(hook)
			refuse(w, fmt.Sprintf("hook body over %d bytes", s.opts.MaxHookBytes), http.StatusRequestEntityTooLarge)
			return nil, false
		}
		s.reportAsk(hook)
		refuse(w, "reading hook body failed", http.StatusBadRequest)
		return nil, false
	}
	if !json.Valid(body) {
		s.reportAsk(hook)
		http.Error(w, "hook body must be JSON", http.StatusBadRequest)
		return nil, false
	}
	if g != nil && !s.granted(g) {
		// Revoked while the body was on its way: the seat is gone.
		refuse(w, "unauthorized", http.StatusUnauthorized)
		return nil, false
	}
	return body, true
}

// serveAsk holds a PermissionRequest until its card is answered or closed
// (HeldAsk.Wait: the human's answer on the card, the seat's answer in the
// pane, the wait passing, the CLI dropping the request — the request's
// context ends when its connection closes — or Close) and answers with
// the decision or {}. The connection's deadlines are moved past the wait;
// Close waits for it.
func (s *Server) serveAsk(w http.ResponseWriter, r *http.Request, held *HeldAsk) {
	ctx := r.Context()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		done, cancel := context.WithCancel(ctx)
		cancel()
		writeHookAnswer(w, held.Wait(done))
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	if hold := held.Holds(); hold > 0 {
		// The server's read and write timeouts (HookReadTimeout,
		// WriteWait) ran from the request's start; the read deadline also
		// ends net/http's background read, which is what ends ctx when the
		// CLI drops the connection.
		rc := http.NewResponseController(w)
		until := time.Now().Add(hold + askWriteGrace)
		_ = rc.SetReadDeadline(until)
		_ = rc.SetWriteDeadline(until)
	}
	writeHookAnswer(w, held.Wait(ctx))
}

// writeHookAnswer writes a hook's 200 answer: body, or {} when nil.
func writeHookAnswer(w http.ResponseWriter, body []byte) {
	if body == nil {
		body = []byte("{}")
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// reportBare hands the seat an activity hook whose body was refused as too
// big, as its event alone: a PermissionRequest for writing a large file
// carries the file, and its hold must not be lost with the body
// (docs/design.md §11). The body is never read; a status report is
// dropped.
func (s *Server) reportBare(hook Hook) {
	if hook.Kind != ReportActivity {
		return
	}
	bare, err := json.Marshal(map[string]string{"hook_event_name": hook.Event})
	if err == nil {
		_ = s.hub.Report(hook.Topic, hook.Account, hook.Kind, hook.Event, bare)
	}
}

// reportAsk hands the seat a PermissionRequest refused before its card
// (no slot, a body that does not read or parse: JSON nested past Go's
// limit from the model's own tool input) as its bare event: the CLI shows
// its dialog when the hook fails, and posts must wait (breaker review:
// they were typed into the open dialog). Other hooks are only refused.
func (s *Server) reportAsk(hook Hook) {
	if hook.Kind == ReportActivity && hook.Event == HookPermissionRequest {
		s.reportBare(hook)
	}
}

// serveSocket upgrades to a WebSocket and runs it until either side ends it.
// The handler goroutine is the socket's one reader.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request, key string, g *grant) {
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		refuse(w, "pullcept is closing", http.StatusServiceUnavailable)
		return
	case g != nil && len(g.sockets) >= maxSocketsPerSeat:
		// A seat's sockets count against its own share only, never the
		// shared cap: no holder of tokens can lock out a new seat.
		s.mu.Unlock()
		refuse(w, "too many connections for this seat", http.StatusServiceUnavailable)
		return
	case g == nil && s.active >= s.opts.MaxConns:
		s.mu.Unlock()
		refuse(w, "no more room connections", http.StatusServiceUnavailable)
		return
	}
	if g == nil {
		s.active++
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	if g == nil {
		defer func() {
			s.mu.Lock()
			s.active--
			s.mu.Unlock()
		}()
	}

	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.logger.Debug("room server: upgrade failed", "err", err) // gorilla already answered
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	if g != nil {
		if s.grants[key] != g || len(g.sockets) >= maxSocketsPerSeat { // revoked while upgrading, or over its share
			s.mu.Unlock()
			_ = ws.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "too many connections for this seat"),
				time.Now().Add(closeGrace))
			ws.Close()
			return
		}
		g.sockets[ws] = struct{}{}
	}
	s.sockets[ws] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sockets, ws)
		if g != nil {
			delete(g.sockets, ws)
		}
		s.mu.Unlock()
	}()
	s.runSocket(ws, g)
}

// runSocket is one socket's life: a Conn in the hub, a writer goroutine, and
// this goroutine reading frames until an error, a dead peer or Close.
func (s *Server) runSocket(ws *websocket.Conn, g *grant) {
	conn := s.hub.Connect()
	if g != nil { // a seat's socket: its binding, its token's limiters and place
		conn.binding, conn.hellos, conn.reads, conn.place = &g.binding, g.hellos, g.reads, g.place
	}
	send := make(chan []byte, s.opts.SendQueue)
	var queued atomic.Int64 // bytes in send, not yet written
	stop := make(chan struct{})
	writerDone := make(chan struct{})
	go s.writeSocket(ws, send, &queued, stop, writerDone)
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("room server: socket reader panicked", "panic", fmt.Sprint(r))
		}
		conn.Close()
		close(stop)
		// Closed before waiting: a writer blocked on a peer that stopped
		// reading returns at once instead of after its write deadline.
		ws.Close()
		<-writerDone
	}()

	ws.SetReadLimit(s.opts.MaxFrameBytes)
	alive := func() { _ = ws.SetReadDeadline(time.Now().Add(s.opts.PongWait)) }
	alive()
	ws.SetPongHandler(func(string) error { alive(); return nil })
	// push queues one encoded frame for the writer and never blocks: false
	// when the queue is full (the peer stopped reading).
	push := func(b []byte) bool {
		n := int64(len(b))
		if q := queued.Load(); q > 0 && q+n > s.opts.SendQueueBytes {
			return false // the peer stopped reading: closed below
		}
		queued.Add(n)
		select {
		case send <- b:
			return true
		default:
			queued.Add(-n)
			return false
		}
	}
	// An identity frame the full queue drops is lost: the peer stopped
	// reading, and its next answer that does not fit closes the socket.
	conn.tell = func(f IdentityFrame) {
		if b, err := EncodeFrame(f); err == nil {
			push(b)
		}
	}
	fh := &frameHandler{conn: conn, logger: s.logger, send: push}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			// Over the read limit gorilla has already sent close 1009.
			s.logger.Debug("room server: socket read ended", "err", err)
			return
		}
		alive()
		if !fh.handle(data) {
			why := fh.closing
			if why == "" {
				why = "answers not read"
				s.logger.Warn("room server: peer stopped reading its answers; closing")
			}
			_ = ws.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.ClosePolicyViolation, why),
				time.Now().Add(closeGrace))
			return
		}
	}
}

// writeSocket is the socket's one writer: queued answers and pings. It ends
// on stop or on a write error (then it closes the socket so the reader ends).
func (s *Server) writeSocket(ws *websocket.Conn, send <-chan []byte, queued *atomic.Int64, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("room server: socket writer panicked", "panic", fmt.Sprint(r))
			ws.Close()
		}
	}()
	// Two pings per PongWait: one late pong (a busy peer) is not fatal.
	ping := time.NewTicker(s.opts.PongWait / 2)
	defer ping.Stop()
	for {
		select {
		case b := <-send:
			_ = ws.SetWriteDeadline(time.Now().Add(s.opts.WriteWait))
			err := ws.WriteMessage(websocket.TextMessage, b)
			queued.Add(-int64(len(b)))
			if err != nil {
				s.logger.Debug("room server: socket write failed", "err", err)
				ws.Close()
				return
			}
		case <-ping.C:
			_ = ws.SetWriteDeadline(time.Now().Add(s.opts.WriteWait))
			if err := ws.WriteMessage(websocket.PingMessage, nil); err != nil {
				s.logger.Debug("room server: ping failed", "err", err)
				ws.Close()
				return
			}
		case <-stop:
			return
		}
	}
}
