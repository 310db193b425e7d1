//go:build unix

package seats

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// The Manager's side of the cli.Adapter contract (seats/cli/adapter.go):
// a launch that does not go live is abandoned once and never goes Live or
// Ended; one that does goes Live once, its Tasks end at Done, and it is
// Ended once (contributed by the breaker review of issue 28).

// spyAdapter wraps the generic adapter and counts what the Manager calls
// on its Runs; block, when set, holds Prepare until closed.
type spyAdapter struct {
	cli.Adapter
	block chan struct{}
	in    chan struct{} // closed once Prepare was entered

	mu                               sync.Mutex
	prepared, live, ended, abandoned int
	tasksRun, tasksEnded             int
	seat                             cli.Seat
}

func (a *spyAdapter) Prepare(ctx context.Context, p *cli.Launching) (cli.Run, error) {
	if a.in != nil {
		close(a.in)
	}
	if a.block != nil {
		<-a.block
	}
	run, err := a.Adapter.Prepare(ctx, p)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.prepared++
	a.mu.Unlock()
	return &spyRun{Run: run, a: a}, nil
}

func (a *spyAdapter) counts() (prepared, live, ended, abandoned, tasksRun, tasksEnded int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.prepared, a.live, a.ended, a.abandoned, a.tasksRun, a.tasksEnded
}

type spyRun struct {
	cli.Run
	a *spyAdapter
}

func (r *spyRun) Tasks(s cli.Seat) []cli.Task {
	return []cli.Task{{Name: "spy", Run: func() {
		r.a.mu.Lock()
		r.a.tasksRun++
		r.a.mu.Unlock()
		<-s.Done()
		r.a.mu.Lock()
		r.a.tasksEnded++
		r.a.mu.Unlock()
	}}}
}
func (r *spyRun) Live(s cli.Seat) {
	r.a.mu.Lock()
	r.a.live++
	r.a.seat = s
	r.a.mu.Unlock()
}
func (r *spyRun) Ended() {
	r.a.mu.Lock()
	r.a.ended++
	r.a.mu.Unlock()
}
func (r *spyRun) Abandon() {
	r.a.mu.Lock()
	r.a.abandoned++
	r.a.mu.Unlock()
}
func (r *spyRun) Report(s cli.Seat, rep room.Report) bool { return true }

func spyRig(t *testing.T) (*managerRig, *spyAdapter, config.Account) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "gen", "")
	spy := &spyAdapter{Adapter: r.m.kinds[config.KindCLI]}
	r.m.kinds[config.KindCLI] = spy
	return r, spy, a
}

// TestRunStopDuringPrepare: Stop while Prepare runs: the start gives
// up, Abandon once, never Live/Ended.
func TestRunStopDuringPrepare(t *testing.T) {
	r, spy, a := spyRig(t)
	spy.block, spy.in = make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() { _, err := r.m.Start(managerTopic, a.ID, 80, 24); errc <- err }()
	<-spy.in
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}
	close(spy.block)
	if err := <-errc; !errors.Is(err, ErrStartStopped) {
		t.Fatalf("start: %v", err)
	}
	p, l, e, ab, _, _ := spy.counts()
	if p != 1 || l != 0 || e != 0 || ab != 1 {
		t.Fatalf("prepared %d live %d ended %d abandoned %d", p, l, e, ab)
	}
}

// TestFailedStartLeavesNoMCPJSON: a start that fails after launch.Prepare
// registered the seat's .mcp.json entry (here its spawn) removes it again:
// no entry is left pointing at the room for a seat that never ran.
func TestFailedStartLeavesNoMCPJSON(t *testing.T) {
	r, spy, a := spyRig(t)
	r.m.spawn = func(pty.Options) (pty.Proc, error) { return nil, errors.New("spawn refused") }
	if _, err := r.m.Start(managerTopic, a.ID, 80, 24); err == nil {
		t.Fatal("start did not fail")
	}
	_, _, _, ab, _, _ := spy.counts()
	if ab != 1 {
		t.Fatalf("abandoned %d", ab)
	}
	b, err := os.ReadFile(filepath.Join(a.WorkDir, ".mcp.json"))
	if err == nil && strings.Contains(string(b), "ws://127.0.0.1:9/room") {
		t.Fatalf("a failed start left its .mcp.json entry behind:\n%s", b)
	}
}

// TestRunCloseDuringPrepare: Manager.Close while a start is in
// Prepare: Close returns, the start fails closed and abandons.
func TestRunCloseDuringPrepare(t *testing.T) {
	r, spy, a := spyRig(t)
	spy.block, spy.in = make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() { _, err := r.m.Start(managerTopic, a.ID, 80, 24); errc <- err }()
	<-spy.in
	closed := make(chan struct{})
	go func() { r.m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(managerWait):
		close(spy.block)
		t.Fatal("Close waited for a start in Prepare")
	}
	close(spy.block)
	if err := <-errc; !errors.Is(err, ErrManagerClosed) {
		t.Fatalf("start: %v", err)
	}
	p, l, e, ab, _, _ := spy.counts()
	if p != 1 || l != 0 || e != 0 || ab != 1 {
		t.Fatalf("prepared %d live %d ended %d abandoned %d", p, l, e, ab)
	}
}

// TestRunLifeCounts: a live seat: Live once, tasks run and end at
// Done, Ended once, never Abandon; a Report after the exit is harmless.
func TestRunLifeCounts(t *testing.T) {
	r, spy, a := spyRig(t)
	if _, err := r.m.Start(managerTopic, a.ID, 80, 24); err != nil {
		t.Fatal(err)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}
	waitDone(t, s)
	spy.mu.Lock()
	h := spy.seat
	spy.mu.Unlock()
	h.Report(func(x *cli.Reported) bool {
		x.Perm = cli.PermWait{Pending: []cli.PermRequest{{Tool: "Bash", Ask: 7}}}
		return true
	})
	r.m.Close()
	p, l, e, ab, tr, te := spy.counts()
	if p != 1 || l != 1 || e != 1 || ab != 0 || tr != 1 || te != 1 {
		t.Fatalf("prepared %d live %d ended %d abandoned %d tasks %d/%d", p, l, e, ab, tr, te)
	}
	if in := s.info(); len(in.Typing.Holds) != 0 {
		t.Logf("an exited seat shows holds after a late report: %v (perm %+v)", in.Typing.Holds, in.Activity)
	}
}

// TestPostsForAStartingSeatAreTyped: a post the room gives a seat whose
// sidecar joined before the seat is listed (a Codex app-server seat; any
// seat restarting) is held and typed once the seat runs, in order, with
// later posts after it (issue 35: under load a starting Codex never got the
// human's first post: Enqueue refused it 267 ms before its start ended).
// A start told to stop takes none.
func TestPostsForAStartingSeatAreTyped(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "echo", "")
	spy := &spyAdapter{Adapter: r.m.kinds[config.KindCLI]}
	r.m.kinds[config.KindCLI] = spy
	spy.block, spy.in = make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() { _, err := r.m.Start(managerTopic, a.ID, 300, 40); errc <- err }()
	<-spy.in
	post := func(id, text string) room.Post {
		return room.Post{MessageID: id, Role: room.RoleAdmin, Speaker: "Alice", Content: text, TS: "2026-12-07T08:00:00.000Z"}
	}
	for _, p := range []room.Post{post("m-1", "first while starting"), post("m-2", "second while starting")} {
		if !r.m.Enqueue(managerTopic, a.ID, p) {
			t.Fatalf("a post for the starting seat was refused: %s", p.Content)
		}
	}
	r.m.SidecarJoined(managerTopic, a.ID) // early, as an app-server seat's sidecar joins
	close(spy.block)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if !r.m.Enqueue(managerTopic, a.ID, post("m-3", "third once listed")) {
		t.Fatal("a post for the running seat was refused")
	}
	r.m.SidecarReady(managerTopic, a.ID)
	s, _ := r.m.Seat(managerTopic, a.ID)
	testkit.Eventually(t, "the three posts typed in order", func() bool {
		txt := s.Screen().Text()
		i, j, k := strings.Index(txt, "got: first while starting"), strings.Index(txt, "got: second while starting"), strings.Index(txt, "got: third once listed")
		return i >= 0 && j > i && k > j
	})

	// A start told to stop takes no post.
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}
	spy.block, spy.in = make(chan struct{}), make(chan struct{})
	go func() { _, err := r.m.Start(managerTopic, a.ID, 300, 40); errc <- err }()
	<-spy.in
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatal(err)
	}
	if r.m.Enqueue(managerTopic, a.ID, post("m-4", "to a start that stops")) {
		t.Error("a start told to stop took a post")
	}
	close(spy.block)
	<-errc
}

// TestEarlyPostsBounded: a starting seat holds at most maxQueuedPosts of
// others' posts, the rest counted in one fold; the human's are all kept.
func TestEarlyPostsBounded(t *testing.T) {
	var ej earlyJoin
	for i := range maxQueuedPosts + 500 {
		ej.hold(room.Post{MessageID: fmt.Sprint("s", i), Role: room.RoleClaudeCode, Content: "x"})
	}
	ej.hold(room.Post{MessageID: "h", Role: room.RoleAdmin, Content: "the human"})
	ej.hold(room.Post{MessageID: "s-late", Role: room.RoleClaudeCode, Content: "x"})
	if len(ej.held) != maxQueuedPosts+3 || ej.held[maxQueuedPosts].fold != 500 ||
		ej.held[maxQueuedPosts+1].p.MessageID != "h" || ej.held[maxQueuedPosts+2].fold != 1 {
		t.Fatalf("held %d entries; fold %d, then %+v, %+v", len(ej.held), ej.held[maxQueuedPosts].fold,
			ej.held[maxQueuedPosts+1], ej.held[maxQueuedPosts+2])
	}
}
