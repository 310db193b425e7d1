//go:build linux || darwin

package fakeapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// These tests show what the real Claude Code 2.1.328 writes into its
// transcript when the API refuses a model call with the plan's usage limit
// (ClaudeRateLimit; docs/clis.md §2.17): in the interactive TUI, in
// --print mode, and for a subagent.

// The posts of the rate-limit runs: the first is refused, the second
// answered.
const (
	limitedTag   = `[pullcept] {"role":"admin","from":"Alice","message_id":"m-1","at":"2026-11-29T10:00+09:00"}`
	recoveredTag = `[pullcept] {"role":"admin","from":"Alice","message_id":"m-2","at":"2026-11-29T10:05+09:00"}`
	textRecover  = "back after the limit"
)

// recordLimitEnv names a file the TUI test writes the transcript's lines
// to, from the refusal to the end of the recovered turn, with the temporary
// paths replaced: how seats/cli/claude/testdata/claude-2.1.328-rate-limit.jsonl was
// recorded.
const recordLimitEnv = "PULLCEPT_RECORD_CLAUDE_LIMIT"

// The Stop and StopFailure hooks of the TUI test, on the fake.
const (
	stopHook        = "/hooks/activity/Stop"
	stopFailureHook = "/hooks/activity/StopFailure"
)

// claudeLimitRun is a real Claude Code against a fake whose answers come
// from respond, with GatewayToken as its credential: only then does it read
// the plan's headers, and so a refusal's.
type claudeLimitRun struct {
	claude, seat, session, transcript string
	env                               []string
	setup                             ClaudeSetup
	fake                              *Server
	base                              string
}

func newClaudeLimitRun(t *testing.T, respond func(*Request) Reply) *claudeLimitRun {
	t.Helper()
	r := &claudeLimitRun{claude: CLIPath(t, CLIClaude), session: uuid.NewString()}
	fake, err := New(Options{Respond: respond, Logf: t.Logf})
	if err != nil {
		t.Fatalf("new fake: %v", err)
	}
	if r.base, err = fake.Start(); err != nil {
		t.Fatalf("start fake: %v", err)
	}
	r.fake = fake
	t.Cleanup(func() {
		if err := fake.Close(); err != nil {
			t.Errorf("close fake: %v", err)
		}
	})
	root := t.TempDir()
	r.seat = filepath.Join(root, "seat")
	if err := os.Mkdir(r.seat, 0o755); err != nil {
		t.Fatal(err)
	}
	// Claude records its physical cwd (docs/clis.md §2.11).
	if r.seat, err = filepath.EvalSymlinks(r.seat); err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	r.setup = ClaudeSetup{Home: filepath.Join(scratch, "home"), ConfigDir: filepath.Join(scratch, "claude-config"),
		TrustedDirs: []string{root}, BaseURL: r.base, AuthToken: GatewayToken(), Bypass: true}
	if r.env, err = PrepareClaude(r.setup); err != nil {
		t.Fatalf("prepare claude: %v", err)
	}
	slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(r.seat, "-")
	r.transcript = filepath.Join(r.setup.ConfigDir, "projects", slug, r.session+".jsonl")
	return r
}

// refuseFirstPost answers every model call whose newest post is m-1 with a
// ClaudeRateLimit, and anything else with textRecover.
func refuseFirstPost(reply Reply) func(*Request) Reply {
	return func(r *Request) Reply {
		if p, ok := r.LatestPost(); ok && p.Tag.MessageID == "m-1" {
			return reply
		}
		return TextReply(textRecover)
	}
}

// transcriptLine is the part of a Claude transcript entry these tests read.
type transcriptLine struct {
	Type              string `json:"type"`
	Subtype           string `json:"subtype"`
	IsSidechain       bool   `json:"isSidechain"`
	AgentID           string `json:"agentId"`
	IsAPIErrorMessage bool   `json:"isApiErrorMessage"`
	Error             string `json:"error"`
	APIError          string `json:"apiError"`
	APIErrorStatus    int    `json:"apiErrorStatus"`
	RequestID         string `json:"requestId"`
	Entrypoint        string `json:"entrypoint"`
	QuotaLimits       *struct {
		Status        string          `json:"status"`
		ResetsAt      json.RawMessage `json:"resetsAt"`
		RateLimitType string          `json:"rateLimitType"`
	} `json:"quotaLimits"`
	Origin *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
	Message struct {
		Model       string          `json:"model"`
		Content     json.RawMessage `json:"content"`
		QuotaLimits json.RawMessage `json:"quotaLimits"`
	} `json:"message"`
	raw []byte
}

// readTranscript returns a transcript's lines; a missing file has none,
// and a line still being written is skipped.
func readTranscript(t *testing.T, path string) []transcriptLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []transcriptLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var l transcriptLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		l.raw = append([]byte(nil), sc.Bytes()...)
		out = append(out, l)
	}
	return out
}

// index returns the index of the first line from i on for which ok
// holds, or -1.
func index(lines []transcriptLine, from int, ok func(transcriptLine) bool) int {
	for i := from; i < len(lines); i++ {
		if ok(lines[i]) {
			return i
		}
	}
	return -1
}

func isRefusal(l transcriptLine) bool {
	return l.Type == "assistant" && l.IsAPIErrorMessage && l.Error == "rate_limit"
}

func isRecovery(l transcriptLine) bool {
	return l.Type == "assistant" && !l.IsAPIErrorMessage && strings.Contains(string(l.Message.Content), textRecover)
}

// checkRefusal asserts the refusal entry's fields (docs/clis.md §2.17).
func checkRefusal(t *testing.T, l transcriptLine, reply Exchange, sidechain bool) {
	t.Helper()
	want := reply.Reply.Header.Get("anthropic-ratelimit-unified-reset")
	if l.IsSidechain != sidechain || l.APIError != "usage_limit_reached" || l.APIErrorStatus != 429 ||
		l.Message.Model != "<synthetic>" || l.RequestID != fakeRequestID(reply.Request) {
		t.Errorf("refusal entry = %s\nwant isSidechain %v, apiError usage_limit_reached, apiErrorStatus 429, model <synthetic>, requestId %q",
			l.raw, sidechain, fakeRequestID(reply.Request))
	}
	if q := l.QuotaLimits; q == nil || q.Status != "rejected" || string(q.ResetsAt) != want || q.RateLimitType != ClaudeFiveHour {
		t.Errorf("refusal quotaLimits = %+v in %s; want status rejected, resetsAt %s (Unix seconds), rateLimitType five_hour",
			q, l.raw, want)
	}
	if len(l.Message.QuotaLimits) != 0 {
		t.Errorf("refusal has quotaLimits in message too: %s", l.raw)
	}
	if !strings.Contains(string(l.Message.Content), "You've hit your 5-hour limit") {
		t.Errorf("refusal text = %s, want Claude's \"You've hit your 5-hour limit · resets …\"", l.Message.Content)
	}
}

// fakeRequestID is the request-id the fake answered r with.
func fakeRequestID(r *Request) string { return fmt.Sprintf("req_fake_%d", r.Seq) }

// limitResetsAt is a refusal's reset time: a whole hour, in the future.
func limitResetsAt() time.Time { return time.Now().Add(3 * time.Hour).Truncate(time.Hour) }

// refusals returns the exchanges the fake answered with a 429.
func refusals(exs []Exchange) []Exchange {
	var out []Exchange
	for _, ex := range exs {
		if ex.Request.ModelCall && ex.Reply.Status == 429 {
			out = append(out, ex)
		}
	}
	return out
}

// TestClaudeRateLimitTranscript drives the real Claude Code 2.1.328 in a
// PTY, as a seat runs it: its first post is refused with ClaudeRateLimit,
// the second is answered. The refusal is one request (no retry), one
// parent entry with isApiErrorMessage, error "rate_limit" and quotaLimits
// at the root, and a StopFailure hook instead of Stop; the next post goes
// out with the refused one and its answer is a normal parent entry with a
// requestId and the real model.
func TestClaudeRateLimitTranscript(t *testing.T) {
	run := newClaudeLimitRun(t, refuseFirstPost(ClaudeRateLimit(limitResetsAt())))
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{
		"Stop":        []any{map[string]any{"hooks": []any{map[string]any{"type": "http", "url": run.base + stopHook, "timeout": 5}}}},
		"StopFailure": []any{map[string]any{"hooks": []any{map[string]any{"type": "http", "url": run.base + stopFailureHook, "timeout": 5}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{run.claude, "--session-id", run.session, "--dangerously-skip-permissions", "--settings", string(settings)}
	ctx, cancel := context.WithTimeout(t.Context(), 4*stepWait)
	defer cancel()
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, stepWait) }
	hooked := func(path string) func([]Exchange) bool {
		return func(exs []Exchange) bool {
			for _, ex := range exs {
				if ex.Request.Path == path {
					return true
				}
			}
			return false
		}
	}

	cli := startTTY(t, "claude", argv, run.env, run.seat)
	sctx, scancel := step()
	cli.waitScreen(sctx, "bypass permissions on")
	cli.waitQuiet(sctx, typingGap)
	cli.typePost(sctx, limitedTag, "first")
	if _, err := run.fake.Wait(sctx, hooked(stopFailureHook)); err != nil {
		t.Fatalf("waiting for the StopFailure hook after the refusal: %v\n%s", err, cli.screen())
	}
	// The pane says so, and no dialog stops the next post.
	cli.waitIdle(sctx, "You've hit your 5-hour limit")
	scancel()
	testkit.EventuallyWithin(t, stepWait, "the refusal in the transcript", func() bool {
		return index(readTranscript(t, run.transcript), 0, isRefusal) >= 0
	})

	sctx, scancel = step()
	cli.waitQuiet(sctx, typingGap)
	cli.typePost(sctx, recoveredTag, "second")
	if _, err := run.fake.Wait(sctx, hooked(stopHook)); err != nil {
		t.Fatalf("waiting for the Stop hook after the recovery: %v\n%s", err, cli.screen())
	}
	cli.waitIdle(sctx, textRecover)
	if err := cli.quit(sctx, "Press Ctrl-C again to exit"); err != nil {
		t.Errorf("claude exit: %v", err)
	}
	scancel()

	exs := run.fake.Exchanges()
	refused := refusals(exs)
	if len(refused) != 1 {
		t.Fatalf("refused model calls = %d, want 1 (Claude does not retry a plan refusal)", len(refused))
	}
	var answered *Request
	for _, ex := range exs {
		if ex.Request.ModelCall && ex.Reply.Status == 0 {
			answered = ex.Request
		}
	}
	// The refused post is still the conversation's: it goes out again, in
	// one user message with the next.
	if answered == nil || len(answered.NewPosts()) != 2 {
		t.Errorf("the answered request's new posts = %+v, want m-1 and m-2", answered)
	}
	lines := readTranscript(t, run.transcript)
	ref := index(lines, 0, isRefusal)
	rec := index(lines, ref+1, isRecovery)
	if ref < 0 || rec < 0 {
		t.Fatalf("transcript has refusal at %d, recovery at %d; want both", ref, rec)
	}
	checkRefusal(t, lines[ref], refused[0], false)
	if n := index(lines, ref+1, isRefusal); n >= 0 {
		t.Errorf("a second refusal entry: %s", lines[n].raw)
	}
	if l := lines[rec]; l.IsSidechain || l.RequestID == "" || l.RequestID != fakeRequestID(answered) ||
		l.Message.Model != answered.Model || l.QuotaLimits != nil {
		t.Errorf("recovery entry = %s\nwant a parent entry, requestId %q, model %q, no quotaLimits",
			l.raw, fakeRequestID(answered), answered.Model)
	}
	// Between them: bookkeeping lines and the next user entry, no system
	// entry and no other assistant entry.
	for _, l := range lines[ref+1 : rec] {
		if l.Type == "assistant" || l.Type == "system" {
			t.Errorf("between refusal and recovery: %s", l.raw)
		}
	}
	end := index(lines, rec+1, func(l transcriptLine) bool { return l.Type == "system" && l.Subtype == "turn_duration" })
	if end < 0 {
		t.Fatalf("no turn_duration entry after the recovery")
	}
	if path := os.Getenv(recordLimitEnv); path != "" {
		recordLimitLines(t, path, lines[ref:end+1], run)
	}
}

// recordLimitLines writes lines to path, one a line, with the run's
// temporary directories replaced by /home/u/work.
func recordLimitLines(t *testing.T, path string, lines []transcriptLine, run *claudeLimitRun) {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l.raw)
		b.WriteByte('\n')
	}
	out := b.String()
	for _, dir := range []string{filepath.Dir(run.seat), filepath.Dir(run.setup.ConfigDir)} {
		slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(dir, "-")
		out = strings.ReplaceAll(out, dir, "/home/u/work")
		out = strings.ReplaceAll(out, slug, "-home-u-work")
	}
	if strings.Contains(out, os.TempDir()+"/Test") {
		t.Errorf("recorded lines still hold a temporary path")
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d lines to %s", len(lines), path)
}

// TestClaudeRateLimitPrint: claude --print writes the same refusal entry
// (entrypoint sdk-cli), prints its text and exits 1.
func TestClaudeRateLimitPrint(t *testing.T) {
	run := newClaudeLimitRun(t, refuseFirstPost(ClaudeRateLimit(limitResetsAt())))
	ctx, cancel := context.WithTimeout(t.Context(), stepWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, run.claude, "--print", "--session-id", run.session, "--dangerously-skip-permissions",
		limitedTag+"\nfirst")
	cmd.Env, cmd.Dir = run.env, run.seat
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("claude --print: %v, want exit status 1", err)
	}
	if !strings.HasPrefix(string(out), "You've hit your 5-hour limit") {
		t.Errorf("claude --print printed %q", out)
	}
	refused := refusals(run.fake.Exchanges())
	if len(refused) != 1 {
		t.Fatalf("refused model calls = %d, want 1", len(refused))
	}
	lines := readTranscript(t, run.transcript)
	ref := index(lines, 0, isRefusal)
	if ref < 0 {
		t.Fatalf("no refusal entry in %s", run.transcript)
	}
	checkRefusal(t, lines[ref], refused[0], false)
	if lines[ref].Entrypoint != "sdk-cli" {
		t.Errorf("--print refusal entrypoint = %q, want sdk-cli", lines[ref].Entrypoint)
	}
}

// TestClaudeRateLimitSubagent: when a subagent's model call is refused,
// the refusal entry is written to the subagent's own transcript,
// <session>/subagents/agent-<id>.jsonl, with isSidechain true and its
// agentId; the parent transcript gets no refusal entry, only a
// task-notification user entry saying the agent failed, and the parent
// carries on. (--print: the Agent tool runs the same way in the TUI; it is
// asynchronous in both.)
func TestClaudeRateLimitSubagent(t *testing.T) {
	const subPrompt = "SUBTASK: count to three"
	reply := ClaudeRateLimit(limitResetsAt())
	run := newClaudeLimitRun(t, func(r *Request) Reply {
		for _, m := range r.Messages {
			for _, text := range m.Texts {
				if strings.Contains(text, subPrompt) {
					return reply // the subagent's conversation
				}
			}
		}
		if strings.Contains(strings.Join(r.NewUserTexts(), "\n"), "delegate please") && len(r.NewResults()) == 0 {
			return CallTool(Tool{Name: "Agent"}, map[string]any{
				"description": "count", "prompt": subPrompt, "subagent_type": "general-purpose"})
		}
		return TextReply("the helper stopped")
	})
	ctx, cancel := context.WithTimeout(t.Context(), stepWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, run.claude, "--print", "--session-id", run.session, "--dangerously-skip-permissions",
		"delegate please")
	cmd.Env, cmd.Dir = run.env, run.seat
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("claude --print: %v\n%s", err, out)
	}
	refused := refusals(run.fake.Exchanges())
	if len(refused) != 1 {
		t.Fatalf("refused model calls = %d, want 1", len(refused))
	}
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(run.transcript, ".jsonl"), "subagents", "agent-*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("subagent transcripts = %v, want one", subs)
	}
	agent := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(subs[0]), "agent-"), ".jsonl")
	sub := readTranscript(t, subs[0])
	ref := index(sub, 0, isRefusal)
	if ref < 0 {
		t.Fatalf("no refusal entry in %s", subs[0])
	}
	checkRefusal(t, sub[ref], refused[0], true)
	if sub[ref].AgentID != agent {
		t.Errorf("subagent refusal agentId = %q, want %q (its file name)", sub[ref].AgentID, agent)
	}
	parent := readTranscript(t, run.transcript)
	if n := index(parent, 0, func(l transcriptLine) bool { return l.IsAPIErrorMessage || l.IsSidechain }); n >= 0 {
		t.Errorf("parent transcript has %s", parent[n].raw)
	}
	notice := index(parent, 0, func(l transcriptLine) bool {
		return l.Type == "user" && l.Origin != nil && l.Origin.Kind == "task-notification" &&
			strings.Contains(string(l.Message.Content), "<status>failed</status>")
	})
	if notice < 0 {
		t.Errorf("parent transcript has no failed task-notification")
	}
}

// TestClaudeRateLimitNotThePlan: the same 429 read without the plan's
// headers (an API-style credential) or without the claim header still
// gives an isApiErrorMessage entry with error "rate_limit", but no
// quotaLimits and Claude's text for a plain 429; only quotaLimits marks the
// plan's limit.
func TestClaudeRateLimitNotThePlan(t *testing.T) {
	for _, c := range []struct {
		name, text string
		gateway    bool
		transient  string
	}{
		{"api credential", "API Error: Request rejected (429)", false, "false"},
		{"no claim", "API Error: Server is temporarily limiting requests (not your usage limit)", true, "true"},
	} {
		t.Run(c.name, func(t *testing.T) {
			reply := ClaudeRateLimit(limitResetsAt())
			if c.gateway {
				reply.Header.Del("anthropic-ratelimit-unified-representative-claim")
			}
			run := newClaudeLimitRun(t, refuseFirstPost(reply))
			if !c.gateway {
				for i, e := range run.env {
					if strings.HasPrefix(e, "ANTHROPIC_AUTH_TOKEN=") {
						run.env[i] = "ANTHROPIC_AUTH_TOKEN=" + DefaultAuthToken
					}
				}
			}
			ctx, cancel := context.WithTimeout(t.Context(), stepWait)
			defer cancel()
			cmd := exec.CommandContext(ctx, run.claude, "--print", "--session-id", run.session,
				"--dangerously-skip-permissions", limitedTag+"\nfirst")
			cmd.Env, cmd.Dir = run.env, run.seat
			out, _ := cmd.Output()
			if !strings.HasPrefix(string(out), c.text) {
				t.Errorf("claude --print printed %q, want %q…", out, c.text)
			}
			if n := len(refusals(run.fake.Exchanges())); n != 1 {
				t.Errorf("refused model calls = %d, want 1", n)
			}
			lines := readTranscript(t, run.transcript)
			ref := index(lines, 0, isRefusal)
			if ref < 0 {
				t.Fatalf("no rate_limit entry in %s", run.transcript)
			}
			l := lines[ref]
			if l.QuotaLimits != nil || l.APIError != "" || !strings.Contains(string(l.raw), `"apiErrorIsTransient":`+c.transient) {
				t.Errorf("entry = %s\nwant no quotaLimits, no apiError, apiErrorIsTransient %s", l.raw, c.transient)
			}
		})
	}
}
