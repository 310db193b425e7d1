//go:build linux

package realapp

// What needs the human, rung and walked in the real app (issue 33,
// docs/design.md §17 "Attention"). The rings are read from what the app
// wrote to its terminal (attention_rig_test.go): OSC 9, as config.json's
// notify_sequence asks. A negative — "this did not ring" — is never a
// sleep: a later item that must ring rings, and the rings are then exactly
// the predicted ones in order (the earlier item's ring, had there been one,
// was due first: the dwell is the same for every item).

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestAttentionRingsInTheRealApp: the real app in tmux, config.json asking
// for OSC 9 rings after a 1 s dwell, each seat at most once an hour; Lin
// is the real Claude Code, Ana, Ben and Cy fake CLIs that answer the
// human.
//
//   - Focus in (never reported), the topic open: Lin's post to the human
//     and Lin's permission card are on the screen: never rung, seen with
//     the human's next key.
//   - Focus out (CSI O): Ana's post to the human rings once; Lin's card
//     rings once (Lin had not rung: what was seen does not count).
//   - Cooldown: Lin's next post to the human, within the hour, does not
//     ring; Ben's, another seat, does.
//   - Focus in again: what the open topic holds is seen, the count goes.
//   - Focus in, another topic open: Cy's post to the human (held until the
//     new topic is open) rings.
//
// The rings are OSC 9 with the item's text, each once, in that order; the
// app runs with TMUX set, so each goes through tmux's passthrough with a
// BEL after it.
func TestAttentionRingsInTheRealApp(t *testing.T) {
	cyGo := filepath.Join(t.TempDir(), "go")
	cy := answerer("cy", "Cy")
	cy.opts += " -start " + cyGo
	r := newAttnRig(t, attnOptions{claude: true, seats: []seat{answerer("ana", "Ana"), answerer("ben", "Ben"), cy}, inTmux: true,
		settings: map[string]any{"notify_sequence": "osc9", "notify_dwell": 1, "notify_cooldown": 3600}})
	r.startSeat(linName, 2, claudeWait)
	r.startSeat("Ana", 3, claudeWait)
	r.startSeat("Ben", 4, claudeWait)
	r.startSeat("Cy", 5, claudeWait)

	// Focus in (as a terminal that never reported it), the topic open:
	// Lin's post never rings, and is seen with the human's next key.
	r.say(linName, "tell first words")
	r.linTold("first words")
	r.waitNeed("Lin's post listed until a key", 1)
	r.keys("End")
	r.waitNeed("Lin's post seen where it shows", 0)
	r.say(linName, "run in1")
	r.cardShows("in1")
	r.allowCard("in1")
	r.waitNeed("nothing left", 0)

	r.focusOut()
	r.say("Ana", "hello")
	r.checkRings(r.waitRings("Ana's post rang", 1, claudeWait), "Ana wrote to you")
	r.say(linName, "run out1")
	r.cardShows("out1")
	r.checkRings(r.waitRings("Lin's card rang", 2, claudeWait), "Ana wrote to you", "Lin asks to use Bash")
	r.allowCard("out1")

	r.say(linName, "tell second words")
	r.linTold("second words")
	s := r.waitNeed("Ana's and Lin's posts need the human", 2)
	if !strings.Contains(s, "!tell first words") {
		t.Fatalf("the topic list does not mark the topic:\n%s", s)
	}
	r.say("Ben", "hello")
	r.checkRings(r.waitRings("Ben's post rang", 3, claudeWait), "Ana wrote to you", "Lin asks to use Bash", "Ben wrote to you")

	r.focusIn()
	s = r.waitNeed("focus in: the open topic's items seen", 0)
	if strings.Contains(s, "!tell first words") {
		t.Fatalf("the topic list still marks the topic:\n%s", s)
	}
	r.checkRings(r.rings(), "Ana wrote to you", "Lin asks to use Bash", "Ben wrote to you")

	r.say("Cy", "hello")
	r.newTopic("elsewhere")
	if err := os.WriteFile(cyGo, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r.checkRings(r.waitRings("Cy's post rang", 4, claudeWait),
		"Ana wrote to you", "Lin asks to use Bash", "Ben wrote to you", "tell first words: Cy wrote to you")
	s = r.waitNeed("Cy's post needs the human", 1)
	if !strings.Contains(s, "!tell first") {
		t.Fatalf("the topic list does not mark the topic of Cy's post:\n%s", s)
	}
	if n := r.passed(); n != 4 {
		t.Fatalf("%d of the 4 rings went through tmux's passthrough with a BEL after", n)
	}
}

// TestAttentionDwellInTheRealApp: with focus out, Lin's permission card
// answered within the dwell never rings; Ana's post to the human, left
// alone, rings after it. The dwell is long enough for the test to answer
// on a loaded machine (scaled like a deadline), and no cooldown.
func TestAttentionDwellInTheRealApp(t *testing.T) {
	dwell := int(math.Ceil(testkit.Slow(4 * time.Second).Seconds()))
	r := newAttnRig(t, attnOptions{claude: true, seats: []seat{answerer("ana", "Ana")},
		settings: map[string]any{"notify_sequence": "osc9", "notify_dwell": dwell, "notify_cooldown": 0}})
	r.startSeat(linName, 2, claudeWait)
	r.startSeat("Ana", 3, claudeWait)

	r.focusOut()
	r.say(linName, "run quick")
	r.cardShows("quick")
	r.allowCard("quick")
	r.waitNeed("the card left the list", 0)
	r.say("Ana", "hello")
	r.checkRings(r.waitRings("Ana's post rang", 1, claudeWait+time.Duration(dwell)*time.Second), "Ana wrote to you")
}

// TestAttentionJumpWalksEveryKindInTheRealApp: items of five kinds, each in
// a topic of its own but the first, made while the terminal has no focus —
// a local MCP server that never started (mcp-servers.json names a command
// that is not there: listed at start, so it never rings), a fake CLI's
// post to the human, a seat that exited 3, a topic braked after 3 AI posts
// (a fake CLI posting 20 a second), a session operation that failed (a
// seat asked to resume an account that has no conversation) — each ring
// once (OSC 9, its text). Back in focus on a topic of none, the list
// (Shift+F5) shows them oldest first, and F5 walks them: the mcp
// account's editor opens, then each topic opens in turn — the chat at the
// post, the exited seat's pane focused — and the count drops by one each
// time, to none; one more F5 says nothing needs the human.
func TestAttentionJumpWalksEveryKindInTheRealApp(t *testing.T) {
	cyOut := filepath.Join(t.TempDir(), "cy.json")
	r := newAttnRig(t, attnOptions{
		seats: []seat{answerer("ana", "Ana"), {id: "ben", name: "Ben", opts: "-exit 3"},
			{id: "cy", name: "Cy", opts: "-join -load 20 -for 2s -out " + cyOut}, {id: "opa", name: "Opa", opts: "-join -ops"},
			{id: "bad", name: "Bad"}},
		mcpServers: map[string]map[string]any{"broken": {"command": filepath.Join(t.TempDir(), "no-such-server")}},
		settings:   map[string]any{"notify_sequence": "osc9", "notify_dwell": 1, "notify_cooldown": 0, "brake": 3}})
	r.waitNeed("the dead MCP server is listed", 1)

	r.focusOut()
	r.text("alpha")
	r.keys("Enter")
	r.waitScreen("the topic is alpha", func(s string) bool { return openTopic(s) == "alpha" })
	r.startSeat("Ana", 2, claudeWait)
	r.say("Ana", "hello")
	r.waitNeed("Ana's post", 2)
	r.newTopic("beta")
	r.toPanel("Ben")
	r.keys("s")
	r.waitNeed("Ben's exit", 3)
	r.leavePanel()
	r.newTopic("gamma")
	r.startSeat("Cy", 2, claudeWait)
	r.waitNeed("the brake", 4)
	r.newTopic("delta")
	r.startSeat("Opa", 2, claudeWait)
	r.say("Opa", "start bad")
	r.waitNeed("the failed operation", 5)
	r.checkRings(r.waitRings("four rings", 4, claudeWait),
		"alpha: Ana wrote to you", "beta: Ben ended: exit 3", "gamma: brake: 3 AI posts in a row",
		"delta: a session operation failed: start: start seat Bad: cannot resume")

	r.newTopic("home")
	r.focusIn()
	s := r.waitScreen("the list marks the topics", func(s string) bool {
		return strings.Contains(s, "!alpha") && strings.Contains(s, "!beta") && strings.Contains(s, "‖gamma") && strings.Contains(s, "!delta")
	})
	if need(s) != 5 || strings.Contains(s, "!home") {
		t.Fatalf("focus in on a topic of none: want 5 items, no mark on home:\n%s", s)
	}
	r.keys("S-F5")
	s = r.waitScreen("the list", func(s string) bool { return strings.Contains(s, "Needs you") })
	var order []int
	for _, want := range []string{"› MCP server broken ended", "alpha: Ana wrote to you", "beta: Ben ended: exit 3",
		"gamma: brake: 3 AI posts", "delta: a session operation failed"} {
		order = append(order, strings.Index(s, want))
	}
	if slices.Contains(order, -1) || !slices.IsSorted(order) {
		t.Fatalf("the list does not show the five oldest first (%v):\n%s", order, s)
	}
	r.keys("Escape")
	r.waitScreen("the list closed", func(s string) bool { return !strings.Contains(s, "Needs you") })

	r.jump("the mcp account's editor", 4, func(s string) bool {
		return strings.Contains(s, "Ctrl+S save") && strings.Contains(s, "broken")
	})
	r.keys("Escape")
	r.waitScreen("the editor closed", func(s string) bool { return !strings.Contains(s, "Ctrl+S save") })
	r.jump("Ana's post in alpha", 3, func(s string) bool {
		return openTopic(s) == "alpha" && regexp.MustCompile(`›\s*Ana → Alice`).MatchString(s)
	})
	r.jump("Ben's pane in beta", 2, func(s string) bool {
		return openTopic(s) == "beta" && paneTitle(s, "Ben") == "Ben · exited 3 · x closes"
	})
	r.jump("the braked topic gamma", 1, func(s string) bool { return openTopic(s) == "gamma" })
	s = r.jump("the failed operation's topic delta", 0, func(s string) bool { return openTopic(s) == "delta" })
	if regexp.MustCompile(`!(alpha|beta|gamma|delta)`).MatchString(s) {
		t.Fatalf("a topic is still marked:\n%s", s)
	}
	r.keys("F5")
	r.waitScreen("F5 with nothing left", func(s string) bool { return strings.Contains(s, "Nothing needs you.") })
}

// TestAttentionJumpClaudeKindsInTheRealApp: the kinds only the real Claude
// Code makes, each rung once (OSC 9) with the terminal out of focus and
// walked to with F5. Lin runs in two topics, one seat each: while the
// first's card waits out permission_wait (30 s, the least the app takes),
// the second is stopped on its limit and comes back.
//
//   - Card (first topic): a Bash command waits for permission: F5,
//     pressed in Lin's pane, gives the card the keys; the card stays
//     listed, seen, until it closes.
//   - Limited (second topic): its model call is refused on the plan's
//     limit (the fake's 429, read with the gateway credential): F5
//     focuses that seat's pane.
//   - Resumed: its next answer is a normal one: F5 focuses the pane.
//   - CardTimedOut: the card went unanswered and Claude's own dialog
//     decides: F5 opens the first topic again and focuses its pane, where
//     Enter answers Claude's dialog and the command runs.
func TestAttentionJumpClaudeKindsInTheRealApp(t *testing.T) {
	r := newAttnRig(t, attnOptions{claude: true, gateway: true,
		settings: map[string]any{"notify_sequence": "osc9", "notify_dwell": 1, "notify_cooldown": 0, "permission_wait": 30}})
	linPane := func(topic, state string) func(string) bool {
		return func(s string) bool {
			title := paneTitle(s, linName)
			return openTopic(s) == topic && strings.HasPrefix(title, linName+" · "+state) && strings.HasSuffix(title, "typing") &&
				strings.Contains(s, "Ctrl+] leaves") // in the pane's lower border
		}
	}
	leavePane := func() {
		t.Helper()
		r.keys("C-]")
		r.waitScreen("the pane lets the keys go", func(s string) bool { return !strings.Contains(s, "Ctrl+] leaves") })
	}
	r.focusOut()
	r.text("first")
	r.keys("Enter")
	r.waitScreen("the topic is first", func(s string) bool { return openTopic(s) == "first" })
	r.startSeat(linName, 2, claudeWait)

	// F5 from a pane that has the keys: it is no key of the seat's.
	r.say(linName, "run late")
	r.keys("F6")
	r.waitScreen("Lin's pane has the keys", linPane("first", ""))
	r.cardShows("late")
	r.checkRings(r.waitRings("the card rang", 1, claudeWait), "first: Lin asks to use Bash")
	r.jump("the card", 1, func(s string) bool { return strings.Contains(s, "y allow · a always · n deny") })
	r.keys("Escape")
	r.waitScreen("the card gives the keys to the input bar", func(s string) bool {
		return strings.Contains(s, "F7 answer here") && !strings.Contains(s, "Ctrl+] leaves")
	})

	r.newTopic("second")
	r.startSeat(linName, 2, claudeWait)
	r.say(linName, "limit")
	r.checkRings(r.waitRings("the limit rang", 2, claudeWait), "asks to use Bash", "second: Lin stopped on its usage limit (lifts ")
	r.jump("Lin's pane, limited", 1, linPane("second", "limited"))
	leavePane()
	r.say(linName, "hello again")
	r.checkRings(r.waitRings("the return rang", 3, claudeWait), "asks to use Bash", "usage limit", "second: Lin runs again after its usage limit")
	r.jump("Lin's pane, back", 1, linPane("second", "idle"))
	leavePane()

	r.checkRings(r.waitRings("the unanswered card rang", 4, claudeWait), "asks to use Bash", "usage limit", "runs again",
		"first: Lin's request for Bash went unanswered: answer in its pane")
	r.jump("Lin's pane in the first topic, its own dialog", 0, func(s string) bool {
		return linPane("first", "waiting for permission")(s) && strings.Contains(s, "Do you want to proceed?")
	})
	r.keys("Enter") // Claude's "1. Yes"
	testkit.EventuallyWithin(t, claudeWait, "the command ran", func() bool {
		_, err := os.Stat(filepath.Join(r.root, "late"))
		return err == nil
	})
}

// TestAttentionRingsPerWindowInTheRealApp: two windows attached to one
// Pullcept server (docs/serve.md) share one list and each rings its own
// terminal. Both out of focus: Ana's post to the human rings in both.
// Window A back in focus with the topic open: Ben's post is on A's
// screen, seen there, gone from the list — B, still out of focus, never
// rings for it (its count goes too). Both out again: Ana's next post rings
// in both, and each window's rings are exactly Ana's two.
func TestAttentionRingsPerWindowInTheRealApp(t *testing.T) {
	// B must learn that A saw Ben's post before B's dwell passes: A sees
	// it as soon as it is listed, so a dwell of a few seconds, scaled like
	// a deadline, is ample.
	dwell := int(math.Ceil(testkit.Slow(2 * time.Second).Seconds()))
	a := newAttnRig(t, attnOptions{served: true, seats: []seat{answerer("ana", "Ana"), answerer("ben", "Ben")},
		settings: map[string]any{"notify_sequence": "osc9", "notify_dwell": dwell, "notify_cooldown": 0}})
	a.text("shared")
	a.keys("Enter")
	a.waitScreen("the topic is shared", func(s string) bool { return openTopic(s) == "shared" })
	a.startSeat("Ana", 2, claudeWait)
	a.startSeat("Ben", 3, claudeWait)
	b := a.window("b")
	b.waitScreen("B opens the topic", func(s string) bool { return openTopic(s) == "shared" })

	a.focusOut()
	b.focusOut()
	a.say("Ana", "hello")
	within := claudeWait + time.Duration(dwell)*time.Second
	a.checkRings(a.waitRings("A rang for Ana's post", 1, within), "shared: Ana wrote to you")
	b.checkRings(b.waitRings("B rang for Ana's post", 1, within), "shared: Ana wrote to you")

	a.focusIn()
	a.waitNeed("A saw Ana's post", 0)
	b.waitNeed("B's count follows the list", 0)
	a.say("Ben", "hello")
	a.waitScreen("Ben's post shows in A", func(s string) bool { return strings.Contains(s, "Ben → Alice") })
	b.waitScreen("Ben's post shows in B", func(s string) bool { return strings.Contains(s, "Ben → Alice") })
	b.waitNeed("B: Ben's post is gone from the list", 0)

	a.focusOut()
	a.say("Ana", "again")
	a.checkRings(a.waitRings("A rang for Ana's second post", 2, within), "Ana wrote to you", "Ana wrote to you")
	b.checkRings(b.waitRings("B rang for Ana's second post", 2, within), "Ana wrote to you", "Ana wrote to you")
}
