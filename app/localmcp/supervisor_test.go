package localmcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// sink collects notices.
type sink struct {
	mu  sync.Mutex
	got []string
}

// add keeps a notice's text, after a line "(signed <name>)" when it has a
// signer: the signer is never part of the text.
func (s *sink) add(_ string, n Notice) {
	text := n.Text
	if n.Signer != "" {
		text = "(signed " + n.Signer + ")\n" + text
	}
	s.mu.Lock()
	s.got = append(s.got, text)
	s.mu.Unlock()
}

func (s *sink) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// newSupervisor returns a supervisor closed at the end of the test.
func newSupervisor(t *testing.T, opts Options) *Supervisor {
	t.Helper()
	s := NewSupervisor(opts)
	t.Cleanup(s.Close)
	return s
}

// logText is name's log, one line each.
func logText(s *Supervisor, name string) string {
	var b strings.Builder
	for _, l := range s.Log(name) {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// waitPhase waits until name is in phase.
func waitPhase(t *testing.T, s *Supervisor, name string, phase Phase) State {
	t.Helper()
	testkit.Eventually(t, fmt.Sprintf("%s %v (log:\n%s)", name, phase, logText(s, name)), func() bool {
		return s.State(name).Phase == phase
	})
	return s.State(name)
}

// waitLog waits until name's log holds a line containing text.
func waitLog(t *testing.T, s *Supervisor, name, text string) {
	t.Helper()
	testkit.Eventually(t, fmt.Sprintf("%q in %s's log", text, name), func() bool {
		return strings.Contains(logText(s, name), text)
	})
}

func payload(key, body string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{key: map[string]any{"body": body}})
	return b
}

// TestNoticesFromAServer drives the whole path: pushes in, get_event for
// the ones that may be signed (one held past the wait), notices out in
// arrival order, each with its processed line once, no mark_processed.
func TestNoticesFromAServer(t *testing.T) {
	var notes sink
	// The wait is scaled: the fake answers C, D and F at once, and those
	// answers must beat it on a loaded box; A is held past it.
	wait := testkit.Slow(2 * time.Second)
	s := newSupervisor(t, Options{OnNotice: notes.add, SignatureWait: wait})
	url := "https://github.com/o/r/issues/1"
	cfg := fakeConfig{
		Lines: []string{
			pushLine("A", "[issue_comment] o/r\naction: created\n#1 t\nby u\n"+url),
			pushLine("B", "[push] o/r\nby u"),
			pushLine("C", "[issues] o/r\naction: opened\n#2 t\nby u\n"+url),
			pushLine("D", "[pull_request_review] o/r\naction: submitted\n#3 t"),
			pushLine("", "[issues] o/r\naction: opened\nno id"),
			pushLine("F", "[issue_comment] o/r\naction: edited\n#1 t"),
			pushLine("G", "[pull_request] o/r\naction: opened\n#4 t"),
		},
		Events: map[string]fakeEvent{
			"A": {Hold: true},
			"C": {Payload: payload("issue", "Please look.\r\n\r\n\u2014 Lin\r\n")},
			"D": {Payload: payload("review", "LGTM")},
			"F": {Payload: payload("comment", "edited\n\u2014 Lin")},
		},
	}
	if err := s.Start("hook", fakeSpec(t, cfg)); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "six notices", func() bool { return len(notes.all()) >= 6 })
	want := []string{
		"[issue_comment] o/r\naction: created\n#1 t\nby u\n" + ProcessedLine + "A\n" + url,
		"[push] o/r\nby u\n" + ProcessedLine + "B",
		"(signed Lin)\n[issues] o/r\naction: opened\n#2 t\nby u\n" + ProcessedLine + "C\n" + url,
		"[pull_request_review] o/r\naction: submitted\n#3 t\n" + ProcessedLine + "D",
		"[issue_comment] o/r\naction: edited\n#1 t\n" + ProcessedLine + "F",
		"[pull_request] o/r\naction: opened\n#4 t\n" + ProcessedLine + "G",
	}
	if got := notes.all(); strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	// stderr (the fake's "tools/call" lines) is read apart from stdout
	for _, line := range []string{"tools/call get_event A", "tools/call get_event C", "tools/call get_event D",
		"tools/call get_event G", "dropped a channel push without an event id: [issues] o/r",
		fmt.Sprintf("event A: no signature read: get_event gave no answer within %v", wait), "running: fake-bridge 0.0.1"} {
		waitLog(t, s, "hook", line)
	}
	log := logText(s, "hook")
	for _, line := range []string{"get_event B", "get_event F", "mark_processed"} {
		if strings.Contains(log, line) {
			t.Errorf("log has %q:\n%s", line, log)
		}
	}
	st := s.State("hook")
	if st.Phase != Running || st.Received != 6 || st.Server != "fake-bridge 0.0.1" || st.Pid == 0 {
		t.Errorf("state %+v", st)
	}
}

func TestServerThatExitsAtOnceFailed(t *testing.T) {
	s := newSupervisor(t, Options{})
	code := 3
	if err := s.Start("x", fakeSpec(t, fakeConfig{ExitAtOnce: &code})); err != nil {
		t.Fatal(err)
	}
	st := waitPhase(t, s, "x", Failed)
	if st.Code != 3 || st.Reason != "exited with code 3 before answering initialize" {
		t.Errorf("state %+v", st)
	}
	waitLog(t, s, "x", "exiting at once") // its stderr is kept
}

// TestExitedServerRestartsWithItsLog: a server that ends after running is
// Exited with its code; a restart keeps the log of the earlier run.
func TestExitedServerRestartsWithItsLog(t *testing.T) {
	s := newSupervisor(t, Options{})
	code := 7
	spec := fakeSpec(t, fakeConfig{ExitAfterInit: &code})
	if err := s.Start("x", spec); err != nil {
		t.Fatal(err)
	}
	if st := waitPhase(t, s, "x", Exited); st.Code != 7 {
		t.Errorf("state %+v", st)
	}
	if err := s.Restart("x", fakeSpec(t, fakeConfig{})); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "x", Running)
	log := logText(s, "x")
	if strings.Count(log, "started (pid") != 2 || !strings.Contains(log, "exited with code 7") || !strings.Contains(log, "restarting") {
		t.Errorf("log:\n%s", log)
	}
	if err := s.Start("x", spec); !errors.Is(err, ErrRunning) {
		t.Errorf("second Start: %v", err)
	}
	s.Stop("x")
	if st := s.State("x"); st.Phase != Stopped {
		t.Errorf("after Stop: %+v", st)
	}
	s.Remove("x")
	if st := s.State("x"); st.Phase != NotStarted || len(s.Log("x")) != 0 || len(s.Names()) != 0 {
		t.Errorf("after Remove: %+v", st)
	}
}

func TestInitializeTimeoutFails(t *testing.T) {
	s := newSupervisor(t, Options{InitTimeout: 200 * time.Millisecond})
	if err := s.Start("x", fakeSpec(t, fakeConfig{Silent: true})); err != nil {
		t.Fatal(err)
	}
	st := waitPhase(t, s, "x", Failed)
	if st.Reason != "no answer to initialize within 200ms" {
		t.Errorf("state %+v", st)
	}
	waitLog(t, s, "x", "exited with code 0") // stdin closed: the fake ends
}

func TestMissingCommandFails(t *testing.T) {
	s := newSupervisor(t, Options{})
	err := s.Start("x", Spec{Command: "pullcept-no-such-command-here"})
	if err == nil {
		t.Fatal("Start succeeded")
	}
	st := s.State("x")
	if st.Phase != Failed || !strings.Contains(st.Reason, "not found") {
		t.Errorf("state %+v", st)
	}
	if !strings.Contains(logText(s, "x"), "failed to start: command not found") {
		t.Errorf("log:\n%s", logText(s, "x"))
	}
	if err := s.Start("y", Spec{Command: os.Args[0], Dir: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing working directory started")
	}
}

// TestMalformedInitializeAnswerFails: an initialize answer that is not
// an InitializeResult never reaches Running.
func TestMalformedInitializeAnswerFails(t *testing.T) {
	s := newSupervisor(t, Options{})
	if err := s.Start("x", fakeSpec(t, fakeConfig{BadInit: true})); err != nil {
		t.Fatal(err)
	}
	st := waitPhase(t, s, "x", Failed)
	if !strings.HasPrefix(st.Reason, "initialize failed: ") {
		t.Errorf("state %+v", st)
	}
}

// TestClosedStdoutEndsTheServer: a server that closes its stdout but
// keeps running can say nothing more; it is ended after the grace and is
// Exited (killed).
func TestClosedStdoutEndsTheServer(t *testing.T) {
	s := newSupervisor(t, Options{Grace: 100 * time.Millisecond})
	if err := s.Start("x", fakeSpec(t, fakeConfig{CloseStdout: true, NoChannel: true})); err != nil {
		t.Fatal(err)
	}
	if st := waitPhase(t, s, "x", Exited); st.Code == 0 {
		t.Errorf("state %+v", st)
	}
	waitLog(t, s, "x", "it closed its stdout and kept running: ending it")
	waitLog(t, s, "x", "the server does not declare claude/channel")
}

// TestEnvIsAddedAndDirUsed: Spec.Env adds to Pullcept's environment
// (PATH survives), Dir is the working directory.
func TestEnvIsAddedAndDirUsed(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir()) // before the supervisor: its Close runs first
	if err != nil {
		t.Fatal(err)
	}
	s := newSupervisor(t, Options{})
	spec := fakeSpec(t, fakeConfig{PrintEnv: []string{"LOCALMCP_X", "PATH"}})
	spec.Env = append(spec.Env, "LOCALMCP_X=a=b c")
	spec.Dir = dir
	if err := s.Start("x", spec); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, s, "x", Running)
	waitLog(t, s, "x", "cwd "+dir)
	log := logText(s, "x")
	if !strings.Contains(log, "env LOCALMCP_X=a=b c\n") || !strings.Contains(log, "env PATH="+os.Getenv("PATH")+"\n") {
		t.Errorf("log:\n%s", log)
	}
}

// TestStderrFloodStaysBounded: a server writing a flood of stderr (long
// and short lines) is never blocked, and its log keeps at most
// MaxLogLines lines of at most MaxLineBytes. PULLCEPT_LOCALMCP_FLOOD_MB
// sets the flood's size (default 64; 1024 was measured, see the report).
func TestStderrFloodStaysBounded(t *testing.T) {
	mb := int64(64)
	if v, err := strconv.ParseInt(os.Getenv("PULLCEPT_LOCALMCP_FLOOD_MB"), 10, 64); err == nil && v > 0 {
		mb = v
	}
	s := newSupervisor(t, Options{})
	if err := s.Start("x", fakeSpec(t, fakeConfig{StderrBytes: mb << 20})); err != nil {
		t.Fatal(err)
	}
	testkit.EventuallyWithin(t, testkit.Slow(5*time.Minute), "the flood's end", func() bool {
		return strings.Contains(logText(s, "x"), "flood done")
	})
	waitPhase(t, s, "x", Running)
	lines := s.Log("x")
	cut := 0
	for _, l := range lines {
		if len(l.Text) > MaxLineBytes {
			t.Fatalf("a line of %d bytes", len(l.Text))
		}
		if strings.HasSuffix(l.Text, "…") {
			cut++
		}
	}
	if len(lines) != MaxLogLines || cut == 0 {
		t.Errorf("%d lines, %d cut", len(lines), cut)
	}
}

// TestPushFloodIsBounded: 20 000 pushes as fast as the server can write
// while the notice callback is held: the queue stays bounded, the rest is
// dropped and counted in the log, the supervisor answers throughout, and
// every queued push becomes a notice once the callback returns.
func TestPushFloodIsBounded(t *testing.T) {
	const flood = 20000
	release := make(chan struct{})
	var notes sink
	onNotice := func(server string, n Notice) {
		<-release
		notes.add(server, n)
	}
	// The brake lets the whole flood through: the queue's own bound is
	// what this tests (TestNoticeFloodIsFolded tests the brake).
	s := newSupervisor(t, Options{OnNotice: onNotice, QueueLen: 64, NoticeBurst: flood})
	if err := s.Start("x", fakeSpec(t, fakeConfig{Flood: flood})); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "every push read", func() bool {
		st := s.State("x")
		return st.Received+st.Dropped == flood
	})
	st := s.State("x")
	if st.Dropped == 0 || st.Received > 64+1 {
		t.Errorf("state %+v", st)
	}
	waitLog(t, s, "x", "the notice queue (64) is full")
	close(release)
	testkit.Eventually(t, "the queued notices", func() bool { return uint64(len(notes.all())) == st.Received })
	var noted uint64 // the worker may note a part before it blocks
	for _, m := range droppedRE.FindAllStringSubmatch(logText(s, "x"), -1) {
		n, _ := strconv.ParseUint(m[1], 10, 64)
		noted += n
	}
	if noted != st.Dropped {
		t.Errorf("log notes %d dropped, state %d:\n%s", noted, st.Dropped, logText(s, "x"))
	}
	if got := notes.all()[0]; got != "[push] o/r\nflood 0\n"+ProcessedLine+"flood-0" {
		t.Errorf("first notice %q", got)
	}
}

// TestMalformedMessagesAreLogged: lines that are not JSON-RPC, and
// channel pushes without content, are logged and skipped; the server
// keeps running and its next push gets through.
func TestMalformedMessagesAreLogged(t *testing.T) {
	var notes sink
	s := newSupervisor(t, Options{OnNotice: notes.add})
	cfg := fakeConfig{Lines: []string{
		"not json at all",
		`{"jsonrpc":"2.0","method":`,
		`[1,2,3]`,
		`{"jsonrpc":"2.0","method":"notifications/claude/channel","params":[]}`,
		`{"jsonrpc":"2.0","method":"notifications/claude/channel","params":{"content":5,"meta":{"message_id":"m"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/claude/channel","params":{"content":"x","meta":"m"}}`,
		`{"jsonrpc":"2.0","id":999,"result":{}}`,
		"",
		pushLine("ok", "[push] o/r"),
	}}
	if err := s.Start("x", fakeSpec(t, cfg)); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the good push", func() bool { return len(notes.all()) == 1 })
	log := logText(s, "x")
	if n := strings.Count(log, "malformed JSON-RPC from the server"); n != 3 {
		t.Errorf("%d malformed JSON-RPC lines:\n%s", n, log)
	}
	if n := strings.Count(log, "malformed channel push"); n != 3 {
		t.Errorf("%d malformed push lines:\n%s", n, log)
	}
	if st := s.State("x"); st.Phase != Running {
		t.Errorf("state %+v", st)
	}
}

// TestStopSendsHeldNoticesUnmarked: a notice waiting for get_event when
// the server is stopped goes out unmarked before Stop returns.
func TestStopSendsHeldNoticesUnmarked(t *testing.T) {
	var notes sink
	s := newSupervisor(t, Options{OnNotice: notes.add})
	cfg := fakeConfig{
		Lines:  []string{pushLine("A", "[issues] o/r\naction: opened"), pushLine("B", "[push] o/r")},
		Events: map[string]fakeEvent{"A": {Hold: true}},
	}
	if err := s.Start("x", fakeSpec(t, cfg)); err != nil {
		t.Fatal(err)
	}
	waitLog(t, s, "x", "tools/call get_event A")
	s.Stop("x")
	want := []string{"[issues] o/r\naction: opened\n" + ProcessedLine + "A", "[push] o/r\n" + ProcessedLine + "B"}
	if got := notes.all(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("notices %q", got)
	}
	if st := s.State("x"); st.Phase != Stopped {
		t.Errorf("state %+v", st)
	}
}

// TestWaitChangeWakes: a change wakes a waiter; Close ends the waits.
func TestWaitChangeWakes(t *testing.T) {
	s := NewSupervisor(Options{})
	s.Note("x", "hello")
	gen, ok := s.WaitChange(nil, 0)
	if !ok || gen == 0 {
		t.Fatalf("WaitChange after a note: %d, %v", gen, ok)
	}
	ended := make(chan bool)
	go func() {
		_, ok := s.WaitChange(nil, gen)
		ended <- ok
	}()
	s.Close()
	if <-ended {
		t.Error("a wait did not end with Close")
	}
	if err := s.Start("x", Spec{Command: os.Args[0]}); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
}

// droppedRE reads the log's count of dropped pushes.
var droppedRE = regexp.MustCompile(`dropped (\d+) channel pushes: the notice queue \(64\) was full`)
