package codex

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/pullcept/pullcept/seats/pty"
)

// TestNewCodexToken: 256 random bits in hex, with the sha256 hex of that
// text as the digest; every token differs.
func TestNewCodexToken(t *testing.T) {
	t.Parallel()
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	seen := map[string]bool{}
	for range 20 {
		token, digest, err := newCodexToken()
		if err != nil {
			t.Fatal(err)
		}
		if !hex64.MatchString(token) || !hex64.MatchString(digest) {
			t.Fatalf("token %q digest %q: want 64 lowercase hex digits each", token, digest)
		}
		sum := sha256.Sum256([]byte(token))
		if digest != hex.EncodeToString(sum[:]) {
			t.Fatalf("digest %q is not sha256(%q)", digest, token)
		}
		if token == digest || seen[token] {
			t.Fatalf("token %q repeated", token)
		}
		seen[token] = true
	}
}

// TestCodexListening: the port of the server's "listening on" line, and
// nothing from lines that are not it.
func TestCodexListening(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, port string }{
		{"  listening on: ws://127.0.0.1:38367", "38367"},
		{"listening on: ws://127.0.0.1:1", "1"},
		{"codex app-server (WebSockets)\n  listening on: ws://127.0.0.1:65535\n", "65535"},
		{"INFO listening on: ws://127.0.0.1:4100/ (loopback)", "4100"},
		{"  listening on: ws://127.0.0.1:383670", ""},
		{"  listening on: ws://127.0.0.1:", ""},
		{"  listening on: ws://0.0.0.0:38367", ""},
		{"  listening on: ws://127.0.0.10:38367", ""},
		{"  listening on: ws://127x0.0.1:38367", ""},
		{"  listening on: wss://127.0.0.1:38367", ""},
		{"  readyz: http://127.0.0.1:38367/readyz", ""},
		{"", ""},
	} {
		port := ""
		if m := codexListening.FindStringSubmatch(tc.line); m != nil {
			port = m[1]
		}
		if port != tc.port {
			t.Errorf("%q: port %q, want %q", tc.line, port, tc.port)
		}
	}
}

// TestCodexServerOutputLines: output splits into plain lines across reads,
// escapes and control characters removed, blank lines not kept, the last
// codexServerLines kept for tail.
func TestCodexServerOutputLines(t *testing.T) {
	t.Parallel()
	cs := &codexServer{}
	if got := cs.tail(); got != "" {
		t.Fatalf("tail with no output: %q", got)
	}
	var done []string
	for _, chunk := range []string{
		"codex app-server (WebSockets)\r\n  listen",
		"ing on: \x1b[1mws://127.0.0.1:",
		"38367\x1b[0m\r\n",
		"\r\n   \r\n\x1b[2K\r\n",
		"bell\x07 and\x00 nul\r\n",
		"c1 \u0085x\u009b1mz\r\n",
		"tab\there\n",
		"unfinished",
	} {
		done = append(done, cs.addOutput([]byte(chunk))...)
	}
	want := []string{"codex app-server (WebSockets)", "listening on: ws://127.0.0.1:38367", "", "", "", "bell and nul", "c1 x1mz", "tabhere"}
	if !slices.Equal(done, want) {
		t.Fatalf("lines\n%q\nwant\n%q", done, want)
	}
	var ports []string
	for _, l := range done {
		if m := codexListening.FindStringSubmatch(l); m != nil {
			ports = append(ports, m[1])
		}
	}
	if !slices.Equal(ports, []string{"38367"}) {
		t.Errorf("ports %q", ports)
	}
	if got, want := cs.tail(), ": codex app-server (WebSockets) | listening on: ws://127.0.0.1:38367 | bell and nul | c1 x1mz | tabhere"; got != want {
		t.Errorf("tail %q\nwant %q", got, want)
	}
	if string(cs.part) != "unfinished" {
		t.Errorf("unfinished line %q", cs.part)
	}
	// Its end comes later.
	if got := cs.addOutput([]byte(" now\n")); !slices.Equal(got, []string{"unfinished now"}) {
		t.Errorf("finished line %q", got)
	}

	// Only the last codexServerLines are kept.
	cs = &codexServer{}
	var b strings.Builder
	for i := range codexServerLines + 5 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	cs.addOutput([]byte(b.String()))
	if len(cs.lines) != codexServerLines || cs.lines[0] != "line 5" || cs.lines[codexServerLines-1] != fmt.Sprintf("line %d", codexServerLines+4) {
		t.Errorf("kept lines %q", cs.lines)
	}
}

// TestCodexServerLongLines: a long line is cut to codexServerLineMax with
// an ellipsis; a line without end is kept by its start once it outgrows
// the buffer.
func TestCodexServerLongLines(t *testing.T) {
	t.Parallel()
	cs := &codexServer{}
	long := strings.Repeat("a", codexServerLineMax+50)
	got := cs.addOutput([]byte(long + "\n"))
	if len(got) != 1 || got[0] != strings.Repeat("a", codexServerLineMax)+"…" {
		t.Fatalf("long line %q", got)
	}
	cs = &codexServer{}
	endless := strings.Repeat("b", codexServerLineMax*4)
	if got := cs.addOutput([]byte(endless)); len(got) != 0 {
		t.Fatalf("a line at the buffer's size was cut: %q", got)
	}
	got = cs.addOutput([]byte("bb"))
	if len(got) != 1 || got[0] != strings.Repeat("b", codexServerLineMax)+"…" || len(cs.part) != 0 {
		t.Fatalf("endless line %q, part %d bytes", got, len(cs.part))
	}
	// What follows is read as the next line.
	if got := cs.addOutput([]byte("tail of it\n")); !slices.Equal(got, []string{"tail of it"}) {
		t.Errorf("after the cut: %q", got)
	}
}

// TestCodexThreadAnswerSettings: the settings read from thread/start's and
// thread/resume's answers as Codex 0.169.0 writes them.
func TestCodexThreadAnswerSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		answer string
		want   Thread
	}{
		{`{"model":"gpt-5.5","modelProvider":"openai","cwd":"/w","approvalPolicy":"on-request","approvalsReviewer":"user",
			"sandbox":{"type":"readOnly","networkAccess":false},"reasoningEffort":"high","thread":{"id":"T","path":"/r.jsonl"}}`,
			Thread{Model: "gpt-5.5", Approval: "on-request", Sandbox: "read-only", Effort: "high"}},
		{`{"model":"o3","approvalPolicy":"never","sandbox":{"type":"workspaceWrite","writableRoots":[],"networkAccess":false},"reasoningEffort":null,"thread":{"id":"T"}}`,
			Thread{Model: "o3", Approval: "never", Sandbox: "workspace-write"}},
		{`{"model":"m","approvalPolicy":"untrusted","sandbox":{"type":"dangerFullAccess"},"thread":{"id":"T"}}`,
			Thread{Model: "m", Approval: "untrusted", Sandbox: "danger-full-access"}},
		{`{"model":"m","approvalPolicy":{"granular":{"mcp_elicitations":true,"rules":true,"sandbox_approval":false}},"sandbox":{"type":"externalSandbox","networkAccess":"restricted"},"thread":{"id":"T"}}`,
			Thread{Model: "m", Approval: "granular", Sandbox: "externalSandbox"}},
		{`{"thread":{"id":"T"}}`, Thread{}},
	} {
		var a codexThreadAnswer
		if err := json.Unmarshal([]byte(tc.answer), &a); err != nil {
			t.Fatalf("%s: %v", tc.answer, err)
		}
		if got := a.settings(); got != tc.want {
			t.Errorf("%s:\n%+v, want %+v", tc.answer, got, tc.want)
		}
		if a.Thread.ID != "T" {
			t.Errorf("%s: thread id %q", tc.answer, a.Thread.ID)
		}
	}
}

// TestCheckCodexAnswer: every setting asked must be answered the same;
// the ones not asked are the server's choice.
func TestCheckCodexAnswer(t *testing.T) {
	t.Parallel()
	got := Thread{Model: "gpt-5.5", Approval: "on-request", Sandbox: "read-only", Effort: "high"}
	for _, asked := range []Thread{
		{}, got, {Model: "gpt-5.5"}, {Approval: "on-request", Sandbox: "read-only"}, {Effort: "high"},
	} {
		if err := checkCodexAnswer(asked, got); err != nil {
			t.Errorf("asked %+v: %v", asked, err)
		}
	}
	for _, tc := range []struct {
		asked Thread
		says  []string
	}{
		{Thread{Model: "o3"}, []string{`model "o3", answered "gpt-5.5"`}},
		{Thread{Approval: "never"}, []string{`approval "never", answered "on-request"`}},
		{Thread{Sandbox: "danger-full-access"}, []string{`sandbox "danger-full-access", answered "read-only"`}},
		{Thread{Effort: "low"}, []string{`effort "low", answered "high"`}},
		{Thread{Model: "o3", Effort: "low", Approval: "on-request"}, []string{`model "o3", answered "gpt-5.5"; effort "low", answered "high"`}},
	} {
		err := checkCodexAnswer(tc.asked, got)
		if !errors.Is(err, ErrMismatch) {
			t.Errorf("asked %+v: %v, want ErrMismatch", tc.asked, err)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("asked %+v: %q does not say %q", tc.asked, err, s)
			}
		}
		if strings.Contains(err.Error(), "approval") && tc.asked.Approval == got.Approval {
			t.Errorf("asked %+v: %q names a setting that matched", tc.asked, err)
		}
	}
	// An answer without a setting asked is a mismatch too.
	if err := checkCodexAnswer(Thread{Effort: "high"}, Thread{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("effort asked, none answered: %v", err)
	}
}

// TestCodexServerKeepIsText: kept lines hold no control characters.
func TestCodexServerKeepIsText(t *testing.T) {
	t.Parallel()
	cs := &codexServer{}
	var raw []byte
	for c := range 0x100 {
		raw = append(raw, byte(c))
	}
	raw = append(raw, "\u0080\u009f\u00a0é\n"...)
	for _, l := range cs.addOutput(raw) {
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("kept line %q holds %U", l, r)
			}
		}
		if !utf8.ValidString(l) {
			t.Fatalf("kept line %q is not UTF-8", l)
		}
	}
}

// fakeServerProc is a Proc whose output the test writes; it exits when
// killed or when the test says, and only after its output was read to the
// end (as a PTY's is).
type fakeServerProc struct {
	r      *io.PipeReader
	w      *io.PipeWriter
	eof    chan struct{}
	eofOne sync.Once
	exit   chan struct{}
	once   sync.Once
	code   int
	killed atomic.Bool
}

func newFakeServerProc() *fakeServerProc {
	r, w := io.Pipe()
	return &fakeServerProc{r: r, w: w, eof: make(chan struct{}), exit: make(chan struct{})}
}

func (p *fakeServerProc) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if err != nil {
		p.eofOne.Do(func() { close(p.eof) })
	}
	return n, err
}
func (p *fakeServerProc) Write(b []byte) (int, error) { return len(b), nil }
func (p *fakeServerProc) Resize(int, int) error       { return nil }
func (p *fakeServerProc) Pid() int                    { return 4242 }
func (p *fakeServerProc) Wait() (int, error) {
	<-p.exit
	<-p.eof
	return p.code, nil
}

func (p *fakeServerProc) Signaled() int {
	_, _ = p.Wait()
	return 0
}

// end makes the process exit with code after its output.
func (p *fakeServerProc) end(code int) {
	p.once.Do(func() {
		p.code = code
		_ = p.w.Close()
		close(p.exit)
	})
}
func (p *fakeServerProc) Kill() error {
	p.killed.Store(true)
	p.end(-1)
	return nil
}
func (p *fakeServerProc) Close() error { return p.r.Close() }

// TestStartCodexProcess: the server line gets the token's digest, the
// port comes from the listening line, and stop ends the process.
func TestStartCodexProcess(t *testing.T) {
	t.Parallel()
	p := newFakeServerProc()
	var got pty.Options
	spawn := func(o pty.Options) (pty.Proc, error) {
		got = o
		go func() {
			_, _ = io.WriteString(p.w, "codex app-server (WebSockets)\r\n\x1b[2m  listening on: ")
			_, _ = io.WriteString(p.w, "ws://127.0.0.1:38367\x1b[0m\r\n  readyz: http://127.0.0.1:38367/readyz\r\n")
		}()
		return p, nil
	}
	argv := []string{"codex", "-c", "x=1", "app-server", "--ws-token-sha256", DigestWord}
	cs, err := startCodexProcess(context.Background(), spawn, "", argv, "/work", []string{"A=1"}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(cs.token))
	want := []string{"codex", "-c", "x=1", "app-server", "--ws-token-sha256", hex.EncodeToString(sum[:])}
	if !slices.Equal(got.Argv, want) || got.Dir != "/work" || !slices.Equal(got.Env, []string{"A=1"}) {
		t.Errorf("spawned %+v, want argv %q", got, want)
	}
	if argv[5] != DigestWord {
		t.Errorf("the plan's argv was changed: %q", argv)
	}
	if slices.ContainsFunc(got.Argv, func(w string) bool { return strings.Contains(w, cs.token) }) {
		t.Errorf("the token is on the line: %q", got.Argv)
	}
	if cs.port != "38367" {
		t.Errorf("port %q", cs.port)
	}
	cs.stop()
	cs.stop()
	if !p.killed.Load() || !cs.stopping.Load() {
		t.Error("stop did not kill the process")
	}
	select {
	case <-cs.exited:
	default:
		t.Error("stop returned before the process was reaped")
	}
	select {
	case <-cs.drained:
	default:
		t.Error("stop returned before the output was read")
	}
}

// TestStartCodexProcessExits: a server that exits before it listens is an
// error carrying its code and last lines.
func TestStartCodexProcessExits(t *testing.T) {
	t.Parallel()
	p := newFakeServerProc()
	spawn := func(pty.Options) (pty.Proc, error) {
		go func() {
			_, _ = io.WriteString(p.w, "error: unexpected argument '--bogus' found\r\n\r\nUsage: codex app-server\r\n")
			p.end(2)
		}()
		return p, nil
	}
	cs, err := startCodexProcess(context.Background(), spawn, "", []string{"codex", "app-server"}, "/work", nil, slog.New(slog.DiscardHandler))
	if err == nil {
		cs.stop()
		t.Fatal("a server that exited started")
	}
	want := "codex app-server exited (code 2) before it listened: error: unexpected argument '--bogus' found | Usage: codex app-server"
	if err.Error() != want {
		t.Errorf("err %q\nwant %q", err, want)
	}

	spawnErr := errors.New("no such file")
	_, err = startCodexProcess(context.Background(), func(pty.Options) (pty.Proc, error) { return nil, spawnErr }, "", []string{"codex"}, "/work", nil, slog.New(slog.DiscardHandler))
	if !errors.Is(err, spawnErr) {
		t.Errorf("spawn failure: %v", err)
	}
}

// TestCodexServerEnded: a killed app-server is said to be killed by its
// signal, not to have exited with the shell's 128+N.
func TestCodexServerEnded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		code, signal int
		want         string
	}{
		{3, 0, "exited (code 3)"},
		{137, 9, "was killed by signal 9 (killed)"},
		{130, 0, "exited (code 130)"},
	} {
		cs := &codexServer{code: c.code, signal: c.signal}
		if got := cs.ended(); got != c.want {
			t.Errorf("code %d signal %d: %q, want %q", c.code, c.signal, got, c.want)
		}
	}
}
