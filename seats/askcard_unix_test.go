//go:build unix

package seats

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// closedLog records the cards a Manager closes (ManagerOptions.AskClosed).
type closedLog struct {
	mu  sync.Mutex
	ids []uint64
}

func (l *closedLog) add(topic, account string, id uint64) {
	l.mu.Lock()
	l.ids = append(l.ids, id)
	l.mu.Unlock()
}

func (l *closedLog) got() []uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ids)
}

// cardRig is reportRig with the Manager closing cards into a log.
func cardRig(t *testing.T) (*Manager, *Seat, *procBuffer, *closedLog) {
	t.Helper()
	m, s, proc, _ := reportRig(t, config.KindClaudeCode)
	closed := &closedLog{}
	m.opts.AskClosed = closed.add
	s.asksClosed = func(ids []uint64) { m.closeAsks(s, ids) }
	return m, s, proc, closed
}

func askReport(tool, input string, ask uint64) room.Report {
	return room.Report{Kind: room.ReportActivity, Event: "PermissionRequest", Body: hookBody("PermissionRequest", tool, input), Ask: ask}
}

// TestCardsCloseWhenThePaneAnswers: a request's card closes when its
// dialog is known answered in the pane (the only one open), when its
// tool's result or the turn's end shows the CLI went on, and when the
// seat ends; the cards of requests still open stay. A key with several
// dialogs open closes no card: which one it answered is unknown until a
// tool's result says so (TestPaneKeyOutOfOrder).
func TestCardsCloseWhenThePaneAnswers(t *testing.T) {
	m, s, _, closed := cardRig(t)
	m.Reported("t", "cc", askReport("Read", `{"file_path":"/a"}`, 1))
	if err := s.Input([]byte("1")); err != nil { // answers the only dialog
		t.Fatal(err)
	}
	if got := closed.got(); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("closed %v after the only dialog's answer in the pane, want [1]", got)
	}
	m.Reported("t", "cc", askReport("Read", `{"file_path":"/b"}`, 2))
	m.Reported("t", "cc", askReport("Bash", `{"command":"ls"}`, 3))
	if err := s.Input([]byte("1")); err != nil { // answers one of two
		t.Fatal(err)
	}
	if got := closed.got(); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("closed %v after one answer of two dialogs, want [1]", got)
	}
	m.Reported("t", "cc", hookReport("PostToolUse", "Read")) // another input: no request of these
	m.Reported("t", "cc", room.Report{Kind: room.ReportActivity, Event: "PostToolUse", Body: hookBody("PostToolUse", "Read", `{"file_path":"/b"}`)})
	if got := closed.got(); !slices.Equal(got, []uint64{1, 2}) {
		t.Fatalf("closed %v after the second Read's result, want [1 2]", got)
	}
	s.mu.Lock()
	open := s.perm.OpenAsks()
	s.mu.Unlock()
	if !slices.Equal(open, []uint64{3}) {
		t.Fatalf("open cards %v, want [3]", open)
	}
	m.Reported("t", "cc", hookReport("Stop", ""))
	if got := closed.got(); !slices.Equal(got, []uint64{1, 2, 3}) {
		t.Fatalf("closed %v after Stop", got)
	}
}

// TestPaneKeyOutOfOrder: Claude Code shows its dialogs in its own order,
// not the order their requests reach the room (measured with the real CLI
// on a busy machine: the first dialog's request arrived second). One key
// in the pane answers the dialog shown, and the tool that then runs says
// which: the other dialog is still open, so its card stays and posts are
// held for the permission. Before, the key was taken for the first
// request's answer: its card closed while its dialog was on screen, and
// the seat said "answered" with a dialog open.
func TestPaneKeyOutOfOrder(t *testing.T) {
	m, s, proc, closed := cardRig(t)
	m.Reported("t", "cc", askReport("Read", `{"file_path":"/b"}`, 1)) // shown second
	m.Reported("t", "cc", askReport("Read", `{"file_path":"/a"}`, 2)) // shown first
	m.Enqueue("t", "cc", room.Post{MessageID: "m1", Role: room.RoleAdmin, Speaker: "Alice", Content: "hi", TS: "2026-12-01T09:00:00.000Z"})
	if err := s.Input([]byte("\r")); err != nil { // answers /a's dialog
		t.Fatal(err)
	}
	if got := closed.got(); len(got) != 0 {
		t.Fatalf("closed %v on a key of two dialogs, want none until a result says which", got)
	}
	m.Reported("t", "cc", room.Report{Kind: room.ReportActivity, Event: "PostToolUse", Body: hookBody("PostToolUse", "Read", `{"file_path":"/a"}`)})
	if got := closed.got(); !slices.Equal(got, []uint64{2}) {
		t.Fatalf("closed %v once /a ran, want [2] (/b's dialog is still open)", got)
	}
	if in := s.info(); in.Activity.Kind != cli.ActivityPermission || !slices.Equal(in.Typing.Holds, []string{cli.HoldPermission}) {
		t.Fatalf("/b's dialog is open: activity %+v, holds %v", in.Activity, in.Typing.Holds)
	}
	if err := s.Input([]byte("\r")); err != nil { // answers /b's dialog
		t.Fatal(err)
	}
	if got := closed.got(); !slices.Equal(got, []uint64{2, 1}) {
		t.Fatalf("closed %v after the second answer, want [2 1]", got)
	}
	if h := s.info().Typing.Holds; !slices.Equal(h, []string{cli.HoldAnswered}) {
		t.Fatalf("both answered, /b to run: holds %v", h)
	}
	m.Reported("t", "cc", room.Report{Kind: room.ReportActivity, Event: "PostToolUse", Body: hookBody("PostToolUse", "Read", `{"file_path":"/b"}`)})
	testkit.Eventually(t, "the post typed once both Reads ran", func() bool {
		return strings.Contains(proc.String(), `"message_id":"m1"`)
	})
}

// TestCardAnswerHolds: the human's answer on a card counts as the
// dialog's answer (docs/design.md §11): posts are no longer held for the
// permission but until the CLI goes on — an allowed tool's result, or,
// for a denial (its tool never runs), the CLI's next hook of any kind.
// Another dialog still open keeps the permission hold, and the pane's
// next key answers that one, not the one answered on its card.
func TestCardAnswerHolds(t *testing.T) {
	m, s, proc, closed := cardRig(t)
	m.Reported("t", "cc", askReport("Read", `{"file_path":"/a"}`, 1))
	m.Reported("t", "cc", askReport("Bash", `{"command":"ls"}`, 2))
	m.Enqueue("t", "cc", room.Post{MessageID: "m1", Role: room.RoleAdmin, Speaker: "Alice", Content: "hi", TS: "2026-12-01T09:00:00.000Z"})
	m.PermissionAnswered("t", "cc", 2, false) // the second, denied on its card
	in := s.info()
	if in.Activity.Kind != cli.ActivityPermission || in.Activity.Tool != "Read" || !slices.Equal(in.Typing.Holds, []string{cli.HoldPermission}) {
		t.Fatalf("after the card's answer, with another dialog open: %+v %v", in.Activity, in.Typing.Holds)
	}
	if err := s.Input([]byte("\r")); err != nil { // the pane answers the Read
		t.Fatal(err)
	}
	if got := closed.got(); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("closed %v, want the Read's card only (the Bash one was answered on its card)", got)
	}
	testkit.Eventually(t, "held until the CLI goes on", func() bool {
		return slices.Equal(s.info().Typing.Holds, []string{cli.HoldAnswered})
	})
	m.Reported("t", "cc", room.Report{Kind: room.ReportActivity, Event: "PostToolUse", Body: hookBody("PostToolUse", "Read", `{"file_path":"/a"}`)})
	testkit.Eventually(t, "the post typed once the Read ran and the CLI went on past the denial", func() bool {
		return strings.Contains(proc.String(), `"message_id":"m1"`)
	})

	// Allowed on its card: held until its own tool's result.
	m.Reported("t", "cc", askReport("Bash", `{"command":"make"}`, 3))
	m.PermissionAnswered("t", "cc", 3, true)
	m.Reported("t", "cc", hookReport("PreToolUse", "Other"))
	if h := s.info().Typing.Holds; !slices.Equal(h, []string{cli.HoldAnswered}) {
		t.Fatalf("an allowed request ended before its tool's result: %v", h)
	}
	m.Reported("t", "cc", room.Report{Kind: room.ReportActivity, Event: "PostToolUse", Body: hookBody("PostToolUse", "Bash", `{"command":"make"}`)})
	if h := s.info().Typing.Holds; len(h) != 0 {
		t.Fatalf("held after the allowed tool's result: %v", h)
	}
	m.PermissionAnswered("t", "cc", 99, true) // unknown: nothing
	m.PermissionAnswered("x", "cc", 3, true)
}

// TestCardOverTheSeatsBound: a request the seat cannot keep (more than
// maxPermWait open) has its card closed at once.
func TestCardOverTheSeatsBound(t *testing.T) {
	m, _, _, closed := cardRig(t)
	for i := range cli.MaxPermWait + 1 {
		m.Reported("t", "cc", askReport("Read", `{"file_path":"/x"}`, uint64(i+1)))
	}
	if got := closed.got(); !slices.Equal(got, []uint64{cli.MaxPermWait + 1}) {
		t.Fatalf("closed %v, want the one over the bound", got)
	}
}
