package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/room"
)

// notice is a post of mcp server account acc spoken as speaker.
func notice(id, acc, speaker, content string, min int) room.Post {
	p := post(id, speaker, content, min)
	p.Role, p.Account = room.RoleMCP, acc
	return p
}

// foldScene is a topic "t-fold" where two MCP servers (github, ci) speak
// between the seats: a run of three, one alone, a run broken by Lin, two
// servers back to back, a notice of a deleted server, and an old log's
// "webhook" notices without an account.
func foldScene() *fakeBackend {
	f := scene()
	f.accounts = append(f.accounts, AccountInfo{ID: "ci", Kind: KindMCP, Name: "ci-bot", Hue: hue(200)})
	f.topics["t-fold"] = TopicInfo{ID: "t-fold", Name: "folds", LastActivity: testNow(), Indexed: true}
	lin := func(id, text string, min int) room.Post {
		p := post(id, "Lin", text, min)
		p.Account = "lin"
		return p
	}
	old1, old2 := post("w1", "webhook", "old push 1", 1), post("w2", "webhook", "old push 2", 2)
	old1.Role, old2.Role = "", ""
	f.history["t-fold"] = []room.Post{
		old1, old2,
		notice("g1", "gh", "github", "PR #1 opened", 3),
		notice("g2", "gh", "github", "CI started", 4),
		notice("g3", "gh", "github", "CI passed", 5),
		lin("l1", "looking at it", 6),
		notice("g4", "gh", "github", "PR #1 merged", 7),
		lin("l2", "thanks", 8),
		notice("g5", "gh", "github", "issue #2 opened", 9),
		notice("c1", "ci", "ci-bot", "nightly green", 10),
		notice("c2", "ci", "ci-bot", "nightly deployed", 11),
		notice("x1", "gone", "oldsrv", "from a deleted server", 12),
		lin("l3", "ok", 13),
	}
	return f
}

func foldModel(t *testing.T, f *fakeBackend) *Model {
	t.Helper()
	opts := testOptions()
	opts.StartTopic = "t-fold"
	return newTestModel(t, f, opts, 120, 40)
}

// folds lists the chat's items as "name(N)" for a fold and the message id
// for a post.
func folds(m *Model) string {
	var out []string
	for _, it := range m.chat.items {
		if it.fold {
			out = append(out, fmt.Sprintf("%s(%d)", foldName(&m.env, it), len(it.posts)))
		} else {
			out = append(out, it.key())
		}
	}
	return strings.Join(out, " ")
}

// TestNoticesFoldByServerAccount: consecutive notices of one mcp account
// fold into one "name (N)" until another speaker talks; another server is
// another fold; a lone notice is a fold of one; a deleted server's notice
// is a post; an old log's "webhook" notices fold by that name.
func TestNoticesFoldByServerAccount(t *testing.T) {
	t.Parallel()
	m := foldModel(t, foldScene())
	want := "webhook(2) github(3) l1 github(1) l2 github(1) ci-bot(2) x1 l3"
	if got := folds(m); got != want {
		t.Fatalf("items = %s\nwant    %s", got, want)
	}
	v := plain(m)
	for _, s := range []string{"▸ webhook (2)", "▸ github (3)", "▸ github (1)", "▸ ci-bot (2)", "oldsrv  09:12", "from a deleted server"} {
		if !strings.Contains(v, s) {
			t.Fatalf("%q not on screen:\n%s", s, v)
		}
	}
	if strings.Contains(v, "CI passed") || strings.Contains(v, "nightly green") || strings.Contains(v, "old push") {
		t.Fatalf("a folded notice is shown:\n%s", v)
	}
	// A live notice joins the fold that ends the chat only when it is the
	// same server's.
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-fold", Post: notice("c3", "ci", "ci-bot", "tag pushed", 20)}}})
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-fold", Post: notice("c4", "ci", "ci-bot", "release drafted", 21)}}})
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-fold", Post: notice("g6", "gh", "github", "PR #3 opened", 22)}}})
	if got := folds(m); !strings.HasSuffix(got, "l3 ci-bot(2) github(1)") {
		t.Fatalf("live notices: %s", got)
	}
}

// TestFoldsFollowTheAccounts: the heading is the account's name now, a
// server whose account is deleted no longer folds, and a server account
// that appears folds its posts at once.
func TestFoldsFollowTheAccounts(t *testing.T) {
	t.Parallel()
	f := foldScene()
	m := foldModel(t, f)
	accs := append([]AccountInfo(nil), f.accounts...)
	for i := range accs {
		if accs[i].ID == "gh" {
			accs[i].Nickname = "GitHub"
		}
	}
	accs = append(accs, AccountInfo{ID: "gone", Kind: KindMCP, Name: "old server"})
	send(t, m, accountsLoadedMsg{accounts: accs})
	if got, want := folds(m), "webhook(2) GitHub(3) l1 GitHub(1) l2 GitHub(1) ci-bot(2) old server(1) l3"; got != want {
		t.Fatalf("after the rename: %s\nwant %s", got, want)
	}
	if v := plain(m); !strings.Contains(v, "▸ GitHub (3)") || !strings.Contains(v, "▸ old server (1)") {
		t.Fatalf("headings not renamed:\n%s", v)
	}
	var kept []AccountInfo
	for _, a := range accs {
		if a.ID != "ci" {
			kept = append(kept, a)
		}
	}
	send(t, m, accountsLoadedMsg{accounts: kept})
	if got := folds(m); !strings.Contains(got, "GitHub(1) c1 c2 old server(1)") {
		t.Fatalf("a deleted server still folds: %s", got)
	}
}

// TestFoldOpensWithEnterAndClick: with the chat focused, Enter on a fold
// lists its notices as normal rows (speaker, time, text) and Enter again
// folds them; a click on the heading does the same.
func TestFoldOpensWithEnterAndClick(t *testing.T) {
	t.Parallel()
	m := foldModel(t, foldScene())
	send(t, m, press("tab"))
	if m.focus != FocusChat {
		t.Fatalf("focus = %v", m.focus)
	}
	for i := 0; i < 20 && (m.chat.sel < 0 || m.chat.items[m.chat.sel].key() != "g1"); i++ {
		send(t, m, press("up"))
	}
	send(t, m, press("enter"))
	v := plain(m)
	for _, s := range []string{"▾ github (3)", "github  09:03", "PR #1 opened", "github  09:05", "CI passed"} {
		if !strings.Contains(v, s) {
			t.Fatalf("open fold lacks %q:\n%s", s, v)
		}
	}
	if strings.Contains(v, "nightly green") {
		t.Fatalf("another fold opened too:\n%s", v)
	}
	send(t, m, press("space"))
	if v := plain(m); !strings.Contains(v, "▸ github (3)") || strings.Contains(v, "CI passed") {
		t.Fatalf("space did not fold it again:\n%s", v)
	}
	x, y, ok := findOnScreen(m, "▸ ci-bot (2)")
	if !ok {
		t.Fatalf("no ci-bot fold:\n%s", plain(m))
	}
	send(t, m, mouseClick(x, y))
	if v := plain(m); !strings.Contains(v, "▾ ci-bot (2)") || !strings.Contains(v, "nightly deployed") {
		t.Fatalf("the click did not open the fold:\n%s", v)
	}
}

// TestNewRuleInsideAFold: the first unread post is a notice in the middle
// of a fold: the rule is above the fold while it is closed, and above that
// notice once it opens.
func TestNewRuleInsideAFold(t *testing.T) {
	t.Parallel()
	f := foldScene()
	m := mainModel(t, f)
	// Two notices arrive while t-fold is not open: g6 joins a run with g5.
	f.history["t-fold"] = f.history["t-fold"][:9] // … l2, g5
	g6, g7 := notice("g6", "gh", "github", "PR #4 opened", 30), notice("g7", "gh", "github", "PR #4 closed", 31)
	f.history["t-fold"] = append(f.history["t-fold"], g6, g7)
	send(t, m, eventsMsg{evs: []Event{PostDelivered{Topic: "t-fold", Post: g6}, PostDelivered{Topic: "t-fold", Post: g7}}})
	for _, c := range m.switchTopic("t-fold") {
		drive(t, m, c)
	}
	lines := strings.Split(plain(m), "\n")
	at := func(s string) int { // the last row holding s
		for i := len(lines) - 1; i >= 0; i-- {
			if strings.Contains(lines[i], s) {
				return i
			}
		}
		t.Fatalf("%q not on screen:\n%s", s, plain(m))
		return -1
	}
	if i := at("▸ github (3)"); !strings.Contains(lines[i-1], "── new ──") {
		t.Fatalf("no rule above the closed fold:\n%s", plain(m))
	}
	send(t, m, press("tab"))
	send(t, m, press("end"))
	send(t, m, press("enter"))
	lines = strings.Split(plain(m), "\n")
	head, first := at("▾ github (3)"), at("PR #4 opened") // the notice's text, under its speaker and time
	if strings.Contains(lines[head-1], "── new ──") || !strings.Contains(lines[first-2], "── new ──") {
		t.Fatalf("the rule is not above the first unread notice:\n%s", plain(m))
	}
	if strings.Count(plain(m), "── new ──") != 1 {
		t.Fatalf("more than one rule:\n%s", plain(m))
	}
}

// TestJumpToANoticeOpensItsFold: the finder's jump to a notice folded with
// others opens the fold, selected, with that notice on screen.
func TestJumpToANoticeOpensItsFold(t *testing.T) {
	t.Parallel()
	f := foldScene()
	var run []room.Post
	for i := range 60 {
		run = append(run, notice(fmt.Sprintf("n%02d", i), "gh", "github", fmt.Sprintf("event %d", i), 100+i))
	}
	run[7].Content = "the needle event"
	f.history["t-fold"] = append(f.history["t-fold"], run...)
	m := mainModel(t, f)
	send(t, m, press("ctrl+p"))
	typeText(t, m, "needle")
	if p := m.overlay.picker; len(p.hits) != 1 || p.hits[0].MessageID != "n07" {
		t.Fatalf("hits %+v", p.hits)
	}
	send(t, m, press("enter"))
	if m.chat.sel < 0 {
		t.Fatal("nothing selected")
	}
	it := m.chat.items[m.chat.sel]
	if !it.fold || !m.chat.expanded[it.key()] || !holds(it.posts, "n07") {
		t.Fatalf("selected %s, open %v", folds(m), m.chat.expanded)
	}
	if v := plain(m); !strings.Contains(v, "the needle event") {
		t.Fatalf("the notice is not on screen:\n%s", v)
	}
}
