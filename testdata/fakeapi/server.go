package fakeapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pullcept/pullcept/room"
)

// Options configure a Server. The zero value answers with the default
// Script.
type Options struct {
	// Addr is the listen address for Start; "" means "127.0.0.1:0". Only
	// loopback addresses are allowed (nothing may reach beyond this
	// machine): an IP literal that is loopback, or "localhost".
	Addr string
	// Respond answers every model call. Nil means Script.Decide. A hook may
	// fall back to the default with `return opts.Script.Decide(r)`. It runs
	// on the request's goroutine, concurrently for concurrent requests, and
	// must not modify r.
	Respond func(r *Request) Reply
	// Script is the default behaviour used when Respond is nil.
	Script Script
	// Headers are added to every model-call response.
	Headers http.Header
	// CodexLimits are sent on every Responses API reply as the x-codex-*
	// rate-limit headers Codex reads (docs/clis.md §3.6), after Headers.
	CodexLimits []CodexLimits
	// ClaudeLimits, when set, are sent on every Messages API reply as the
	// anthropic-ratelimit-unified-* headers (docs/clis.md §2.9), after
	// Headers.
	ClaudeLimits *ClaudeLimits
	// CodexUsage answers GET /backend-api/wham/usage, the ChatGPT backend's
	// plan usage that `codex app-server` reads for account/rateLimits/read
	// with a fake ChatGPT login (CodexSetup.ChatGPTLogin; docs/clis.md
	// §3.7). Nil: an allowed plan with no windows. It runs on the request's
	// goroutine and must not modify r.
	CodexUsage func(r *Request) CodexUsage
	// Logf, when set, gets one line per request and reply (t.Logf fits).
	Logf func(format string, args ...any)
}

// Exchange is one recorded request and the reply the Server gave. Reply is
// zero for requests that are not model calls.
type Exchange struct {
	Request *Request `json:"request"`
	Reply   Reply    `json:"reply"`
}

// Server is a fake Anthropic Messages + OpenAI Responses API (docs/design.md §13).
// Use it as an http.Handler (httptest.NewServer(s)) or let Start listen on
// 127.0.0.1:0. Safe for concurrent use.
type Server struct {
	opts Options

	mu       sync.Mutex
	log      []Exchange
	changed  chan struct{} // closed and replaced on every record (Wait)
	seq      int
	started  bool
	closed   bool
	url      string
	srv      *http.Server
	served   chan struct{} // closed when the accept goroutine ends
	serveErr error

	ids     atomic.Int64  // tool call / message ids
	closing chan struct{} // closed by Close: releases held replies

	// logMu orders Options.Logf with Close: a handler still running after
	// http.Server.Close (which does not wait for handlers) must not log to
	// a test that has ended (the race detector caught t.Logf racing the
	// test's end under load, issue 28). logClosed: Close began.
	logMu     sync.RWMutex
	logClosed bool
}

// New returns a Server with opts. It fails with ErrBadOptions when Addr is
// not a loopback host:port.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("fake api addr %q: %v: %w", opts.Addr, err, ErrBadOptions)
	}
	if !room.IsLoopbackHost(host) {
		return nil, fmt.Errorf("fake api addr %q is not loopback: %w", opts.Addr, ErrBadOptions)
	}
	return &Server{
		opts:    opts,
		changed: make(chan struct{}),
		closing: make(chan struct{}),
	}, nil
}

// Start listens on Options.Addr (127.0.0.1:0 by default; loopback only) and
// serves in one goroutine until Close. It returns the base URL
// "http://127.0.0.1:<port>": Claude Code's ANTHROPIC_BASE_URL; Codex's
// base_url is that + "/v1". Errors: ErrStarted, ErrClosed, or the listen
// error.
func (s *Server) Start() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrClosed
	}
	if s.started {
		return "", ErrStarted
	}
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return "", fmt.Errorf("fake api listen: %w", err)
	}
	s.started = true
	s.url = "http://" + ln.Addr().String()
	// ReadHeaderTimeout: a stuck client cannot pin a connection goroutine
	// for the life of the test; 10 s is far above any loopback request.
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.served = make(chan struct{})
	go s.serve(ln)
	return s.url, nil
}

func (s *Server) serve(ln net.Listener) {
	defer close(s.served)
	defer func() {
		if p := recover(); p != nil {
			s.mu.Lock()
			s.serveErr = fmt.Errorf("fake api serve panic: %v", p)
			s.mu.Unlock()
		}
	}()
	err := s.srv.Serve(ln)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.mu.Lock()
		s.serveErr = fmt.Errorf("fake api serve: %w", err)
		s.mu.Unlock()
	}
}

// URL returns the base URL Start returned ("" before Start).
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// Close stops listening, closes open connections, releases held replies,
// and waits for the accept goroutine. It returns the accept loop's error, if
// it failed. Closing twice is a no-op.
func (s *Server) Close() error {
	s.logMu.Lock() // waits for a log line under way; none after
	s.logClosed = true
	s.logMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closing)
	close(s.changed)
	srv, served := s.srv, s.served
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	err := srv.Close()
	<-served
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serveErr != nil {
		return s.serveErr
	}
	if err != nil {
		return fmt.Errorf("fake api close: %w", err)
	}
	return nil
}

// Exchanges returns a copy of everything recorded so far, oldest first.
func (s *Server) Exchanges() []Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Exchange(nil), s.log...)
}

// Wait blocks until cond, called with the exchanges recorded so far after
// every new record, returns true; it then returns those exchanges. It
// returns ctx's error (wrapped) when ctx ends first, and ErrClosed when the
// Server closes first. cond runs without any lock held.
func (s *Server) Wait(ctx context.Context, cond func([]Exchange) bool) ([]Exchange, error) {
	for {
		s.mu.Lock()
		log := append([]Exchange(nil), s.log...)
		changed, closed := s.changed, s.closed
		s.mu.Unlock()
		if cond(log) {
			return log, nil
		}
		if closed {
			return log, ErrClosed
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return log, fmt.Errorf("fake api wait: %w", ctx.Err())
		}
	}
}

// record appends one exchange and wakes waiters.
func (s *Server) record(req *Request, reply Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, Exchange{Request: req, Reply: reply})
	if !s.closed {
		close(s.changed)
		s.changed = make(chan struct{})
	}
}

func (s *Server) nextSeq() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

func (s *Server) nextID() int64 { return s.ids.Add(1) }

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf == nil {
		return
	}
	s.logMu.RLock()
	defer s.logMu.RUnlock()
	if !s.logClosed {
		s.opts.Logf(format, args...)
	}
}

// maxBody bounds a request body: Claude's first request with a full tool
// list is ~100 KB and long sessions grow, 64 MiB is far above any test.
const maxBody = 64 << 20

// ServeHTTP routes one request: proxy requests (Request.Escape) to 403,
// model calls to the Anthropic or OpenAI handler, the few side endpoints the
// CLIs call to their minimal answers (docs/clis.md §2.14, §3.5), and everything else
// to 200 "{}". Every request is recorded.
func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	req := &Request{
		Seq:      s.nextSeq(),
		Time:     time.Now(),
		API:      Other,
		Method:   hr.Method,
		Host:     hr.Host,
		Escape:   hr.Method == http.MethodConnect || hr.URL.IsAbs(),
		Path:     hr.URL.Path,
		RawQuery: hr.URL.RawQuery,
		Header:   hr.Header.Clone(),
	}
	body, err := readBody(hr)
	req.Body = body
	if err != nil {
		req.ParseErr = err.Error()
		s.record(req, Reply{})
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
		return
	}
	path := strings.TrimSuffix(hr.URL.Path, "/")
	switch {
	case req.Escape:
		// The prepared CLIs use the fake as their HTTPS_PROXY (harness.go), so
		// a lookup they cannot be configured out of lands here instead of on
		// the network: refuse it and keep the record for the test to see.
		s.record(req, Reply{})
		s.logf("fakeapi #%d refused an escape to %s", req.Seq, req.Host)
		http.Error(w, "pullcept fake api: no network beyond loopback", http.StatusForbidden)
	case hr.Method == http.MethodPost && path == "/v1/messages":
		req.API, req.ModelCall = Anthropic, true
		s.serveModel(w, hr, req, parseAnthropic, writeAnthropic)
	case hr.Method == http.MethodPost && path == "/v1/responses":
		req.API, req.ModelCall = OpenAI, true
		s.serveModel(w, hr, req, parseOpenAI, writeOpenAI)
	case hr.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		req.API = Anthropic
		s.record(req, Reply{})
		// A rough count (4 bytes a token) — Claude only shows it.
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": len(body)/4 + 1})
	case hr.Method == http.MethodGet && path == "/v1/models":
		s.serveModels(w, req)
	case hr.Method == http.MethodGet && path == codexUsagePath:
		s.serveCodexUsage(w, req)
	default:
		// HEAD /api/hello, Claude's http hooks, anything unknown.
		s.record(req, Reply{})
		if hr.Method == http.MethodHead {
			w.WriteHeader(http.StatusOK)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{})
	}
}

// serveModels answers GET /v1/models in the asking API's shape: Anthropic's
// (anthropic-version header present) or Codex's {"models": []} with an
// OpenAI-style empty "data" list (Codex tolerates an empty catalogue).
func (s *Server) serveModels(w http.ResponseWriter, req *Request) {
	if req.Header.Get("anthropic-version") != "" {
		req.API = Anthropic
		s.record(req, Reply{})
		writeJSON(w, http.StatusOK, map[string]any{
			"data": []any{map[string]any{
				"type": "model", "id": "claude-opus-5-5", "display_name": "Claude (fake)",
				"created_at": "2026-01-01T00:00:00Z",
			}},
			"has_more": false, "first_id": "claude-opus-5-5", "last_id": "claude-opus-5-5",
		})
		return
	}
	req.API = OpenAI
	s.record(req, Reply{})
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
}

// serveModel parses a model call, asks for the reply, waits for its Hold,
// records the exchange and writes the reply in the API's format.
func (s *Server) serveModel(w http.ResponseWriter, hr *http.Request, req *Request,
	parse func(*Request) error, write func(*Server, http.ResponseWriter, *Request, Reply) error) {
	if err := parse(req); err != nil {
		req.ParseErr = err.Error()
		s.record(req, Reply{})
		s.logf("fakeapi #%d %s %s: bad body: %v", req.Seq, req.API, req.Path, err)
		writeAPIError(w, req.API, http.StatusBadRequest, err.Error())
		return
	}
	reply := s.respond(req)
	if reply.Hold != nil {
		select {
		case <-reply.Hold:
		case <-hr.Context().Done():
			s.record(req, reply)
			return
		case <-s.closing:
			s.record(req, reply)
			return
		}
	}
	reply = s.fillIDs(req.API, reply)
	// Record before writing: once the CLI has the answer it may act on it
	// (call the MCP tool), and a test waiting on the record must already
	// see the reply.
	s.record(req, reply)
	s.logf("fakeapi #%d %s session=%s posts=%d results=%d → %s", req.Seq, req.API, req.Session,
		len(req.NewPosts()), len(req.NewResults()), describeReply(reply))
	if req.API == Anthropic {
		// The real API names every answer, errors included; Claude Code
		// records it as the transcript entry's requestId (docs/clis.md §2.17).
		w.Header().Set("request-id", fmt.Sprintf("req_fake_%d", req.Seq))
	}
	addHeader(w.Header(), s.opts.Headers)
	if req.API == OpenAI {
		for _, l := range s.opts.CodexLimits {
			addHeader(w.Header(), l.Header())
		}
	}
	if req.API == Anthropic && s.opts.ClaudeLimits != nil {
		addHeader(w.Header(), s.opts.ClaudeLimits.Header())
	}
	for k, vs := range reply.Header {
		w.Header()[http.CanonicalHeaderKey(k)] = vs
	}
	if reply.Status != 0 && len(reply.ErrorBody) > 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.Status)
		_, _ = w.Write(reply.ErrorBody) // a failed write means the client went away
		return
	}
	if reply.Status != 0 {
		writeAPIError(w, req.API, reply.Status, reply.Error)
		return
	}
	if err := write(s, w, req, reply); err != nil {
		s.logf("fakeapi #%d write: %v", req.Seq, err)
	}
}

func addHeader(dst, src http.Header) {
	for k, vs := range src {
		for _, v := range vs {
			dst.Add(k, v)
		}
	}
}

// respond runs the hook or the default script, turning a hook panic into a
// 500 answer so one bad test hook cannot kill the connection silently.
func (s *Server) respond(req *Request) (reply Reply) {
	defer func() {
		if p := recover(); p != nil {
			reply = Reply{Status: http.StatusInternalServerError, Error: fmt.Sprintf("fake api respond panic: %v", p)}
		}
	}()
	if s.opts.Respond != nil {
		return s.opts.Respond(req)
	}
	return s.opts.Script.Decide(req)
}

// fillIDs gives a tool call an id when the reply has none.
func (s *Server) fillIDs(api API, reply Reply) Reply {
	for i := range reply.Extra {
		if reply.Extra[i].ID == "" {
			reply.Extra[i].ID = fmt.Sprintf("toolu_%d", s.nextID())
		}
	}
	if reply.Call == nil || reply.Call.ID != "" {
		return reply
	}
	c := *reply.Call
	switch {
	case api == Anthropic:
		c.ID = fmt.Sprintf("toolu_%d", s.nextID())
	case c.Search:
		c.ID = fmt.Sprintf("ts_%d", s.nextID())
	default:
		c.ID = fmt.Sprintf("call_%d", s.nextID())
	}
	if len(c.Input) == 0 {
		c.Input = json.RawMessage("{}")
	}
	reply.Call = &c
	return reply
}

func describeReply(r Reply) string {
	switch {
	case r.Status != 0:
		return fmt.Sprintf("HTTP %d %s", r.Status, r.Error)
	case r.Call != nil && r.Call.Search:
		return "tool search " + string(r.Call.Input)
	case r.Call != nil:
		return "call " + r.Call.FullName() + " " + string(r.Call.Input)
	default:
		return fmt.Sprintf("text %q", r.Text)
	}
}

// readBody reads the whole body, gunzipping it when Content-Encoding says so.
func readBody(hr *http.Request) ([]byte, error) {
	if hr.Body == nil {
		return nil, nil
	}
	raw, err := io.ReadAll(io.LimitReader(hr.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if len(raw) > maxBody {
		return raw[:maxBody], fmt.Errorf("body over %d bytes", maxBody)
	}
	switch enc := strings.ToLower(hr.Header.Get("Content-Encoding")); enc {
	case "", "identity":
		return raw, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return raw, fmt.Errorf("gzip body: %w", err)
		}
		defer zr.Close()
		out, err := io.ReadAll(io.LimitReader(zr, maxBody))
		if err != nil {
			return raw, fmt.Errorf("gzip body: %w", err)
		}
		return out, nil
	default:
		return raw, fmt.Errorf("unsupported content-encoding %q", enc)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// Encoding a map of plain values cannot fail; a write error means the
	// client went away, which the client notices itself.
	_ = json.NewEncoder(w).Encode(v)
}

// writeAPIError writes an error body in the API's own shape, so the CLI
// shows the message the way it shows a real API error.
func writeAPIError(w http.ResponseWriter, api API, status int, msg string) {
	if msg == "" {
		msg = http.StatusText(status)
	}
	if api == Anthropic {
		typ := "api_error"
		switch status {
		case http.StatusBadRequest:
			typ = "invalid_request_error"
		case http.StatusTooManyRequests:
			typ = "rate_limit_error"
		case 529:
			typ = "overloaded_error"
		}
		writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
		return
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"type": "server_error", "message": msg, "code": nil}})
}

// sse writes server-sent events and flushes each one.
type sse struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, rc: http.NewResponseController(w)}
}

// event writes `event: <name>\ndata: <json>\n\n`. The first error sticks.
func (e *sse) event(name string, data any) {
	if e.err != nil {
		return
	}
	b, err := json.Marshal(data)
	if err != nil {
		e.err = fmt.Errorf("sse %s: %w", name, err)
		return
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, b); err != nil {
		e.err = fmt.Errorf("sse %s: %w", name, err)
		return
	}
	if err := e.rc.Flush(); err != nil {
		e.err = fmt.Errorf("sse flush: %w", err)
	}
}
