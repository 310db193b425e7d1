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

// hookBody is a hook body as Claude Code sends it: the event, the tool and
// its input (raw JSON).
func hookBody(event, tool, input string) []byte {
	b, _ := json.Marshal(map[string]any{"hook_event_name": event, "tool_name": tool, "tool_input": json.RawMessage(input)})
	return b
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
func (p *procBuffer) Signaled() int         { select {} }
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
		{"allowed", "\r", "PostToolUse"},
		{"denied", "\x1b", "UserPromptSubmit"},
		{"failed", "1", "PostToolUseFailure"},
		{"turn over", "n", "Stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s, proc, events := reportRig(t, config.KindClaudeCode)
			if !m.Reported("t", "cc", hookReport("PermissionRequest", "Bash")) {
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
	m.Reported("t", "cc", hookReport("PermissionRequest", "Bash"))
	for _, k := range []string{"a", "\t", "\r"} {
		if err := s.Input([]byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	m.Reported("t", "cc", hookReport("PostToolUse", "Bash"))
	m.Reported("t", "cc", hookReport("Stop", ""))
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
	if m.Reported("t", "nobody", hookReport("Stop", "")) || m.Reported("other", "cc", hookReport("Stop", "")) {
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
	if m.Reported("t", "cc", hookReport("Stop", "")) {
		t.Fatal("a hook for an exited seat was taken")
	}
	if got := s.info().Usage; got.Model != "Opus 5" {
		t.Fatalf("the last known usage did not outlive the exit: %+v", got)
	}
	for _, k := range []config.Kind{config.KindCLI, config.KindCodexCLI} {
		other, _, _, _ := reportRig(t, k)
		if other.Reported("t", "cc", hookReport("Stop", "")) {
			t.Fatalf("a %s seat took a Claude hook", k)
		}
	}
}
