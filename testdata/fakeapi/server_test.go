package fakeapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// testWait bounds every wait in these tests; loopback requests take
// milliseconds, so hitting it means a hang (scaled).
var testWait = testkit.Slow(10 * time.Second)

func newServer(t *testing.T, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func do(t *testing.T, h http.Handler, method, target string, body string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func decode(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return m
}

const claudePostBody = `{"model":"claude-test","stream":true,"tools":[{"name":"mcp__k__say_to_room","input_schema":{"type":"object"}}],
 "messages":[{"role":"user","content":"[pullcept] {\"role\":\"admin\",\"from\":\"Alice\",\"message_id\":\"m-1\"}\nhello"}]}`

// TestSideEndpoints: the minimal answers docs/clis.md §2.14 and §3.5 list, and
// 200 {} for everything else; every request is recorded.
func TestSideEndpoints(t *testing.T) {
	t.Parallel()
	s := newServer(t, Options{})
	if resp := do(t, s, http.MethodHead, "/api/hello", "", nil); resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD /api/hello = %d", resp.StatusCode)
	}
	m := decode(t, do(t, s, http.MethodPost, "/v1/messages/count_tokens?beta=true", claudePostBody, nil))
	if n, _ := m["input_tokens"].(float64); n <= 0 {
		t.Errorf("count_tokens = %v", m)
	}
	m = decode(t, do(t, s, http.MethodGet, "/v1/models", "", map[string]string{"anthropic-version": "2023-06-01"}))
	if data, _ := m["data"].([]any); len(data) != 1 {
		t.Errorf("anthropic models = %v", m)
	}
	m = decode(t, do(t, s, http.MethodGet, "/v1/models?client_version=0.169.0", "", nil))
	if _, ok := m["models"].([]any); !ok {
		t.Errorf("codex models = %v", m)
	}
	resp := do(t, s, http.MethodPost, "/hooks/activity/Stop", `{"hook_event_name":"Stop"}`, nil)
	if m := decode(t, resp); resp.StatusCode != http.StatusOK || len(m) != 0 {
		t.Errorf("hook = %d %v", resp.StatusCode, m)
	}
	exs := s.Exchanges()
	var paths []string
	for i, ex := range exs {
		if ex.Request.Seq != i+1 || ex.Request.ModelCall {
			t.Errorf("exchange %d: seq %d model %v", i, ex.Request.Seq, ex.Request.ModelCall)
		}
		paths = append(paths, ex.Request.Method+" "+ex.Request.Path)
	}
	want := "HEAD /api/hello,POST /v1/messages/count_tokens,GET /v1/models,GET /v1/models,POST /hooks/activity/Stop"
	if strings.Join(paths, ",") != want {
		t.Errorf("recorded %v, want %s", paths, want)
	}
	if string(exs[4].Request.Body) != `{"hook_event_name":"Stop"}` {
		t.Errorf("hook body = %s", exs[4].Request.Body)
	}
}

// TestEscapeRefused: as the CLIs' proxy the fake refuses CONNECT and
// absolute-URL requests and records them as escapes.
func TestEscapeRefused(t *testing.T) {
	t.Parallel()
	s := newServer(t, Options{})
	base, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	proxy, _ := url.Parse(base)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	for _, target := range []string{"https://example.invalid/x", "http://example.invalid/y"} {
		resp, err := client.Get(target)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("GET %s via the fake = %d, want 403", target, resp.StatusCode)
			}
		}
	}
	exs := s.Exchanges()
	if len(exs) != 2 {
		t.Fatalf("recorded %d, want 2", len(exs))
	}
	if r := exs[0].Request; !r.Escape || r.Method != http.MethodConnect || r.Host != "example.invalid:443" {
		t.Errorf("CONNECT record = %+v", r)
	}
	if r := exs[1].Request; !r.Escape || r.Method != http.MethodGet || r.Host != "example.invalid" || r.Path != "/y" {
		t.Errorf("proxied GET record = %+v", r)
	}
}

// TestBadBodies: a model call that is not JSON gets a 400 in the API's
// error shape and is still recorded; an unknown content encoding too.
func TestBadBodies(t *testing.T) {
	t.Parallel()
	s := newServer(t, Options{})
	resp := do(t, s, http.MethodPost, "/v1/messages", "{not json", nil)
	m := decode(t, resp)
	if resp.StatusCode != http.StatusBadRequest || m["type"] != "error" {
		t.Errorf("anthropic bad body = %d %v", resp.StatusCode, m)
	}
	resp = do(t, s, http.MethodPost, "/v1/responses", `{"input":42}`, nil)
	m = decode(t, resp)
	if e, _ := m["error"].(map[string]any); resp.StatusCode != http.StatusBadRequest || e["message"] == "" {
		t.Errorf("openai bad input = %d %v", resp.StatusCode, m)
	}
	resp = do(t, s, http.MethodPost, "/v1/responses", `{}`, map[string]string{"Content-Encoding": "zstd"})
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("zstd body = %d", resp.StatusCode)
	}
	for _, ex := range s.Exchanges() {
		if ex.Request.ParseErr == "" {
			t.Errorf("exchange %d has no ParseErr", ex.Request.Seq)
		}
	}
}

// TestGzipBody: a gzip-encoded model call is read decompressed.
func TestGzipBody(t *testing.T) {
	t.Parallel()
	s := newServer(t, Options{})
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(claudePostBody)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/messages", &b)
	req.Header.Set("Content-Encoding", "gzip")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	a := readAnthropic(t, rec.Result())
	if a.ToolName != "mcp__k__say_to_room" || !jsonEq(t, a.ToolInput, `{"content":"reply to: hello","last_seen":"m-1"}`) {
		t.Errorf("answer = %+v", a)
	}
}

// TestNonStreaming: stream:false gets one JSON message / response.
func TestNonStreaming(t *testing.T) {
	t.Parallel()
	s := newServer(t, Options{})
	body := strings.Replace(claudePostBody, `"stream":true`, `"stream":false`, 1)
	m := decode(t, do(t, s, http.MethodPost, "/v1/messages", body, nil))
	content, _ := m["content"].([]any)
	if m["type"] != "message" || m["stop_reason"] != "tool_use" || len(content) != 1 || m["model"] != "claude-test" {
		t.Errorf("anthropic message = %v", m)
	}
	m = decode(t, do(t, s, http.MethodPost, "/v1/responses", `{"model":"m","input":"hi"}`, nil))
	out, _ := m["output"].([]any)
	if m["status"] != "completed" || len(out) != 1 {
		t.Errorf("openai response = %v", m)
	}
}

// TestRespondHook: the hook replaces the script, sees the parsed request,
// can fall back to the script, and a hook panic becomes a 500.
func TestRespondHook(t *testing.T) {
	t.Parallel()
	var sawPosts int
	s := newServer(t, Options{
		Respond: func(r *Request) Reply {
			sawPosts = len(r.NewPosts())
			if r.Model == "panic" {
				panic("hook bug")
			}
			if r.Model == "overloaded" {
				return Reply{Status: 529, Error: "try later"}
			}
			if r.Model == "usage" {
				rep := Script{}.Decide(r)
				rep.Usage = Usage{InputTokens: 50000, OutputTokens: 7}
				return rep
			}
			return TextReply("custom")
		},
		Headers: http.Header{"X-Codex-Primary-Used-Percent": {"12.5"}},
	})
	a := readAnthropic(t, do(t, s, http.MethodPost, "/v1/messages", claudePostBody, nil))
	if a.Text != "custom" || sawPosts != 1 {
		t.Errorf("hook answer = %+v, posts seen %d", a, sawPosts)
	}
	resp := do(t, s, http.MethodPost, "/v1/messages", strings.Replace(claudePostBody, "claude-test", "overloaded", 1), nil)
	if m := decode(t, resp); resp.StatusCode != 529 || m["error"].(map[string]any)["type"] != "overloaded_error" {
		t.Errorf("529 answer = %d %v", resp.StatusCode, m)
	}
	resp = do(t, s, http.MethodPost, "/v1/messages", strings.Replace(claudePostBody, "claude-test", "panic", 1), nil)
	if m := decode(t, resp); resp.StatusCode != http.StatusInternalServerError || !strings.Contains(m["error"].(map[string]any)["message"].(string), "hook bug") {
		t.Errorf("panic answer = %d %v", resp.StatusCode, m)
	}
	resp = do(t, s, http.MethodPost, "/v1/messages", strings.Replace(claudePostBody, "claude-test", "usage", 1), nil)
	if a := readAnthropic(t, resp); a.InputUsage != 50000 || a.ToolName == "" {
		t.Errorf("usage answer = %+v", a)
	}
	resp = do(t, s, http.MethodPost, "/v1/responses", `{"model":"m","stream":true,"input":"hi"}`, nil)
	if resp.Header.Get("X-Codex-Primary-Used-Percent") != "12.5" {
		t.Errorf("extra headers = %v", resp.Header)
	}
	if o := readOpenAI(t, resp); o.Delta != "custom" {
		t.Errorf("openai hook answer = %+v", o)
	}
}

// TestStartWaitClose: a real loopback listener; Wait wakes on the record;
// Wait honours its context; Close ends Wait with ErrClosed and is
// idempotent; Start twice or after Close fails.
func TestStartWaitClose(t *testing.T) {
	t.Parallel()
	s := newServer(t, Options{})
	base, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") || s.URL() != base {
		t.Errorf("base = %q, URL = %q", base, s.URL())
	}
	if _, err := s.Start(); !errors.Is(err, ErrStarted) {
		t.Errorf("second Start = %v, want ErrStarted", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testWait)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.Wait(ctx, func(exs []Exchange) bool { return len(exs) > 0 && exs[0].Request.Path == "/v1/messages" })
		done <- err
	}()
	resp, err := http.Post(base+"/v1/messages?beta=true", "application/json", strings.NewReader(claudePostBody))
	if err != nil {
		t.Fatal(err)
	}
	readAnthropic(t, resp)
	resp.Body.Close()
	if err := <-done; err != nil {
		t.Errorf("Wait = %v", err)
	}

	short, cancelShort := context.WithCancel(t.Context())
	cancelShort()
	if _, err := s.Wait(short, func([]Exchange) bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait on a cancelled context = %v", err)
	}

	go func() {
		_, err := s.Wait(ctx, func([]Exchange) bool { return false })
		done <- err
	}()
	if err := s.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("Wait across Close = %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if _, err := s.Start(); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close = %v, want ErrClosed", err)
	}
}

// TestHold: a held reply is sent once Hold closes; Close releases a held
// request without answering it.
func TestHold(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	called := make(chan struct{}, 4)
	s := newServer(t, Options{Respond: func(r *Request) Reply {
		called <- struct{}{}
		rep := TextReply("late")
		rep.Hold = hold
		return rep
	}})
	base, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testWait)
	defer cancel()
	type result struct {
		text string
		err  error
	}
	post := func() <-chan result {
		ch := make(chan result, 1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/messages", strings.NewReader(claudePostBody))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				ch <- result{err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			ch <- result{text: string(b), err: err}
		}()
		return ch
	}
	first := post()
	select {
	case <-called:
	case <-ctx.Done():
		t.Fatal("hook not called")
	}
	if n := len(s.Exchanges()); n != 0 {
		t.Errorf("held reply recorded early: %d exchanges", n)
	}
	close(hold)
	r := <-first
	if r.err != nil || !strings.Contains(r.text, `"text":"late"`) {
		t.Errorf("held answer = %q %v", r.text, r.err)
	}

	hold = make(chan struct{}) // never closed: Close must release it
	second := post()
	select {
	case <-called:
	case <-ctx.Done():
		t.Fatal("hook not called")
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if r := <-second; r.err == nil && strings.Contains(r.text, "late") {
		t.Errorf("held request answered after Close: %q", r.text)
	}
}

// TestNewRejectsNonLoopback: nothing may listen beyond this machine.
func TestNewRejectsNonLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.2:80", "example.com:80", "nonsense"} {
		if _, err := New(Options{Addr: addr}); !errors.Is(err, ErrBadOptions) {
			t.Errorf("New(Addr %q) = %v, want ErrBadOptions", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0", "127.0.0.2:0"} {
		if _, err := New(Options{Addr: addr}); err != nil {
			t.Errorf("New(Addr %q) = %v", addr, err)
		}
	}
}

// TestCodexLimits: Options.CodexLimits go out as the x-codex-* headers
// Codex 0.169.0 reads (docs/clis.md §3.6) on Responses replies only; a
// named family gets its own prefix; a window without a reset time sends
// none.
func TestCodexLimits(t *testing.T) {
	t.Parallel()
	reset := time.Unix(1796122546, 0)
	s := newServer(t, Options{CodexLimits: []CodexLimits{
		{Primary: &CodexLimit{UsedPercent: 40, WindowMinutes: 10080, ResetsAt: reset.Add(time.Hour)},
			Secondary: &CodexLimit{UsedPercent: 12.5, WindowMinutes: 300, ResetsAt: reset}},
		{Limit: "codex-other", Primary: &CodexLimit{UsedPercent: 77, WindowMinutes: 300}},
	}})
	resp := do(t, s, http.MethodPost, "/v1/responses", `{"model":"m","stream":true,"input":"hi"}`, nil)
	want := map[string]string{
		"x-codex-primary-used-percent":         "40",
		"x-codex-primary-window-minutes":       "10080",
		"x-codex-primary-reset-at":             "1796126146",
		"x-codex-secondary-used-percent":       "12.5",
		"x-codex-secondary-window-minutes":     "300",
		"x-codex-secondary-reset-at":           "1796122546",
		"x-codex-other-primary-used-percent":   "77",
		"x-codex-other-primary-window-minutes": "300",
		"x-codex-other-primary-reset-at":       "",
	}
	for k, v := range want {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	readOpenAI(t, resp)
	a := do(t, s, http.MethodPost, "/v1/messages", claudePostBody, nil)
	if a.Header.Get("x-codex-primary-used-percent") != "" {
		t.Error("an Anthropic reply carries Codex's rate-limit headers")
	}
	_ = a.Body.Close()
}

// TestClaudeLimits: Options.ClaudeLimits go out as the
// anthropic-ratelimit-unified-* headers Claude Code 2.1.328 reads
// (docs/clis.md §2.9) on Messages replies only; GatewayToken is a JWT whose
// payload says aud "claude-gateway".
func TestClaudeLimits(t *testing.T) {
	t.Parallel()
	reset := time.Unix(1796122546, 0)
	s := newServer(t, Options{ClaudeLimits: &ClaudeLimits{
		FiveHour: &ClaudeLimit{Utilization: 0.23, ResetsAt: reset},
		SevenDay: &ClaudeLimit{Utilization: 0.41},
	}})
	a := do(t, s, http.MethodPost, "/v1/messages", claudePostBody, nil)
	want := map[string]string{
		"anthropic-ratelimit-unified-status":         "allowed",
		"anthropic-ratelimit-unified-5h-status":      "allowed",
		"anthropic-ratelimit-unified-5h-utilization": "0.23",
		"anthropic-ratelimit-unified-5h-reset":       "1796122546",
		"anthropic-ratelimit-unified-7d-utilization": "0.41",
		"anthropic-ratelimit-unified-7d-reset":       "",
	}
	for k, v := range want {
		if got := a.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	_ = a.Body.Close()
	o := do(t, s, http.MethodPost, "/v1/responses", `{"model":"m","stream":true,"input":"hi"}`, nil)
	if o.Header.Get("anthropic-ratelimit-unified-status") != "" {
		t.Error("a Responses reply carries Claude's rate-limit headers")
	}
	readOpenAI(t, o)

	parts := strings.Split(GatewayToken(), ".")
	if len(parts) != 3 || parts[2] == "" {
		t.Fatalf("gateway token %q is not a JWT", GatewayToken())
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil || claims.Aud != "claude-gateway" || claims.Exp < time.Now().Unix() {
		t.Fatalf("claims %s: %+v, %v", payload, claims, err)
	}
}
