//go:build linux || darwin

package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// Permission cards end to end (issue 19): a real Claude Code seat in
// default permission mode — 2.1.328 starts in auto mode, whose per-command
// check runs on the server; the fake does not answer it and Claude then
// shows a screen of its own with no hook (docs/clis.md §2.10) — and a fake
// model that asks for a Bash call; the human answers through the UI's
// Backend, as the card's keys do.
const (
	cardSeat = "lin"
	// cardRun is the body of a post that makes the model run
	// "touch <root>/<name>": "run <name>".
	cardRun = "run "
)

// cardWait is the room's wait for the human in this test (180 s in the
// app): the no-answer run waits it out, and the answered runs must beat
// it on a loaded box too, so it is scaled like a deadline.
var cardWait = testkit.Slow(6 * time.Second)

// cardRig is an App with one Claude Code seat in default permission mode,
// the UI's Backend and every event it gave the UI.
type cardRig struct {
	t     *testing.T
	a     *App
	b     *Backend
	fake  *fakeapi.Server
	root  string // where the commands touch their files
	topic string

	mu  sync.Mutex
	evs []tui.Event
}

// cardModel runs "touch <root>/<name>" for a post "run <name>" to the
// seat, and answers the command's result, whatever it is, with a text.
func cardModel(root *string) func(*fakeapi.Request) fakeapi.Reply {
	return func(r *fakeapi.Request) fakeapi.Reply {
		if len(r.OutputSchema) > 0 {
			return fakeapi.Script{}.Decide(r) // the title side request
		}
		if len(r.NewResults()) > 0 {
			return fakeapi.TextReply("Seen.")
		}
		if p, ok := r.LatestPost(); ok && strings.HasPrefix(p.Body, cardRun) {
			name := strings.TrimPrefix(p.Body, cardRun)
			return fakeapi.CallTool(fakeapi.Tool{Name: "Bash"}, map[string]string{
				"command": "touch " + config.QuoteWord(filepath.Join(*root, name)), "description": "Touch " + name})
		}
		return fakeapi.TextReply("Noted.")
	}
}

func newCardRig(t *testing.T) *cardRig {
	t.Helper()
	r := &cardRig{t: t, root: t.TempDir()}
	claude := fakeapi.CLIPath(t, fakeapi.CLIClaude)
	fake, err := fakeapi.New(fakeapi.Options{Respond: cardModel(&r.root)})
	if err != nil {
		t.Fatal(err)
	}
	base, err := fake.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Close() })
	r.fake = fake
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env, _ := fakeapi.ClaudeEnv(t, base, work)
	dir := t.TempDir()
	cfg := map[string]any{"accounts": []any{
		map[string]any{"id": "admin", "name": "Alice", "kind": "admin"},
		map[string]any{"id": cardSeat, "name": "Lin", "kind": "claude_code", "cwd": work, "command": claude,
			"launch_options": "--permission-mode default"},
	}}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, config.FileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	r.a, err = openApp(dir, "test", openOptions{pullceptPath: fakecli.PullceptBinary(t),
		environ: func() []string { return env }, permissionWait: cardWait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.a.Close)
	r.b = NewBackend(r.a)
	done := make(chan struct{})
	go func() { // the UI's bridge: ends when the Backend closes
		defer close(done)
		for {
			evs, ok := r.b.NextEvents(64)
			if !ok {
				return
			}
			r.mu.Lock()
			r.evs = append(r.evs, evs...)
			r.mu.Unlock()
		}
	}()
	t.Cleanup(func() { r.b.Close(); <-done })
	r.topic = r.a.store.NewTopicID()
	if err := r.b.OpenRoom(r.topic); err != nil {
		t.Fatal(err)
	}
	if _, err := r.b.StartSeat(r.topic, cardSeat, 160, 50); err != nil {
		t.Fatal(err)
	}
	testkit.EventuallyWithin(t, mcpRigClaude, "Lin in the room", func() bool { return launchJoined(r.a, r.topic, cardSeat) })
	return r
}

// run posts "run <name>" to Lin and waits for its card.
func (r *cardRig) run(name string) tui.PermissionCard {
	r.t.Helper()
	seen := ""
	if hist, _, err := r.a.hub.History(r.topic, "", 1); err == nil && len(hist) > 0 {
		seen = hist[0].MessageID
	}
	if res, err := r.b.Post(r.topic, room.Draft{Content: cardRun + name, To: []string{"Lin"}, LastSeen: seen}); err != nil || !res.Delivered {
		r.t.Fatal(res, err)
	}
	var card tui.PermissionCard
	testkit.EventuallyWithin(r.t, mcpRigClaude, "the card of "+name, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, ev := range r.evs {
			if a, ok := ev.(tui.PermissionAsked); ok && strings.HasSuffix(a.Card.Summary, name) {
				card = a.Card
				return true
			}
		}
		return false
	})
	return card
}

// closed waits for card id's PermissionClosed.
func (r *cardRig) closed(id uint64) tui.PermissionClosed {
	r.t.Helper()
	var out tui.PermissionClosed
	testkit.EventuallyWithin(r.t, mcpRigClaude, "the card closed", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, ev := range r.evs {
			if c, ok := ev.(tui.PermissionClosed); ok && c.ID == id {
				out = c
				return true
			}
		}
		return false
	})
	return out
}

// result waits for the Bash result the model got for the command touching
// name.
func (r *cardRig) result(name string) fakeapi.ToolResult {
	r.t.Helper()
	var out fakeapi.ToolResult
	testkit.EventuallyWithin(r.t, mcpRigClaude, "the model got the result for "+name, func() bool {
		for _, ex := range r.fake.Exchanges() {
			for _, res := range ex.Request.NewResults() {
				if res.Call != nil && res.Call.Tool.Name == "Bash" && strings.Contains(string(res.Call.Input), name) {
					out = res
					return true
				}
			}
		}
		return false
	})
	return out
}

func (r *cardRig) screen() string {
	s, ok := r.a.seats.Seat(r.topic, cardSeat)
	if !ok {
		return ""
	}
	return s.Screen().Text()
}

// TestE2EPermissionCards: the card appears in the room with the command
// and the CLI's suggestions while the terminal shows its dialog; allowed
// on the card the command runs and the model gets its result; denied with
// a reason it does not run and the model gets the reason; left unanswered,
// after the room's wait the card closes, the terminal's dialog is still
// there and the human's answer in the pane runs the command; the seat
// stopped while its card waits closes the card.
func TestE2EPermissionCards(t *testing.T) {
	r := newCardRig(t)
	r.allowOnCard()
	r.denyOnCard()
	r.answerInThePane()
	checkSeatIsolated(t, r.b, r.topic, cardSeat)
	r.stopWhileAsking()
	r.mu.Lock()
	n := 0
	for _, ev := range r.evs {
		if _, ok := ev.(tui.PermissionAsked); ok {
			n++
		}
	}
	r.mu.Unlock()
	if n != 4 {
		t.Fatalf("%d cards asked, want 4", n)
	}
}

// exists reports whether the command touching name ran.
func (r *cardRig) exists(name string) bool {
	_, err := os.Stat(filepath.Join(r.root, name))
	return err == nil
}

// allowOnCard: the card shows the command while the dialog waits in the
// terminal; allowed on the card, it runs and the model gets its result.
func (r *cardRig) allowOnCard() {
	t := r.t
	card := r.run("allowed")
	if card.Tool != "Bash" || card.Account != cardSeat || card.Topic != r.topic ||
		card.Summary != "touch "+config.QuoteWord(filepath.Join(r.root, "allowed")) || len(card.Suggestions) == 0 {
		t.Fatalf("card %+v", card)
	}
	if cards := r.b.PermissionCards(); len(cards) != 1 || cards[0].ID != card.ID {
		t.Fatalf("the backend holds %+v", cards)
	}
	testkit.EventuallyWithin(t, mcpRigClaude, "the dialog in the terminal", func() bool { return strings.Contains(r.screen(), "Do you want to proceed?") })
	if r.exists("allowed") {
		t.Fatal("the command ran before the answer")
	}
	if info := opsSeat(r.a, r.topic, cardSeat); info.Activity.Kind != cli.ActivityPermission {
		t.Fatalf("Lin's activity %+v, want waiting for permission", info.Activity)
	}
	if err := r.b.AnswerPermission(card.ID, tui.PermissionAnswer{Allow: true}); err != nil {
		t.Fatal(err)
	}
	if c := r.closed(card.ID); c.End != tui.PermissionAnswered || !c.Allowed {
		t.Fatalf("closed %+v", c)
	}
	if res := r.result("allowed"); res.IsError || !r.exists("allowed") {
		t.Fatalf("allowed: the model got %+v, the file is there: %v", res, r.exists("allowed"))
	}
}

// denyOnCard: denied on the card with a reason, the command does not run
// and the model gets the reason; the closed card takes no second answer.
func (r *cardRig) denyOnCard() {
	t := r.t
	card := r.run("denied")
	if err := r.b.AnswerPermission(card.ID, tui.PermissionAnswer{Reason: "not in this repo\nplease"}); err != nil {
		t.Fatal(err)
	}
	if c := r.closed(card.ID); c.End != tui.PermissionAnswered || c.Allowed {
		t.Fatalf("closed %+v", c)
	}
	if res := r.result("denied"); !res.IsError || res.Text != "not in this repo please" {
		t.Fatalf("denied: the model got %+v", res)
	}
	if r.exists("denied") {
		t.Fatal("the denied command ran")
	}
	if err := r.b.AnswerPermission(card.ID, tui.PermissionAnswer{Allow: true}); err == nil {
		t.Fatal("a closed card took a second answer")
	}
}

// answerInThePane: unanswered, the room stops waiting after its wait; the
// terminal's dialog is still there and the human's Enter in the pane runs
// the command.
func (r *cardRig) answerInThePane() {
	t := r.t
	asked := time.Now()
	card := r.run("late")
	if c := r.closed(card.ID); c.End != tui.PermissionTimedOut {
		t.Fatalf("closed %+v", c)
	}
	if waited := time.Since(asked); waited < cardWait-time.Second {
		t.Fatalf("the card closed after %v, before the wait of %v", waited, cardWait)
	}
	if !strings.Contains(r.screen(), "Do you want to proceed?") || r.exists("late") {
		t.Fatalf("after the wait the dialog is gone or the command ran:\n%s", r.screen())
	}
	var pressed time.Time
	testkit.EventuallyWithin(t, mcpRigClaude, "the command allowed in the pane", func() bool {
		if r.exists("late") {
			return true
		}
		if time.Since(pressed) > time.Second { // Claude ignores a key for a moment after its dialog shows
			if err := r.b.SendInput(r.topic, cardSeat, []byte("\r")); err != nil {
				t.Fatal(err)
			}
			pressed = time.Now()
		}
		return false
	})
	if res := r.result("late"); res.IsError {
		t.Fatalf("late: the model got %+v", res)
	}
	if cards := r.b.PermissionCards(); len(cards) != 0 {
		t.Fatalf("cards left: %+v", cards)
	}
}

// stopWhileAsking: the seat ends while its card waits: the card closes; a
// request for the exited seat is refused and opens none.
func (r *cardRig) stopWhileAsking() {
	t := r.t
	card := r.run("gone")
	if err := r.b.StopSeat(r.topic, cardSeat); err != nil {
		t.Fatal(err)
	}
	if c := r.closed(card.ID); c.End != tui.PermissionElsewhere {
		t.Fatalf("closed %+v", c)
	}
	if _, err := r.a.hub.AskPermission(r.topic, cardSeat, []byte(`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`)); !errors.Is(err, room.ErrNoSeat) {
		t.Fatalf("a request for the exited seat: %v", err)
	}
	if cards := r.b.PermissionCards(); len(cards) != 0 || r.exists("gone") {
		t.Fatalf("after the exit: cards %+v, ran %v", cards, r.exists("gone"))
	}
}
