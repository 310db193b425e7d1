//go:build unix

package seats

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestApplyHook: each hook event moves the activity as the panel tells it;
// a body that is not JSON, or names another event than its path, moves
// nothing; tool names are cut and stripped of control characters.
func TestApplyHook(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	cur, wait := cli.Activity{}, cli.PermWait{}
	steps := []struct {
		event, tool string
		want        cli.Activity
		permission  bool // HoldPermission after the step
	}{
		{hookUserPromptSubmit, "", cli.Activity{Kind: cli.ActivityThinking, Since: at(0)}, false},
		{hookPreToolUse, "Bash", cli.Activity{Kind: cli.ActivityTool, Tool: "Bash", Since: at(1)}, false},
		{hookPermissionRequest, "Bash", cli.Activity{Kind: cli.ActivityPermission, Tool: "Bash", Since: at(2)}, true},
		{hookPostToolUse, "Bash", cli.Activity{Kind: cli.ActivityThinking, Since: at(3)}, false},
		{hookSubagentStart, "", cli.Activity{Kind: cli.ActivityThinking, Subagents: 1, Since: at(3)}, false},
		{hookSubagentStart, "", cli.Activity{Kind: cli.ActivityThinking, Subagents: 2, Since: at(3)}, false},
		{hookPreToolUse, "mcp__s__read", cli.Activity{Kind: cli.ActivityTool, Tool: "mcp__s__read", Subagents: 2, Since: at(6)}, false},
		{hookPostToolUseFailure, "mcp__s__read", cli.Activity{Kind: cli.ActivityThinking, Subagents: 2, Since: at(7)}, false},
		{hookSubagentStop, "", cli.Activity{Kind: cli.ActivityThinking, Subagents: 1, Since: at(7)}, false},
		{hookStop, "", cli.Activity{Kind: cli.ActivityIdle, Since: at(9)}, false},
	}
	for i, s := range steps {
		step := applyHook(cur, wait, s.event, hookBody(s.event, s.tool, `"same input"`), at(i))
		if permission, _ := step.Wait.Holds(); step.Next != s.want || permission != s.permission {
			t.Fatalf("step %d %s: %+v wait %+v, want %+v permission %v", i, s.event, step.Next, step.Wait, s.want, s.permission)
		}
		cur, wait = step.Next, step.Wait
	}
	for _, bad := range []struct{ event, body string }{
		{hookStop, "not json"},
		{hookStop, `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`},
		{"Unregistered", `{"hook_event_name":"Unregistered"}`},
	} {
		if step := applyHook(cur, wait, bad.event, []byte(bad.body), at(20)); step.Changed || step.Next != cur || !step.Wait.Equal(wait) {
			t.Errorf("%s %q moved the activity: %+v", bad.event, bad.body, step)
		}
	}
	step := applyHook(cur, wait, hookPreToolUse, hookBody(hookPreToolUse, "Ba\x1b[31msh\n"+strings.Repeat("x", 200), "{}"), at(30))
	if tool := step.Next.Tool; strings.ContainsAny(tool, "\x1b\n") || len([]rune(tool)) != cli.MaxToolName+1 || !strings.HasPrefix(tool, "Ba[31msh") {
		t.Fatalf("tool name kept as %q", tool)
	}
}

// hookBody is a hook body as Claude Code sends it: the event, the tool and
// its input (raw JSON).
func hookBody(event, tool, input string) []byte {
	b, _ := json.Marshal(map[string]any{"hook_event_name": event, "tool_name": tool, "tool_input": json.RawMessage(input)})
	return b
}

// TestPermissionWaitPerRequest: a request ends only with its own tool's
// result (found by the breaker review with the real CLI: a parallel Read's
// PostToolUse released the hold while another Read's dialog was open, and
// a post's "\r" approved it). Two dialogs asked at once: answering the
// first leaves the second open. Keys are matched by tool and input.
func TestPermissionWaitPerRequest(t *testing.T) {
	t.Parallel()
	now := time.Unix(1796100000, 0)
	cur, wait := cli.Activity{}, cli.PermWait{}
	apply := func(event, tool, input string) {
		t.Helper()
		step := applyHook(cur, wait, event, hookBody(event, tool, input), now)
		cur, wait = step.Next, step.Wait
	}
	holds := func() (bool, bool) { return wait.Holds() }
	outside, inside := `{"file_path":"/elsewhere/a.txt"}`, `{"file_path": "/work/inside.txt"}`
	apply(hookPreToolUse, "Read", inside)
	apply(hookPreToolUse, "Read", outside)
	apply(hookPermissionRequest, "Read", outside)
	apply(hookPostToolUse, "Read", inside) // the other, parallel Read
	if p, _ := holds(); !p || cur.Kind != cli.ActivityPermission {
		t.Fatalf("another tool's result ended the wait: %+v %+v", cur, wait)
	}
	apply(hookPostToolUse, "Read", `{ "file_path" : "/elsewhere/a.txt" }`) // same input, other spacing
	if p, a := holds(); p || a || cur.Kind != cli.ActivityThinking {
		t.Fatalf("its own tool's result did not end the wait: %+v %+v", cur, wait)
	}

	// Two dialogs: "1 of 2", "2 of 2".
	apply(hookPermissionRequest, "Read", outside)
	apply(hookPermissionRequest, "Write", `{"file_path":"/elsewhere/b.txt"}`)
	step := cli.AnswerDialog(cur, wait, []byte("1"), now)
	cur, wait = step.Next, step.Wait
	if p, _ := holds(); !p || cur.Kind != cli.ActivityPermission || cur.Tool != "Write" {
		t.Fatalf("after one answer of two: %+v %+v", cur, wait)
	}
	apply(hookPostToolUse, "Read", outside)
	if p, _ := holds(); !p {
		t.Fatalf("the first tool's result ended the second dialog's wait: %+v", wait)
	}
	step = cli.AnswerDialog(cur, wait, []byte("\r"), now)
	cur, wait = step.Next, step.Wait
	if p, a := holds(); p || !a || cur.Kind != cli.ActivityThinking {
		t.Fatalf("both answered, one result to come: %+v %+v", cur, wait)
	}
	apply(hookPostToolUseFailure, "Write", `{"file_path":"/elsewhere/b.txt"}`)
	if p, a := holds(); p || a {
		t.Fatalf("all results in, still held: %+v", wait)
	}

	// A request whose body cannot be read still holds; only the turn's
	// end releases it.
	for _, body := range []string{`{"hook_event_name":"PermissionRequest","tool_name":"Bash","agent_id":7,"tool_input":5}`, "{", `{"hook_event_name":"Stop"}`} {
		step := applyHook(cli.Activity{}, cli.PermWait{}, hookPermissionRequest, []byte(body), now)
		if p, _ := step.Wait.Holds(); !p || step.Next.Kind != cli.ActivityPermission {
			t.Errorf("PermissionRequest %q did not hold: %+v", body, step)
		}
		after := applyHook(step.Next, step.Wait, hookPostToolUse, hookBody(hookPostToolUse, "", "{}"), now)
		if p, _ := after.Wait.Holds(); !p {
			t.Errorf("an unmatched result released %q", body)
		}
		if end := applyHook(after.Next, after.Wait, hookStop, hookBody(hookStop, "", "{}"), now); len(end.Wait.Pending) != 0 {
			t.Errorf("Stop left %+v", end.Wait)
		}
	}
}

// procBuffer is a Proc that keeps what is written to it.
type procBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (p *procBuffer) Read([]byte) (int, error) { select {} }
func (p *procBuffer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.Write(b)
}
func (p *procBuffer) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}
func (p *procBuffer) Resize(int, int) error { return nil }
func (p *procBuffer) Wait() (int, error)    { select {} }
func (p *procBuffer) Kill() error           { return nil }
func (p *procBuffer) Close() error          { return nil }
func (p *procBuffer) Pid() int              { return 4242 }

// reportRig is a Manager with one running seat of kind, whose PTY is a
// procBuffer; its events are logged.
func reportRig(t *testing.T, kind config.Kind) (*Manager, *Seat, *procBuffer, *eventLog) {
	t.Helper()
	m, err := NewManager(ManagerOptions{Sessions: nopSessions{}, Accounts: func(string) (config.Account, bool) { return config.Account{}, false },
		PullceptPath: "/bin/pullcept"})
	if err != nil {
		t.Fatal(err)
	}
	events := newEventLog(m)
	proc := &procBuffer{}
	run, err := m.kinds[kind].Prepare(context.Background(), &cli.Launching{Topic: "t", Account: config.Account{ID: "cc", Kind: kind},
		Launch: &launch.Launch{}, Getenv: func(string) string { return "" }, Logger: m.logger})
	if err != nil {
		t.Fatal(err)
	}
	s := &Seat{Topic: "t", Account: "cc", kind: kind, proc: proc, state: StateRunning, run: run,
		done: make(chan struct{}), pumped: make(chan struct{})}
	s.updated = func() { m.emit(SeatUpdated{Topic: s.Topic, Account: s.Account}) }
	s.typist = NewTypist(proc, TypistOptions{Ready: true, OnChange: s.updated})
	m.mu.Lock()
	m.seats[seatKey{"t", "cc"}] = s
	m.mu.Unlock()
	t.Cleanup(func() {
		_ = s.typist.Close()
		m.events.Close()
	})
	return m, s, proc, events
}

func hookReport(event, tool string) room.Report {
	return room.Report{Kind: room.ReportActivity, Event: event, Body: hookBody(event, tool, `{"command":"make test"}`)}
}

// TestReportedHoldsPostsDuringPermission: while the seat's CLI waits for a
// permission answer, a room post is not typed. The human's answer in the
// pane does not type it either — the key may not have reached the dialog,
// and text typed while it closes is lost — but the CLI's next hook does:
// the tool's result after an allow, the next prompt after a denial. The
// seat's info shows the activity and the held post meanwhile.
func TestReportedHoldsPostsDuringPermission(t *testing.T) {
	for _, tc := range []struct {
		name, key, next string
	}{
		{"allowed", "\r", hookPostToolUse},
		{"denied", "\x1b", hookUserPromptSubmit},
		{"failed", "1", hookPostToolUseFailure},
		{"turn over", "n", hookStop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s, proc, events := reportRig(t, config.KindClaudeCode)
			if !m.Reported("t", "cc", hookReport(hookPermissionRequest, "Bash")) {
				t.Fatal("a running Claude seat refused its hook")
			}
			events.wait(t, "SeatUpdated", func(e Event) bool { _, ok := e.(SeatUpdated); return ok })
			m.Enqueue("t", "cc", room.Post{MessageID: "m1", Role: room.RoleAdmin, Speaker: "Alice", Content: "hi", TS: "2026-12-01T09:00:00.000Z"})
			testkit.Eventually(t, "the post held, shown in the seat's info", func() bool {
				in := s.info()
				return in.Activity.Kind == cli.ActivityPermission && in.Activity.Tool == "Bash" && in.Typing.Queued == 1 &&
					slices.Equal(in.Typing.Holds, []string{cli.HoldPermission})
			})
			if err := s.Input([]byte(tc.key)); err != nil { // the human answers in the pane
				t.Fatal(err)
			}
			testkit.Eventually(t, "the answer noted", func() bool {
				in := s.info()
				return in.Activity.Kind == cli.ActivityThinking && slices.Equal(in.Typing.Holds, []string{cli.HoldAnswered})
			})
			if strings.Contains(proc.String(), "[pullcept]") || s.info().Typing.Queued != 1 {
				t.Fatal("a post was typed on the answer, before the CLI went on")
			}
			m.Reported("t", "cc", hookReport(tc.next, "Bash"))
			testkit.Eventually(t, "the held post typed after "+tc.next, func() bool {
				return strings.Contains(proc.String(), `"message_id":"m1"`) && strings.HasSuffix(proc.String(), "\r")
			})
		})
	}
}

// TestKeysIntoTheDialogAreNotUnsentText: keys typed while the permission
// dialog shows go to the dialog, not the input line: after the answer and
// the tool's result a post is typed at once, not held for a submit that
// never comes (breaker review: a stray "a" before Enter held posts).
func TestKeysIntoTheDialogAreNotUnsentText(t *testing.T) {
	m, s, proc, _ := reportRig(t, config.KindClaudeCode)
	m.Reported("t", "cc", hookReport(hookPermissionRequest, "Bash"))
	for _, k := range []string{"a", "\t", "\r"} {
		if err := s.Input([]byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	m.Reported("t", "cc", hookReport(hookPostToolUse, "Bash"))
	m.Reported("t", "cc", hookReport(hookStop, ""))
	m.Enqueue("t", "cc", room.Post{MessageID: "m2", Role: room.RoleAdmin, Speaker: "Alice", Content: "hi", TS: "2026-12-01T09:00:00.000Z"})
	testkit.Eventually(t, "the post typed", func() bool {
		return strings.Contains(proc.String(), `"message_id":"m2"`) && strings.HasSuffix(proc.String(), "\r")
	})
	// Once the dialog is gone, keys are the input line's again.
	if err := s.Input([]byte("x")); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the human's text seen as unsent", func() bool { return s.info().Typing.Unsent })
}

// TestReportedRefusals: hooks for no seat, an exited seat, or a kind that
// sends no hooks are refused; a status report stores the usage.
func TestReportedRefusals(t *testing.T) {
	m, s, _, _ := reportRig(t, config.KindClaudeCode)
	if m.Reported("t", "nobody", hookReport(hookStop, "")) || m.Reported("other", "cc", hookReport(hookStop, "")) {
		t.Fatal("a hook for no seat was taken")
	}
	status := `{"model":{"display_name":"Opus 5"},"rate_limits":{"five_hour":{"used_percentage":40,"resets_at":1796100000}}}`
	if !m.Reported("t", "cc", room.Report{Kind: room.ReportStatus, Body: json.RawMessage(status)}) {
		t.Fatal("the status report was refused")
	}
	u := s.info().Usage
	if u.Model != "Opus 5" || u.FiveHour == nil || *u.FiveHour != 40 || !u.FiveHourResets.Equal(time.Unix(1796100000, 0)) || u.At.IsZero() {
		t.Fatalf("usage = %+v", u)
	}
	s.mu.Lock()
	s.state = StateExited
	s.mu.Unlock()
	if m.Reported("t", "cc", hookReport(hookStop, "")) {
		t.Fatal("a hook for an exited seat was taken")
	}
	if got := s.info().Usage; got.Model != "Opus 5" {
		t.Fatalf("the last known usage did not outlive the exit: %+v", got)
	}
	cli, _, _, _ := reportRig(t, config.KindCLI)
	if cli.Reported("t", "cc", hookReport(hookStop, "")) {
		t.Fatal("a generic CLI seat took a Claude hook")
	}
}

// TestBarePermissionRequestHolds: the room hands an oversize hook on as its
// bare event; a bare PermissionRequest still starts the hold, tool unknown.
func TestBarePermissionRequestHolds(t *testing.T) {
	t.Parallel()
	step := applyHook(cli.Activity{}, cli.PermWait{}, hookPermissionRequest, []byte(`{"hook_event_name":"PermissionRequest"}`), time.Unix(1796100000, 0))
	if p, _ := step.Wait.Holds(); !p || step.Next.Kind != cli.ActivityPermission || step.Next.Tool != "" {
		t.Fatalf("step = %+v", step)
	}
}
