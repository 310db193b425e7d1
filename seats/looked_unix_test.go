//go:build unix

package seats

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/testdata/fakecli"
)

// noticeLog collects the room notices a Manager posts (AppNotice).
type noticeLog struct {
	mu    sync.Mutex
	texts []string
}

func (n *noticeLog) post(_, text string, _ ...string) (room.Post, error) {
	n.mu.Lock()
	n.texts = append(n.texts, text)
	n.mu.Unlock()
	return room.Post{MessageID: "n-" + time.Now().Format("150405.000000")}, nil
}

func (n *noticeLog) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.texts...)
}

// TestLookedFollowUpSurvivesARestart (issue 34 item 22): the room was
// told to look at a seat's terminal (its resume prompt went unanswered);
// Pullcept restarts (a new Manager over the same data), the seat starts
// again, says nothing at its start, shows the look still out, and its
// first normal answer says it is back — once — and clears the mark.
func TestLookedFollowUpSurvivesARestart(t *testing.T) {
	r := newManagerRig(t)
	notices := &noticeLog{}
	r.m.opts.AppNotice = notices.post // before any seat runs
	a := r.versionAccount(t, "lin", config.KindClaudeCode, versionCLI(t, t.TempDir(), "claude", "2.1.328 (Claude Code)", "", false))
	if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
		t.Fatal(err)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	// The stop (its reset past), the prompt typed at once, no answer in
	// 120 s: "look at its terminal".
	t0 := time.Now()
	step := func(f func(l *limits.Limiter) []limits.Action) { r.m.runLimit(s, f) }
	step(func(l *limits.Limiter) []limits.Action {
		return l.Event(limits.Event{Kind: limits.Stop, ResetsAt: t0.Add(-time.Hour)}, t0)
	})
	step(func(l *limits.Limiter) []limits.Action { return l.Tick(t0) })
	step(func(l *limits.Limiter) []limits.Action { return l.Tick(t0.Add(3 * time.Minute)) })
	if on, err := r.store.Looked(managerTopic, a.ID); !on || err != nil {
		t.Fatalf("look mark after the notice: %v %v (notices %q)", on, err, notices.all())
	}
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}

	// Pullcept starts again: a new Manager over the same store.
	m2, err := NewManager(ManagerOptions{Sessions: r.store, Accounts: r.book.get, PullceptPath: fakecli.Command(t),
		Environ: os.Environ, AppNotice: notices.post})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m2.Close)
	m2.SetRoom(managerRoom)
	before := len(notices.all())
	if _, err := m2.Start(managerTopic, a.ID, 100, 30); err != nil {
		t.Fatal(err)
	}
	s2, _ := m2.Seat(managerTopic, a.ID)
	if !s2.info().Limit.LookAtTerminal {
		t.Error("the restarted seat does not show the look still out")
	}
	if got := notices.all()[before:]; len(got) != 0 {
		t.Errorf("the restarted seat's start said %q", got)
	}
	back := func() {
		m2.runLimit(s2, func(l *limits.Limiter) []limits.Action { return l.Event(limits.Event{Kind: limits.Normal}, time.Now()) })
	}
	back()
	back()
	var said []string
	for _, n := range notices.all()[before:] {
		if strings.Contains(n, "answered again") {
			said = append(said, n)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], `lin answered again; the earlier "look at its terminal" is resolved.`) {
		t.Errorf("after its normal answers the room heard %q, want it back once", notices.all()[before:])
	}
	if on, _ := r.store.Looked(managerTopic, a.ID); on {
		t.Error("the look mark outlived the seat's return")
	}
	if s2.info().Limit.LookAtTerminal {
		t.Error("the panel still shows the look out")
	}
}
