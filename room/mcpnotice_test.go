package room

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/logstore"
)

// TestMCPNoticeDelivered: Hub.MCPNotice goes through the one post path as
// the server's mcp account — role mcp, its name, account and hue, no
// `to`, the text as given (an @name stays), never judged, logged with the
// account, read back by History as role mcp — and is typed into every
// seat of the room (the account has no seat, so no one is skipped).
func TestMCPNoticeDelivered(t *testing.T) {
	log := newMemLog()
	terms := newFakeTerms("t/cc", "t/cx")
	h := newTestHub(t, log, terms, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	lin := seat(t, h, "t", "Lin", "cc")
	seat(t, h, "t", "Lay", "cx")
	first := say(t, lin, "working on it", "")

	const text = "[push] @Lin pushed 2 commits\nhttps://github.com/o/r/compare/a...b"
	p, err := h.MCPNotice("t", MCPNote{AccountID: "gh", Speaker: " github ", Hue: intp(200), Content: text})
	if err != nil {
		t.Fatal(err)
	}
	if p.Role != RoleMCP || p.Speaker != "github" || p.Account != "gh" || p.FromApp || p.To != nil || p.Content != text {
		t.Fatalf("notice stamped %+v", p)
	}
	if p.Hue == nil || *p.Hue != 200 {
		t.Errorf("hue %v, want 200", p.Hue)
	}
	all, typed := terms.typedTo(p.MessageID)
	if all = slices.DeleteFunc(all, func(a string) bool { return a == "me" }); !slices.Equal(all, []string{"cc", "cx"}) || !slices.Equal(typed, []string{"cc", "cx"}) {
		t.Errorf("typed into %q (running %q), want every seat", all, typed)
	}
	recs := log.recs["t"]
	if rec := recs[len(recs)-1]; rec.MessageID != p.MessageID || rec.Account != "gh" || rec.Speaker != "github" || rec.FromApp || rec.To != nil || rec.Content != text {
		t.Fatalf("logged %+v", rec)
	}
	posts, _, err := h.History("t", "", 0)
	if err != nil || len(posts) != 2 {
		t.Fatalf("history %d posts, %v", len(posts), err)
	}
	if got := posts[1]; got.Role != RoleMCP || got.Account != "gh" || got.Speaker != "github" {
		t.Errorf("history reads the notice back as %+v", got)
	}
	// The notice is on the floor: a seat that did not see it is told.
	res, err := lin.Post(Draft{Content: "done", LastSeen: first.MessageID})
	if err != nil || res.Delivered || !slices.Equal(postIDs(res.Missed), []string{p.MessageID}) {
		t.Errorf("a post that missed the notice: delivered %v, missed %q, %v", res.Delivered, postIDs(res.Missed), err)
	}
}

// TestMCPNoticeNamesTopic: a topic whose first post is an MCP notice is
// named from it (logstore.NoteFirstPost through Hub.noteFirst), as from any
// first post; a later notice does not rename it.
func TestMCPNoticeNamesTopic(t *testing.T) {
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	h := newTestHub(t, store, nil, testAccounts)
	mustOpen(t, h, "t")
	if _, err := h.MCPNotice("t", MCPNote{AccountID: "gh", Speaker: "github", Content: "[issues] opened #12 Fix the floor\nhttps://github.com/o/r/issues/12"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.MCPNotice("t", MCPNote{AccountID: "gh", Speaker: "github", Content: "[push] main"}); err != nil {
		t.Fatal(err)
	}
	topics, err := store.Topics()
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) != 1 || topics[0].ID != "t" || topics[0].Name != "[issues] opened #12 Fix the floor" || !topics[0].Indexed {
		t.Fatalf("topics %+v, want t named from the first notice", topics)
	}
}

// TestMCPNoticeNamesFromIdentities: the account's names and hue as
// Identities gives them now win over the note's, so a rename reaches the
// next notice.
func TestMCPNoticeNamesFromIdentities(t *testing.T) {
	h, _, _, ids := identityHub(t)
	mustOpen(t, h, "a")
	ids.set("gh", "Hooks", "github-webhook-mcp", intp(40))
	p, err := h.MCPNotice("a", MCPNote{AccountID: "gh", Speaker: "stale", Hue: intp(1), Content: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Speaker != "Hooks" || p.FullName != "github-webhook-mcp" || p.Hue == nil || *p.Hue != 40 {
		t.Errorf("stamped %q (%q) hue %v, want the account's names now", p.Speaker, p.FullName, p.Hue)
	}
	ids.set("gh", "Hooks2", "", nil)
	if p, _ = h.MCPNotice("a", MCPNote{AccountID: "gh", Speaker: "stale", Hue: intp(1), Content: "y"}); p.Speaker != "Hooks2" || p.FullName != "" || p.Hue != nil {
		t.Errorf("after the rename: %q (%q) hue %v", p.Speaker, p.FullName, p.Hue)
	}
}

// TestMCPNoticeRefused: a notice without an account or a speaker, for an
// account that is not of kind mcp, under Pullcept's name, with a name a
// room cannot carry, or that the post path refuses, goes nowhere.
func TestMCPNoticeRefused(t *testing.T) {
	log := newMemLog()
	h := newTestHub(t, log, newFakeTerms("t/cc"), testAccounts)
	mustOpen(t, h, "t")
	ok := MCPNote{AccountID: "gh", Speaker: "github", Content: "x"}
	with := func(change func(*MCPNote)) MCPNote { n := ok; change(&n); return n }
	for _, tc := range []struct {
		name  string
		topic string
		n     MCPNote
		want  error
	}{
		{"no account", "t", with(func(n *MCPNote) { n.AccountID = "" }), ErrBadNotice},
		{"a seat's account", "t", with(func(n *MCPNote) { n.AccountID = "cc" }), ErrBadNotice},
		{"the admin's account", "t", with(func(n *MCPNote) { n.AccountID = "me" }), ErrBadNotice},
		{"unknown account", "t", with(func(n *MCPNote) { n.AccountID = "nobody" }), ErrBadNotice},
		{"account with a newline", "t", with(func(n *MCPNote) { n.AccountID = "g\nh" }), ErrBadName},
		{"no speaker", "t", with(func(n *MCPNote) { n.Speaker = "  " }), ErrBadNotice},
		{"Pullcept", "t", with(func(n *MCPNote) { n.Speaker = "pullcept" }), ErrBadNotice},
		{"speaker with ESC", "t", with(func(n *MCPNote) { n.Speaker = "git\x1b[2Jhub" }), ErrBadName},
		{"speaker too long", "t", with(func(n *MCPNote) { n.Speaker = strings.Repeat("g", maxNameRunes+1) }), ErrBadName},
		{"no room", "nope", ok, ErrNoRoom},
		{"empty", "t", with(func(n *MCPNote) { n.Content = " \n " }), ErrEmptyPost},
		{"too long", "t", with(func(n *MCPNote) { n.Content = strings.Repeat("x", MaxPostBytes+1) }), ErrPostTooLong},
	} {
		if _, err := h.MCPNotice(tc.topic, tc.n); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if ids := log.ids("t"); len(ids) != 0 {
		t.Errorf("refused notices logged: %q", ids)
	}
	h.Close()
	if _, err := h.MCPNotice("t", ok); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// TestMCPNoticeIgnoresBrake: a notice neither counts toward the brake nor
// is held back by it: typed into every seat while AI posts are not.
func TestMCPNoticeIgnoresBrake(t *testing.T) {
	terms := newFakeTerms("t/cc", "t/cx")
	h, err := NewHub(HubOptions{Accounts: testAccounts, Terminals: terms, Now: fixedNow, NewID: counterIDs(), Brake: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	mustOpen(t, h, "t")
	lin := seat(t, h, "t", "Lin", "cc")
	lay := seat(t, h, "t", "Lay", "cx")
	say(t, lin, "one", "")
	n1, err := h.MCPNotice("t", MCPNote{AccountID: "gh", Speaker: "github", Content: "[push] a"})
	if err != nil || h.Braked("t") {
		t.Fatalf("a notice after one AI post: braked %v, %v", h.Braked("t"), err)
	}
	say(t, lay, "two", n1.MessageID)
	if !h.Braked("t") {
		t.Fatal("two AI posts around a notice did not engage the brake at 2")
	}
	n2, err := h.MCPNotice("t", MCPNote{AccountID: "gh", Speaker: "github", Content: "[push] b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, typed := terms.typedTo(n2.MessageID); !slices.Equal(typed, []string{"cc", "cx"}) {
		t.Errorf("a notice while braked typed into %q, want every seat", typed)
	}
}

// TestRoomsWithSeats: the open rooms where a connection other than the
// UI's own sits now, sorted; the UI alone is no seat, a seat that left or
// a closed room counts no more.
func TestRoomsWithSeats(t *testing.T) {
	h := newTestHub(t, nil, nil, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	for _, topic := range []string{"c", "a", "b"} {
		mustOpen(t, h, topic)
	}
	if got := h.RoomsWithSeats(); len(got) != 0 {
		t.Fatalf("only the UI sits: %q", got)
	}
	inC := seat(t, h, "c", "Lin", "cc")
	seat(t, h, "a", "Lay", "cx")
	seat(t, h, "a", "Lin", "cc")
	if got := h.RoomsWithSeats(); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("rooms with seats %q, want [a c]", got)
	}
	inC.Close()
	h.CloseRoom("a")
	if got := h.RoomsWithSeats(); len(got) != 0 {
		t.Fatalf("after the seat left and the room closed: %q", got)
	}
	h.Close()
	if got := h.RoomsWithSeats(); len(got) != 0 {
		t.Fatalf("after Close: %q", got)
	}
}
