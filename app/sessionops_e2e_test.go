//go:build linux || darwin

package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/app/sessionops"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// Session operations end to end (issue 18): two real Claude Code seats, Lin
// and Lay, in one topic; the fake model makes Lin call the session tools.
const (
	opsLin = "lin"
	opsLay = "lay"
	// opsOrder is the body of a human post that makes Lin's model act:
	// "op <action> <account> <operation id>".
	opsOrder = "op "
)

// opsModel is the fake model of both seats. A post "op restart lay ID"
// makes it call list_account_sessions, then control_account_session with
// the target's ids from the list (expected_pty_id = its current pty_id),
// then end the turn; any other post gets a short answer.
func opsModel(r *fakeapi.Request) fakeapi.Reply {
	if len(r.OutputSchema) > 0 {
		return fakeapi.Script{}.Decide(r) // the title side request
	}
	post, ok := r.LatestPost()
	if !ok || !strings.HasPrefix(post.Body, opsOrder) || !forMe(post) {
		return fakeapi.TextReply("Noted.")
	}
	results := r.NewResults()
	if len(results) == 0 && strings.HasPrefix(post.Body, opsOrder+"retry") {
		// The same call again, word for word, as a model retries.
		for i := len(r.Messages) - 1; i >= 0; i-- {
			for _, c := range r.Messages[i].Calls {
				if strings.HasSuffix(c.FullName(), "__"+room.ToolControlSession) {
					return fakeapi.Reply{Call: &fakeapi.ToolCall{Tool: c.Tool, Input: c.Input}}
				}
			}
		}
		return fakeapi.TextReply("nothing to retry")
	}
	if len(results) == 0 {
		return callSessionTool(r, room.ToolListSessions, nil)
	}
	last := results[len(results)-1]
	if last.Call == nil || !strings.HasSuffix(last.Call.FullName(), "__"+room.ToolListSessions) {
		return fakeapi.TextReply("Asked: " + last.Text)
	}
	f := strings.Fields(strings.TrimPrefix(post.Body, opsOrder))
	if len(f) != 3 {
		return fakeapi.TextReply("bad order")
	}
	var list room.SessionList
	if err := json.Unmarshal([]byte(last.Text), &list); err != nil {
		return fakeapi.TextReply("unreadable list: " + last.Text)
	}
	op := room.SessionOperation{OperationID: f[2], Action: f[0], AccountID: f[1]}
	for _, s := range list.Seats {
		if s.AccountID == f[1] {
			op.TopicID, op.ExpectedPtyID = s.TopicID, s.PtyID
		}
	}
	return callSessionTool(r, room.ToolControlSession, op)
}

// forMe: the post names the seat it was typed into among its addressees
// (the tag's "you"; every seat gets every post).
func forMe(p fakeapi.TaggedPost) bool {
	var tag struct {
		You string `json:"you"`
	}
	_ = json.Unmarshal([]byte(strings.TrimPrefix(p.TagLine, "[pullcept] ")), &tag)
	return tag.You != "" && slices.Contains(p.Tag.To, tag.You)
}

// callSessionTool calls the room tool named tool (its full mcp__… name
// from the request's tool list).
func callSessionTool(r *fakeapi.Request, tool string, args any) fakeapi.Reply {
	for _, t := range r.Tools {
		if strings.HasSuffix(t.FullName(), "__"+tool) {
			return fakeapi.CallTool(t, args)
		}
	}
	return fakeapi.TextReply("no tool " + tool)
}

// opsSetup is what an App of this test needs: its data dir with
// config.json, the Claude environment and the pullcept binary.
type opsSetup struct {
	Dir      string   `json:"dir"`
	Topic    string   `json:"topic"`
	Env      []string `json:"env"`
	Pullcept string   `json:"pullcept"`
}

// newOpsSetup starts the fake model and writes config.json: the admin and
// two Claude Code accounts in their own working dirs, default permission
// mode (the session tools are allowed by the launch's --settings).
func newOpsSetup(t *testing.T) (opsSetup, *fakeapi.Server) {
	t.Helper()
	claude := fakeapi.CLIPath(t, fakeapi.CLIClaude)
	fake, err := fakeapi.New(fakeapi.Options{Respond: opsModel})
	if err != nil {
		t.Fatal(err)
	}
	base, err := fake.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Close() })
	var works []string
	for range 2 {
		w, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		works = append(works, w)
	}
	env, _ := fakeapi.ClaudeEnv(t, base, works...)
	dir := t.TempDir()
	cfg := map[string]any{"accounts": []any{
		map[string]any{"id": "admin", "name": "Alice", "kind": "admin"},
		map[string]any{"id": opsLin, "name": "Lin", "kind": "claude_code", "cwd": works[0], "command": claude},
		map[string]any{"id": opsLay, "name": "Lay", "kind": "claude_code", "cwd": works[1], "command": claude},
	}}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return opsSetup{Dir: dir, Env: env, Pullcept: fakecli.PullceptBinary(t)}, fake
}

// open opens the App of s with the options the test adds.
func (s opsSetup) open(o openOptions) (*App, error) {
	o.pullceptPath = s.Pullcept
	o.environ = func() []string { return s.Env }
	return openApp(s.Dir, "test", o)
}

// seatBoth starts Lin and Lay in topic and waits until both launches sat
// down in the room and Lay had a turn (Claude Code writes its transcript
// then: a restart needs it). Errors instead of t: the kill test's child
// process runs it too.
func seatBoth(a *App, topic string) error {
	for _, id := range []string{opsLin, opsLay} {
		if _, err := a.seats.Start(topic, id, 160, 50); err != nil {
			return err
		}
	}
	if err := within(mcpRigClaude, "both seats in the room", func() bool {
		return launchJoined(a, topic, opsLin) && launchJoined(a, topic, opsLay)
	}); err != nil {
		return err
	}
	if _, err := a.hub.Post(topic, room.Draft{Content: "hello", To: []string{"Lay"}}); err != nil {
		return err
	}
	return within(mcpRigClaude, "Lay's transcript", func() bool {
		return a.seats.NextStart(topic, opsLay) == seats.OutlookResumes
	})
}

func launchJoined(a *App, topic, account string) bool {
	s, ok := a.seats.Seat(topic, account)
	return ok && s.State() != seats.StateExited && a.hub.LaunchJoined(topic, opsSeat(a, topic, account).PtyID)
}

func opsSeat(a *App, topic, account string) seats.SeatInfo {
	for _, in := range a.seats.Seats(topic) {
		if in.Account == account {
			return in
		}
	}
	return seats.SeatInfo{}
}

// within polls cond until it holds or d passed.
func within(d time.Duration, what string, cond func() bool) error {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %v: %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// appNotices are the app notices in topic's log.
func appNotices(t *testing.T, a *App, topic string) []room.Post {
	t.Helper()
	hist, _, err := a.hub.History(topic, "", room.HistoryMax)
	if err != nil {
		t.Fatal(err)
	}
	var out []room.Post
	for _, p := range hist {
		if p.Role == room.RoleApp {
			out = append(out, p)
		}
	}
	return out
}

// newest is the message id of topic's newest post: the human has seen it.
func newest(t *testing.T, a *App, topic string) string {
	t.Helper()
	hist, _, err := a.hub.History(topic, "", 1)
	if err != nil || len(hist) == 0 {
		t.Fatal(hist, err)
	}
	return hist[len(hist)-1].MessageID
}

func readOpsLedger(t *testing.T, dir string) map[string]room.SessionRecord {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, sessionops.FileName))
	if errors.Is(err, os.ErrNotExist) {
		return nil // nothing accepted yet
	}
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Operations []room.SessionRecord `json:"operations"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]room.SessionRecord{}
	for _, r := range f.Operations {
		out[r.OperationID] = r
	}
	return out
}

// TestSeatRestartsAnotherSeat (issue 18): Lin's model restarts Lay through
// the real Claude Code and the sidecar. Lay resumes the same conversation
// under a new pty id, its new launch joins the room, one notice in the
// room reads "Lin restarted Lay (succeeded)" with the operation id, and
// the ledger was written before the stop. The same order again (the same
// operation id) returns the record and starts nothing.
func TestSeatRestartsAnotherSeat(t *testing.T) {
	setup, fake := newOpsSetup(t)
	var mu sync.Mutex
	var atRun []room.SessionRecord
	a, err := setup.open(openOptions{beforeSessionOp: func(rec room.SessionRecord) {
		// The record is on disk, as running, before anything stops.
		mu.Lock()
		atRun = append(atRun, readOpsLedger(t, setup.Dir)[rec.OperationID])
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	topic := a.store.NewTopicID()
	if err := a.hub.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	if err := seatBoth(a, topic); err != nil {
		t.Fatal(err)
	}
	before := opsSeat(a, topic, opsLay)
	conv, _ := a.store.Session(topic, opsLay)

	order := func(what string) {
		res, err := a.hub.Post(topic, room.Draft{Content: opsOrder + what, To: []string{"Lin"}, LastSeen: newest(t, a, topic)})
		if err != nil || !res.Delivered {
			t.Fatal(res, err)
		}
	}
	order("restart lay restart-lay-01")
	var rec room.SessionRecord
	testkit.EventuallyWithin(t, mcpRigClaude, "the restart finished", func() bool {
		rec = readOpsLedger(t, setup.Dir)["restart-lay-01"]
		return rec.State == sessionops.StateProcessStarted || rec.State == sessionops.StateFailed
	})
	after := opsSeat(a, topic, opsLay)
	if rec.State != sessionops.StateProcessStarted || rec.PtyID != after.PtyID || after.PtyID == before.PtyID ||
		rec.ExpectedPtyID != before.PtyID || rec.Requester != opsLin {
		t.Fatalf("record %+v; Lay's launch %s → %s", rec, before.PtyID, after.PtyID)
	}
	if now, _ := a.store.Session(topic, opsLay); now != conv || after.SessionID != conv || !slices.Contains(after.Argv, "--resume") {
		t.Fatalf("Lay did not resume conversation %s: recorded %s, argv %q", conv, now, after.Argv)
	}
	if len(atRun) != 1 || atRun[0].State != sessionops.StateRunning {
		t.Fatalf("the ledger when the operation ran: %+v", atRun)
	}
	testkit.EventuallyWithin(t, mcpRigClaude, "Lay's new launch in the room", func() bool {
		return a.hub.LaunchJoined(topic, after.PtyID)
	})
	want := "Lin restarted Lay (succeeded). (no reply needed)\noperation_id: restart-lay-01"
	testkit.Eventually(t, "the notice", func() bool { return len(appNotices(t, a, topic)) == 1 })
	if n := appNotices(t, a, topic)[0]; n.Content != want {
		t.Fatalf("notice %q, want %q", n.Content, want)
	}
	// Lin's model saw the acceptance as the tool's answer.
	testkit.EventuallyWithin(t, mcpRigClaude, "Lin's model read the answer", func() bool {
		return slices.ContainsFunc(fake.Exchanges(), func(ex fakeapi.Exchange) bool {
			return ex.Reply.Text != "" && strings.HasPrefix(ex.Reply.Text, "Asked: ") && strings.Contains(ex.Reply.Text, `"operation_id": "restart-lay-01"`)
		})
	})

	order("retry") // the same call again: the record, nothing new
	t.Cleanup(func() { dumpOps(t, a, topic, fake) })
	checkRetry(t, a, topic, fake, after.PtyID)
}

// checkRetry: the word-for-word retry was answered with the finished
// record (its pty id, the launch in the room), touched no seat and posted
// no second notice.
func checkRetry(t *testing.T, a *App, topic string, fake *fakeapi.Server, pty string) {
	t.Helper()
	var answers []string
	testkit.EventuallyWithin(t, mcpRigClaude, "the retry answered", func() bool {
		answers = nil
		for _, ex := range fake.Exchanges() {
			if strings.HasPrefix(ex.Reply.Text, "Asked: ") {
				answers = append(answers, ex.Reply.Text)
			}
		}
		return len(answers) == 2
	})
	if ans := answers[1]; !strings.Contains(ans, `"state": "process_started"`) || !strings.Contains(ans, `"pty_id": "`+pty+`"`) ||
		!strings.Contains(ans, `"room_connected": true`) {
		t.Fatalf("the retry's answer:\n%s", ans)
	}
	if again := opsSeat(a, topic, opsLay); again.PtyID != pty || again.State == seats.StateExited {
		t.Fatalf("the retry touched Lay: %s → %s (%v)", pty, again.PtyID, again.State)
	}
	if n := len(appNotices(t, a, topic)); n != 1 {
		t.Fatalf("%d notices after the retry, want 1", n)
	}
}

// dumpOps logs, when the test failed, what the fake model was asked and
// answered, the topic's posts and each seat's screen.
func dumpOps(t *testing.T, a *App, topic string, fake *fakeapi.Server) {
	if !t.Failed() {
		return
	}
	for _, ex := range fake.Exchanges() {
		if ex.Request.ModelCall {
			p, _ := ex.Request.LatestPost()
			t.Logf("request %d (%s): latest post %q; reply %+v", ex.Request.Seq, ex.Request.Session, p.Body, ex.Reply)
		}
	}
	hist, _, err := a.hub.History(topic, "", 50)
	for _, p := range hist {
		t.Logf("history: %s %s → %v: %q", p.MessageID, p.Speaker, p.To, p.Content)
	}
	t.Logf("history err %v", err)
	for _, in := range a.seats.Seats(topic) {
		s, _ := a.seats.Seat(topic, in.Account)
		t.Logf("%s %v typing %+v screen:\n%s", in.Account, in.State, in.Typing, s.Screen().Text())
	}
}

// TestOperationStopRacesHumanStart (issue 18): a seat's stop of Lay and the
// human's start of Lay, at once, both through the lifecycle lock: either
// order ends cleanly — the record is stopped, the human's start either
// found Lay running (ErrSeatTaken) or started it after the stop, and Lay's
// state agrees.
func TestOperationStopRacesHumanStart(t *testing.T) {
	setup, _ := newOpsSetup(t)
	a, err := setup.open(openOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	topic := a.store.NewTopicID()
	if err := a.hub.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	if err := seatBoth(a, topic); err != nil {
		t.Fatal(err)
	}
	b := NewBackend(a)
	defer b.Close()
	lin, lay := opsSeat(a, topic, opsLin), opsSeat(a, topic, opsLay)
	who := room.Requester{Account: opsLin, Topic: topic, Launch: lin.PtyID}
	humanErr := make(chan error, 1)
	go func() {
		_, err := b.StartSeat(topic, opsLay, 160, 50)
		humanErr <- err
	}()
	if _, err := a.ops.Control(who, room.SessionOperation{OperationID: "stop-lay", Action: room.ActionStop, AccountID: opsLay, TopicID: topic}); err != nil {
		t.Fatal(err)
	}
	herr := <-humanErr
	var rec room.SessionRecord
	testkit.EventuallyWithin(t, mcpRigClaude, "the stop finished", func() bool {
		rec, _ = a.ops.Status(who, "stop-lay")
		return rec.State == sessionops.StateStopped || rec.State == sessionops.StateFailed
	})
	now := opsSeat(a, topic, opsLay)
	switch {
	case rec.State != sessionops.StateStopped:
		t.Fatalf("record %+v", rec)
	case errors.Is(herr, seats.ErrSeatTaken): // the human first: Lay ran, then the stop
		if now.State != seats.StateExited || now.PtyID != lay.PtyID {
			t.Fatalf("human start refused, then stop: Lay %v %s", now.State, now.PtyID)
		}
	case herr == nil: // the stop first, then the human's start
		if now.State == seats.StateExited || now.PtyID == lay.PtyID {
			t.Fatalf("stop, then human start: Lay %v %s (was %s)", now.State, now.PtyID, lay.PtyID)
		}
	default:
		t.Fatalf("the human's start: %v", herr)
	}
	// The record is saved before its notice is posted (Ops.finish): wait
	// for the notice, then there must be exactly one.
	testkit.Eventually(t, "the notice", func() bool { return len(appNotices(t, a, topic)) >= 1 })
	if n := len(appNotices(t, a, topic)); n != 1 {
		t.Fatalf("%d notices, want 1", n)
	}
}

// opsChildSetup is the child's setup file: the App's, and the file it
// writes once the operation is held before running (its seats' pids).
type opsChildSetup struct {
	opsSetup
	Marker string `json:"marker"`
}

// opsChild is the kill test's child: it opens the App, seats Lin and Lay,
// has the human order Lin to restart Lay, and when the operation is about
// to run writes the marker and blocks until the parent SIGKILLs it.
func opsChild(path string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "session-operations child:", err)
		return 1
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fail(err)
	}
	var s opsChildSetup
	if err := json.Unmarshal(b, &s); err != nil {
		return fail(err)
	}
	var a *App
	a, err = s.open(openOptions{beforeSessionOp: func(rec room.SessionRecord) {
		pids := []int{opsSeat(a, s.Topic, opsLin).Pid, opsSeat(a, s.Topic, opsLay).Pid}
		out, _ := json.Marshal(map[string]any{"operation": rec.OperationID, "state": rec.State, "pids": pids})
		_ = os.WriteFile(s.Marker, out, 0o600)
		select {} // held until killed
	}})
	if err != nil {
		return fail(err)
	}
	if err := a.hub.OpenRoom(s.Topic); err != nil {
		return fail(err)
	}
	if err := seatBoth(a, s.Topic); err != nil {
		return fail(err)
	}
	if _, err := a.hub.Post(s.Topic, room.Draft{Content: opsOrder + "restart lay kill-01", To: []string{"Lin"}}); err != nil {
		return fail(err)
	}
	select {}
}

// TestKilledMidOperationIsInterrupted (issue 18): Pullcept (a child
// process running the App with both seats) is SIGKILLed while Lin's
// restart of Lay is recorded as running; the next App on the same data
// dir finds the record interrupted, runs nothing and posts nothing.
func TestKilledMidOperationIsInterrupted(t *testing.T) {
	setup, _ := newOpsSetup(t)
	setup.Topic = logstore.NewTopicID()
	child := opsChildSetup{opsSetup: setup, Marker: filepath.Join(t.TempDir(), "marker.json")}
	b, _ := json.Marshal(child)
	path := filepath.Join(t.TempDir(), "child.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), opsChildEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var marker struct {
		Operation string `json:"operation"`
		State     string `json:"state"`
		Pids      []int  `json:"pids"`
	}
	testkit.EventuallyWithin(t, 3*mcpRigClaude, "the operation held before it runs", func() bool {
		select {
		case err := <-exited:
			t.Fatalf("the child exited: %v\n%s", err, stderr.String())
		default:
		}
		b, err := os.ReadFile(child.Marker)
		return err == nil && json.Unmarshal(b, &marker) == nil
	})
	if marker.Operation != "kill-01" || marker.State != sessionops.StateRunning {
		t.Fatalf("held %+v", marker)
	}
	_ = cmd.Process.Kill() // SIGKILL: no Close, nothing saved at the end
	<-exited
	// Its seats lose their terminal with it (SIGHUP); wait for them, so
	// the next App's data dir is the child's alone.
	for _, pid := range marker.Pids {
		testkit.EventuallyWithin(t, mcpRigClaude, fmt.Sprintf("seat process %d gone", pid), func() bool {
			return syscall.Kill(pid, 0) != nil
		})
	}
	if rec := readOpsLedger(t, setup.Dir)["kill-01"]; rec.State != sessionops.StateRunning {
		t.Fatalf("on disk after the kill: %+v", rec)
	}
	a, err := setup.open(openOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := readOpsLedger(t, setup.Dir)["kill-01"]
	if rec.State != sessionops.StateInterrupted || rec.Error == "" || rec.PtyID != "" {
		t.Fatalf("after the restart: %+v", rec)
	}
	if len(a.seats.Seats("")) != 0 {
		t.Fatal("the interrupted operation ran again")
	}
	if hist, _, _ := a.hub.History(setup.Topic, "", room.HistoryMax); slices.ContainsFunc(hist, func(p room.Post) bool { return p.Role == room.RoleApp }) {
		t.Fatalf("a notice was posted: %+v", hist)
	}
}
