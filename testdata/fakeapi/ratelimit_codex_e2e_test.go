//go:build linux || darwin

package fakeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// These tests drive the real Codex CLI 0.169.0 into the plan's usage limit
// (docs/clis.md §3.6 "Usage limits"): a TUI turn the fake refuses with
// CodexUsageLimit, and the release check a short-lived `codex app-server`
// answers from the fake ChatGPT backend (account/rateLimits/read).

// recordRolloutEnv names a file TestCodexUsageLimitRealCLI copies its
// rollout to (how seats/cli/codex/testdata/codex-0.169.0-usage-limit.jsonl was
// recorded).
const recordRolloutEnv = "FAKEAPI_RECORD_ROLLOUT"

// codexLoginEnv prepares an isolated Codex with the fake ChatGPT login in
// a fresh CODEX_HOME, the seat directory work trusted.
func codexLoginEnv(t *testing.T, base, work string) ([]string, CodexSetup) {
	t.Helper()
	s := CodexSetup{Home: filepath.Join(t.TempDir(), "codex-home"), WorkDirs: []string{work}, BaseURL: base, ChatGPTLogin: true}
	env, err := PrepareCodex(s)
	if err != nil {
		t.Fatalf("prepare codex: %v", err)
	}
	return env, s
}

// seatDir makes an empty seat directory.
func seatDir(t *testing.T) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "seat")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	return work
}

// taskComplete is a rollout's task_complete payload.
type taskComplete struct {
	TurnID string `json:"turn_id"`
	Error  *struct {
		Message        string `json:"message"`
		CodexErrorInfo string `json:"codex_error_info"`
	} `json:"error"`
	LastAgentMessage *string `json:"last_agent_message"`
}

// rolloutTasks returns the rollout file under home and its task_complete
// payloads, oldest first ("" and none before the file exists).
func rolloutTasks(t *testing.T, home string) (string, []taskComplete) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(files) == 0 {
		return "", nil
	}
	if len(files) > 1 {
		t.Fatalf("more than one rollout: %v", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []taskComplete
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		var kind struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "event_msg" || json.Unmarshal(line.Payload, &kind) != nil || kind.Type != "task_complete" {
			continue
		}
		var tc taskComplete
		if err := json.Unmarshal(line.Payload, &tc); err != nil {
			t.Fatalf("task_complete %s: %v", line.Payload, err)
		}
		out = append(out, tc)
	}
	return files[0], out
}

// waitTasks polls (every 50 ms, the file is written lazily and appended
// to) until the rollout holds n task_complete events and returns them.
func waitTasks(t *testing.T, ctx context.Context, home string, n int) (string, []taskComplete) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		path, tasks := rolloutTasks(t, home)
		if len(tasks) >= n {
			return path, tasks
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("waiting for %d task_complete in %s: %v (have %d)", n, home, ctx.Err(), len(tasks))
		}
	}
}

// submitText types first+"\n"+body as one message and waits until a model
// call carries it, pressing Enter again when the first was lost (see
// submitPost).
func submitText(t *testing.T, ctx context.Context, cli *cliTTY, fake *Server, first, body string) {
	t.Helper()
	cli.typePost(ctx, first, body)
	carries := func(exs []Exchange) bool {
		for _, ex := range exs {
			for _, s := range ex.Request.NewUserTexts() {
				if ex.Request.ModelCall && strings.Contains(s, body) {
					return true
				}
			}
		}
		return false
	}
	for enter := 1; ; enter++ {
		wctx, cancel := context.WithTimeout(ctx, enterRetry)
		_, err := fake.Wait(wctx, carries)
		cancel()
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("%s: the message never reached the fake: %v", cli.name, ctx.Err())
		}
		t.Logf("%s: no model call %v after Enter %d (screen below); pressing Enter again\n%s", cli.name, enterRetry, enter, cli.screen())
		cli.write("\r")
	}
}

// TestCodexUsageLimitRealCLI drives the Codex TUI with the fake ChatGPT
// login (a seat that can also be checked, TestCodexAppServerRateLimits)
// through one normal turn, then one the fake refuses with CodexUsageLimit.
// The login leaves model calls on the fake provider (no Authorization,
// same path); the refused turn ends at once (no retry) with task_complete
// error.codex_error_info "usage_limit_exceeded" and the TUI says so.
func TestCodexUsageLimitRealCLI(t *testing.T) {
	start := time.Now()
	codex := CLIPath(t, CLICodex)
	reset := time.Now().Add(3 * time.Hour).Truncate(time.Hour)
	week := time.Now().Add(4 * 24 * time.Hour).Truncate(time.Hour)
	// As the real backend does, the plan's windows come on every answer
	// (the weekly one as primary, docs/clis.md §3.6): the 5-hour window at
	// 96 % (with a ChatGPT login the TUI would now offer to switch to a
	// cheaper model, unless the nudge is hidden as ChatGPTLogin does; the
	// offer would take the next typed post), then at 100 % on the refusal.
	weekly := &CodexLimit{UsedPercent: 35, WindowMinutes: 10080, ResetsAt: week}
	var limited atomic.Bool
	var opts Options
	opts = Options{
		Logf:        t.Logf,
		CodexLimits: []CodexLimits{{Primary: weekly, Secondary: &CodexLimit{UsedPercent: 96, WindowMinutes: 300, ResetsAt: reset}}},
		Respond: func(r *Request) Reply {
			// The first turn's title side request may come late: only the
			// second turn is refused, so the test knows which call meets
			// the limit.
			if limited.Load() && len(r.OutputSchema) == 0 {
				refusal := CodexUsageLimit(reset)
				refusal.Header = CodexLimits{Primary: weekly, Secondary: &CodexLimit{UsedPercent: 100, WindowMinutes: 300, ResetsAt: reset}}.Header()
				return refusal
			}
			return opts.Script.Decide(r)
		},
	}
	fake, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	base, err := fake.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := fake.Close(); err != nil {
			t.Errorf("close fake: %v", err)
		}
	})
	work := seatDir(t)
	env, setup := codexLoginEnv(t, base, work)
	ctx, cancel := context.WithTimeout(t.Context(), 4*stepWait)
	defer cancel()
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, stepWait) }

	cli := startTTY(t, "codex", []string{codex, "--no-alt-screen"}, env, work)
	sctx, scancel := step()
	cli.waitScreen(sctx, "Ask Codex to do anything", "? for shortcuts")
	scancel()
	t.Logf("codex ready after %v", time.Since(start).Round(time.Millisecond))

	// A normal turn with the login.
	sctx, scancel = step()
	submitText(t, sctx, cli, fake, "hello", "are you there?")
	_, tasks := waitTasks(t, sctx, setup.Home, 1)
	cli.waitIdle(sctx, textPlain)
	scancel()
	if tasks[0].Error != nil {
		t.Fatalf("normal turn ended with %+v", *tasks[0].Error)
	}

	// The refused turn.
	limited.Store(true)
	sctx, scancel = step()
	submitText(t, sctx, cli, fake, "one more", "please")
	rollout, tasks := waitTasks(t, sctx, setup.Home, 2)
	cli.waitScreenFunc(sctx, "the usage-limit message and no busy marker", func(screen string) bool {
		return strings.Contains(screen, squash("hit your usage limit")) && !strings.Contains(screen, squash(busyMarker))
	})
	scancel()
	t.Logf("codex screen after the refusal:\n%s", cli.screen())
	e := tasks[1].Error
	if e == nil || e.CodexErrorInfo != "usage_limit_exceeded" || !strings.Contains(e.Message, "usage limit") {
		t.Fatalf("refused turn's task_complete error = %+v, want codex_error_info usage_limit_exceeded", e)
	}
	if !strings.Contains(e.Message, "try again at ") { // the reset, in Codex's local time: "Dec 5th, 2026 11:55 AM."
		t.Errorf("message %q names no reset time", e.Message)
	}

	exs := fake.Exchanges()
	recordExchanges(t, exs)
	calls := modelCalls(exs)
	refused := 0
	for _, ex := range calls {
		if ex.Reply.Status == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d refused model calls, want 1 (Codex never retries a usage limit)", refused)
	}
	for _, ex := range calls {
		if r := ex.Request; r.Path != "/v1/responses" || r.Header.Get("Authorization") != "" || r.Header.Get("Chatgpt-Account-Id") != "" {
			t.Errorf("model call #%d %s with Authorization %q, account %q: the login must not reach the provider",
				r.Seq, r.Path, r.Header.Get("Authorization"), r.Header.Get("Chatgpt-Account-Id"))
		}
	}
	for _, ex := range exs {
		if r := ex.Request; r.Escape && r.Host != codexAnnouncementHost {
			t.Errorf("escape to %s", r.Host)
		}
		if r := ex.Request; !r.ModelCall {
			t.Logf("side request %s %s%s", r.Method, r.Host, r.Path)
		}
	}

	sctx, scancel = step()
	err = cli.quit(sctx, "again to quit")
	scancel()
	if err != nil {
		t.Errorf("codex exit: %v", err)
	}
	if dst := os.Getenv(recordRolloutEnv); dst != "" {
		b, err := os.ReadFile(rollout)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rollout %s copied to %s (cwd %s, CODEX_HOME %s)", rollout, dst, work, setup.Home)
	}
	t.Logf("codex usage-limit test took %v", time.Since(start).Round(time.Millisecond))
}

// modelCalls returns the model-call exchanges in exs.
func modelCalls(exs []Exchange) []Exchange {
	var out []Exchange
	for _, ex := range exs {
		if ex.Request.ModelCall {
			out = append(out, ex)
		}
	}
	return out
}

// appServer is a `codex app-server` over stdio: JSON-RPC, one object per
// line.
type appServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte // stdout lines; closed at EOF
	done  chan struct{}
	err   error // Wait's error, set before done closes

	mu     sync.Mutex
	stderr strings.Builder
}

// startAppServer starts `codex app-server` (stdio) in its own process
// group; cleanup closes its stdin, waits for the exit and kills the group
// if it lingers.
func startAppServer(t *testing.T, codex string, env []string, dir string) *appServer {
	t.Helper()
	cmd := exec.Command(codex, "app-server")
	cmd.Env, cmd.Dir = env, dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	a := &appServer{t: t, cmd: cmd, stdin: stdin, lines: make(chan []byte, 64), done: make(chan struct{})}
	cmd.Stderr = writerFunc(func(p []byte) (int, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.stderr.Write(p)
	})
	if err := cmd.Start(); err != nil {
		t.Fatalf("start app-server: %v", err)
	}
	go func() {
		defer close(a.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		for sc.Scan() {
			a.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	go func() {
		a.err = cmd.Wait()
		close(a.done)
	}()
	t.Cleanup(func() {
		stdin.Close()
		timer := time.NewTimer(exitWait)
		defer timer.Stop()
		select {
		case <-a.done:
		case <-timer.C:
			t.Errorf("app-server still running %v after its stdin closed; killing it", exitWait)
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-a.done
		}
		for range a.lines { // drain, so the reader ends
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if t.Failed() {
			t.Logf("app-server stderr:\n%s", a.stderr.String())
		}
	})
	return a
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// send writes one message.
func (a *appServer) send(v any) {
	a.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		a.t.Fatal(err)
	}
	if _, err := a.stdin.Write(append(b, '\n')); err != nil {
		a.t.Fatalf("app-server stdin: %v", err)
	}
}

// call sends a request and returns its answer's result or error, logging
// the notifications that come first.
func (a *appServer) call(ctx context.Context, id int, method string, params any) (json.RawMessage, error) {
	a.t.Helper()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	a.send(msg)
	for {
		select {
		case line, ok := <-a.lines:
			if !ok {
				a.t.Fatalf("app-server closed stdout before answering %s (exit: %v)", method, a.waitErr())
			}
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  *rpcError       `json:"error"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				a.t.Fatalf("app-server line %q: %v", line, err)
			}
			switch {
			case m.ID != nil && *m.ID == id && m.Method == "":
				if m.Error != nil {
					return nil, m.Error
				}
				return m.Result, nil
			case m.Method != "":
				a.t.Logf("app-server note %s", truncate(line, 200))
			default:
				a.t.Logf("app-server line %s", truncate(line, 200))
			}
		case <-ctx.Done():
			a.t.Fatalf("app-server: waiting for the answer to %s: %v", method, ctx.Err())
		}
	}
}

func (a *appServer) waitErr() error {
	select {
	case <-a.done:
		return a.err
	default:
		return errors.New("still running")
	}
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// initialize performs the handshake every client starts with.
func (a *appServer) initialize(ctx context.Context) {
	a.t.Helper()
	if _, err := a.call(ctx, 1, "initialize", map[string]any{
		"clientInfo": map[string]any{"name": "pullcept-test", "title": "Pullcept test", "version": "0.0.0"},
	}); err != nil {
		a.t.Fatalf("initialize: %v", err)
	}
	a.send(map[string]any{"method": "initialized"})
}

// rateLimitsRead is the part of account/rateLimits/read's answer the
// release check reads.
type rateLimitsRead struct {
	OrdinaryUsageAllowed *bool   `json:"ordinaryUsageAllowed"`
	AccountID            *string `json:"accountId"`
	RateLimits           struct {
		LimitID              string         `json:"limitId"`
		PlanType             string         `json:"planType"`
		RateLimitReachedType *string        `json:"rateLimitReachedType"`
		Primary, Secondary   *rateLimitSpan `json:"-"`
	} `json:"rateLimits"`
	ByLimitID map[string]json.RawMessage `json:"rateLimitsByLimitId"`
}

// rateLimitSpan is one window of the answer.
type rateLimitSpan struct {
	UsedPercent        int    `json:"usedPercent"`
	WindowDurationMins *int64 `json:"windowDurationMins"`
	ResetsAt           *int64 `json:"resetsAt"`
}

func readRateLimits(t *testing.T, raw json.RawMessage) rateLimitsRead {
	t.Helper()
	var r rateLimitsRead
	var windows struct {
		RateLimits struct {
			Primary   *rateLimitSpan `json:"primary"`
			Secondary *rateLimitSpan `json:"secondary"`
		} `json:"rateLimits"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("rateLimits/read answer %s: %v", raw, err)
	}
	if err := json.Unmarshal(raw, &windows); err != nil {
		t.Fatal(err)
	}
	r.RateLimits.Primary, r.RateLimits.Secondary = windows.RateLimits.Primary, windows.RateLimits.Secondary
	return r
}

// spanIs reports whether w is the window l describes, as Codex answers it.
func spanIs(w *rateLimitSpan, l *CodexLimit) bool {
	return w != nil && w.UsedPercent == int(l.UsedPercent) && w.WindowDurationMins != nil &&
		*w.WindowDurationMins == int64(l.WindowMinutes) && w.ResetsAt != nil && *w.ResetsAt == l.ResetsAt.Unix()
}

// TestCodexAppServerRateLimits is the release check a seat's plan limit
// needs (issue 16), against the real Codex 0.169.0 with the fake ChatGPT
// login: a short-lived `codex app-server` (stdio), initialize, initialized,
// account/rateLimits/read. It answers from GET /backend-api/wham/usage:
// ordinaryUsageAllowed is rate_limit.allowed (false, then true after the
// fake flips), the windows' used percent, length and reset; an answer for
// another account leaves ordinaryUsageAllowed null. No model is called and
// nothing leaves loopback.
func TestCodexAppServerRateLimits(t *testing.T) {
	start := time.Now()
	codex := CLIPath(t, CLICodex)
	fiveHour := &CodexLimit{UsedPercent: 100, WindowMinutes: 300, ResetsAt: time.Now().Add(90 * time.Minute).Truncate(time.Second)}
	weekly := &CodexLimit{UsedPercent: 40, WindowMinutes: 10080, ResetsAt: time.Now().Add(72 * time.Hour).Truncate(time.Second)}
	var usage atomic.Pointer[CodexUsage]
	usage.Store(&CodexUsage{LimitReached: true, Primary: fiveHour, Secondary: weekly, ReachedType: "rate_limit_reached"})
	fake, err := New(Options{Logf: t.Logf, CodexUsage: func(*Request) CodexUsage { return *usage.Load() }})
	if err != nil {
		t.Fatal(err)
	}
	base, err := fake.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := fake.Close(); err != nil {
			t.Errorf("close fake: %v", err)
		}
	})
	work := seatDir(t)
	env, _ := codexLoginEnv(t, base, work)
	ctx, cancel := context.WithTimeout(t.Context(), stepWait)
	defer cancel()

	srv := startAppServer(t, codex, env, work)
	srv.initialize(ctx)
	raw, err := srv.call(ctx, 2, "account/rateLimits/read", nil)
	if err != nil {
		t.Fatalf("rateLimits/read: %v", err)
	}
	t.Logf("limited: %s", raw)
	r := readRateLimits(t, raw)
	if r.OrdinaryUsageAllowed == nil || *r.OrdinaryUsageAllowed || r.AccountID == nil || *r.AccountID != CodexAccountID {
		t.Errorf("ordinaryUsageAllowed = %v, accountId = %v; want false, %s", deref(r.OrdinaryUsageAllowed), deref(r.AccountID), CodexAccountID)
	}
	rl := r.RateLimits
	if rl.LimitID != "codex" || rl.PlanType != "plus" || deref(rl.RateLimitReachedType) != "rate_limit_reached" ||
		!spanIs(rl.Primary, fiveHour) || !spanIs(rl.Secondary, weekly) || r.ByLimitID["codex"] == nil {
		t.Errorf("rateLimits = %s", raw)
	}

	// The plan is allowed again: the same server, a second read.
	fiveHour2 := &CodexLimit{UsedPercent: 3, WindowMinutes: 300, ResetsAt: time.Now().Add(5 * time.Hour).Truncate(time.Second)}
	usage.Store(&CodexUsage{Allowed: true, Primary: fiveHour2, Secondary: weekly})
	raw, err = srv.call(ctx, 3, "account/rateLimits/read", nil)
	if err != nil {
		t.Fatalf("rateLimits/read: %v", err)
	}
	t.Logf("allowed: %s", raw)
	r = readRateLimits(t, raw)
	if r.OrdinaryUsageAllowed == nil || !*r.OrdinaryUsageAllowed || !spanIs(r.RateLimits.Primary, fiveHour2) ||
		!spanIs(r.RateLimits.Secondary, weekly) || r.RateLimits.RateLimitReachedType != nil {
		t.Errorf("after the flip: %s", raw)
	}

	// An answer for another user: Codex withholds the permission.
	usage.Store(&CodexUsage{Allowed: true, Primary: fiveHour2, UserID: "someone-else"})
	raw, err = srv.call(ctx, 4, "account/rateLimits/read", nil)
	if err != nil {
		t.Fatalf("rateLimits/read: %v", err)
	}
	if r = readRateLimits(t, raw); r.OrdinaryUsageAllowed != nil || !spanIs(r.RateLimits.Primary, fiveHour2) {
		t.Errorf("another user's usage: %s; want ordinaryUsageAllowed null, the windows kept", raw)
	}

	if reads := checkUsageReads(t, fake.Exchanges()); reads != 3 {
		t.Errorf("%d usage reads, want 3", reads)
	}
	t.Logf("app-server test took %v", time.Since(start).Round(time.Millisecond))
}

// checkUsageReads checks what a release check asked the fake: usage reads
// with the login's credentials, no model call, nothing beyond loopback. It
// returns the number of usage reads.
func checkUsageReads(t *testing.T, exs []Exchange) int {
	t.Helper()
	reads := 0
	for _, ex := range exs {
		r := ex.Request
		t.Logf("request %s %s%s", r.Method, r.Host, r.Path)
		switch {
		case r.ModelCall:
			t.Errorf("model call #%d %s", r.Seq, r.Path)
		case r.Escape:
			t.Errorf("escape to %s", r.Host)
		case r.Path == codexUsagePath:
			reads++
			if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || r.Header.Get("Chatgpt-Account-Id") != CodexAccountID {
				t.Errorf("usage read with Authorization %q, ChatGPT-Account-Id %q", r.Header.Get("Authorization"), r.Header.Get("Chatgpt-Account-Id"))
			}
		}
	}
	return reads
}

// TestCodexAppServerRateLimitsNeedLogin: without a ChatGPT login (the
// custom provider alone) the read fails, naming the missing login.
func TestCodexAppServerRateLimitsNeedLogin(t *testing.T) {
	codex := CLIPath(t, CLICodex)
	fake, base := startFake(t)
	work := seatDir(t)
	env, _ := CodexEnv(t, base, work)
	ctx, cancel := context.WithTimeout(t.Context(), stepWait)
	defer cancel()
	srv := startAppServer(t, codex, env, work)
	srv.initialize(ctx)
	_, err := srv.call(ctx, 2, "account/rateLimits/read", nil)
	var rerr *rpcError
	if !errors.As(err, &rerr) || !strings.Contains(rerr.Message, "codex account authentication required") {
		t.Errorf("rateLimits/read without a login: %v", err)
	}
	for _, ex := range fake.Exchanges() {
		if r := ex.Request; r.ModelCall || r.Escape || r.Path == codexUsagePath {
			t.Errorf("unexpected request %s %s%s", r.Method, r.Host, r.Path)
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
