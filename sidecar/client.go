package sidecar

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/room"
)

// tuning is the room client's timing. defaultTuning is what `pullcept
// sidecar` runs with; tests shorten the waits to keep outages brief.
type tuning struct {
	// handshakeTimeout bounds one WebSocket dial (TCP + upgrade) on loopback.
	handshakeTimeout time.Duration
	// writeTimeout bounds one frame write; a room that stops reading for this
	// long is treated as gone.
	writeTimeout time.Duration
	// pongWait: with no frame, ping or pong from the room for this long the
	// connection is dead. pingPeriod (< pongWait) is how often we ping.
	pongWait   time.Duration
	pingPeriod time.Duration
	// backoffMin/backoffMax bound the reconnect backoff (doubling, ±20 % jitter).
	backoffMin time.Duration
	backoffMax time.Duration
	// reconnectWait is how long a tool call waits for a live connection before
	// answering "the room is unreachable" instead of hanging.
	reconnectWait time.Duration
	// answerTimeout bounds the wait for post_result / history_result /
	// usage_result on a live connection.
	answerTimeout time.Duration
}

// defaultTuning: loopback dials fail or succeed in microseconds, so the
// backoff can start at 100 ms; capped at 5 s so a restarted room is found
// again within seconds without spinning. A tool call waits 5 s for a
// reconnect (the CLI's tool call must not hang, docs/design.md §7). The room answers
// from memory plus one log line, so 30 s without an answer means it is stuck.
// Ping/pong follows gorilla's chat example (pong 60 s, ping at 9/10 of it).
func defaultTuning() tuning {
	return tuning{
		handshakeTimeout: 5 * time.Second,
		writeTimeout:     10 * time.Second,
		pongWait:         60 * time.Second,
		pingPeriod:       54 * time.Second,
		backoffMin:       100 * time.Millisecond,
		backoffMax:       5 * time.Second,
		reconnectWait:    5 * time.Second,
		answerTimeout:    30 * time.Second,
	}
}

// maxFrameBytes bounds one frame from the room: a history page of 200 long
// posts fits with room to spare, and a broken peer cannot make the sidecar
// allocate without limit.
const maxFrameBytes = 64 << 20

// outQueue is how many frames may wait for the writer goroutine; tool calls
// are few (the stdio server runs at most a handful at once), so a full queue
// only happens when the room stops reading, and then senders wait on it.
const outQueue = 32

// roomClient is the sidecar's connection to the room (docs/design.md §6, §7): it
// dials with the bearer token in the Authorization header, sends hello on
// every connection, reconnects with capped exponential backoff, sends ready
// once per connection after the tools were listed, and correlates answers by
// message_id / request_id.
//
// Goroutines: run (owner: Run; ended by its context; waited for on done) and,
// per connection, one writer and one reader (owner: serve; ended when the
// connection fails or run's context ends; waited for before serve returns).
type roomClient struct {
	cfg    config
	tune   tuning
	log    *slog.Logger
	dialer websocket.Dialer
	header http.Header
	// instance is this sidecar process's own random id, sent in every
	// hello, the same on its reconnects: a seat launch is one member of
	// its room, its first sidecar's (a child agent's sidecar, which
	// inherits the seat's token, is refused; docs/design.md §6 "One member
	// a launch").
	instance string

	kick chan struct{} // cap 1: a waiting call asks for a dial now
	done chan struct{} // closed when run returns

	mu      sync.Mutex
	sess    *session      // nil while disconnected
	changed chan struct{} // closed and replaced on every connect/disconnect
	lastErr error         // why the last dial or connection failed
	listed  bool          // tools/list was answered: every connection gets ready
	// self is who the room last said this seat is (an identity frame);
	// until it speaks, the launch-time name (spec «ニックネームと元の名前»).
	self room.IdentityFrame
}

// newRoomClient prepares a client for cfg; nothing is dialled until run.
func newRoomClient(cfg config, tune tuning, log *slog.Logger) *roomClient {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+cfg.token)
	return &roomClient{
		cfg:  cfg,
		tune: tune,
		log:  log,
		// Proxy stays nil: the room is on loopback and nothing may be routed
		// elsewhere (websocket.DefaultDialer would honour HTTP(S)_PROXY).
		// Over the room socket when there is one: the room then knows this
		// process from the kernel (docs/design.md §6 "Seat identity").
		// gorilla's dialer takes any net.Conn; the URL still names the
		// loopback Host the room checks.
		dialer:   websocket.Dialer{HandshakeTimeout: tune.handshakeTimeout, NetDialContext: room.SeatDialer(cfg.socket)},
		header:   h,
		instance: newInstance(),
		kick:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		changed:  make(chan struct{}),
		lastErr:  errors.New("not connected yet"),
		self:     room.IdentityFrame{Type: room.FrameIdentity, Name: cfg.name},
	}
}

// identity is who the room last said this seat is: its name and its full
// (original) name, "" when none is known.
func (c *roomClient) identity() (name, fullName string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.self.Name, c.self.FullName
}

// maxIdentityBytes bounds a name the room tells: a hello's names are far
// shorter (room.checkHello); anything longer is not a name.
const maxIdentityBytes = 1024

// setIdentity keeps the names of an identity frame from the room (a join,
// a rename of the account); one without a name, or too long, is ignored.
func (c *roomClient) setIdentity(f room.IdentityFrame) {
	if f.Name == "" || len(f.Name) > maxIdentityBytes || len(f.FullName) > maxIdentityBytes {
		return
	}
	c.mu.Lock()
	c.self.Name, c.self.FullName = f.Name, f.FullName
	c.mu.Unlock()
}

// run keeps one connection to the room until ctx ends. It never returns an
// error: failures are logged (once per outage) and retried.
func (c *roomClient) run(ctx context.Context) {
	defer close(c.done)
	defer func() {
		if r := recover(); r != nil {
			c.log.Error(fmt.Sprintf("room socket: client stopped by a panic: %v", r))
			c.setState(nil, fmt.Errorf("%w: internal error", ErrClientClosed))
		}
	}()
	backoff := c.tune.backoffMin
	failing, connectedBefore := false, false
	for ctx.Err() == nil {
		conn, err := c.dial(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			c.setState(nil, err)
			if !failing {
				c.log.Warn(fmt.Sprintf("room socket: cannot reach the room: %v (retrying)", err))
				failing = true
			}
		} else {
			if failing || connectedBefore {
				c.log.Info("room socket: connected again")
			}
			failing, connectedBefore = false, true
			start := time.Now()
			err = c.serve(ctx, conn)
			if ctx.Err() != nil {
				return
			}
			c.log.Warn(fmt.Sprintf("room socket: connection lost: %v (reconnecting)", err))
			// A connection that lived long resets the backoff; one the room
			// drops at once keeps growing it, so a room that refuses us is
			// not hammered.
			if time.Since(start) >= c.tune.backoffMax {
				backoff = c.tune.backoffMin
			}
		}
		var ok bool
		if backoff, ok = c.pause(ctx, backoff); !ok {
			return
		}
	}
}

// pause waits about backoff before the next dial, or less when a tool call
// kicks, and returns the next backoff (doubled up to backoffMax, or back to
// backoffMin after a kick, so a waiting call sees quick retries). ok is false
// when ctx ended.
func (c *roomClient) pause(ctx context.Context, backoff time.Duration) (next time.Duration, ok bool) {
	t := time.NewTimer(jitter(backoff))
	defer t.Stop()
	select {
	case <-t.C:
		return min(2*backoff, c.tune.backoffMax), true
	case <-c.kick:
		return c.tune.backoffMin, true
	case <-ctx.Done():
		return backoff, false
	}
}

// dial opens one WebSocket to the room. The token travels only in the
// Authorization header; errors name the URL (which holds no token).
func (c *roomClient) dial(ctx context.Context) (*websocket.Conn, error) {
	conn, resp, err := c.dialer.DialContext(ctx, c.cfg.roomURL, c.header)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("dial %s: %w (HTTP %d)", c.cfg.roomURL, err, resp.StatusCode)
		}
		return nil, fmt.Errorf("dial %s: %w", c.cfg.roomURL, err)
	}
	return conn, nil
}

// newInstance is a random id for this sidecar process (128 bits, hex);
// "" only when the system has no random bytes, which the room reads as
// any hello without one.
func newInstance() string {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		return ""
	}
	return hex.EncodeToString(b)
}

// jitter spreads d by ±20 % so that several sidecars of one app do not
// redial in lockstep after the room restarts.
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// setState publishes the current session (nil = disconnected) and, when err
// is non-nil, why the last attempt failed; it wakes every waiting call.
func (c *roomClient) setState(s *session, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sess = s
	if err != nil {
		c.lastErr = err
	}
	close(c.changed)
	c.changed = make(chan struct{})
}

// serve runs one connection: hello first, ready when the tools were listed,
// then requests until the connection fails or ctx ends. It returns why the
// connection ended.
func (c *roomClient) serve(ctx context.Context, conn *websocket.Conn) error {
	hello, err := json.Marshal(room.HelloFrame{Type: room.FrameHello, Hello: room.Hello{
		Protocol:  room.Protocol,
		Name:      c.cfg.name,
		Room:      c.cfg.roomID,
		Hue:       c.cfg.hue,
		AccountID: c.cfg.accountID,
		Instance:  c.instance,
	}})
	if err != nil {
		conn.Close()
		return fmt.Errorf("encode hello: %w", err)
	}
	s := newSession(conn, c.tune, c.log)
	s.onIdentity = c.setIdentity
	s.wg.Add(2)
	go s.writeLoop(hello)
	go s.readLoop()

	c.mu.Lock()
	if c.listed {
		s.wantReady() // before any call can queue a frame on s
	}
	c.sess = s
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()

	select {
	case <-s.dead:
	case <-ctx.Done():
		s.closeNormally(c.tune.writeTimeout)
		s.fail(ErrClientClosed)
	}
	s.wg.Wait()
	cause := s.cause()
	c.setState(nil, cause)
	return cause
}

// markListed records that the MCP client has the tool list (our tools/list
// answer is on stdout): this and every later connection sends ready once.
func (c *roomClient) markListed() {
	c.mu.Lock()
	if c.listed {
		c.mu.Unlock()
		return
	}
	c.listed = true
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.wantReady()
	}
}

// live returns the current live session, waiting up to reconnectWait for one
// (and asking run to dial now). The error wraps ErrUnreachable with why the
// last attempt failed, ErrClientClosed, or ctx's error.
func (c *roomClient) live(ctx context.Context) (*session, error) {
	deadline := time.NewTimer(c.tune.reconnectWait)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		s, changed := c.sess, c.changed
		c.mu.Unlock()
		if s != nil && !s.isDead() {
			return s, nil
		}
		select {
		case c.kick <- struct{}{}:
		default:
		}
		select {
		case <-changed:
		case <-deadline.C:
			c.mu.Lock()
			why := c.lastErr
			c.mu.Unlock()
			return nil, fmt.Errorf("%w: %w", ErrUnreachable, why)
		case <-c.done:
			return nil, ErrClientClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// request sends frame (whose correlation id is id) and returns the room's
// answer frame as received. Errors: ErrUnreachable (nothing was written),
// ErrConnectionLost or ErrNoAnswer (written, no answer), ctx's error.
func (c *roomClient) request(ctx context.Context, id string, frame any) ([]byte, error) {
	payload, err := room.EncodeFrame(frame)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", frame, err)
	}
	if len(payload) > room.MaxFrameBytes {
		// Refused here, before anything is sent: the room would drop the
		// connection and the outcome would read as unknown.
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLong, len(payload), room.MaxFrameBytes)
	}
	s, err := c.live(ctx)
	if err != nil {
		return nil, err
	}
	ch := s.register(id)
	defer s.unregister(id)
	if !s.send(payload) {
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, s.cause())
	}
	t := time.NewTimer(c.tune.answerTimeout)
	defer t.Stop()
	select {
	case raw := <-ch:
		return raw, nil
	case <-s.dead:
		select {
		case raw := <-ch: // answered just before the connection dropped
			return raw, nil
		default:
		}
		return nil, fmt.Errorf("%w: %w", ErrConnectionLost, s.cause())
	case <-t.C:
		return nil, fmt.Errorf("%w (waited %s)", ErrNoAnswer, c.tune.answerTimeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// session is one WebSocket connection to the room. Only writeLoop writes
// data frames (gorilla allows one concurrent writer); only readLoop reads.
type session struct {
	conn *websocket.Conn
	tune tuning
	log  *slog.Logger
	wg   sync.WaitGroup

	out   chan []byte   // frames for writeLoop
	ready chan struct{} // cap 1: writeLoop sends ready (once per session)
	dead  chan struct{} // closed by fail
	once  sync.Once
	err   error // why the session ended; set before dead closes

	mu      sync.Mutex
	pending map[string]chan []byte // correlation id → answer (cap 1)

	// onIdentity takes the identity frames the room sends unasked (set
	// before readLoop starts; nil drops them).
	onIdentity func(room.IdentityFrame)
}

func newSession(conn *websocket.Conn, tune tuning, log *slog.Logger) *session {
	return &session{
		conn:    conn,
		tune:    tune,
		log:     log,
		out:     make(chan []byte, outQueue),
		ready:   make(chan struct{}, 1),
		dead:    make(chan struct{}),
		pending: make(map[string]chan []byte),
	}
}

// fail ends the session once with err and closes the socket (which ends
// readLoop's blocking read).
func (s *session) fail(err error) {
	s.once.Do(func() {
		s.err = err
		close(s.dead)
		s.conn.Close()
	})
}

func (s *session) isDead() bool {
	select {
	case <-s.dead:
		return true
	default:
		return false
	}
}

// cause is why the session ended (nil while it lives).
func (s *session) cause() error {
	if !s.isDead() {
		return nil
	}
	return s.err
}

// closeNormally sends a close frame (allowed concurrently with writeLoop).
func (s *session) closeNormally(wait time.Duration) {
	msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "sidecar exiting")
	if err := s.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(wait)); err != nil && !errors.Is(err, websocket.ErrCloseSent) {
		s.log.Debug(fmt.Sprintf("room socket: close frame: %v", err))
	}
}

func (s *session) wantReady() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func (s *session) register(id string) chan []byte {
	ch := make(chan []byte, 1)
	s.mu.Lock()
	s.pending[id] = ch
	s.mu.Unlock()
	return ch
}

func (s *session) unregister(id string) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

// send queues payload for writeLoop; false when the session is dead.
func (s *session) send(payload []byte) bool {
	select {
	case <-s.dead:
		return false
	default:
	}
	select {
	case s.out <- payload:
		return true
	case <-s.dead:
		return false
	}
}

// write writes one frame with the write deadline.
func (s *session) write(kind int, payload []byte) error {
	if err := s.conn.SetWriteDeadline(time.Now().Add(s.tune.writeTimeout)); err != nil {
		return err
	}
	return s.conn.WriteMessage(kind, payload)
}

// writeLoop is the connection's only data writer: hello first, then queued
// frames, ready (once) and pings.
func (s *session) writeLoop(hello []byte) {
	defer s.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			s.fail(fmt.Errorf("writer panic: %v", r))
		}
	}()
	if err := s.write(websocket.TextMessage, hello); err != nil {
		s.fail(fmt.Errorf("send hello: %w", err))
		return
	}
	ping := time.NewTicker(s.tune.pingPeriod)
	defer ping.Stop()
	readySent := false
	sendReady := func() error {
		if readySent {
			return nil
		}
		readySent = true
		if err := s.write(websocket.TextMessage, []byte(`{"type":"`+room.FrameReady+`"}`)); err != nil {
			return fmt.Errorf("send ready: %w", err)
		}
		return nil
	}
	for {
		// ready first: the tools/list answer that triggered it was written
		// before the CLI could make the call whose frame may also be queued,
		// and the room must see ready before that call's frame.
		select {
		case <-s.ready:
			if err := sendReady(); err != nil {
				s.fail(err)
				return
			}
			continue
		default:
		}
		select {
		case p := <-s.out:
			if err := s.write(websocket.TextMessage, p); err != nil {
				s.fail(fmt.Errorf("write: %w", err))
				return
			}
		case <-s.ready:
			if err := sendReady(); err != nil {
				s.fail(err)
				return
			}
		case <-ping.C:
			if err := s.write(websocket.PingMessage, nil); err != nil {
				s.fail(fmt.Errorf("ping: %w", err))
				return
			}
		case <-s.dead:
			return
		}
	}
}

// readLoop is the connection's only reader: it keeps the read deadline alive
// on any frame, ping or pong, and hands answers to their waiting calls.
func (s *session) readLoop() {
	defer s.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			s.fail(fmt.Errorf("reader panic: %v", r))
		}
	}()
	s.conn.SetReadLimit(maxFrameBytes)
	extend := func() error { return s.conn.SetReadDeadline(time.Now().Add(s.tune.pongWait)) }
	if err := extend(); err != nil {
		s.fail(err)
		return
	}
	s.conn.SetPongHandler(func(string) error { return extend() })
	answerPing := s.conn.PingHandler()
	s.conn.SetPingHandler(func(data string) error {
		if err := extend(); err != nil {
			return err
		}
		return answerPing(data)
	})
	for {
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			s.fail(fmt.Errorf("read: %w", err))
			return
		}
		if err := extend(); err != nil {
			s.fail(err)
			return
		}
		s.dispatch(data)
	}
}

// dispatch hands an answer frame to the call waiting for its id, and an
// identity frame to onIdentity. Frames of unknown type, or answers nobody
// waits for (the call gave up), are dropped: the protocol says unknown
// types are ignored (docs/design.md §6).
func (s *session) dispatch(data []byte) {
	var f struct {
		Type      string `json:"type"`
		MessageID string `json:"message_id"`
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		s.log.Warn(fmt.Sprintf("room socket: unreadable frame from the room: %v", err))
		return
	}
	var id string
	switch f.Type {
	case room.FrameIdentity:
		var idf room.IdentityFrame
		if json.Unmarshal(data, &idf) == nil && s.onIdentity != nil {
			s.onIdentity(idf)
		}
		return
	case room.FramePostResult:
		id = f.MessageID
	case room.FrameHistoryResult, room.FrameUsageResult, room.FrameSessionResult:
		id = f.RequestID
	default:
		return
	}
	s.mu.Lock()
	ch, ok := s.pending[id]
	delete(s.pending, id)
	s.mu.Unlock()
	if ok {
		ch <- data // cap 1 and deleted above: never blocks
	}
}
