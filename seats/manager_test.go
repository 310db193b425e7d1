//go:build unix

package seats

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// managerWait bounds every wait on a fake CLI seat: a -race test binary
// re-executing itself in a PTY starts in well under a second; 30 s leaves
// room for a 2-core box that other engineers load too.
var managerWait = testkit.Slow(30 * time.Second)

// The room a Manager unit test points seats at. No room listens there: the
// fake CLIs of these tests do not start their sidecar, and the tests play
// the room's part (SidecarJoined, SidecarReady, Enqueue) themselves.
var managerRoom = RoomEndpoint{URL: "ws://127.0.0.1:9/room", HooksURL: "http://127.0.0.1:9", Token: "test-token"}

const managerTopic = "topic-1"

// eventLog drains a Manager subscription until it closes, so the tests can
// wait on what was emitted.
type eventLog struct {
	mu      sync.Mutex
	events  []Event
	changed chan struct{} // closed and replaced on every event
	done    chan struct{}
}

func newEventLog(m *Manager) *eventLog {
	l := &eventLog{changed: make(chan struct{}), done: make(chan struct{})}
	sub := m.Subscribe()
	go func() {
		defer close(l.done)
		for e := range sub.C() {
			l.mu.Lock()
			l.events = append(l.events, e)
			close(l.changed)
			l.changed = make(chan struct{})
			l.mu.Unlock()
		}
	}()
	return l
}

// wait returns the first event that satisfies match, failing t after
// managerWait.
func (l *eventLog) wait(t *testing.T, what string, match func(Event) bool) Event {
	t.Helper()
	deadline := time.After(managerWait)
	for {
		l.mu.Lock()
		for _, e := range l.events {
			if match(e) {
				l.mu.Unlock()
				return e
			}
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no event %s within %v; got %+v", what, managerWait, l.snapshot())
		}
	}
}

func (l *eventLog) snapshot() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// changes returns the SeatChanged events of account, in order.
func (l *eventLog) changes(account string) []SeatInfo {
	var out []SeatInfo
	for _, e := range l.snapshot() {
		if c, ok := e.(SeatChanged); ok && c.Info.Account == account {
			out = append(out, c.Info)
		}
	}
	return out
}

// accountBook is a mutable account list for ManagerOptions.Accounts.
type accountBook struct {
	mu sync.Mutex
	m  map[string]config.Account
}

func (b *accountBook) get(id string) (config.Account, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.m[id]
	return a, ok
}

func (b *accountBook) put(a config.Account) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[a.ID] = a
}

// managerRig is a Manager over a real topic log with fake CLI accounts.
type managerRig struct {
	m      *Manager
	store  *logstore.Store
	book   *accountBook
	events *eventLog
	dir    string // scratch directory of the test
}

func newManagerRig(t *testing.T) *managerRig {
	t.Helper()
	dir := t.TempDir()
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		t.Fatalf("open log store: %v", err)
	}
	book := &accountBook{m: map[string]config.Account{}}
	m, err := NewManager(ManagerOptions{
		Sessions:     store,
		Accounts:     book.get,
		PullceptPath: fakecli.Command(t),
		Environ:      os.Environ,
	})
	if err != nil {
		t.Fatalf("NewManager: %v", err)
	}
	m.SetRoom(managerRoom)
	r := &managerRig{m: m, store: store, book: book, events: newEventLog(m), dir: dir}
	t.Cleanup(func() {
		m.Close()
		<-r.events.done
		if err := store.Close(); err != nil {
			t.Errorf("close store: %v", err)
		}
	})
	return r
}

// fakeAccount adds a generic CLI account running the fake CLI with opts
// (fakecli.Main's flags) in its own working directory.
func (r *managerRig) fakeAccount(t *testing.T, id, opts string) config.Account {
	t.Helper()
	work := filepath.Join(r.dir, "work-"+id)
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	a := fakecli.Account(t, id, strings.ToUpper(id[:1])+id[1:], work, opts)
	r.book.put(a)
	return a
}

// waitDone waits for the seat's process to be reaped.
func waitDone(t *testing.T, s *Seat) {
	t.Helper()
	select {
	case <-s.Done():
	case <-time.After(managerWait):
		t.Fatalf("seat %s: not exited within %v", s.Account, managerWait)
	}
}

func readArgv(t *testing.T, path string) []string {
	t.Helper()
	var argv []string
	testkit.Eventually(t, "the fake CLI's argv file", func() bool {
		b, err := os.ReadFile(path)
		return err == nil && json.Unmarshal(b, &argv) == nil
	})
	return argv
}

func TestManagerStartStopFreesLedger(t *testing.T) {
	r := newManagerRig(t)
	argvFile := filepath.Join(r.dir, "argv.json")
	a := r.fakeAccount(t, "echo", "-argv "+config.QuoteWord(argvFile)+" {session_id}")

	res, s := startRecordedInLedger(t, r, a, argvFile)
	if _, err := r.m.Start(managerTopic, a.ID, 100, 30); !errors.Is(err, ErrSeatTaken) {
		t.Errorf("second Start = %v, want ErrSeatTaken", err)
	}
	if !r.m.Running(a.ID) {
		t.Error("Running = false while the seat runs")
	}
	stopFreesPlace(t, r, a, s)
	restartFresh(t, r, a, s, res)
}

// startRecordedInLedger starts a fresh seat of a and checks the session id
// on its command line and its running record in the ledger.
func startRecordedInLedger(t *testing.T, r *managerRig, a config.Account, argvFile string) (StartResult, *Seat) {
	t.Helper()
	res, err := r.m.Start(managerTopic, a.ID, 100, 30)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if res.Resumed || res.SessionID == "" || res.Dropped != "" {
		t.Fatalf("StartResult = %+v, want a fresh start with a new session id", res)
	}
	argv := readArgv(t, argvFile)
	if argv[len(argv)-1] != res.SessionID {
		t.Errorf("argv = %q, want the session id %q last", argv, res.SessionID)
	}
	entries := r.m.ledger.List("")
	if len(entries) != 1 || !entries[0].Running || entries[0].Topic != managerTopic || entries[0].Account != a.ID {
		t.Fatalf("ledger = %+v, want one running seat", entries)
	}
	rec := entries[0].Record
	s, ok := r.m.Seat(managerTopic, a.ID)
	if !ok {
		t.Fatal("Seat: not found")
	}
	if rec.Pid != s.info().Pid || rec.Dir != a.WorkDir || !slices.Equal(rec.Argv, argv) || rec.Started.IsZero() {
		t.Errorf("ledger record = %+v, want pid %d, dir %s, argv %q", rec, s.info().Pid, a.WorkDir, argv)
	}
	return res, s
}

// stopFreesPlace stops seat s and checks that Stop returns with the process
// reaped and the place free, and that the exited seat takes nothing.
func stopFreesPlace(t *testing.T, r *managerRig, a config.Account, s *Seat) {
	t.Helper()
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if got := r.m.ledger.List(""); len(got) != 0 {
		t.Errorf("ledger after Stop = %+v, want empty", got)
	}
	if in := s.info(); in.State != StateExited || !in.Requested {
		t.Errorf("after Stop: %+v, want exited and requested", in)
	}
	if err := s.Input([]byte("x")); !errors.Is(err, ErrNoSeat) {
		t.Errorf("Input after exit = %v, want ErrNoSeat", err)
	}
	if r.m.Enqueue(managerTopic, a.ID, room.Post{MessageID: "m-1", Content: "x"}) {
		t.Error("Enqueue to an exited seat = true")
	}
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Errorf("Stop of an exited seat = %v, want nil", err)
	}
}

// restartFresh starts a's seat again at once in its freed place. The
// generic CLI has no resume line, so it starts fresh with a new id, and the
// events come in order: starting, exited (requested), starting.
func restartFresh(t *testing.T, r *managerRig, a config.Account, old *Seat, first StartResult) {
	t.Helper()
	res, err := r.m.Start(managerTopic, a.ID, 100, 30)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	if res.Resumed || res.SessionID == "" || res.SessionID == first.SessionID {
		t.Errorf("restart = %+v, want fresh with a new id (first %s)", res, first.SessionID)
	}
	if id, _ := r.store.Session(managerTopic, a.ID); id != res.SessionID {
		t.Errorf("recorded session = %q, want %q", id, res.SessionID)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	if s == old {
		t.Fatal("restart kept the old seat")
	}
	r.events.wait(t, "second seat starting", func(e Event) bool {
		c, ok := e.(SeatChanged)
		return ok && c.Info.Pid == s.info().Pid && c.Info.State == StateStarting
	})
	ch := r.events.changes(a.ID)
	if len(ch) < 3 || ch[0].State != StateStarting || ch[1].State != StateExited || !ch[1].Requested || ch[2].State != StateStarting {
		t.Errorf("SeatChanged events = %+v, want starting, exited (requested), starting", ch)
	}
}

func TestManagerSeatExitingByItselfIsReported(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "quitter", "-exit 5")
	if _, err := r.m.Start(managerTopic, a.ID, 0, 0); err != nil {
		t.Fatalf("Start: %v", err)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	waitDone(t, s)
	e := r.events.wait(t, "exit", func(e Event) bool {
		c, ok := e.(SeatChanged)
		return ok && c.Info.State == StateExited
	}).(SeatChanged)
	if e.Info.ExitCode != 5 || e.Info.Requested || e.Info.Err != nil {
		t.Errorf("exit event = %+v, want code 5, not requested, no error", e.Info)
	}
	if got := r.m.ledger.List(""); len(got) != 0 {
		t.Errorf("ledger after exit = %+v, want empty", got)
	}
	if r.m.Running(a.ID) {
		t.Error("Running = true after the exit")
	}

	// A seat that exits on a typed line reports that line's status.
	b := r.fakeAccount(t, "typist", "")
	if _, err := r.m.Start(managerTopic, b.ID, 0, 0); err != nil {
		t.Fatalf("Start: %v", err)
	}
	s, _ = r.m.Seat(managerTopic, b.ID)
	testkit.Eventually(t, "the fake CLI's prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
	if err := s.Input([]byte("exit 9\r")); err != nil {
		t.Fatalf("Input: %v", err)
	}
	waitDone(t, s)
	if in := s.info(); in.ExitCode != 9 || in.Requested || in.State != StateExited {
		t.Errorf("after typed exit: %+v, want code 9, not requested", in)
	}
	// The last output before the exit is on the screen (the PTY was
	// drained before it closed).
	if txt := s.Screen().Text(); !strings.Contains(txt, "exit 9") {
		t.Errorf("screen after exit lacks the echoed line:\n%s", txt)
	}
}

func TestManagerResumedSeatExitingBeforeJoiningLosesRecord(t *testing.T) {
	r := newManagerRig(t)
	argvFile := filepath.Join(r.dir, "argv.json")
	a := r.fakeAccount(t, "resumer", "-argv "+config.QuoteWord(argvFile)+" session {session_id}")
	bin := config.QuoteWord(fakecli.Command(t))
	a.ResumeLine = bin + " -argv " + config.QuoteWord(argvFile) + " -exit 3 resume {session_id}"
	r.book.put(a)

	first, err := r.m.Start(managerTopic, a.ID, 0, 0)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if id, _ := r.store.Session(managerTopic, a.ID); id != first.SessionID {
		t.Fatalf("record after a user stop = %q, want %q (a stop is never a failure)", id, first.SessionID)
	}

	// The resume line runs with the recorded id and dies before joining.
	res, err := r.m.Start(managerTopic, a.ID, 0, 0)
	if err != nil {
		t.Fatalf("resume Start: %v", err)
	}
	if !res.Resumed || res.SessionID != first.SessionID || !strings.Contains(res.Preview, "resume "+first.SessionID) {
		t.Fatalf("resume StartResult = %+v, want resumed %s", res, first.SessionID)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	waitDone(t, s)
	n := r.events.wait(t, "the dropped-record notice", func(e Event) bool {
		_, ok := e.(SeatNotice)
		return ok
	}).(SeatNotice)
	if !n.Error || !strings.Contains(n.Text, first.SessionID) || n.Account != a.ID {
		t.Errorf("notice = %+v, want an error naming %s", n, first.SessionID)
	}
	if id, ok := r.store.Session(managerTopic, a.ID); ok {
		t.Errorf("record after a resumed seat died unjoined = %q, want none", id)
	}

	// The next start is fresh.
	fresh, err := r.m.Start(managerTopic, a.ID, 0, 0)
	if err != nil {
		t.Fatalf("fresh Start: %v", err)
	}
	if fresh.Resumed || fresh.SessionID == "" || fresh.SessionID == first.SessionID {
		t.Errorf("after the drop: %+v, want a fresh id", fresh)
	}
	if err := r.m.Stop(managerTopic, a.ID); err != nil {
		t.Fatalf("Stop: %v", err)
	}

	// A resumed seat that joined the room, or that the user stopped, keeps
	// its record whatever its exit.
	a.ResumeLine = bin + " resume {session_id}"
	r.book.put(a)
	for _, how := range []string{"joined then exited", "stopped before joining"} {
		res, err := r.m.Start(managerTopic, a.ID, 0, 0)
		if err != nil || !res.Resumed || res.SessionID != fresh.SessionID {
			t.Fatalf("%s: resume = %+v, %v; want resumed %s", how, res, err, fresh.SessionID)
		}
		s, _ := r.m.Seat(managerTopic, a.ID)
		testkit.Eventually(t, "the fake CLI's prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
		if how == "joined then exited" {
			r.m.SidecarJoined(managerTopic, a.ID)
			if st := s.State(); st != StateRunning {
				t.Errorf("state after SidecarJoined = %v, want running", st)
			}
			if err := s.Input([]byte("exit 4\r")); err != nil {
				t.Fatal(err)
			}
			waitDone(t, s)
		} else if err := r.m.Stop(managerTopic, a.ID); err != nil {
			t.Fatal(err)
		}
		if id, _ := r.store.Session(managerTopic, a.ID); id != fresh.SessionID {
			t.Errorf("%s: record = %q, want %q kept", how, id, fresh.SessionID)
		}
	}
}

// TestManagerResumedSeatToldOfPostsSinceItStopped: a seat that resumes is
// marked PULLCEPT_UNSEEN_HISTORY when posts came while it was stopped, and
// not when none did (docs/design.md §9, «トピック» #133). The mark is read
// from the seat's .mcp.json entry while it runs.
func TestManagerResumedSeatToldOfPostsSinceItStopped(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "lin", "session {session_id}")
	a.ResumeLine = config.QuoteWord(fakecli.Command(t)) + " resume {session_id}"
	r.book.put(a)
	post := func(id string) {
		t.Helper()
		if err := r.store.Append(managerTopic, logstore.Record{MessageID: id, Speaker: "You", Content: "hello " + id, TS: "2026-10-02T01:14:00.000Z"}); err != nil {
			t.Fatal(err)
		}
	}
	// marked runs the seat that was just started until its prompt, reads
	// whether it was told of unseen posts, and stops it — after it joined,
	// and after lose (if any) left a post in its queue that it never typed.
	marked := func(how string, lose func()) bool {
		t.Helper()
		s, ok := r.m.Seat(managerTopic, a.ID)
		if !ok {
			t.Fatalf("%s: no seat", how)
		}
		testkit.Eventually(t, "the fake CLI's prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
		b, err := os.ReadFile(filepath.Join(a.WorkDir, ".mcp.json"))
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		on := strings.Contains(string(b), room.EnvUnseenHistory)
		r.m.SidecarJoined(managerTopic, a.ID)
		if lose != nil {
			lose()
		}
		if err := r.m.Stop(managerTopic, a.ID); err != nil {
			t.Fatal(err)
		}
		return on
	}
	post("m1")
	if res, err := r.m.Start(managerTopic, a.ID, 0, 0); err != nil || res.Resumed {
		t.Fatalf("fresh Start = %+v, %v", res, err)
	}
	if !marked("fresh in a topic with posts", nil) {
		t.Error("a fresh seat in a topic with posts was not marked")
	}
	// A post the seat never typed (its sidecar joined but was not ready,
	// so the queue held it) is not counted as seen when it stops.
	lost := func() {
		post("m-held")
		if !r.m.Enqueue(managerTopic, a.ID, room.Post{MessageID: "m-held", Speaker: "You", Content: "hello m-held"}) {
			t.Fatal("the post was not queued")
		}
	}
	for _, step := range []struct {
		how   string
		posts bool
		lose  func()
		want  bool
	}{
		{"resumed, nothing since", false, nil, false},
		{"resumed after posts since it stopped", true, nil, true},
		{"resumed again, nothing since", false, lost, false},
		{"resumed after a post it held and never typed", false, nil, true},
	} {
		if step.posts {
			post("m-" + step.how)
		}
		if res, err := r.m.Start(managerTopic, a.ID, 0, 0); err != nil || !res.Resumed {
			t.Fatalf("%s: Start = %+v, %v", step.how, res, err)
		}
		if got := marked(step.how, step.lose); got != step.want {
			t.Errorf("%s: marked %v, want %v", step.how, got, step.want)
		}
	}
}

func TestManagerEnqueueTypesTagAndBody(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "echo", "")
	// Wide enough that the tag line is one row of the screen.
	if _, err := r.m.Start(managerTopic, a.ID, 300, 20); err != nil {
		t.Fatalf("Start: %v", err)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	testkit.Eventually(t, "the fake CLI's prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })

	p := room.Post{MessageID: "6f1c2d8e-1111-4000-8000-000000000001", Role: room.RoleAdmin, Speaker: "Alice",
		Content: "hello world\r\nsecond line", To: []string{"Echo"}, TS: "2026-11-29T01:14:05.000Z"}
	if !r.m.Enqueue(managerTopic, a.ID, p) {
		t.Fatal("Enqueue = false for a running seat")
	}
	if r.m.Enqueue(managerTopic, "nobody", p) || r.m.Enqueue("other-topic", a.ID, p) {
		t.Error("Enqueue = true for a seat that does not exist")
	}
	// Not ready (no sidecar yet): held.
	if st := s.typist.State(); st.Ready || st.Queued != 1 {
		t.Errorf("typing state before ready = %+v, want not ready, one queued", st)
	}
	r.m.SidecarJoined(managerTopic, a.ID)
	r.m.SidecarReady(managerTopic, a.ID)
	tag := room.Tag(p, time.Local)
	testkit.Eventually(t, "the typed post on the screen", func() bool {
		txt := s.Screen().Text()
		return strings.Contains(txt, "got: "+tag) && strings.Contains(txt, "got: hello world") &&
			strings.Contains(txt, "got: second line")
	})
	testkit.Eventually(t, "the queue to empty", func() bool { st := s.typist.State(); return st.Queued == 0 && !st.Typing })
	if got := r.events.changes(a.ID); len(got) < 2 || got[1].State != StateRunning {
		t.Errorf("SeatChanged events = %+v, want starting then running after the join", got)
	}
}

func TestManagerRefusals(t *testing.T) {
	r := newManagerRig(t)
	r.book.put(config.Account{ID: "admin", Name: "Alice", Kind: config.KindAdmin})
	if _, err := r.m.Start(managerTopic, "missing", 0, 0); !errors.Is(err, ErrUnknownAccount) {
		t.Errorf("unknown account: %v, want ErrUnknownAccount", err)
	}
	if _, err := r.m.Start(managerTopic, "admin", 0, 0); !errors.Is(err, ErrNotASeat) {
		t.Errorf("admin account: %v, want ErrNotASeat", err)
	}
	if err := r.m.Stop(managerTopic, "missing"); !errors.Is(err, ErrNoSeat) {
		t.Errorf("Stop of no seat: %v, want ErrNoSeat", err)
	}
	bad := r.fakeAccount(t, "nodir", "")
	bad.WorkDir = filepath.Join(r.dir, "does-not-exist")
	r.book.put(bad)
	if _, err := r.m.Start(managerTopic, bad.ID, 0, 0); err == nil {
		t.Error("Start in a missing working directory succeeded")
	}
	// A failed start leaves the place free and nothing recorded.
	if got := r.m.ledger.List(""); len(got) != 0 {
		t.Errorf("ledger after failed starts = %+v, want empty", got)
	}
	if id, ok := r.store.Session(managerTopic, bad.ID); ok {
		t.Errorf("a failed start recorded session %q", id)
	}

	unset, err := NewManager(ManagerOptions{Sessions: r.store, Accounts: r.book.get, PullceptPath: fakecli.Command(t)})
	if err != nil {
		t.Fatal(err)
	}
	ok := r.fakeAccount(t, "ok", "")
	if _, err := unset.Start(managerTopic, ok.ID, 0, 0); err == nil {
		t.Error("Start before SetRoom succeeded")
	}
	unset.Close()
	if _, err := unset.Start(managerTopic, ok.ID, 0, 0); !errors.Is(err, ErrManagerClosed) {
		t.Errorf("Start after Close: %v, want ErrManagerClosed", err)
	}
	if _, err := NewManager(ManagerOptions{Accounts: r.book.get}); err == nil {
		t.Error("NewManager without Sessions succeeded")
	}
}

// TestManagerConcurrentStarts races starts of one seat: the ledger lets
// exactly one through, and Close racing more starts leaves nothing running.
func TestManagerConcurrentStarts(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "racer", "")
	const n = 6
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.m.Start(managerTopic, a.ID, 0, 0)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	won := 0
	for err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrSeatTaken):
			t.Errorf("Start: %v, want nil or ErrSeatTaken", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d starts succeeded, want exactly 1", won)
	}

	// Close while other accounts start: every Start either fails with
	// ErrManagerClosed or its seat is stopped by Close.
	var started sync.WaitGroup
	for i := range n {
		b := r.fakeAccount(t, "late"+string(rune('a'+i)), "")
		started.Add(1)
		go func() {
			defer started.Done()
			if _, err := r.m.Start(managerTopic, b.ID, 0, 0); err != nil && !errors.Is(err, ErrManagerClosed) {
				t.Errorf("Start during Close: %v", err)
			}
		}()
	}
	r.m.Close()
	started.Wait()
	for _, in := range r.m.Seats("") {
		if in.State != StateExited {
			t.Errorf("seat %s still %v after Close", in.Account, in.State)
		}
	}
	if got := r.m.ledger.List(""); len(got) != 0 {
		t.Errorf("ledger after Close = %+v, want empty", got)
	}
}

// TestManagerSeatKilledBySignal: a seat whose process a signal ended
// (nobody in the app asked) reports ErrKilled naming the signal; a seat the
// user stopped, or that exited with its own code, reports no error.
func TestManagerSeatKilledBySignal(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "victim", "")
	if _, err := r.m.Start(managerTopic, a.ID, 0, 0); err != nil {
		t.Fatalf("Start: %v", err)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	testkit.Eventually(t, "the fake CLI's prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
	if err := syscall.Kill(s.info().Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDone(t, s)
	e := r.events.wait(t, "exit", func(e Event) bool {
		c, ok := e.(SeatChanged)
		return ok && c.Info.State == StateExited
	}).(SeatChanged)
	if !errors.Is(e.Info.Err, ErrKilled) || e.Info.Err.Error() != "killed by signal 9 (exit code 137)" || e.Info.Requested {
		t.Errorf("exit event = %+v (err %v), want killed by signal 9 (exit code 137)", e.Info, e.Info.Err)
	}
	for _, c := range []struct {
		code, signal int
		requested    bool
	}{{137, 9, true}, {5, 0, false}, {128, 0, false}, {130, 0, false}} {
		if err := exitErr(c.code, c.signal, nil, c.requested); err != nil {
			t.Errorf("exitErr(%d, signal %d, requested %v) = %v, want nil", c.code, c.signal, c.requested, err)
		}
	}
}

// TestManagerSeatExit130IsNoKill: a CLI that exits with 130 itself (as
// many do after Ctrl+C) ended with its code, not by a signal; one Ctrl+C
// killed is "killed by signal 2" — isolated and not (the code is 130
// both ways: the seat's init tells them apart, pty.Proc.Signaled).
func TestManagerSeatExit130IsNoKill(t *testing.T) {
	for _, off := range []bool{false, true} {
		for _, tc := range []struct {
			name, keys string
			signal     int
			err        string
		}{
			{"exit 130", "exit 130\r", 0, ""},
			{"ctrl+c", "\x03", 2, "killed by signal 2 (exit code 130)"},
		} {
			t.Run(fmt.Sprintf("isolation off %v/%s", off, tc.name), func(t *testing.T) {
				r := newManagerRig(t)
				r.m.opts.NoIsolation = off
				if !off && !pty.Probe(r.m.opts.PullceptPath).Isolated {
					t.Skip("this machine refuses the namespaces")
				}
				a := r.fakeAccount(t, "quitter", "")
				if _, err := r.m.Start(managerTopic, a.ID, 0, 0); err != nil {
					t.Fatalf("Start: %v", err)
				}
				s, _ := r.m.Seat(managerTopic, a.ID)
				if in := s.info(); in.Isolation.Isolated == off {
					t.Fatalf("isolation %+v with NoIsolation %v", in.Isolation, off)
				}
				testkit.Eventually(t, "the fake CLI's prompt", func() bool { return strings.Contains(s.Screen().Text(), fakecli.Ready) })
				if err := s.Input([]byte(tc.keys)); err != nil {
					t.Fatal(err)
				}
				waitDone(t, s)
				in := r.events.wait(t, "exit", func(e Event) bool {
					c, ok := e.(SeatChanged)
					return ok && c.Info.State == StateExited
				}).(SeatChanged).Info
				got := ""
				if in.Err != nil {
					got = in.Err.Error()
				}
				if in.ExitCode != 130 || in.Signal() != tc.signal || got != tc.err {
					t.Errorf("ended with code %d, Signal %d, err %q; want 130, %d, %q", in.ExitCode, in.Signal(), got, tc.signal, tc.err)
				}
			})
		}
	}
}

// TestSeatInfoShown: a generic CLI shows as running once its process runs
// (it may never join the room); other kinds show starting until their
// sidecar joined.
func TestSeatInfoShown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind  config.Kind
		state State
		want  State
	}{
		{config.KindCLI, StateStarting, StateRunning},
		{config.KindClaudeCode, StateStarting, StateStarting},
		{config.KindCodexCLI, StateStarting, StateStarting},
		{config.KindCLI, StateExited, StateExited},
		{config.KindClaudeCode, StateRunning, StateRunning},
	} {
		mayNotJoin := !newKinds(ManagerOptions{})[c.kind].Joins()
		if got := (SeatInfo{Kind: c.kind, State: c.state, MayNotJoin: mayNotJoin}).Shown(); got != c.want {
			t.Errorf("%s %v shows %v, want %v", c.kind, c.state, got, c.want)
		}
	}
}

// TestManagerPreview: the preview is the line a launch would run, with a
// placeholder session id, the room's addresses, and neither the token nor
// env values; a refusal comes back as a problem, not a line.
func TestManagerPreview(t *testing.T) {
	r := newManagerRig(t)
	work := t.TempDir()
	a := config.Account{Name: "Claude", Kind: config.KindClaudeCode, WorkDir: work, Command: "claude",
		Env: []config.EnvVar{{Name: "SECRET_KEY", Value: "s3cret-value"}}}
	line, problems := r.m.Preview(a)
	if problems = launchProblems(problems); len(problems) != 0 {
		t.Fatalf("problems = %q", problems)
	}
	for _, want := range []string{"claude", "--session-id '" + previewSessionID + "'", launch.MCPKey(previewAccount, previewTopic), managerRoom.HooksURL} {
		if !strings.Contains(line, want) {
			t.Errorf("preview lacks %q:\n%s", want, line)
		}
	}
	for _, secret := range []string{managerRoom.Token, "s3cret-value"} {
		if strings.Contains(line, secret) {
			t.Errorf("preview shows %q:\n%s", secret, line)
		}
	}
	if _, err := os.Stat(filepath.Join(work, ".mcp.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("preview wrote .mcp.json (stat: %v)", err)
	}
	a.LaunchOptions = "--settings {}"
	if line, problems := r.m.Preview(a); line == "" || len(launchProblems(problems)) != 1 || !strings.Contains(problems[0], "--settings") {
		t.Errorf("preview with its own --settings = %q, %q; want the line and why it gets no room settings", line, problems)
	}
	a.LaunchOptions = ""
	a.Env = []config.EnvVar{{Name: room.EnvRoomToken, Value: "x"}}
	if line, problems := r.m.Preview(a); line != "" || len(problems) != 1 {
		t.Errorf("preview with a reserved env name = %q, %q; want a refusal", line, problems)
	}
}

// TestManagerSeatEnvironment: a seat inherits the user's environment but
// not Pullcept's own place in it — its data dir, the tmux pane it runs in,
// an outer Pullcept's room token — and gets its own room variables.
func TestManagerSeatEnvironment(t *testing.T) {
	t.Setenv("TMUX", "/tmp/tmux-0/default,123,0")
	t.Setenv("TMUX_PANE", "%3")
	t.Setenv("TERM", "tmux-256color")
	t.Setenv("TERM_PROGRAM", "tmux")
	t.Setenv("TERM_PROGRAM_VERSION", "3.3a")
	t.Setenv("KITTY_WINDOW_ID", "1")
	t.Setenv("ZELLIJ", "0")
	t.Setenv("WT_SESSION", "b6b8e1c4-0000-0000-0000-000000000000")
	t.Setenv("COLORTERM", "truecolor")
	t.Setenv(config.EnvHome, "/home/u/.pullcept-other")
	t.Setenv(room.EnvRoomToken, "an-outer-pullcepts-token")
	t.Setenv("PULLCEPT_USER_KEEP_TEST", "1")
	t.Setenv("SEAT_ENV_KEEP", "kept")
	r := newManagerRig(t)
	envFile := filepath.Join(r.dir, "env.json")
	a := r.fakeAccount(t, "envy", "-env "+config.QuoteWord(envFile))
	if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
		t.Fatal(err)
	}
	var env []string
	testkit.Eventually(t, "the fake CLI's env file", func() bool {
		b, err := os.ReadFile(envFile)
		return err == nil && json.Unmarshal(b, &env) == nil
	})
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for _, gone := range []string{"TMUX", "TMUX_PANE", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "KITTY_WINDOW_ID", "ZELLIJ",
		"WT_SESSION", config.EnvHome, "PULLCEPT_USER_KEEP_TEST"} {
		if v, ok := got[gone]; ok {
			t.Errorf("the seat inherited %s=%q", gone, v)
		}
	}
	// Its terminal is Pullcept's emulator, whatever Pullcept runs in.
	if got["TERM"] != "xterm-256color" || got["COLORTERM"] != "truecolor" {
		t.Errorf("TERM=%q COLORTERM=%q: want the emulator's xterm-256color and the outer terminal's colours", got["TERM"], got["COLORTERM"])
	}
	if got["SEAT_ENV_KEEP"] != "kept" || got["PATH"] == "" {
		t.Errorf("the user's own variables were not kept: SEAT_ENV_KEEP=%q PATH=%q", got["SEAT_ENV_KEEP"], got["PATH"])
	}
	if got[room.EnvRoomToken] != managerRoom.Token || got[room.EnvLaunchedAs] != a.ID {
		t.Errorf("room token %q, launched as %q: want the seat's own", got[room.EnvRoomToken], got[room.EnvLaunchedAs])
	}
}

// TestManagerGrantsEachSeatItsToken: with RoomEndpoint.Grant each launch
// gets its own token for its account and topic, in its environment only,
// and the token is revoked once the seat's process is gone.
func TestManagerGrantsEachSeatItsToken(t *testing.T) {
	r := newManagerRig(t)
	var mu sync.Mutex
	var granted []string
	revoked := 0
	r.m.SetRoom(RoomEndpoint{URL: managerRoom.URL, HooksURL: managerRoom.HooksURL,
		Grant: func(account, topic, _ string) (string, func(), error) {
			mu.Lock()
			defer mu.Unlock()
			granted = append(granted, account+"@"+topic)
			return "seat-token-" + account, func() {
				mu.Lock()
				revoked++
				mu.Unlock()
			}, nil
		}})
	envFile := filepath.Join(r.dir, "env.json")
	a := r.fakeAccount(t, "tok", "-env "+config.QuoteWord(envFile)+" -exit 0")
	if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
		t.Fatal(err)
	}
	s, _ := r.m.Seat(managerTopic, a.ID)
	waitDone(t, s)
	var env []string
	testkit.Eventually(t, "the env file", func() bool {
		b, err := os.ReadFile(envFile)
		return err == nil && json.Unmarshal(b, &env) == nil
	})
	if !slices.Contains(env, room.EnvRoomToken+"=seat-token-tok") {
		t.Errorf("the seat did not get its own token: %q", env)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(granted, []string{"tok@" + managerTopic}) || revoked != 1 {
		t.Fatalf("granted %q, revoked %d times; want one grant for tok@%s, revoked once", granted, revoked, managerTopic)
	}
}
