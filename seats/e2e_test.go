//go:build linux || darwin

package seats_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/cli/claude"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// These tests run the seats end to end with the real, pinned Claude Code
// and Codex CLIs (docs/design.md §13):
// our launch lines, .mcp.json, the real CLI in a real PTY, our sidecar (the
// pullcept binary built for the test), the room hub and its loopback
// server, the topic log. The fake model API on loopback is the only fake
// part. Each test has its own data directory, seat directories, HOME,
// CLAUDE_CONFIG_DIR / CODEX_HOME and fake.

// sayCall is the say_to_room call a reply to a post from the fake must carry.
type sayCall struct {
	Content  string `json:"content"`
	LastSeen string `json:"last_seen"`
}

// sayCalls returns the say_to_room calls the fake made a session do.
func sayCalls(exs []fakeapi.Exchange) []sayCall {
	var out []sayCall
	for _, ex := range exs {
		if c := ex.Reply.Call; c != nil && !c.Search && c.IsSayToRoom() {
			var s sayCall
			_ = json.Unmarshal(c.Input, &s)
			out = append(out, s)
		}
	}
	return out
}

// noTypedPost fails t when any request of exs or the seat's screen carries
// post messageID as typed input (a tag line), i.e. it was typed back into
// the seat that said it (docs/design.md §2 "Own posts are never typed back").
func noTypedPost(t *testing.T, name string, exs []fakeapi.Exchange, s *seats.Seat, messageID string) {
	t.Helper()
	for _, ex := range exs {
		if got := carrying(ex.Request, messageID); len(got) > 0 {
			t.Errorf("%s's own post %s was typed back into it: request #%d carries %v", name, messageID, ex.Request.Seq, got)
		}
	}
	if strings.Contains(seatText(s), `"message_id":"`+messageID+`"`) {
		t.Errorf("%s's screen shows its own post %s as a tag:\n%s", name, messageID, seatText(s))
	}
}

// TestE2EClaudeRoundTrip is acceptance 1: the admin's "hello @Ada" reaches
// the real Claude Code as one user message (tag, then "hello"); Ada answers
// with say_to_room; the reply is delivered, logged with Ada as speaker and
// typed into a second seat (a generic CLI whose sidecar joined the room)
// but never back into Ada.
func TestE2EClaudeRoundTrip(t *testing.T) {
	limits := claudeLimits()
	r := newRigWith(t, fakeapi.Options{ClaudeLimits: &limits}, 0)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(gateway(env))
	ada := r.claudeAccount("ada", "Ada")
	linesFile := filepath.Join(r.root, "echo-lines.jsonl")
	echo := r.fakeCLIAccount("echo", "Echo", "-join -lines "+config.QuoteWord(linesFile))

	adaRes, adaSeat := r.start(ada.ID)
	_, echoSeat := r.start(echo.ID)
	r.waitReady(echo.ID, echoSeat)
	r.waitReady(ada.ID, adaSeat)
	roster, err := r.hub.Roster(e2eTopic)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(roster, func(m room.Member) bool {
		return m.AccountID == echo.ID && m.Name == "Echo" && m.Role == room.RoleCLI
	}) {
		t.Errorf("roster %+v: want Echo seated with role cli", roster)
	}

	hello := r.post("hello @Ada")
	if !slices.Equal(hello.To, []string{"Ada"}) || hello.Content != "hello" {
		t.Fatalf("admin post = %+v, want to [Ada] and body %q", hello, "hello")
	}
	reply := r.waitPost("Ada's reply", func(p room.Post) bool { return p.Account == ada.ID })
	if reply.Speaker != "Ada" || reply.Role != room.RoleClaudeCode || reply.Content != "reply to: hello" {
		t.Errorf("Ada's reply = %+v, want speaker Ada, role claude_code, content %q", reply, "reply to: hello")
	}

	// The fake saw the post as the room typed it, then the say_to_room call.
	checkFirstTurn(t, r.sessionCalls(adaRes.SessionID), hello, "hello", "reply to: hello")
	if !strings.Contains(room.Tag(hello, time.Local), `"to":["Ada"]`) {
		t.Errorf("tag %q lacks \"to\":[\"Ada\"]", room.Tag(hello, time.Local))
	}

	// Logged with the seat's name as speaker.
	rec := r.logged(reply.MessageID)
	if rec.Speaker != "Ada" || rec.Account != ada.ID || rec.Content != reply.Content {
		t.Errorf("log record = %+v, want speaker Ada, account ada, the reply", rec)
	}
	if rec := r.logged(hello.MessageID); rec.Speaker != e2eAdminName || !slices.Equal(rec.To, []string{"Ada"}) {
		t.Errorf("log record of the admin's post = %+v", rec)
	}

	// Typed into the second seat: its terminal read the tag line, then the
	// body.
	fakeLines(t, linesFile, echoSeat.Done(), room.Tag(reply, time.Local), reply.Content)
	fakeLines(t, linesFile, echoSeat.Done(), typedTag(hello, "Echo"), "hello")

	// Never back into Ada. Fence: a second post makes Ada's CLI send its
	// whole conversation again, so anything typed into it since is there.
	r.waitStop(ada.ID, time.Time{})
	beforeBye := time.Now()
	bye := r.post("thanks @Ada")
	second := r.waitPost("Ada's second reply", func(p room.Post) bool { return p.Account == ada.ID && p.MessageID != reply.MessageID })
	if second.Content != "reply to: thanks" {
		t.Errorf("second reply = %q, want %q", second.Content, "reply to: thanks")
	}
	exs := r.sessionCalls(adaRes.SessionID)
	var fence *fakeapi.Request
	for _, ex := range exs {
		if len(carrying(ex.Request, bye.MessageID)) > 0 {
			fence = ex.Request
		}
	}
	if fence == nil {
		t.Fatalf("no model call of Ada carries the second post %s", bye.MessageID)
	}
	if len(carrying(fence, hello.MessageID)) != 1 {
		t.Errorf("the fence request does not carry the conversation (first post %s missing)", hello.MessageID)
	}
	noTypedPost(t, "Ada", exs, adaSeat, reply.MessageID)
	checkSeatReports(t, r, ada.ID, exs, beforeBye)
	checkClaudeLimits(t, r, ada.ID, limits)
	noTypedPost(t, "Ada", exs, adaSeat, second.MessageID)
	fakeLines(t, linesFile, echoSeat.Done(), room.Tag(second, time.Local), second.Content)
}

// TestE2EClaudeResume is acceptance 2: the seat stopped and started again
// in the same topic resumes with --resume <id> (same session header at the
// fake, the conversation carried on); with the transcript deleted it starts
// fresh and the record is dropped.
func TestE2EClaudeResume(t *testing.T) {
	r := newRig(t, nil)
	env, setup := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.claudeAccount("ada", "Ada")

	first, hello := claudeFirstTurn(t, r, ada)
	transcript := claude.TranscriptPath(setup.ConfigDir, ada.WorkDir, first.SessionID)
	if _, err := os.Stat(transcript); err != nil {
		t.Fatalf("transcript after the first turn: %v", err)
	}
	r.stopKeepsRecord(ada.ID, first.SessionID)
	claudeResumes(t, r, ada, first.SessionID, hello)

	// The transcript deleted: fresh start, the record dropped.
	if err := r.mgr.Stop(e2eTopic, ada.ID); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if err := os.Remove(transcript); err != nil {
		t.Fatal(err)
	}
	claudeStartsFreshDropping(t, r, ada, first.SessionID)
}

// claudeFirstTurn starts Ada fresh (--session-id, the id recorded) and
// has her answer one post.
func claudeFirstTurn(t *testing.T, r *rig, ada config.Account) (seats.StartResult, room.Post) {
	t.Helper()
	first, s := r.start(ada.ID)
	if first.Resumed || first.SessionID == "" || !strings.Contains(first.Preview, "--session-id "+first.SessionID) {
		t.Fatalf("first start = %+v, want fresh with --session-id", first)
	}
	if id, _ := r.store.Session(e2eTopic, ada.ID); id != first.SessionID {
		t.Fatalf("recorded session = %q, want %q", id, first.SessionID)
	}
	r.waitReady(ada.ID, s)
	hello := r.post("hello @Ada")
	r.waitPost("Ada's reply", func(p room.Post) bool { return p.Account == ada.ID })
	r.waitStop(ada.ID, time.Time{})
	return first, hello
}

// stopKeepsRecord stops account id's seat on the user's request: it exits
// as requested and its session record stays (a stop is never a failure).
func (r *rig) stopKeepsRecord(id, sessionID string) {
	r.t.Helper()
	if err := r.mgr.Stop(e2eTopic, id); err != nil {
		r.t.Fatalf("stop: %v", err)
	}
	if in := r.seatInfo(id); in.State != seats.StateExited || !in.Requested {
		r.t.Fatalf("after Stop: %+v, want exited on request", in)
	}
	if got, _ := r.store.Session(e2eTopic, id); got != sessionID {
		r.t.Fatalf("record after a user stop = %q, want %q kept", got, sessionID)
	}
}

// claudeResumes starts Ada again with her transcript in place: the line
// resumes session, and the next post reaches the model in the same
// conversation, after the first turn's post hello.
func claudeResumes(t *testing.T, r *rig, ada config.Account, session string, hello room.Post) {
	t.Helper()
	res, s := r.start(ada.ID)
	if !res.Resumed || res.SessionID != session || res.Dropped != "" {
		t.Fatalf("restart = %+v, want resumed %s", res, session)
	}
	argv := r.seatInfo(ada.ID).Argv
	if len(argv) < 3 || argv[1] != "--resume" || argv[2] != session || slices.Contains(argv, "--session-id") {
		t.Errorf("resumed argv = %q, want <claude> --resume %s … and no --session-id", argv, session)
	}
	if !strings.Contains(res.Preview, "--resume "+session) {
		t.Errorf("preview %q lacks --resume %s", res.Preview, session)
	}
	r.waitReady(ada.ID, s)
	calls := len(r.sessionCalls(session))
	again := r.post("again @Ada")
	reply := r.waitPost("Ada's reply after the resume", func(p room.Post) bool {
		return p.Account == ada.ID && p.Content == "reply to: again"
	})
	exs := r.sessionCalls(session)[calls:]
	var carried bool
	for _, ex := range exs {
		if len(carrying(ex.Request, again.MessageID)) == 0 {
			continue
		}
		carried = true
		checkTyped(t, ex.Request, again, "again")
		// The resumed conversation goes on: the first post is in it.
		if len(carrying(ex.Request, hello.MessageID)) != 1 {
			t.Errorf("resumed request #%d lacks the first turn's post %s", ex.Request.Seq, hello.MessageID)
		}
	}
	if !carried {
		t.Fatalf("no model call with the resumed session %s carries %s", session, again.MessageID)
	}
	if got := sayCalls(exs); len(got) != 1 || got[0].Content != reply.Content {
		t.Errorf("say_to_room calls after the resume = %+v, want one with %q", got, reply.Content)
	}
	r.waitStop(ada.ID, r.lastStop(ada.ID))
}

// claudeStartsFreshDropping starts Ada with her transcript gone: a fresh
// session, the old record dropped (with a reason) and the new one recorded.
func claudeStartsFreshDropping(t *testing.T, r *rig, ada config.Account, old string) {
	t.Helper()
	fresh, s := r.start(ada.ID)
	if fresh.Resumed || fresh.Dropped != old || fresh.DropReason == "" ||
		fresh.SessionID == "" || fresh.SessionID == old {
		t.Fatalf("start without transcript = %+v, want fresh, %s dropped with a reason", fresh, old)
	}
	if id, _ := r.store.Session(e2eTopic, ada.ID); id != fresh.SessionID {
		t.Errorf("recorded session = %q, want the new %q", id, fresh.SessionID)
	}
	argv := r.seatInfo(ada.ID).Argv
	if slices.Contains(argv, "--resume") || !slices.Contains(argv, fresh.SessionID) {
		t.Errorf("fresh argv = %q, want --session-id %s and no --resume", argv, fresh.SessionID)
	}
	r.waitReady(ada.ID, s)
}

// seatInfo returns the Manager's view of account id's seat in the topic.
func (r *rig) seatInfo(id string) seats.SeatInfo {
	r.t.Helper()
	for _, in := range r.mgr.Seats(e2eTopic) {
		if in.Account == id {
			return in
		}
	}
	r.t.Fatalf("no seat of %s", id)
	return seats.SeatInfo{}
}

// checkSeatReports: the real Claude Code's status line and hooks reached
// its seat through the room (docs/design.md §11): the model it runs, when
// the figures arrived, and an idle activity after its turn begun at
// turnStart; and its
// delivered say_to_room answers told the model the time and its own usage.
func checkSeatReports(t *testing.T, r *rig, id string, exs []fakeapi.Exchange, turnStart time.Time) {
	t.Helper()
	testkit.Eventually(t, id+"'s status line reported", func() bool {
		u := r.seatInfo(id).Usage
		return u.Model != "" && !u.At.IsZero()
	})
	r.waitStop(id, turnStart) // idle once the turn's Stop hook arrived
	var feedback string
	for _, ex := range exs {
		for _, res := range ex.Request.NewResults() {
			if res.Call != nil && res.Call.IsSayToRoom() && strings.HasPrefix(res.Text, "Delivered to the room.") {
				feedback = res.Text
			}
		}
	}
	if !strings.Contains(feedback, "\nNow: ") || !strings.Contains(feedback, "usage") {
		t.Errorf("a delivered say_to_room told the model no time or usage:\n%s", feedback)
	}
}

// claudeLimits are the plan windows the fake of TestE2EClaudeRoundTrip
// sends as Claude's rate-limit headers (0.23 used: 23 %).
func claudeLimits() fakeapi.ClaudeLimits {
	now := time.Now().Truncate(time.Second)
	return fakeapi.ClaudeLimits{
		FiveHour: &fakeapi.ClaudeLimit{Utilization: 0.23, ResetsAt: now.Add(3*time.Hour + 10*time.Minute)},
		SevenDay: &fakeapi.ClaudeLimit{Utilization: 0.41, ResetsAt: now.Add(100 * time.Hour)},
	}
}

// checkClaudeLimits: the seat's usage carries the plan windows the fake
// sent, as Claude Code's status line reported them (rate_limits).
func checkClaudeLimits(t *testing.T, r *rig, id string, want fakeapi.ClaudeLimits) {
	t.Helper()
	// The status line runs again after each reply; the first ones came
	// before any reply carried the headers.
	testkit.Eventually(t, id+"'s status line reported the plan windows", func() bool {
		return r.seatInfo(id).Usage.FiveHour != nil
	})
	u := r.seatInfo(id).Usage
	if u.FiveHour == nil || *u.FiveHour != 23 || u.Weekly == nil || *u.Weekly != 41 {
		t.Errorf("5-hour %v, weekly %v: want 23 and 41 from the fake's headers", u.FiveHour, u.Weekly)
	}
	if !u.FiveHourResets.Equal(want.FiveHour.ResetsAt) || !u.WeeklyResets.Equal(want.SevenDay.ResetsAt) {
		t.Errorf("resets %v, %v; want %v, %v", u.FiveHourResets, u.WeeklyResets, want.FiveHour.ResetsAt, want.SevenDay.ResetsAt)
	}
}

// lastStop is when account id's seat last reported a turn's end, while it
// is idle (zero otherwise), so a later waitStop sees only a newer one.
func (r *rig) lastStop(id string) time.Time {
	if a := r.seatInfo(id).Activity; a.Kind == cli.ActivityIdle {
		return a.Since
	}
	return time.Time{}
}

// TestE2EFloorTwoClaudeSeats is acceptance 3: two real Claude Code seats
// answer the same post at once (the fake holds both answers until both
// seats asked, then releases them together). The floor delivers one; the
// other's say_to_room is rejected with the missed post, and after reading
// it the seat re-sends its kept draft, which is delivered.
func TestE2EFloorTwoClaudeSeats(t *testing.T) {
	f := newFloorFake()
	r := newRig(t, f.respond)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.claudeAccount("ada", "Ada")
	bea := r.claudeAccount("bea", "Bea")
	adaRes, adaSeat := r.start(ada.ID)
	beaRes, beaSeat := r.start(bea.ID)
	f.name(adaRes.SessionID, "Ada")
	f.name(beaRes.SessionID, "Bea")
	r.waitReady(ada.ID, adaSeat)
	r.waitReady(bea.ID, beaSeat)

	task := r.post("who takes the release notes?")
	firstPost := r.waitPost("the first answer", func(p room.Post) bool { return p.Account == ada.ID || p.Account == bea.ID })
	winner, loser, winnerSession, loserSession := ada, bea, adaRes.SessionID, beaRes.SessionID
	if firstPost.Account == bea.ID {
		winner, loser, winnerSession, loserSession = bea, ada, beaRes.SessionID, adaRes.SessionID
	}
	resent := r.waitPost(loser.Name+"'s re-sent draft", func(p room.Post) bool { return p.Account == loser.ID })
	if firstPost.Content != winner.Name+" takes it" || resent.Content != loser.Name+" takes it" {
		t.Errorf("delivered %q then %q, want %q then the loser's draft %q", firstPost.Content, resent.Content,
			winner.Name+" takes it", loser.Name+" takes it")
	}
	checkRejectedThenResent(t, r.sessionCalls(loserSession), loser.Name, firstPost)
	for _, ex := range r.sessionCalls(winnerSession) {
		for _, res := range ex.Request.NewResults() {
			if res.Call != nil && res.Call.IsSayToRoom() && fakeapi.DefaultRejected.MatchString(res.Text) {
				t.Errorf("the winner %s was rejected too: %q", winner.Name, res.Text)
			}
		}
	}
	// The log holds the task, the winner's answer, the loser's re-sent
	// draft, in that order, each once.
	var order []string
	for _, rec := range r.logRecords() {
		order = append(order, rec.MessageID)
	}
	if want := []string{task.MessageID, firstPost.MessageID, resent.MessageID}; !slices.Equal(order, want) {
		t.Errorf("topic log = %q, want %q", order, want)
	}
	if rec := r.logged(resent.MessageID); rec.Speaker != loser.Name {
		t.Errorf("re-sent draft logged as %q, want %q", rec.Speaker, loser.Name)
	}
}

// floorFake is the model of the floor test: each seat answers the newest
// post with say_to_room "<name> takes it", and both answers are held until
// both seats asked, so they reach the floor together.
type floorFake struct {
	script   fakeapi.Script
	together chan struct{} // closed once both seats asked

	mu    sync.Mutex
	names map[string]string // session → seat name
	asked map[string]bool   // sessions that asked about the post
}

func newFloorFake() *floorFake {
	return &floorFake{script: fakeapi.Script{Resend: true}, together: make(chan struct{}),
		names: map[string]string{}, asked: map[string]bool{}}
}

// name tells the fake which seat speaks in session.
func (f *floorFake) name(session, name string) {
	f.mu.Lock()
	f.names[session] = name
	f.mu.Unlock()
}

func (f *floorFake) respond(req *fakeapi.Request) fakeapi.Reply {
	r := withoutSeatPosts(req)
	posts := r.NewPosts()
	sayTool, ok := r.SayTool()
	if len(posts) == 0 || !ok {
		return f.script.Decide(r)
	}
	p := posts[len(posts)-1]
	f.mu.Lock()
	name := f.names[req.Session]
	f.asked[req.Session] = true
	if len(f.asked) == 2 {
		select {
		case <-f.together:
		default:
			close(f.together)
		}
	}
	f.mu.Unlock()
	reply := fakeapi.CallTool(sayTool, fakeapi.SayArgs{Content: name + " takes it", LastSeen: p.Tag.MessageID})
	reply.Hold = f.together
	return reply
}

// checkRejectedThenResent asserts the loser's side of the floor in its model
// calls exs: one rejection listing the winner's post won, then a re-send of
// the kept draft (no content) with last_seen = that post.
func checkRejectedThenResent(t *testing.T, exs []fakeapi.Exchange, loser string, won room.Post) {
	t.Helper()
	var rejected, resend bool
	for _, ex := range exs {
		for _, res := range ex.Request.NewResults() {
			if res.Call == nil || !res.Call.IsSayToRoom() || !fakeapi.DefaultRejected.MatchString(res.Text) {
				continue
			}
			rejected = true
			if !strings.Contains(res.Text, won.MessageID) || !strings.Contains(res.Text, won.Content) {
				t.Errorf("rejection %q does not show the missed post %s %q", res.Text, won.MessageID, won.Content)
			}
			c := ex.Reply.Call
			if c == nil || !c.IsSayToRoom() {
				t.Errorf("after the rejection the fake answered %+v, want the draft re-send", ex.Reply)
				continue
			}
			var args fakeapi.SayArgs
			if err := json.Unmarshal(c.Input, &args); err != nil || args.Content != "" || args.LastSeen != won.MessageID {
				t.Errorf("re-send args = %s, want no content and last_seen %s", c.Input, won.MessageID)
			}
			resend = true
		}
	}
	if !rejected || !resend {
		t.Errorf("%s: rejection seen %v, re-send made %v; want both", loser, rejected, resend)
	}
}

// TestE2EUnsentInputHeld is acceptance 4: while the human has unsent text
// in the seat's terminal, a post to the seat is held; after the human
// presses Enter the post is typed, and the CLI sends the human's text and
// the post as two separate user messages — nothing glued.
func TestE2EUnsentInputHeld(t *testing.T) {
	r := newRig(t, nil)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.claudeAccount("ada", "Ada")
	res, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)

	const human = "partial text"
	if err := s.Input([]byte(human)); err != nil {
		t.Fatal(err)
	}
	e2eUntil(t, "the human's text tracked as unsent", func() bool { return seats.TypingOf(s).Unsent }, s.Done())
	e2eUntil(t, "the human's text on Ada's screen", func() bool { return strings.Contains(s.Screen().Text(), human) }, s.Done())
	hello := r.post("hello @Ada")
	// Held: Deliver enqueued it, and the queue keeps it while text is unsent.
	if st := seats.TypingOf(s); st.Queued != 1 || !st.Unsent || st.Typing {
		t.Fatalf("typing state after the post = %+v, want it queued behind the unsent text", st)
	}
	if strings.Contains(s.Screen().Text(), "[pullcept]") {
		t.Fatalf("the post was typed onto the human's line:\n%s", s.Screen().Text())
	}

	if err := s.Input([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	reply := r.waitPost("Ada's reply", func(p room.Post) bool { return p.Account == ada.ID })
	if reply.Content != "reply to: hello" {
		t.Errorf("reply = %q, want %q", reply.Content, "reply to: hello")
	}
	exs := r.sessionCalls(res.SessionID)
	humanMsg, postMsg := -1, -1
	var last *fakeapi.Request
	for _, ex := range exs {
		for i, m := range ex.Request.Messages {
			if m.Role != fakeapi.RoleUser {
				continue
			}
			for _, text := range m.Texts {
				if strings.Contains(text, human) && strings.Contains(text, "[pullcept]") {
					t.Errorf("request #%d glued the human's text and the post: %q", ex.Request.Seq, text)
				}
				if strings.TrimSpace(text) == human {
					humanMsg = i
				}
			}
		}
		if len(carrying(ex.Request, hello.MessageID)) > 0 {
			last = ex.Request
		}
	}
	if last == nil {
		t.Fatalf("no model call carries the post %s", hello.MessageID)
	}
	checkTyped(t, last, hello, "hello")
	for i := range carrying(last, hello.MessageID) {
		postMsg = i
	}
	if humanMsg < 0 {
		t.Errorf("no user message holds exactly the human's %q", human)
	} else if humanMsg == postMsg {
		t.Errorf("the human's text and the post share user message %d", humanMsg)
	}
	if st := seats.TypingOf(s); st.Queued != 0 || st.Unsent {
		t.Errorf("typing state at the end = %+v, want nothing queued or unsent", st)
	}
}

// TestE2ECodexRoundTripAndResume is acceptance 5: the round trip of
// acceptance 1 with the real Codex CLI (tool_search, then say_to_room), the
// session id recorded by the Manager from the rollout, and after a stop and
// restart `codex resume <id>` still has the room tools: the resumed seat
// answers a post through say_to_room again. All along the seat shows what
// its rollout says (docs/design.md §11): thinking during the turn; then
// the model and effort of its config, Codex's own context figure, the
// plan's 5-hour and weekly limits from the fake's x-codex-* headers, and
// idle. The resumed seat shows nothing of the first run: its figures come
// from its own turn (another effort, another context).
func TestE2ECodexRoundTripAndResume(t *testing.T) {
	f := newCodexUsageFake()
	defer f.release()
	r := newRigWith(t, fakeapi.Options{Respond: f.respond, CodexLimits: f.limits()}, 0)
	cody := r.codexAccount("cody", "Cody")
	setup := fakeapi.CodexSetup{Home: filepath.Join(t.TempDir(), "codex-home"), WorkDirs: []string{cody.WorkDir},
		BaseURL: r.base, Effort: "high"}
	env, err := fakeapi.PrepareCodex(setup)
	if err != nil {
		t.Fatal(err)
	}
	r.setEnv(env)
	linesFile := filepath.Join(r.root, "echo-lines.jsonl")
	echo := r.fakeCLIAccount("echo", "Echo", "-join -lines "+config.QuoteWord(linesFile))

	res, s := r.start(cody.ID)
	if res.Resumed || res.SessionID != "" {
		t.Fatalf("first start = %+v, want fresh (Codex makes its own id)", res)
	}
	if !strings.Contains(res.Preview, "--no-alt-screen") || !strings.Contains(res.Preview, "mcp_servers.") {
		t.Errorf("preview %q lacks the room server or --no-alt-screen", res.Preview)
	}
	_, echoSeat := r.start(echo.ID)
	r.waitReady(echo.ID, echoSeat)
	r.waitReady(cody.ID, s)

	posted := time.Now()
	hello := r.post("hello @Cody")
	<-f.held
	e2eUntil(t, "Cody thinking while its answer is held", func() bool {
		return r.seatInfo(cody.ID).Activity.Kind == cli.ActivityThinking
	}, s.Done())
	f.release()
	reply := r.waitPost("Cody's reply", func(p room.Post) bool { return p.Account == cody.ID })
	if reply.Speaker != "Cody" || reply.Role != room.RoleCodexCLI || reply.Content != "reply to: hello" {
		t.Errorf("Cody's reply = %+v, want speaker Cody, role codex_cli, %q", reply, "reply to: hello")
	}
	if rec := r.logged(reply.MessageID); rec.Speaker != "Cody" || rec.Account != cody.ID {
		t.Errorf("log record = %+v, want speaker Cody", rec)
	}
	fakeLines(t, linesFile, echoSeat.Done(), room.Tag(reply, time.Local), reply.Content)
	id := codexSessionRecorded(t, r, cody.ID, s, setup.Home)
	checkFirstTurn(t, r.sessionCalls(id), hello, "hello", "reply to: hello")
	// Hook mode confirms the post from the rollout's user message
	// (docs/design.md §5 "Confirmed delivery").
	e2eUntil(t, "the post confirmed from Cody's rollout", func() bool {
		return seats.TypingOf(s).Confirmed == hello.MessageID
	}, s.Done())
	// 29 100 of gpt-5.5's 258 400 tokens: Codex says "93% left".
	waitCodexUsage(t, r, cody.ID, s, f, codexUsageWant{model: "gpt-5.5", effort: "high", context: 7, after: posted})

	// Stop and resume: the same session, the room tools still there.
	if err := r.mgr.Stop(e2eTopic, cody.ID); err != nil {
		t.Fatalf("stop: %v", err)
	}
	cody.LaunchOptions = "-c model_reasoning_effort=low"
	r.addAccount(cody)
	f.input.Store(130000) // 130 100 tokens: "52% left"
	restarted := time.Now()
	s, second := codexResumes(t, r, cody.ID, id)
	waitCodexUsage(t, r, cody.ID, s, f, codexUsageWant{model: "gpt-5.5", effort: "low", context: 48, after: restarted})
	recordRollout(t, setup.Home, id)
	// The resumed conversation carries the first turn but never Cody's own
	// posts as typed input.
	exs := r.sessionCalls(id)
	noTypedPost(t, "Cody", exs, s, reply.MessageID)
	noTypedPost(t, "Cody", exs, s, second.MessageID)
	fakeLines(t, linesFile, echoSeat.Done(), room.Tag(second, time.Local), second.Content)
}

// codexSessionRecorded waits until the Manager recorded the fresh Codex
// seat's session id from its rollout (under codexHome) and returns it.
func codexSessionRecorded(t *testing.T, r *rig, id string, s *seats.Seat, codexHome string) string {
	t.Helper()
	var session string
	e2eUntil(t, "the Codex session id recorded", func() bool {
		session, _ = r.store.Session(e2eTopic, id)
		return session != ""
	}, s.Done())
	if got := s.SessionID(); got != session {
		t.Errorf("Seat.SessionID = %q, want the recorded %q", got, session)
	}
	if _, ok := codex.Rollout(codexHome, session); !ok {
		t.Errorf("no rollout of the recorded session %s under %s", session, codexHome)
	}
	return session
}

// checkFirstTurn asserts that the first model call carrying post p (in the
// session's calls exs) has it as the room typed it (its body's first line
// bodyLine), and that the session answered once, with say_to_room content
// and last_seen p.
func checkFirstTurn(t *testing.T, exs []fakeapi.Exchange, p room.Post, bodyLine, content string) {
	t.Helper()
	i := slices.IndexFunc(exs, func(ex fakeapi.Exchange) bool { return len(carrying(ex.Request, p.MessageID)) > 0 })
	if i < 0 {
		t.Fatalf("no model call of the session carries %s", p.MessageID)
	}
	checkTyped(t, exs[i].Request, p, bodyLine)
	if calls := sayCalls(exs); len(calls) != 1 || calls[0] != (sayCall{Content: content, LastSeen: p.MessageID}) {
		t.Errorf("say_to_room calls = %+v, want one with %q and last_seen %s", calls, content, p.MessageID)
	}
}

// nothingOfItsOwn: usage u of a launch started at started holds nothing
// that launch reported — no model, effort or report time, and every figure
// received before it started (the launch before's, usagebook.go).
func nothingOfItsOwn(u cli.Usage, started time.Time) bool {
	before := func(p *float64, at time.Time) bool { return p == nil || at.Before(started) }
	return u.Model == "" && u.Effort == "" && u.At.IsZero() &&
		before(u.FiveHour, u.FiveHourAt) && before(u.Weekly, u.WeeklyAt) && before(u.Context, u.ContextAt)
}

// codexResumes starts the stopped Codex seat of account id again: `codex
// resume <session>` with the room server; until a post reaches it, it shows
// no usage or activity of its own (its rollout's earlier lines are the
// first run's) — only the figures of the launch before, dated before its
// start (issue 34 item 16). The resumed seat answers a post through
// say_to_room.
func codexResumes(t *testing.T, r *rig, id, session string) (*seats.Seat, room.Post) {
	t.Helper()
	res, s := r.start(id)
	if !res.Resumed || res.SessionID != session {
		t.Fatalf("restart = %+v, want resumed %s", res, session)
	}
	argv := r.seatInfo(id).Argv
	if len(argv) < 3 || argv[1] != "resume" || argv[2] != session || !slices.ContainsFunc(argv, func(w string) bool {
		return strings.HasPrefix(w, "mcp_servers.")
	}) {
		t.Errorf("resumed argv = %q, want <codex> resume %s … -c mcp_servers.…", argv, session)
	}
	r.waitReady(id, s)
	if in := r.seatInfo(id); !nothingOfItsOwn(in.Usage, in.Started) || in.Activity != (cli.Activity{}) {
		t.Errorf("the resumed seat shows %+v, %+v before its first turn, want nothing of its own", in.Usage, in.Activity)
	}
	calls := len(r.sessionCalls(session))
	again := r.post("again @Cody")
	second := r.waitPost("Cody's reply after the resume", func(p room.Post) bool {
		return p.Account == id && p.Content == "reply to: again"
	})
	exs := r.sessionCalls(session)[calls:]
	if !slices.ContainsFunc(exs, func(ex fakeapi.Exchange) bool { return len(carrying(ex.Request, again.MessageID)) > 0 }) {
		t.Errorf("no model call of the resumed session %s carries %s", session, again.MessageID)
	}
	if got := sayCalls(exs); len(got) != 1 || got[0].Content != second.Content {
		t.Errorf("say_to_room calls after the resume = %+v, want one with %q", got, second.Content)
	}
	return s, second
}

// TestE2EGenericCLISessionID is acceptance 6: a generic CLI seat (the test
// binary's fake CLI, kind cli) with {session_id} in its launch options gets
// the id on its command line: the same id StartResult reports and the topic
// index records. Its sidecar joins the room from the .mcp.json entry.
func TestE2EGenericCLISessionID(t *testing.T) {
	r := newRig(t, nil)
	r.setEnv(os.Environ())
	argvFile := filepath.Join(r.root, "argv.json")
	gen := r.fakeCLIAccount("gen", "Gen", "-join -argv "+config.QuoteWord(argvFile)+" session {session_id}")
	res, s := r.start(gen.ID)
	if res.Resumed || res.SessionID == "" {
		t.Fatalf("start = %+v, want a fresh id", res)
	}
	var argv []string
	e2eUntil(t, "the fake CLI's argv", func() bool {
		b, err := os.ReadFile(argvFile)
		return err == nil && json.Unmarshal(b, &argv) == nil
	}, s.Done())
	if want := []string{"session", res.SessionID}; len(argv) < 2 || !slices.Equal(argv[len(argv)-2:], want) {
		t.Errorf("the CLI's argv = %q, want it to end with %q", argv, want)
	}
	if strings.Contains(strings.Join(argv, " "), config.SessionIDPlaceholder) {
		t.Errorf("argv %q still holds %s", argv, config.SessionIDPlaceholder)
	}
	if id, ok := r.store.Session(e2eTopic, gen.ID); !ok || id != res.SessionID {
		t.Errorf("recorded session = %q, %v; want %q", id, ok, res.SessionID)
	}
	if got := s.SessionID(); got != res.SessionID {
		t.Errorf("Seat.SessionID = %q, want %q", got, res.SessionID)
	}
	if !strings.Contains(res.Preview, "session "+res.SessionID) {
		t.Errorf("preview %q lacks the substituted id", res.Preview)
	}
	r.waitReady(gen.ID, s)
}

// TestE2EPostsBackToBackStaySeparate: two posts delivered at once are typed
// one after the other into a real Claude Code seat; each reaches the model
// in a text of its own (measured when posts were typed unmarked and without
// a pause after the previous "\r": the "\r" and the second post arrived in
// one read and Claude Code sent both posts as ONE text).
func TestE2EPostsBackToBackStaySeparate(t *testing.T) {
	backToBack(t, 0)
}

// TestE2EPostsBackToBackStarved is the back-to-back case with Claude Code
// stopped (SIGSTOP) for 1.5 s from post one's write: it reads post one, its
// "\r" and post two in one read unless the second post waits for the CLI to
// take the first "\r" (TypistOptions.AnswerWait). Before that wait it sent
// both posts as one text every time (issue 28).
func TestE2EPostsBackToBackStarved(t *testing.T) {
	backToBack(t, 1500*time.Millisecond)
}

// backToBack posts two posts back to back to one Claude seat, stopping the
// CLI for stall from the first post's write (0: never), and checks they
// reach its model as two texts.
func backToBack(t *testing.T, stall time.Duration) {
	r := newRig(t, adminOnly(fakeapi.Script{Resend: true}))
	if stall > 0 {
		stallFirstPost(r.mgr, stall)
	}
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.claudeAccount("ada", "Ada")
	res, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)
	one := r.post("one @Ada")
	two := r.post("two @Ada")
	// Ada answers "two" in every case; the answer to "one" may be rejected
	// by the floor (it was written before "two" was read) and then either
	// re-sent or dropped, as the model chooses. Unless Claude Code got both
	// posts as one text: then no such answer comes, and the test says so at
	// once (issue 28: under load Claude Code read post one, its "\r" and
	// post two in one read and dropped the "\r", markers or not; stopping
	// it with SIGSTOP from post one's write for 1.5 s does it every time).
	isReply := func(p room.Post) bool { return p.Account == ada.ID && p.Content == "reply to: two" }
	var merged string
	e2eUntil(t, "Ada's reply to two", func() bool {
		for _, ex := range r.sessionCalls(res.SessionID) {
			for _, texts := range carrying(ex.Request, one.MessageID) {
				for _, text := range texts {
					// The second tag follows "one" on its line: only the
					// first is a tag line, so look for its id.
					if strings.Contains(text, two.MessageID) {
						merged = text
						return true
					}
				}
			}
		}
		return slices.ContainsFunc(r.room.all(), func(e room.Event) bool {
			d, ok := e.(room.PostDelivered)
			return ok && d.Topic == e2eTopic && isReply(d.Post)
		})
	}, s.Done())
	if merged != "" {
		t.Fatalf("Claude Code sent both posts as ONE text: the Enter typed after post one was lost, read in one go "+
			"with post two by a starved CLI (the typing queue typed post two before the CLI took the first "+
			"\"\\r\": TypistOptions.AnswerWait, issue 28): %q", merged)
	}
	r.waitPost("Ada's reply to two", isReply)
	for _, p := range []room.Post{one, two} {
		var found bool
		for _, ex := range r.sessionCalls(res.SessionID) {
			msgs := carrying(ex.Request, p.MessageID)
			if len(msgs) == 0 {
				continue
			}
			found = true
			for i, texts := range msgs {
				for _, text := range texts {
					if posts := fakeapi.FindPosts(text); len(posts) != 1 {
						t.Errorf("request #%d message %d holds %d posts in one text, want 1: %q", ex.Request.Seq, i, len(posts), text)
					}
				}
			}
		}
		if !found {
			t.Errorf("no model call carries post %s", p.MessageID)
		}
	}
	if st := seats.TypingOf(s); st.Queued != 0 {
		t.Errorf("typing state at the end = %+v, want nothing queued", st)
	}
}

// stallFirstPost makes every seat of m stop its CLI's process group
// (SIGSTOP) right after the first post's text is written to it, for d
// (then SIGCONT): a CLI starved across the typing gap.
func stallFirstPost(m *seats.Manager, d time.Duration) {
	seats.RecordSpawns(m, func(_ pty.Options, p pty.Proc) pty.Proc { return &stalledProc{Proc: p, d: d} })
}

type stalledProc struct {
	pty.Proc
	d    time.Duration
	once sync.Once
}

func (p *stalledProc) Write(b []byte) (int, error) {
	n, err := p.Proc.Write(b)
	if bytes.Contains(b, []byte("[pullcept] ")) {
		p.once.Do(func() {
			pgid := p.Pid()
			_ = syscall.Kill(-pgid, syscall.SIGSTOP)
			time.AfterFunc(p.d, func() { _ = syscall.Kill(-pgid, syscall.SIGCONT) })
		})
	}
	return n, err
}
