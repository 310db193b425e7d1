//go:build linux

package seats_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// codexChildEnv runs TestCodexAppServerChild as a stand-in for Pullcept:
// "first" starts the app-server seat, answers one post, writes its state
// and waits to be killed; "resume" starts it again from the same folders.
const codexChildEnv = "PULLCEPT_TEST_CODEX_CHILD"

// codexChildState is what the first child tells the test.
type codexChildState struct {
	Session string `json:"session"`
	TUI     int    `json:"tui"`
	Server  int    `json:"server"`
	Family  []int  `json:"family"` // the server's descendants (the room's sidecar …)
}

// TestE2ECodexAppServerSurvivesNothing kills a Pullcept holding an
// app-server Codex seat with SIGKILL (issue 15): no process of the seat is
// left (the TUI, the server and the server's children, by pid), and a new
// Pullcept on the same data resumes the same conversation, which answers
// the next post.
//
// On a loaded machine a post used to stay in Codex's composer, unanswered:
// a fault of the product (issue 28). Codex prints a warning before its TUI
// takes the terminal raw (its CODEX_HOME is under a temporary folder here),
// and HoldAttach let typing go at a note of the thread or 5 s after that
// first output, so a post could be typed into a cooked terminal, which
// echoed it and turned its "\r" into "\n": the TUI read two lines and no
// Enter. HoldAttach now also waits for the TUI to read its keys raw
// (TestE2ECodexAppServerStarvedTUI). A failed child prints its TUI's trace
// (tuiTrace); PULLCEPT_TEST_STALL_TUI=7s stalls it here too.
func TestE2ECodexAppServerSurvivesNothing(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	child := func(mode string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCodexAppServerChild$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), codexChildEnv+"="+mode, rigDirEnv+"="+dir, "PULLCEPT_TEST_LOG=1", "TMPDIR="+dir)
		out, err := os.Create(filepath.Join(dir, mode+".log"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { out.Close() })
		cmd.Stdout, cmd.Stderr = out, out
		return cmd
	}
	dump := func(mode string) {
		b, _ := os.ReadFile(filepath.Join(dir, mode+".log"))
		t.Logf("%s child's output:\n%s", mode, b)
	}
	first := child("first")
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	var st codexChildState
	ok := false
	deadline := time.After(testkit.Slow(3 * time.Minute))
	for !ok {
		select {
		case err := <-exited:
			dump("first")
			t.Fatalf("the first child ended before it was killed: %v", err)
		case <-deadline:
			_ = first.Process.Kill()
			dump("first")
			t.Fatalf("the first child wrote no state in %v", testkit.Slow(3*time.Minute))
		case <-time.After(50 * time.Millisecond):
		}
		if b, err := os.ReadFile(state); err == nil && json.Unmarshal(b, &st) == nil && st.Session != "" {
			ok = true
		}
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	for _, p := range append([]int{st.TUI, st.Server}, st.Family...) {
		waitGone(t, p)
	}
	t.Logf("after SIGKILL: TUI %d, server %d and %d descendants gone", st.TUI, st.Server, len(st.Family))

	second := child("resume")
	if err := second.Run(); err != nil {
		dump("resume")
		t.Fatalf("the resuming child: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "resume.log"))
	if !strings.Contains(string(b), "--- PASS: TestCodexAppServerChild") {
		dump("resume")
		t.Fatal("the resuming child did not run its test")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "a burst of") {
			t.Log(strings.TrimSpace(line))
		}
	}
}

// TestCodexAppServerChild is the Pullcept TestE2ECodexAppServerSurvivesNothing
// runs and kills; on its own it does nothing.
func TestCodexAppServerChild(t *testing.T) {
	mode := os.Getenv(codexChildEnv)
	if mode == "" {
		t.Skip("run by TestE2ECodexAppServerSurvivesNothing")
	}
	dir := os.Getenv(rigDirEnv)
	script := adminOnly(fakeapi.Script{})
	r := newRig(t, func(q *fakeapi.Request) fakeapi.Reply {
		if p, ok := q.LatestPost(); ok && strings.HasPrefix(p.Body, "burst") {
			return fakeapi.TextReply("noted")
		}
		return script(q)
	})
	cody, _ := codexServerAccount(t, r, filepath.Join(dir, "codex-home"))
	server := serverSpawns(r)
	// On a failure the child says what the TUI's terminal went through
	// (before the rig's cleanup shows the screens).
	tty := traceTUI(t, r.mgr)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(tty.report())
		}
	})
	res, s := r.start(cody.ID)
	r.waitReady(cody.ID, s)
	switch mode {
	case "first":
		if res.Resumed || res.SessionID == "" {
			t.Fatalf("first start = %+v", res)
		}
		r.post("hello @Cody")
		r.waitPost("Cody's reply", func(p room.Post) bool { return p.Account == cody.ID && p.Content == "reply to: hello" })
		pid := server()
		st := codexChildState{Session: res.SessionID, TUI: r.seatInfo(cody.ID).Pid, Server: pid, Family: descendants(pid)}
		b, _ := json.Marshal(st)
		tmp := filepath.Join(dir, "state.json.tmp")
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "state.json")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(testkit.Slow(5 * time.Minute)) // killed long before: the test's subject is the kill
		t.Fatal("not killed")
	case "resume":
		var st codexChildState
		b, err := os.ReadFile(filepath.Join(dir, "state.json"))
		if err != nil || json.Unmarshal(b, &st) != nil {
			t.Fatalf("state: %v", err)
		}
		if !res.Resumed || res.SessionID != st.Session {
			t.Fatalf("start after the kill = %+v, want resumed %s", res, st.Session)
		}
		calls := len(r.sessionCalls(st.Session))
		again := r.post("again @Cody")
		r.waitPost("Cody's reply after the restart", func(p room.Post) bool {
			return p.Account == cody.ID && p.Content == "reply to: again"
		})
		exs := r.sessionCalls(st.Session)[calls:]
		found, first := false, false
		for _, ex := range exs {
			if len(carrying(ex.Request, again.MessageID)) == 0 {
				continue
			}
			found = true
			// The resumed conversation still holds the first turn.
			for _, m := range ex.Request.Messages {
				for _, txt := range m.Texts {
					first = first || (strings.Contains(txt, "[pullcept]") && strings.Contains(txt, "\nhello"))
				}
			}
		}
		if !found || !first {
			t.Errorf("model calls of the resumed conversation %s: one carries %s: %v, the first turn is in it: %v", st.Session, again.MessageID, found, first)
		}
		codexBurst(t, r, s, st.Session)
	}
}

// codexBurstEnv sets how many posts codexBurst sends (5 when unset; the
// issue's figure is 20 on a loaded machine).
const codexBurstEnv = "PULLCEPT_CONFIRM_POSTS"

// codexBurst posts a burst to the resumed app-server Codex seat as fast as
// the room takes them (issue 30: after a resume a post used to stay in the
// composer, and posts typed during a turn joined it): every post is
// confirmed by the seat's server, none is left in the composer, and each
// reaches the model as a user turn of its own, its tag line first.
func codexBurst(t *testing.T, r *rig, s *seats.Seat, session string) {
	n := 5
	if v, err := strconv.Atoi(os.Getenv(codexBurstEnv)); err == nil && v > 0 {
		n = v
	}
	start := time.Now()
	var posts []room.Post
	for i := 1; i <= n; i++ {
		posts = append(posts, r.post(fmt.Sprintf("burst %d @Cody", i)))
	}
	last := posts[len(posts)-1].MessageID
	e2eUntil(t, "every post of the burst confirmed", func() bool {
		st := seats.TypingOf(s)
		return st.Confirmed == last && st.Queued == 0
	}, s.Done())
	e2eUntil(t, "every post of the burst at the model", func() bool {
		calls := r.sessionCalls(session)
		for _, p := range posts {
			if !slices.ContainsFunc(calls, func(ex fakeapi.Exchange) bool { return len(carrying(ex.Request, p.MessageID)) > 0 }) {
				return false
			}
		}
		return true
	}, s.Done())
	t.Logf("a burst of %d posts: all confirmed and at the model %v after the first", n, time.Since(start).Round(time.Millisecond))
	if fused := ownTurns(t, r, session, posts); fused != 0 {
		t.Errorf("%d texts held more than one post", fused)
	}
	if st := seats.TypingOf(s); len(st.Unconfirmed) != 0 || st.Fused != 0 || st.Stuck != "" {
		t.Errorf("typing state after the burst: %+v", st)
	}
}

// tuiTrace is an app-server seat's TUI terminal as a child sees it: its
// first reads, when the TUI turned bracketed paste on (Codex 0.169.0 does
// so as it takes its terminal raw, before it reads keys), and every write
// into it (the room's typing, the emulator's replies), each with its time
// since the spawn and, for a post's text and its "\r", the terminal's line
// discipline then. A failed wait prints it (report): a post left in the
// composer then shows what the TUI could read of it.
//
// With a stall (PULLCEPT_TEST_STALL_TUI, traceTUIStalled), the TUI is
// stopped (SIGSTOP) at its first output for that long: how a loaded machine
// starves it (issue 28). With 7s the post used to be typed into a terminal
// still cooked, and stayed in the composer: the fault the report names.
type tuiTrace struct {
	pty.Proc
	start time.Time
	stall time.Duration

	mu      sync.Mutex
	reads   []string      // the first few reads, clipped
	pasteOn time.Duration // -1: ?2004h not seen yet
	tail    []byte        // the last bytes read, to find ?2004h across reads
	writes  []tuiWrite
}

type tuiWrite struct {
	at   time.Duration
	b    string
	line string // the terminal's line discipline then (a post's text and "\r" only)
}

// traceTUI makes mgr start the app-server seat's TUI (`codex resume …
// --remote`) through a tuiTrace, which it returns; PULLCEPT_TEST_STALL_TUI
// stalls the TUI (traceTUIStalled).
func traceTUI(t *testing.T, mgr *seats.Manager) *tuiTrace {
	t.Helper()
	var stall time.Duration
	if v := os.Getenv("PULLCEPT_TEST_STALL_TUI"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("PULLCEPT_TEST_STALL_TUI: %v", err)
		}
		stall = d
	}
	return traceTUIStalled(t, mgr, stall)
}

// traceTUIStalled is traceTUI with the TUI stopped (SIGSTOP) for stall at
// its first output (0: never).
func traceTUIStalled(t *testing.T, mgr *seats.Manager, stall time.Duration) *tuiTrace {
	t.Helper()
	tr := &tuiTrace{pasteOn: -1, stall: stall}
	seats.RecordSpawns(mgr, func(o pty.Options, p pty.Proc) pty.Proc {
		if !slices.Contains(o.Argv, "--remote") {
			return p
		}
		tr.mu.Lock()
		tr.Proc, tr.start = p, time.Now()
		tr.mu.Unlock()
		return tr
	})
	return tr
}

func (tr *tuiTrace) Read(b []byte) (int, error) {
	n, err := tr.Proc.Read(b)
	if n > 0 {
		tr.mu.Lock()
		at := time.Since(tr.start)
		if len(tr.reads) == 0 && tr.stall > 0 {
			pid := tr.Proc.Pid()
			_ = syscall.Kill(pid, syscall.SIGSTOP)
			time.AfterFunc(tr.stall, func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
		}
		if len(tr.reads) < 3 {
			tr.reads = append(tr.reads, fmt.Sprintf("%s read %q", since(at), clip(string(b[:n]), 240)))
		}
		tr.tail = append(tr.tail, b[:n]...)
		if tr.pasteOn < 0 && strings.Contains(string(tr.tail), "\x1b[?2004h") {
			tr.pasteOn = at
		}
		tr.tail = tr.tail[max(0, len(tr.tail)-8):]
		tr.mu.Unlock()
	}
	return n, err
}

func (tr *tuiTrace) Write(b []byte) (int, error) {
	w := tuiWrite{at: time.Since(tr.start), b: string(b)}
	if w.b == "\r" || strings.Contains(w.b, "[pullcept] ") {
		w.line = lineDiscipline(tr.Proc.Pid())
	}
	tr.mu.Lock()
	tr.writes = append(tr.writes, w)
	tr.mu.Unlock()
	return tr.Proc.Write(b)
}

// lineDiscipline describes the terminal pid reads (its stdin): "raw" once
// the program took it raw, else the cooked flags that matter to typing
// (whole lines, echo, "\r" read as "\n").
func lineDiscipline(pid int) string {
	tty, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil {
		return "unknown: " + err.Error()
	}
	f, err := os.OpenFile(tty, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return "unknown: " + err.Error()
	}
	defer f.Close()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		return "unknown: " + err.Error()
	}
	if tio.Lflag&(unix.ICANON|unix.ECHO) == 0 && tio.Iflag&unix.ICRNL == 0 {
		return "raw"
	}
	return fmt.Sprintf("cooked (icanon %v, echo %v, icrnl %v)", tio.Lflag&unix.ICANON != 0, tio.Lflag&unix.ECHO != 0, tio.Iflag&unix.ICRNL != 0)
}

// since is a time since the spawn, or "never" (negative).
func since(d time.Duration) string {
	if d < 0 {
		return "never"
	}
	return d.Round(time.Millisecond).String()
}

// clip shortens s to about n bytes, keeping its start and end.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-n/3] + "…" + s[len(s)-n/3:]
}

// report is the trace as text, ending with what it shows of the first
// room post typed (the first write carrying a tag line).
func (tr *tuiTrace) report() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "the TUI's terminal, times since its spawn (bracketed paste on: %s):\n", since(tr.pasteOn))
	for _, r := range tr.reads {
		b.WriteString("  " + r + "\n")
	}
	post := -1
	for i, w := range tr.writes {
		fmt.Fprintf(&b, "  %s typed %q", since(w.at), clip(w.b, 60))
		if w.line != "" {
			b.WriteString(" into a " + w.line + " terminal")
		}
		b.WriteByte('\n')
		if post < 0 && strings.Contains(w.b, "[pullcept] ") {
			post = i
		}
	}
	switch p := tr.writes[max(post, 0):]; {
	case post < 0:
		b.WriteString("no room post was typed into the TUI")
	case strings.HasPrefix(p[0].line, "cooked"):
		fmt.Fprintf(&b, "the post was typed at %s into a terminal the TUI had not taken raw yet: the terminal echoed it, "+
			"turned its \"\\r\" into \"\\n\" and the TUI read two lines of text with no Enter; room typing was let go "+
			"before the TUI could read keys (HoldAttach, seats/cli/codex/adapter.go attachWait: raw mode is awaited)", since(p[0].at))
	case tr.pasteOn < 0 || p[0].at < tr.pasteOn:
		fmt.Fprintf(&b, "the post was typed at %s, before the TUI turned bracketed paste on (%s): unmarked, its \"\\r\" can be "+
			"read with it as a newline of the paste (docs/clis.md §3.4)", since(p[0].at), since(tr.pasteOn))
	default:
		fmt.Fprintf(&b, "the post was typed at %s into a %s terminal, after the TUI turned bracketed paste on (%s)", since(p[0].at), p[0].line, since(tr.pasteOn))
	}
	return b.String()
}

// TestE2ECodexAppServerStarvedTUI: an app-server seat's TUI stopped for 7 s
// at its first output (before it takes its terminal raw) still gets the
// first post as a post it submits: room typing waits for the TUI to read
// its keys raw, not only for a note of the thread or the first output
// (issue 28: typed into the cooked terminal, the post stayed in the
// composer, 6 of 7 runs).
func TestE2ECodexAppServerStarvedTUI(t *testing.T) {
	r := newRig(t, nil)
	cody, _ := codexServerAccount(t, r, filepath.Join(t.TempDir(), "codex-home"))
	tty := traceTUIStalled(t, r.mgr, 7*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(tty.report())
		}
	})
	_, s := r.start(cody.ID)
	r.waitReady(cody.ID, s)
	r.post("hello @Cody")
	r.waitPost("Cody's reply", func(p room.Post) bool { return p.Account == cody.ID && p.Content == "reply to: hello" })
}
