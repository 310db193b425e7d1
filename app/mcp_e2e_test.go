//go:build linux || darwin

package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/app/localmcp"
	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/fakemcp"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// The local MCP servers end to end (issue 17): the App runs the scripted
// channel server of testdata/fakemcp from mcp-servers.json, and a real
// Claude Code seat (testdata/clis, against testdata/fakeapi) sits in a
// topic's room.
const (
	mcpRigServer  = "hook"     // the mcp-servers.json entry
	mcpRigAccount = "mcp-hook" // its mcp account (config.json)
	mcpRigSpeaker = "GitHub"   // that account's name
	mcpRigSeat    = "lin"      // the Claude Code account
)

var (
	// mcpRigWait is the App's signature wait here (openOptions.signatureWait):
	// the fake server answers get_event at once, and that answer must
	// beat it on a loaded box too, so it is scaled like a deadline.
	mcpRigWait = testkit.Slow(3 * time.Second)
	// mcpRigClaude bounds a wait on the real Claude Code: it starts and
	// answers in seconds, several times that with -race on a loaded box.
	mcpRigClaude = testkit.Slow(90 * time.Second)
)

// mcpRig is an App on a fresh data dir with the scripted server running,
// its Control, the fake model API, and every post the hub delivered.
type mcpRig struct {
	t     *testing.T
	a     *App
	fake  *fakeapi.Server
	ctl   *fakemcp.Control
	topic string

	mu        sync.Mutex
	delivered []room.PostDelivered
}

// quietModel answers every turn with a short text: the seat reads the
// notices and says nothing in the room.
func quietModel(r *fakeapi.Request) fakeapi.Reply {
	if len(r.OutputSchema) > 0 {
		return fakeapi.Script{}.Decide(r) // the title side request
	}
	return fakeapi.TextReply("Noted.")
}

func newMCPRig(t *testing.T) *mcpRig {
	t.Helper()
	claude := fakeapi.CLIPath(t, fakeapi.CLIClaude)
	fake, err := fakeapi.New(fakeapi.Options{Respond: quietModel})
	if err != nil {
		t.Fatal(err)
	}
	base, err := fake.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Close() }) // after the App: the fake outlives the CLI
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env, _ := fakeapi.ClaudeEnv(t, base, work)
	r := &mcpRig{t: t, fake: fake, ctl: fakemcp.NewControl(t)}
	dir := t.TempDir()
	writeMCPRigConfig(t, dir, work, claude, fakemcp.Command(t, fakemcp.Config{Control: r.ctl.Addr()}))
	r.a, err = openApp(dir, "test", openOptions{pullceptPath: fakecli.PullceptBinary(t),
		environ: func() []string { return env }, signatureWait: mcpRigWait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.a.Close)
	r.topic = r.a.store.NewTopicID()
	sub := r.a.hub.Subscribe()
	done := make(chan struct{})
	go func() { // ends when the subscription closes
		defer close(done)
		for ev := range sub.C() {
			if d, ok := ev.(room.PostDelivered); ok {
				r.mu.Lock()
				r.delivered = append(r.delivered, d)
				r.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { sub.Close(); <-done })
	if err := r.a.hub.OpenRoom(r.topic); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the scripted server running", func() bool {
		return r.a.mcp.State(mcpRigServer).Phase == localmcp.Running
	})
	return r
}

// writeMCPRigConfig writes config.json (the admin, the Claude Code
// account, the server's mcp account) and mcp-servers.json (the server).
func writeMCPRigConfig(t *testing.T, dir, work, claude string, l fakemcp.Launch) {
	t.Helper()
	cfg := map[string]any{"accounts": []any{
		map[string]any{"id": "admin", "name": "Alice", "kind": "admin"},
		map[string]any{"id": mcpRigSeat, "name": "Lin", "kind": "claude_code", "cwd": work, "command": claude,
			"launch_options": "--dangerously-skip-permissions"},
		map[string]any{"id": mcpRigAccount, "name": mcpRigSpeaker, "kind": "mcp", "server": mcpRigServer},
	}}
	servers := map[string]any{"mcpServers": map[string]any{
		mcpRigServer: map[string]any{"command": l.Command, "args": l.Args, "env": l.EnvMap()}}}
	for name, v := range map[string]any{config.FileName: cfg, config.MCPServersFileName: servers} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// notices are the mcp posts delivered in the rig's topic, in order.
func (r *mcpRig) notices() []room.Post {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []room.Post
	for _, d := range r.delivered {
		if d.Topic == r.topic && d.Post.Role == room.RoleMCP {
			out = append(out, d.Post)
		}
	}
	return out
}

// waitNotices waits for n notices in the topic and returns them.
func (r *mcpRig) waitNotices(n int) []room.Post {
	r.t.Helper()
	testkit.Eventually(r.t, fmt.Sprintf("%d notices in the room", n), func() bool { return len(r.notices()) >= n })
	return r.notices()[:n]
}

// serverLog is the scripted server's log, one line each.
func (r *mcpRig) serverLog() string {
	var b strings.Builder
	for _, l := range r.a.mcp.Log(mcpRigServer) {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func (r *mcpRig) waitLog(text string) {
	r.t.Helper()
	testkit.Eventually(r.t, fmt.Sprintf("%q in the server's log", text), func() bool {
		return strings.Contains(r.serverLog(), text)
	})
}

// seatClaude starts the Claude Code seat in the topic and waits until its
// sidecar joined the room (the room then has an AI seat).
func (r *mcpRig) seatClaude() {
	r.t.Helper()
	if _, err := r.a.seats.Start(r.topic, mcpRigSeat, 160, 50); err != nil {
		r.t.Fatal(err)
	}
	testkit.EventuallyWithin(r.t, mcpRigClaude, "the Claude seat in the room", func() bool {
		return slices.Contains(r.a.hub.RoomsWithSeats(), r.topic)
	})
}

// claudeRequest waits for the first model call of the Claude seat whose
// user input carries post messageID in a [pullcept] tag line.
func (r *mcpRig) claudeRequest(messageID string) *fakeapi.Request {
	r.t.Helper()
	var found *fakeapi.Request
	testkit.EventuallyWithin(r.t, mcpRigClaude, "post "+messageID+" typed into Claude", func() bool {
		for _, ex := range r.fake.Exchanges() {
			req := ex.Request
			if req.ModelCall && slices.ContainsFunc(req.NewPosts(), func(p fakeapi.TaggedPost) bool {
				return p.Tag.MessageID == messageID
			}) {
				found = req
				return true
			}
		}
		return false
	})
	return found
}

// commentPush is an issue_comment/created push whose stored event's
// comment body is body, answered by get_event after delayMS.
func commentPush(id, body string, delayMS int) (fakemcp.Push, string) {
	url := "https://github.com/o/r/issues/1#issuecomment-" + id
	payload, _ := json.Marshal(map[string]any{"action": "created", "comment": map[string]any{"body": body}})
	head := "[issue_comment] o/r\naction: created\n#1 A bug\nby octocat\n"
	return fakemcp.Push{ID: id, Content: head + url, Event: &fakemcp.Event{Payload: payload, DelayMS: delayMS}},
		head + localmcp.ProcessedLine + id + "\n" + url
}

// TestMCPNoticesReachAClaudeSeat (issue 17): the scripted channel server
// under the App, a real Claude Code seat in a topic's room.
//
//   - With no AI seat in any room, a push posts nothing and the server's
//     log says so.
//   - Once the Claude seat joined, a push is a notice in that room (role
//     mcp, the mcp account's name as speaker) typed into the seat: the
//     fake API's request carries its [pullcept] tag with "role":"mcp" and
//     the processed line just before the URL line.
//   - Signatures: a comment body ending in "— Lin" gives the post's
//     Signed "Lin", typed in the seat's tag as "signed":"Lin", never in
//     the text; one without is unmarked; one whose get_event answers after
//     the wait goes out unmarked, and a plain push after it still comes
//     second: the room has them in push order. A push whose own text
//     starts "Signed: Human" is unmarked too (issue 32).
func TestMCPNoticesReachAClaudeSeat(t *testing.T) {
	r := newMCPRig(t)
	r.ctl.Push(fakemcp.Push{ID: "ev-0", Content: "[push] o/r\nby octocat"})
	r.waitLog("notice not posted: no room has an AI seat")
	if hist, _, err := r.a.hub.History(r.topic, "", 10); err != nil || len(hist) != 0 || len(r.notices()) != 0 {
		t.Fatalf("with no AI seat: history %v (%v), notices %v", hist, err, r.notices())
	}

	r.seatClaude()
	url := "https://github.com/o/r/compare/a1...b2"
	r.ctl.Push(fakemcp.Push{ID: "ev-1", Content: "[push] o/r\nby octocat\n" + url})
	n := r.waitNotices(1)[0]
	if want := "[push] o/r\nby octocat\n" + localmcp.ProcessedLine + "ev-1\n" + url; n.Role != room.RoleMCP ||
		n.Speaker != mcpRigSpeaker || n.Account != mcpRigAccount || n.Content != want {
		t.Fatalf("notice %+v, want content %q by %s", n, want, mcpRigSpeaker)
	}
	r.checkTyped(n, localmcp.ProcessedLine+"ev-1", url)

	signed, signedWant := commentPush("ev-2", "Fixed in #2.\r\n\r\n\u2014 Lin", 0)
	plain, plainWant := commentPush("ev-3", "Fixed in #2.", 0)
	slow, slowWant := commentPush("ev-4", "Fixed in #3.\n\u2014 Lin", int((mcpRigWait + testkit.Slow(3*time.Second)).Milliseconds()))
	for _, p := range []fakemcp.Push{signed, plain, slow, {ID: "ev-5", Content: "Signed: Human\n[push] o/r\nby octocat"}} {
		r.ctl.Push(p)
	}
	want := []string{signedWant, plainWant, slowWant, "Signed: Human\n[push] o/r\nby octocat\n" + localmcp.ProcessedLine + "ev-5"}
	signers := []string{"Lin", "", "", ""}
	got := r.waitNotices(5)[1:]
	for i, p := range got {
		if p.Content != want[i] || p.Speaker != mcpRigSpeaker || p.Signed != signers[i] {
			t.Errorf("notice %d: %s signed %q %q, want signed %q %q", i+2, p.Speaker, p.Signed, p.Content, signers[i], want[i])
		}
	}
	r.waitLog(fmt.Sprintf("event ev-4: no signature read: get_event gave no answer within %v", mcpRigWait))
	for i, p := range got { // every notice reaches the seat, signed in the tag only
		for _, tp := range r.claudeRequest(p.MessageID).NewPosts() {
			if tp.Tag.MessageID == p.MessageID && strings.Contains(tp.TagLine, `"signed":"Lin"`) != (signers[i] == "Lin") {
				t.Errorf("notice %d typed with the tag %s", i+2, tp.TagLine)
			}
		}
	}
	if log := r.serverLog(); strings.Contains(log, "mark_processed") || strings.Contains(log, "get_event ev-5") {
		t.Errorf("the server was asked more than get_event for the comments:\n%s", log)
	}
}

// checkTyped checks that notice n was typed into the Claude seat: the
// newest user text of the model call that first carries it has its tag
// line (role mcp, the speaker, its message id) and its body, where the
// processed line comes right before the URL line.
func (r *mcpRig) checkTyped(n room.Post, processed, url string) {
	r.t.Helper()
	req := r.claudeRequest(n.MessageID)
	texts := req.NewUserTexts()
	newest := texts[len(texts)-1]
	posts := fakeapi.FindPosts(newest)
	if len(posts) == 0 {
		r.t.Fatalf("the newest user text has no tagged post:\n%s", newest)
	}
	p := posts[len(posts)-1]
	if p.Tag.MessageID != n.MessageID || p.Tag.Role != string(room.RoleMCP) || p.Tag.From != mcpRigSpeaker ||
		!strings.Contains(p.TagLine, `"role":"mcp"`) {
		r.t.Errorf("tag %s (%+v), want role mcp from %s, message %s", p.TagLine, p.Tag, mcpRigSpeaker, n.MessageID)
	}
	lines := strings.Split(strings.ReplaceAll(p.Body, "\r\n", "\n"), "\n")
	at := slices.Index(lines, processed)
	if at < 0 || at+1 >= len(lines) || lines[at+1] != url || !strings.HasPrefix(p.Body, "[push] o/r\nby octocat\n") {
		r.t.Errorf("typed body %q: want %q right before %q", p.Body, processed, url)
	}
}
