package codex

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room/textcut"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/pty"
)

// The server half of an app-server Codex seat (spec «Codex の席を app-server
// 経由で起動する（#299）», docs/design.md §9 "App-server mode",
// docs/clis.md §3.7): Pullcept starts `codex … app-server` for the seat,
// reads its port, opens (or resumes) the conversation over its WebSocket,
// and only then starts the TUI attached to it.
//
// The server runs in a PTY of its own, never shown: it then ends with the
// app however the app ends — on Unix the PTY's hang-up sends SIGHUP to its
// process group when Pullcept dies, even by SIGKILL (Codex 0.169.0 exits on
// SIGHUP, measured); on Windows the PTY layer's Job object is
// KILL_ON_JOB_CLOSE — and Proc.Kill ends its whole tree (the room's sidecar
// it started included).

// codexListening is the server's "listening on" line (on stderr in 0.169.0;
// the spec says stdout: the PTY carries both).
var codexListening = regexp.MustCompile(`listening on: ws://127\.0\.0\.1:(\d{1,5})\b`)

// codexServerStart bounds how long the server may take to listen.
const codexServerStart = 30 * time.Second

// codexServerLines is how many of the server's last output lines are kept
// for a failed start's message, each at most codexServerLineMax bytes.
const (
	codexServerLines   = 12
	codexServerLineMax = 400
)

// HoldAttach holds room typing while an app-server seat's TUI attaches to
// its conversation: the sidecar joins the room as soon as the server starts
// it, before the TUI has its composer, and a post typed then loses its
// "\r" (docs/clis.md §3.4). Released at the first note of the seat's thread
// after the TUI started (its resume of the conversation: Codex 0.169.0 sends
// thread/goal/cleared), or codexAttachFallback after the TUI's first
// output; either way only once the TUI reads its keys raw (it asked for
// bracketed paste).
const HoldAttach = "attaching"

// codexAttachFallback releases HoldAttach when no note came: this long
// after the TUI's first output, and then at the first look
// (codexAttachLook) that finds the TUI asking for bracketed paste. The
// first output alone is no proof: Codex prints a warning (a temporary
// CODEX_HOME) before it takes its terminal raw, and a post typed into the
// cooked terminal was echoed, its "\r" turned into a newline, and left in
// the composer (issue 28, a TUI starved for 7 s from that warning).
// codexAttachLimit ends the wait for raw mode: a TUI that never asks for
// bracketed paste still gets its posts, this long after its start. The
// attach note waits for raw mode too (attachWait).
const (
	codexAttachFallback = 5 * time.Second
	codexAttachLook     = 250 * time.Millisecond
	codexAttachLimit    = time.Minute
)

// codexOpened is the developer item recorded in a new conversation (spec
// #299: a conversation with no item is not written, and the TUI cannot
// attach to it); it calls no model and puts no words in the character's
// mouth.
const codexOpened = "Pullcept opened this conversation as a seat in a room. Room posts arrive as user input."

// codexServer is one seat's app-server: process, connection, conversation.
type codexServer struct {
	proc    pty.Proc
	conn    *codexConn
	token   string
	port    string
	thread  string
	path    string // the rollout the server named (thread.path)
	answer  Thread // what the server said the conversation runs with
	created bool   // this start opened the conversation

	exited  chan struct{} // closed when the process was reaped
	code    int
	signal  int           // the signal that ended it, 0 when it exited
	drained chan struct{} // closed when the output reader ended

	mu    sync.Mutex
	lines []string // the last output lines
	part  []byte   // an unfinished line

	// mark is the connection's last note before the TUI started;
	// attached closes at the first later note of the thread (HoldAttach).
	mark       int64
	attached   chan struct{}
	attachOnce sync.Once

	stopping atomic.Bool // stop began: an exit is no failure
	stopOnce sync.Once
}

// ended says how the process ended, once exited is closed: "exited (code
// N)", or "was killed by signal N (name)" — a kill's 128+N is no code the
// server chose (docs/design.md §9 "How a seat's end is told").
func (cs *codexServer) ended() string {
	if cs.signal > 0 {
		return fmt.Sprintf("was killed by signal %d (%v)", cs.signal, syscall.Signal(cs.signal))
	}
	return fmt.Sprintf("exited (code %d)", cs.code)
}

// newCodexToken is a fresh capability token: 256 random bits, hex.
func newCodexToken() (token, digest string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = hex.EncodeToString(b)
	sum := sha256.Sum256([]byte(token))
	return token, hex.EncodeToString(sum[:]), nil
}

// startCodexProcess starts the server line with the token's digest and
// waits for its port. Its two goroutines (the output reader, which reads
// the PTY to its end so the server never blocks on a full terminal, and
// the reaper waiter) are owned by the codexServer and end with the
// process; stop waits for both.
func startCodexProcess(ctx context.Context, spawn func(pty.Options) (pty.Proc, error), pullcept string, argv []string, dir string, env []string, logger *slog.Logger) (*codexServer, error) {
	token, digest, err := newCodexToken()
	if err != nil {
		return nil, fmt.Errorf("codex app-server: token: %w", err)
	}
	line := make([]string, len(argv))
	for i, w := range argv {
		line[i] = strings.ReplaceAll(w, DigestWord, digest)
	}
	proc, err := spawn(pty.Options{Argv: line, Guard: pullcept, Dir: dir, Env: env, Cols: 200, Rows: 50})
	if err != nil {
		return nil, fmt.Errorf("codex app-server: %w", err)
	}
	cs := &codexServer{proc: proc, token: token, exited: make(chan struct{}), drained: make(chan struct{}), attached: make(chan struct{})}
	port := make(chan string, 1)
	go func() {
		defer close(cs.exited)
		defer func() {
			if r := recover(); r != nil {
				logger.Error("codex app-server reaper panic", "panic", r)
			}
		}()
		cs.code, _ = proc.Wait()
		cs.signal = proc.Signaled()
	}()
	go func() {
		defer close(cs.drained)
		defer func() {
			if r := recover(); r != nil {
				logger.Error("codex app-server output reader panic", "panic", r)
			}
		}()
		cs.readOutput(port)
	}()
	select {
	case cs.port = <-port:
		return cs, nil
	case <-cs.exited:
		cs.stop()
		return nil, fmt.Errorf("codex app-server %s before it listened%s", cs.ended(), cs.tail())
	case <-ctx.Done():
		cs.stop()
		return nil, fmt.Errorf("codex app-server: %w", ctx.Err())
	case <-time.After(codexServerStart):
		cs.stop()
		return nil, fmt.Errorf("codex app-server did not listen within %s%s", codexServerStart, cs.tail())
	}
}

// readOutput reads the server's terminal to its end, keeping the last
// lines and sending the port once.
func (cs *codexServer) readOutput(port chan<- string) {
	buf := make([]byte, 32<<10)
	sent := false
	for {
		n, err := cs.proc.Read(buf)
		if n > 0 {
			for _, l := range cs.addOutput(buf[:n]) {
				if m := codexListening.FindStringSubmatch(l); m != nil && !sent {
					port <- m[1]
					sent = true
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// addOutput splits b into lines (plain text, escapes removed) and returns
// the finished ones.
func (cs *codexServer) addOutput(b []byte) []string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.part = append(cs.part, b...)
	var done []string
	for {
		i := bytes.IndexByte(cs.part, '\n')
		if i < 0 {
			break
		}
		done = append(done, cs.keep(cs.part[:i]))
		cs.part = cs.part[i+1:]
	}
	if len(cs.part) > codexServerLineMax*4 { // a line without end: keep its start
		done = append(done, cs.keep(cs.part))
		cs.part = nil
	}
	cs.part = bytes.Clone(cs.part)
	return done
}

// keep stores one line (caller holds cs.mu) and returns it.
func (cs *codexServer) keep(raw []byte) string {
	l := strings.TrimSpace(ansi.Strip(string(raw)))
	l = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, l)
	if len(l) > codexServerLineMax {
		l = textcut.Bytes(l, codexServerLineMax) + "…"
	}
	if l != "" {
		cs.lines = append(cs.lines, l)
		if len(cs.lines) > codexServerLines {
			cs.lines = cs.lines[len(cs.lines)-codexServerLines:]
		}
	}
	return l
}

// tail is the server's last lines for an error message ("" when none).
func (cs *codexServer) tail() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.lines) == 0 {
		return ""
	}
	return ": " + strings.Join(cs.lines, " | ")
}

// stop ends the connection and the server's process tree and waits until
// it is reaped and its output read. Idempotent.
func (cs *codexServer) stop() {
	cs.stopOnce.Do(func() {
		cs.stopping.Store(true)
		if cs.conn != nil {
			cs.conn.Close()
		}
		_ = cs.proc.Kill()
		<-cs.exited
		_ = cs.proc.Close()
		<-cs.drained
	})
}

// codexOpen is what opening the conversation needs.
type codexOpen struct {
	cwd      string
	resume   string // the conversation to resume ("" = a new one)
	plan     *ServerPlan
	key      string // the seat's room server key (RoomPrompt)
	acct     config.Account
	readBody func() (string, error) // a style file's character body ("" = none)
}

// sendsCharacter: the conversation gets a character from Pullcept (a
// style file's body or an inline selection), so Li+'s hook must not
// deliver one too (stylehook.go).
func (o codexOpen) sendsCharacter() bool {
	return o.plan.Character.Name != ""
}

// open connects, initializes and opens the conversation: thread/start with
// the settings and developer instructions and one recorded developer item,
// or thread/resume of o.resume with the same. The server's answer must
// say the settings asked for; a seat that sends its character must have
// Li+'s output-style hook off in the conversation (stylehook.go).
func (cs *codexServer) open(ctx context.Context, o codexOpen) error {
	conn, err := dialCodex(ctx, "ws://127.0.0.1:"+cs.port, cs.token)
	if err != nil {
		return err
	}
	cs.conn = conn
	if err := conn.call(ctx, "initialize", codexInitialize(), nil); err != nil {
		return err
	}
	if err := conn.notify("initialized"); err != nil {
		return fmt.Errorf("codex app-server: initialized: %w", err)
	}
	instructions, err := cs.instructions(ctx, o)
	if err != nil {
		return err
	}
	params := map[string]any{"cwd": o.cwd, "developerInstructions": instructions}
	t := o.plan.Thread
	for k, v := range map[string]string{"model": t.Model, "approvalPolicy": t.Approval, "sandbox": t.Sandbox} {
		if v != "" {
			params[k] = v
		}
	}
	cfg, off, err := cs.styleHooksOff(ctx, o)
	if err != nil {
		return err
	}
	if len(cfg) > 0 {
		params["config"] = cfg
	}
	if err := cs.openThread(ctx, o, params); err != nil {
		return err
	}
	if err := checkCodexAnswer(t, cs.answer); err != nil {
		return err
	}
	if o.sendsCharacter() {
		// Before any item or turn: SessionStart hooks run at the first turn.
		var hooks codexHooksList
		if err := conn.call(ctx, "hooks/list", map[string]any{"threadId": cs.thread}, &hooks); err != nil {
			return fmt.Errorf("%w: list the conversation's hooks: %w", ErrStyleHook, err)
		}
		if err := checkStyleHooksOff(hooks, off); err != nil {
			return err
		}
	}
	if o.resume == "" {
		item := map[string]any{"type": "message", "role": "developer",
			"content": []any{map[string]any{"type": "input_text", "text": codexOpened}}}
		if err := conn.call(ctx, "thread/inject_items", map[string]any{"threadId": cs.thread, "items": []any{item}}, nil); err != nil {
			return err
		}
	}
	return nil
}

// codexInitialize is the client's initialize request.
func codexInitialize() map[string]any {
	return map[string]any{
		"clientInfo": map[string]any{"name": "pullcept", "title": "Pullcept", "version": "1"},
		"capabilities": map[string]any{
			"experimentalApi": true,
			// Text deltas are one note per token: not read, not sent.
			"optOutNotificationMethods": []string{
				"item/agentMessage/delta", "item/plan/delta", "item/reasoning/summaryTextDelta",
				"item/reasoning/summaryPartAdded", "item/reasoning/textDelta",
				"item/commandExecution/outputDelta", "item/fileChange/outputDelta", "command/exec/outputDelta",
				"process/outputDelta", "turn/diff/updated",
			},
		},
	}
}

// styleHooksOff is the conversation's config overrides: the plan's, and
// for a seat that sends its character Li+'s output-style hooks the
// server lists for the seat's directory turned off (off: their keys).
func (cs *codexServer) styleHooksOff(ctx context.Context, o codexOpen) (cfg map[string]any, off []string, err error) {
	if !o.sendsCharacter() {
		return o.plan.Config, nil, nil
	}
	var hooks codexHooksList
	if err := cs.conn.call(ctx, "hooks/list", map[string]any{"cwds": []string{o.cwd}}, &hooks); err != nil {
		return nil, nil, fmt.Errorf("%w: list the hooks: %w", ErrStyleHook, err)
	}
	off = hooks.styleHookKeys()
	return withStyleHooksOff(o.plan.Config, off), off, nil
}

// openThread sends thread/start (or thread/resume of o.resume) with params
// and keeps what the answer says.
func (cs *codexServer) openThread(ctx context.Context, o codexOpen, params map[string]any) error {
	var answer codexThreadAnswer
	if o.resume != "" {
		params["threadId"] = o.resume
		params["excludeTurns"] = true
		if err := cs.conn.call(ctx, "thread/resume", params, &answer); err != nil {
			return err
		}
	} else {
		if err := cs.conn.call(ctx, "thread/start", params, &answer); err != nil {
			return err
		}
		cs.created = answer.Thread.ID != ""
	}
	cs.thread, cs.path = answer.Thread.ID, answer.Thread.Path
	cs.answer = answer.settings()
	if cs.thread == "" || !launch.LineSafeWord(cs.thread) {
		return fmt.Errorf("codex app-server answered conversation id %q, not a plain id", cs.thread)
	}
	if o.resume != "" && cs.thread != o.resume {
		return fmt.Errorf("codex app-server resumed %s, not %s", cs.thread, o.resume)
	}
	return nil
}

// instructions composes the conversation's developer instructions (spec
// #303): the user's own (the server's effective developer_instructions
// for the seat's directory: thread instructions replace them), then the
// character's body, then the room sentence Claude seats get (RoomPrompt),
// separated by blank lines. An inline character (#276) is the user's own
// instructions with the other characters' blocks removed
// (character.SelectInline): they already hold the common text, and no
// body is added.
func (cs *codexServer) instructions(ctx context.Context, o codexOpen) (string, error) {
	var cfg struct {
		Config struct {
			DeveloperInstructions *string `json:"developer_instructions"`
		} `json:"config"`
	}
	if err := cs.conn.call(ctx, "config/read", map[string]any{"cwd": o.cwd}, &cfg); err != nil {
		return "", fmt.Errorf("read the user's developer instructions: %w", err)
	}
	user := ""
	if d := cfg.Config.DeveloperInstructions; d != nil {
		user = *d
	}
	if c := o.plan.Character; c.Inline && c.Name != "" {
		sel, err := character.SelectInline(user, c.Name)
		if err != nil {
			return "", fmt.Errorf("character %q (inline: no .codex/output-styles or [liplus] output_style in the project): %w", c.Name, err)
		}
		user = sel
	}
	var parts []string
	if strings.TrimSpace(user) != "" {
		parts = append(parts, user)
	}
	if o.readBody != nil {
		body, err := o.readBody()
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(body) != "" {
			parts = append(parts, body)
		}
	}
	parts = append(parts, launch.RoomPrompt(o.key))
	return strings.Join(parts, "\n\n"), nil
}

// codexThreadAnswer is the part of thread/start's and thread/resume's
// answer read here.
type codexThreadAnswer struct {
	Model           string  `json:"model"`
	ApprovalPolicy  any     `json:"approvalPolicy"`
	ReasoningEffort *string `json:"reasoningEffort"`
	Sandbox         struct {
		Type string `json:"type"`
	} `json:"sandbox"`
	Thread struct {
		ID   string `json:"id"`
		Path string `json:"path"`
	} `json:"thread"`
}

// codexSandboxAnswer maps the sandbox policy the server answers to the mode
// asked for.
var codexSandboxAnswer = map[string]string{
	"readOnly": "read-only", "workspaceWrite": "workspace-write", "dangerFullAccess": "danger-full-access",
}

func (a codexThreadAnswer) settings() Thread {
	t := Thread{Model: a.Model, Sandbox: codexSandboxAnswer[a.Sandbox.Type]}
	if t.Sandbox == "" {
		t.Sandbox = a.Sandbox.Type
	}
	if s, ok := a.ApprovalPolicy.(string); ok {
		t.Approval = s
	} else if a.ApprovalPolicy != nil {
		t.Approval = "granular"
	}
	if a.ReasoningEffort != nil {
		t.Effort = *a.ReasoningEffort
	}
	return t
}

// checkCodexAnswer compares what was asked (non-empty fields) with the
// answer.
func checkCodexAnswer(asked, got Thread) error {
	var bad []string
	for _, f := range []struct{ name, asked, got string }{
		{"model", asked.Model, got.Model}, {"approval", asked.Approval, got.Approval},
		{"sandbox", asked.Sandbox, got.Sandbox}, {"effort", asked.Effort, got.Effort},
	} {
		if f.asked != "" && f.asked != f.got {
			bad = append(bad, fmt.Sprintf("%s %q, answered %q", f.name, f.asked, f.got))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: %s", ErrMismatch, strings.Join(bad, "; "))
	}
	return nil
}

// deleteThread deletes the conversation this start created (a failed
// start leaves none behind).
func (cs *codexServer) deleteThread() error {
	if !cs.created || cs.conn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return cs.conn.call(ctx, "thread/delete", map[string]any{"threadId": cs.thread}, nil)
}
