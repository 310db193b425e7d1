package room

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeIdentities is a mutable Identities: account id → name, full name, hue.
type fakeIdentities struct {
	mu sync.Mutex
	m  map[string]fakeIdentity
}

type fakeIdentity struct {
	name, full string
	hue        *int
}

func (f *fakeIdentities) AccountIdentity(id string) (string, string, *int, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m[id]
	return v.name, v.full, v.hue, ok
}

func (f *fakeIdentities) set(id, name, full string, hue *int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[id] = fakeIdentity{name, full, hue}
}

func intp(v int) *int { return &v }

// identityHub is a hub with a log, terminals where cc and cx run in
// topics a and b, and an Identities naming me (the admin), cc and cx.
func identityHub(t *testing.T) (*Hub, *memLog, *fakeTerms, *fakeIdentities) {
	t.Helper()
	ids := &fakeIdentities{m: map[string]fakeIdentity{
		"me": {"Alice", "", nil},
		"cc": {"Claude", "", intp(30)},
		"cx": {"Codex", "", nil},
	}}
	log, terms := newMemLog(), newFakeTerms("a/cc", "b/cc", "a/cx", "b/cx")
	h, err := NewHub(HubOptions{Log: log, Terminals: terms, Accounts: testAccounts, Identities: ids, Now: fixedNow, NewID: counterIDs()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h, log, terms, ids
}

func rosterNames(t *testing.T, h *Hub, topic string) []string {
	t.Helper()
	r, err := h.Roster(topic)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range r {
		out = append(out, m.Name)
	}
	return out
}

// TestSeatsSitUnderTheirAccountsNames: a hello naming a known account sits
// under that account's name, full name and hue, whatever names it sends —
// the human's name and another seat's included; a later hello cannot
// rename it either. A hello for an account Identities does not know keeps
// its own name, still checked against the human's.
func TestSeatsSitUnderTheirAccountsNames(t *testing.T) {
	t.Parallel()
	h, _, _, _ := identityHub(t)
	h.SetAdmin(Hello{Name: "whatever the app said", AccountID: "me"})
	mustOpen(t, h, "a")
	c := seat(t, h, "a", "Alice", "cc") // the human's name
	if got := rosterNames(t, h, "a"); !slices.Equal(got, []string{"Alice", "Claude"}) {
		t.Fatalf("roster = %v", got)
	}
	if err := c.Hello(Hello{Protocol: Protocol, Name: "Codex", Room: "a", AccountID: "cc", Hue: intp(99)}); err != nil {
		t.Fatal(err)
	}
	r, _ := h.Roster("a")
	if r[1].Name != "Claude" || r[1].Hue == nil || *r[1].Hue != 30 {
		t.Fatalf("after a rename hello: %+v", r[1])
	}
	if p := say(t, c, "hi", ""); p.Speaker != "Claude" || p.Hue == nil || *p.Hue != 30 {
		t.Fatalf("post stamped %+v", p)
	}
	guest := h.Connect()
	defer guest.Close()
	if err := guest.Hello(Hello{Protocol: Protocol, Name: "ALICE", Room: "a"}); !errors.Is(err, ErrBadHello) {
		t.Fatalf("a guest named like the human: %v", err)
	}
	if err := guest.Hello(Hello{Protocol: Protocol, Name: "Guest", Room: "a", AccountID: "ghost"}); err != nil {
		t.Fatal(err)
	}
	if got := rosterNames(t, h, "a"); !slices.Equal(got, []string{"Alice", "Claude", "Guest"}) {
		t.Fatalf("roster = %v", got)
	}
}

// TestAccountChangedRenamesEveryRoom is the room's half of a rename
// (docs/design.md §9 "Identity"): after AccountChanged the roster of every
// open room names the seat and the human anew (RosterChanged each), an
// @mention of the new name addresses it and the old one addresses nobody,
// the next posts are stamped and tagged with the new names (with the
// original name as full_name, and each addressed seat's own current name
// as "you"), floor positions are kept (an unread post from before the
// rename still bounces), and the posts already delivered and
// logged keep the names they were said under.
func TestAccountChangedRenamesEveryRoom(t *testing.T) {
	t.Parallel()
	h, log, terms, ids := identityHub(t)
	sub := h.Subscribe()
	defer sub.Close()
	h.SetAdmin(Hello{AccountID: "me"})
	mustOpen(t, h, "a")
	mustOpen(t, h, "b")
	ca, cb := seat(t, h, "a", "Claude", "cc"), seat(t, h, "b", "Claude", "cc")
	xa := seat(t, h, "a", "Codex", "cx")
	before := uiSay(t, h, "a", "@Claude look")
	if !slices.Equal(before.To, []string{"Claude"}) {
		t.Fatalf("before: to %v", before.To)
	}
	seatSaid := say(t, ca, "looking", before.MessageID)
	inB := uiSay(t, h, "b", "a post in b the seat has not read")

	ids.set("cc", "Claudia", "Claude Code", intp(200))
	ids.set("me", "Alicia", "", intp(45))
	h.AccountChanged("cc")
	h.AccountChanged("me")
	waitRenamed(t, sub, "Alicia", "Claudia", "a", "b")

	// The human's next post: its new name, routed by the new name only.
	res, err := h.Post("a", Draft{Content: "@Claudia and @Claude, again", LastSeen: seatSaid.MessageID})
	if err != nil || !res.Delivered {
		t.Fatalf("post after the rename: %+v %v", res, err)
	}
	p := res.Post
	if p.Speaker != "Alicia" || p.Hue == nil || *p.Hue != 45 || !slices.Equal(p.To, []string{"Claudia"}) || !strings.Contains(p.Content, "@Claude,") {
		t.Fatalf("post after the rename: %+v", p)
	}
	tag := Tag(typedInto(t, terms, "a", "cc", p.MessageID), time.UTC)
	if !strings.Contains(tag, `"from":"Alicia"`) || !strings.Contains(tag, `"to":["Claudia"],"you":"Claudia","your_full_name":"Claude Code"}`) {
		t.Fatalf("tag typed into the renamed seat: %s", tag)
	}
	// The floor kept the seat's position: it saw the human's post, so it
	// is not bounced; its post carries the new names.
	q := say(t, ca, "done", p.MessageID)
	if q.Speaker != "Claudia" || q.FullName != "Claude Code" {
		t.Fatalf("the seat's post after the rename: %+v", q)
	}
	if tag := Tag(q, time.UTC); !strings.Contains(tag, `"from":"Claudia","full_name":"Claude Code",`) {
		t.Fatalf("tag of the renamed seat's post: %s", tag)
	}
	// In b the seat still has not read the human's post from before the
	// rename: its seat (and so its floor position) is the one it had.
	if res, err := cb.Post(Draft{Content: "in b", LastSeen: ""}); err != nil || res.Delivered || len(res.Missed) != 1 || res.Missed[0].MessageID != inB.MessageID {
		t.Fatalf("b: a post that missed one from before the rename: %+v %v", res, err)
	}
	say(t, xa, "the other seat was not renamed", q.MessageID)

	checkSpeakers(t, log, "a", []string{"Alice", "Claude", "Alicia", "Claudia", "Codex"}, []string{"", "", "", "Claude Code", ""})
	// A room opened after the rename seats the human under the new name.
	mustOpen(t, h, "c")
	if got := rosterNames(t, h, "c"); !slices.Equal(got, []string{"Alicia"}) {
		t.Fatalf("new room's roster = %v", got)
	}
}

// waitRenamed waits for a RosterChanged of each topic naming human and
// seat, and requires the seat's entry to carry its full name.
func waitRenamed(t *testing.T, sub *Subscription, human, seatName string, topics ...string) {
	t.Helper()
	for _, topic := range topics {
		ev := nextEvent(t, sub, func(e RosterChanged) bool {
			return e.Topic == topic && slices.ContainsFunc(e.Roster, func(m Member) bool { return m.Name == human })
		})
		var names []string
		for _, m := range ev.Roster {
			names = append(names, m.Name)
		}
		if !slices.Contains(names, seatName) {
			t.Fatalf("%s: roster %v", topic, names)
		}
	}
}

// typedInto is the post with id as handed to the terminal of account in
// topic.
func typedInto(t *testing.T, terms *fakeTerms, topic, account, id string) Post {
	t.Helper()
	terms.mu.Lock()
	defer terms.mu.Unlock()
	for _, c := range terms.calls {
		if c.post.MessageID == id && c.account == account && c.topic == topic {
			return c.post
		}
	}
	t.Fatalf("%s was not typed into %s in %s", id, account, topic)
	return Post{}
}

// checkSpeakers requires topic's log lines to carry speakers and full
// names, in order.
func checkSpeakers(t *testing.T, log *memLog, topic string, speakers, fulls []string) {
	t.Helper()
	recs, _, err := log.Page(topic, "", 100)
	if err != nil || len(recs) != len(speakers) {
		t.Fatalf("log holds %d posts (%v), want %d", len(recs), err, len(speakers))
	}
	for i, r := range recs {
		if r.Speaker != speakers[i] || r.FullName != fulls[i] {
			t.Errorf("log line %d: speaker %q full_name %q, want %q %q", i, r.Speaker, r.FullName, speakers[i], fulls[i])
		}
	}
}

// TestAccountNamesAreCheckedLikeHellos: a name the account holds that a
// hello could not carry (a newline, 65 characters) refuses the hello and
// leaves a running seat's name as it was on AccountChanged; an account
// Identities no longer knows changes nothing.
func TestAccountNamesAreCheckedLikeHellos(t *testing.T) {
	t.Parallel()
	h, _, _, ids := identityHub(t)
	mustOpen(t, h, "a")
	c := seat(t, h, "a", "x", "cc")
	ids.set("cc", "Clau\nde", "", nil)
	h.AccountChanged("cc")
	ids.set("cx", strings.Repeat("x", maxNameRunes+1), "", nil)
	bad := h.Connect()
	defer bad.Close()
	if err := bad.Hello(Hello{Protocol: Protocol, Name: "ok", Room: "a", AccountID: "cx"}); !errors.Is(err, ErrBadName) {
		t.Fatalf("hello for an account with a 65-character name: %v", err)
	}
	ids.mu.Lock()
	delete(ids.m, "cc")
	ids.mu.Unlock()
	h.AccountChanged("cc")
	if got := rosterNames(t, h, "a"); !slices.Equal(got, []string{"Claude"}) {
		t.Fatalf("roster = %v", got)
	}
	if p := say(t, c, "still me", ""); p.Speaker != "Claude" {
		t.Fatalf("speaker %q", p.Speaker)
	}
}

// TestRenameRacesAHello: a hello and a rename of its account at the same
// time never leave the seat under the name from before the rename.
func TestRenameRacesAHello(t *testing.T) {
	t.Parallel()
	for i := range 50 {
		h, _, _, ids := identityHub(t)
		mustOpen(t, h, "a")
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids.set("cc", "Claudia", "", nil)
			h.AccountChanged("cc")
		}()
		seat(t, h, "a", "x", "cc")
		wg.Wait()
		if got := rosterNames(t, h, "a"); !slices.Equal(got, []string{"Claudia"}) {
			t.Fatalf("run %d: roster = %v", i, got)
		}
	}
}

// TestTagCarriesTheNames: the tag's from is the speaker's name and
// full_name its original name only when that differs; an addressed post
// typed into a seat says who that seat is now ("you", and "your_full_name"
// when it differs), a whole-room post never does (spec «ニックネームと元の名前»).
func TestTagCarriesTheNames(t *testing.T) {
	t.Parallel()
	base := Post{Role: RoleClaudeCode, Speaker: "Lin", MessageID: "m", TS: "2026-10-01T16:14:05.123Z"}
	for _, tc := range []struct {
		name string
		edit func(*Post)
		want string
	}{
		{"plain", func(*Post) {}, `{"role":"claude_code","from":"Lin","message_id":"m","at":"2026-10-01T16:14+00:00"}`},
		{"full name", func(p *Post) { p.FullName = "Claude Lin" },
			`{"role":"claude_code","from":"Lin","full_name":"Claude Lin","message_id":"m","at":"2026-10-01T16:14+00:00"}`},
		{"full name same as name", func(p *Post) { p.FullName = "Lin" },
			`{"role":"claude_code","from":"Lin","message_id":"m","at":"2026-10-01T16:14+00:00"}`},
		{"addressed", func(p *Post) { p.To, p.You, p.YourFullName = []string{"Lay"}, "Lay", "Codex Lay" },
			`{"role":"claude_code","from":"Lin","message_id":"m","at":"2026-10-01T16:14+00:00","to":["Lay"],"you":"Lay","your_full_name":"Codex Lay"}`},
		{"addressed, no nickname", func(p *Post) { p.To, p.You, p.YourFullName = []string{"Lay"}, "Lay", "" },
			`{"role":"claude_code","from":"Lin","message_id":"m","at":"2026-10-01T16:14+00:00","to":["Lay"],"you":"Lay"}`},
		{"whole room", func(p *Post) { p.You, p.YourFullName = "Lay", "Codex Lay" },
			`{"role":"claude_code","from":"Lin","message_id":"m","at":"2026-10-01T16:14+00:00"}`},
	} {
		p := base
		tc.edit(&p)
		if got := Tag(p, time.UTC); got != TagPrefix+tc.want {
			t.Errorf("%s:\n got %s\nwant %s%s", tc.name, got, TagPrefix, tc.want)
		}
	}
}

// identityOf reads c's next frame and requires it to be an identity frame.
func identityOf(t *testing.T, c *client) IdentityFrame {
	t.Helper()
	b := c.readAny()
	var id IdentityFrame
	if err := json.Unmarshal(b, &id); err != nil || id.Type != FrameIdentity {
		t.Fatalf("want an identity frame, got %s", b)
	}
	return id
}

// TestRenamedSeatIsToldItsName: a seat's socket is told who the room says
// it is (spec «ニックネームと元の名前» #383): after its hello, the account's
// names whatever the hello said; after the account is renamed, the new
// name and full name, in every room it sits in; a save that changes no name
// sends nothing. A connection without an account is told its own name.
// Before, a seat learnt a rename only from "you" on a post addressed to it.
func TestRenamedSeatIsToldItsName(t *testing.T) {
	t.Parallel()
	h, _, _, ids := identityHub(t)
	mustOpen(t, h, "a")
	mustOpen(t, h, "b")
	s := newTestServer(t, h, ServerOptions{})
	ca, cb := dialRoom(t, s, bearer(s)), dialRoom(t, s, bearer(s))
	ca.hello("launch-time name", "a", "cc")
	cb.hello("Claude", "b", "cc")
	for _, c := range []*client{ca, cb} {
		if id := identityOf(t, c); id.Name != "Claude" || id.FullName != "" {
			t.Fatalf("after hello: %+v, want Claude", id)
		}
	}
	ids.set("cc", "Claudia", "Claude Code", intp(200))
	h.AccountChanged("cc")
	for _, c := range []*client{ca, cb} {
		if id := identityOf(t, c); id.Name != "Claudia" || id.FullName != "Claude Code" {
			t.Fatalf("after the rename: %+v, want Claudia (Claude Code)", id)
		}
	}
	ids.set("cc", "Claudia", "Claude Code", intp(90)) // only the hue
	h.AccountChanged("cc")
	ca.send(PostFrame{Type: FramePost, MessageID: "m1", Content: "hello", TS: "2026-10-01T00:00:00Z"})
	var fr PostResultFrame
	if b := ca.readAny(); json.Unmarshal(b, &fr) != nil || fr.Type != FramePostResult {
		t.Fatalf("a save that renamed nothing sent %s", b)
	}
	g := dialRoom(t, s, bearer(s))
	g.hello("Visitor", "a", "")
	if id := identityOf(t, g); id.Name != "Visitor" {
		t.Fatalf("a guest: %+v", id)
	}
}
