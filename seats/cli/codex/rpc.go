package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The client side of a Codex seat's app-server (docs/clis.md §3.7,
// docs/design.md §9 "App-server mode"): JSON-RPC objects, one per
// WebSocket text message, without a "jsonrpc" member (what Codex 0.169.0
// sends and accepts). Pullcept stays connected for the seat's life and reads
// the notifications of the seat's thread for its activity; it answers no
// request of the server (the TUI does: approvals are the human's).

// codexMessageMax bounds one message read from the server. A finished
// command's item carries its whole aggregated output (Codex caps it for the
// model, not for clients); a larger message ends the connection and the seat
// shows its activity as unknown (never a crash, never unbounded memory).
const codexMessageMax = 32 << 20

// codexEarlyNotes bounds the notifications kept before the seat is listed
// (spec #326: «256 件まで»); later ones are read as they come.
const codexEarlyNotes = 256

// codexCallTimeout bounds one request's answer: a thread start writes the
// rollout and starts the MCP servers (the room's sidecar among them).
const codexCallTimeout = 60 * time.Second

// codexNote is one message from the server that is not an answer to ours: a
// notification (id empty) or a server request (id set).
type codexNote struct {
	Seq    int64 // its place among the connection's notes, from 1
	ID     string
	Method string
	Params json.RawMessage
}

// codexRPCError is the server's error answer to a request.
type codexRPCError struct {
	Method  string
	Code    int
	Message string
}

func (e *codexRPCError) Error() string {
	return fmt.Sprintf("codex app-server: %s: %s (code %d)", e.Method, e.Message, e.Code)
}

// errCodexConnClosed: the connection ended before the answer came.
var errCodexConnClosed = errors.New("codex app-server: connection closed")

// codexConn is one WebSocket connection to a seat's app-server. Its reader
// goroutine (owner: the codexConn; ends when the connection is closed or
// fails; Close waits for it) delivers answers to their callers and every
// other message to the note handler, in arrival order.
type codexConn struct {
	ws      *websocket.Conn
	writeMu sync.Mutex

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan codexAnswer
	early   []codexNote // notes before a handler was set (at most codexEarlyNotes)
	dropped int         // early notes past the cap
	notes   int64       // notes delivered so far (codexNote.Seq)
	handler func(codexNote)
	err     error // why the reader ended

	done chan struct{} // closed when the reader ended
}

type codexAnswer struct {
	result json.RawMessage
	err    error
}

// dialCodex connects to url with the bearer token. The dialer never uses a
// proxy: the server is on loopback and HTTP(S)_PROXY must not see the token.
func dialCodex(ctx context.Context, url, token string) (*codexConn, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	ws, resp, err := d.DialContext(ctx, url, http.Header{"Authorization": {"Bearer " + token}})
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("codex app-server: connect: HTTP %d: %w", resp.StatusCode, err)
		}
		return nil, fmt.Errorf("codex app-server: connect: %w", err)
	}
	ws.SetReadLimit(codexMessageMax)
	c := &codexConn{ws: ws, pending: map[string]chan codexAnswer{}, done: make(chan struct{})}
	go c.read()
	return c, nil
}

// read is the reader goroutine.
func (c *codexConn) read() {
	defer close(c.done)
	var err error
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("codex app-server reader panic: %v", r)
		}
		c.mu.Lock()
		c.err = err
		pending := c.pending
		c.pending = nil // later calls fail at once
		c.mu.Unlock()
		for _, ch := range pending {
			ch <- codexAnswer{err: fmt.Errorf("%w: %v", errCodexConnClosed, err)}
		}
	}()
	for {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_, data, rerr := c.ws.ReadMessage()
		if rerr != nil {
			err = rerr
			return
		}
		if json.Unmarshal(data, &msg) != nil {
			continue // not one object: nothing to route
		}
		id := rpcID(msg.ID)
		if msg.Method == "" && id != "" {
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch == nil {
				continue
			}
			if msg.Error != nil {
				ch <- codexAnswer{err: &codexRPCError{Code: msg.Error.Code, Message: msg.Error.Message}}
			} else {
				ch <- codexAnswer{result: msg.Result}
			}
			continue
		}
		if msg.Method == "" {
			continue
		}
		c.deliver(codexNote{ID: id, Method: msg.Method, Params: msg.Params})
	}
}

// rpcID reads a request id (a string or an integer) as a string; "" when
// absent or null.
func rpcID(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return "s:" + s
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return strconv.FormatInt(n, 10)
	}
	return ""
}

// deliver hands n to the handler, or keeps it until one is set.
func (c *codexConn) deliver(n codexNote) {
	c.mu.Lock()
	c.notes++
	n.Seq = c.notes
	h := c.handler
	if h == nil {
		if len(c.early) < codexEarlyNotes {
			c.early = append(c.early, n)
		} else {
			c.dropped++
		}
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	h(n)
}

// setHandler makes h the reader of every later note, after it read the
// ones kept so far (in order). h runs on the reader goroutine: it must not
// call the connection.
func (c *codexConn) setHandler(h func(codexNote)) {
	c.mu.Lock()
	early := c.early
	c.early = nil
	c.mu.Unlock()
	for _, n := range early {
		h(n)
	}
	// Notes that arrived while the early ones were read: loop until none.
	for {
		c.mu.Lock()
		more := c.early
		c.early = nil
		if len(more) == 0 {
			c.handler = h
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		for _, n := range more {
			h(n)
		}
	}
}

// call sends a request and waits for its answer (bounded by ctx and
// codexCallTimeout); result, when non-nil, receives the answer's result.
func (c *codexConn) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, codexCallTimeout)
	defer cancel()
	c.mu.Lock()
	if c.pending == nil {
		c.mu.Unlock()
		return errCodexConnClosed
	}
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	ch := make(chan codexAnswer, 1)
	c.pending[id] = ch
	n := c.nextID
	c.mu.Unlock()
	if err := c.send(map[string]any{"id": n, "method": method, "params": params}); err != nil {
		c.forget(id)
		return fmt.Errorf("codex app-server: %s: %w", method, err)
	}
	select {
	case a := <-ch:
		if a.err != nil {
			var re *codexRPCError
			if errors.As(a.err, &re) {
				re.Method = method
			}
			return a.err
		}
		if result != nil {
			if err := json.Unmarshal(a.result, result); err != nil {
				return fmt.Errorf("codex app-server: %s: unreadable answer: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return fmt.Errorf("codex app-server: %s: %w", method, ctx.Err())
	}
}

func (c *codexConn) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// notify sends a notification (no answer).
func (c *codexConn) notify(method string) error {
	return c.send(map[string]any{"method": method})
}

func (c *codexConn) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.ws.WriteMessage(websocket.TextMessage, b)
}

// seq is the Seq of the last note so far.
func (c *codexConn) seq() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.notes
}

// Close ends the connection and waits for the reader.
func (c *codexConn) Close() {
	_ = c.ws.Close()
	<-c.done
}

// Done is closed when the connection ended.
func (c *codexConn) Done() <-chan struct{} { return c.done }
