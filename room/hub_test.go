package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRoles: the role comes from the entry point alone (docs/design.md §4).
func TestRoles(t *testing.T) {
	t.Parallel()
	type entry func(t *testing.T, h *Hub) Post
	socket := func(account string) entry {
		return func(t *testing.T, h *Hub) Post {
			return say(t, seat(t, h, "t", "S", account), "hi", "")
		}
	}
	tests := []struct {
		name     string
		accounts Accounts
		post     entry
		want     Role
	}{
		{"ui is admin", testAccounts, func(t *testing.T, h *Hub) Post {
			res, err := h.Post("t", Draft{Content: "hi"})
			if err != nil || !res.Delivered {
				t.Fatalf("ui post: %v %v", err, res.Delivered)
			}
			return res.Post
		}, RoleAdmin},
		{"app notice", testAccounts, func(t *testing.T, h *Hub) Post {
			p := appNotice(t, h, "t", "seat stopped")
			if p.Speaker != AppSpeaker || !p.FromApp || p.Account != "" {
				t.Fatalf("app notice stamped %+v", p)
			}
			return p
		}, RoleApp},
		{"socket claude_code", testAccounts, socket("cc"), RoleClaudeCode},
		{"socket codex_cli", testAccounts, socket("cx"), RoleCodexCLI},
		{"socket cli", testAccounts, socket("gen"), RoleCLI},
		{"socket without account", testAccounts, socket(""), RoleUnknown},
		{"socket with unknown account", testAccounts, socket("nobody"), RoleUnknown},
		{"socket without an accounts book", nil, socket("cc"), RoleUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHub(t, nil, nil, tt.accounts)
			h.SetAdmin(Hello{Name: "me", AccountID: "me"})
			mustOpen(t, h, "t")
			if p := tt.post(t, h); p.Role != tt.want {
				t.Fatalf("role %q, want %q", p.Role, tt.want)
			}
		})
	}
	// No socket may sit as the human's or an MCP server's account: the log
	// keeps the account, and history would read its posts back as theirs.
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	for _, acct := range []string{"me", "gh"} {
		c := h.Connect()
		if err := c.Hello(Hello{Protocol: Protocol, Name: "S", Room: "t", AccountID: acct}); !errors.Is(err, ErrBadHello) {
			t.Errorf("a socket naming account %s: %v, want ErrBadHello", acct, err)
		}
		c.Close()
	}
}

// TestRosterRoles: the roster shows the same roles; only the UI's seat is
// admin and local.
func TestRosterRoles(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	seat(t, h, "t", "Fake admin", "nobody")
	seat(t, h, "t", "Lin", "cc")
	roster, err := h.Roster("t")
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{
		{Name: "me", AccountID: "me", Role: RoleAdmin, Local: true},
		{Name: "Fake admin", AccountID: "nobody", Role: RoleUnknown},
		{Name: "Lin", AccountID: "cc", Role: RoleClaudeCode},
	}
	if !slices.Equal(roster, want) {
		t.Fatalf("roster %+v\nwant %+v", roster, want)
	}
}

// TestTyping: own posts are never typed back, connections without account or
// seat get nothing, two connections of one account are typed once (docs/design.md §2).
func TestTyping(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms("t/cc", "t/cx", "t/me")
	h := newTestHub(t, nil, terms, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	a1 := seat(t, h, "t", "Lin", "cc")
	seat(t, h, "t", "Lin (2nd socket)", "cc")
	b := seat(t, h, "t", "Kai", "cx")
	seat(t, h, "t", "anon", "")
	seat(t, h, "t", "not running", "ghost")

	check := func(name string, p Post, wantTyped []string, never string) {
		t.Helper()
		all, typed := terms.typedTo(p.MessageID)
		if !slices.Equal(typed, wantTyped) {
			t.Errorf("%s: typed into %q, want %q", name, typed, wantTyped)
		}
		for _, acct := range all {
			if acct == never || acct == "" {
				t.Errorf("%s: enqueued for %q (calls %q)", name, acct, all)
			}
		}
		seen := map[string]bool{}
		for _, acct := range all {
			if seen[acct] {
				t.Errorf("%s: account %q enqueued twice (calls %q)", name, acct, all)
			}
			seen[acct] = true
		}
	}

	p1 := say(t, a1, "from Lin", "")
	check("seat post", p1, []string{"me", "cx"}, "cc")

	res, err := h.Post("t", Draft{Content: "from the ui", LastSeen: p1.MessageID})
	if err != nil || !res.Delivered {
		t.Fatalf("ui post: %v %v", err, res.Delivered)
	}
	check("ui post", res.Post, []string{"cc", "cx"}, "me")

	p2 := say(t, b, "from Kai", res.Post.MessageID)
	check("other seat", p2, []string{"me", "cc"}, "cx")

	// Typing order is delivery order.
	terms.mu.Lock()
	var order []string
	for _, c := range terms.calls {
		if c.account == "cc" {
			order = append(order, c.post.MessageID)
		}
	}
	terms.mu.Unlock()
	if want := []string{res.Post.MessageID, p2.MessageID}; !slices.Equal(order, want) {
		t.Fatalf("typed into cc in order %q, want %q", order, want)
	}
}

var errDiskFull = errors.New("disk full")

// TestLogAppendFailure: the post is still delivered and typed, Result.LogErr
// is set and LogFailed follows PostDelivered (docs/design.md §2).
func TestLogAppendFailure(t *testing.T) {
	t.Parallel()
	log := newMemLog()
	terms := newFakeTerms("t/cx")
	h := newTestHub(t, log, terms, testAccounts)
	mustOpen(t, h, "t")
	a := seat(t, h, "t", "Lin", "cc")
	seat(t, h, "t", "Kai", "cx")
	sub := h.Subscribe()
	defer sub.Close()

	log.setAppendErr(errDiskFull)
	res, err := a.Post(Draft{Content: "still delivered"})
	if err != nil || !res.Delivered {
		t.Fatalf("post: %v delivered %v", err, res.Delivered)
	}
	if !errors.Is(res.LogErr, errDiskFull) {
		t.Fatalf("LogErr = %v, want disk full", res.LogErr)
	}
	ev := nextEvent[Event](t, sub, func(e Event) bool { _, ok := e.(RosterChanged); return !ok })
	if pd, ok := ev.(PostDelivered); !ok || pd.Post.MessageID != res.Post.MessageID {
		t.Fatalf("first event %#v, want PostDelivered", ev)
	}
	lf := nextEvent[LogFailed](t, sub, nil)
	if lf.MessageID != res.Post.MessageID || lf.Topic != "t" || !errors.Is(lf.Err, errDiskFull) {
		t.Fatalf("LogFailed %+v", lf)
	}
	if _, typed := terms.typedTo(res.Post.MessageID); !slices.Equal(typed, []string{"cx"}) {
		t.Fatalf("typed into %q, want cx", typed)
	}
	if got := log.firstIDs(); len(got) != 0 {
		t.Fatalf("NoteFirstPost for a post that never reached the log: %q", got)
	}

	// The next post that reaches the log is the topic's first.
	log.setAppendErr(nil)
	p := say(t, a, "second", "")
	if got := log.firstIDs(); !slices.Equal(got, []string{p.MessageID}) {
		t.Fatalf("first posts %q, want %q", got, p.MessageID)
	}
}

// TestFirstPost: NoteFirstPost once, for the first post the topic log ever
// got; never for a topic that already has posts; its failure is LogFailed.
func TestFirstPost(t *testing.T) {
	t.Parallel()
	log := newMemLog()
	log.recs["old"] = []logstore.Record{{MessageID: "old-1", Speaker: "x", Content: "earlier run", TS: "2026-01-01T00:00:00Z"}}
	h := newTestHub(t, log, nil, testAccounts)
	h.SetAdmin(Hello{Name: "me"})
	mustOpen(t, h, "new")
	mustOpen(t, h, "old")
	sub := h.Subscribe()
	defer sub.Close()

	p1 := uiSay(t, h, "new", "first")
	uiSay(t, h, "new", "second")
	uiSay(t, h, "old", "third")
	if got := log.firstIDs(); !slices.Equal(got, []string{p1.MessageID}) {
		t.Fatalf("first posts %q, want only %q", got, p1.MessageID)
	}

	log.noteErr = fmt.Errorf("index: %w", fs.ErrPermission)
	mustOpen(t, h, "third")
	p3 := uiSay(t, h, "third", "hello")
	lf := nextEvent[LogFailed](t, sub, nil)
	if lf.MessageID != p3.MessageID || !errors.Is(lf.Err, fs.ErrPermission) {
		t.Fatalf("LogFailed %+v", lf)
	}
}

// TestHistoryFromLog: history reads the log, pages oldest first and
// reconstructs roles; limits are clamped.
func TestHistoryFromLog(t *testing.T) {
	t.Parallel()
	log := newMemLog()
	var recs []logstore.Record
	for i := range 260 {
		rec := logstore.Record{MessageID: fmt.Sprintf("r%03d", i), Speaker: "s", Content: "c", TS: "2026-01-01T00:00:00Z"}
		switch i % 5 {
		case 1:
			rec.FromApp = true
		case 2:
			rec.Account = "cc"
		case 3:
			rec.Account = "me"
		case 4:
			rec.Account = "gh"
		}
		recs = append(recs, rec)
	}
	log.recs["t"] = recs
	h := newTestHub(t, log, nil, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	c := seat(t, h, "t", "Lin", "cc")

	posts, more, err := c.History("", 0)
	if err != nil || len(posts) != HistoryDefault || !more {
		t.Fatalf("default page: %d posts, more %v, err %v", len(posts), more, err)
	}
	if posts[0].MessageID != "r210" || posts[49].MessageID != "r259" {
		t.Fatalf("page is %s…%s, want r210…r259 (oldest first)", posts[0].MessageID, posts[49].MessageID)
	}
	roles := map[string]Role{"r255": RoleUnknown, "r256": RoleApp, "r257": RoleClaudeCode, "r258": RoleAdmin, "r259": RoleMCP}
	for _, p := range posts {
		if want, ok := roles[p.MessageID]; ok && p.Role != want {
			t.Errorf("%s role %q, want %q", p.MessageID, p.Role, want)
		}
		if p.Hue != nil {
			t.Errorf("%s has a hue from the log", p.MessageID)
		}
	}
	posts, more, err = h.History("t", "r210", 1000)
	if err != nil || len(posts) != HistoryMax || !more || posts[0].MessageID != "r010" {
		t.Fatalf("clamped page: %d posts from %v, more %v, err %v", len(posts), postIDs(posts)[:1], more, err)
	}
	posts, more, err = h.History("t", "r010", 50)
	if err != nil || len(posts) != 10 || more {
		t.Fatalf("last page: %d posts, more %v, err %v", len(posts), more, err)
	}
	if _, _, err := h.History("t", "nope", 5); !errors.Is(err, errNotInLog) {
		t.Fatalf("unknown before: %v", err)
	}
	// The log is read even for a topic with no open room.
	if _, _, err := h.History("closed-topic", "", 5); err != nil {
		t.Fatalf("history of an unopened topic: %v", err)
	}
	// Posts delivered now are in the next read.
	p := say(t, c, "new", "")
	posts, _, err = h.History("t", "", 1)
	if err != nil || len(posts) != 1 || posts[0].MessageID != p.MessageID || posts[0].Role != RoleClaudeCode {
		t.Fatalf("newest after post: %+v, %v", posts, err)
	}
}

// TestHistoryWithoutLog reads the floor window.
func TestHistoryWithoutLog(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "t")
	c := seat(t, h, "t", "Lin", "cc")
	var ids []string
	for i := range 7 {
		ids = append(ids, say(t, c, fmt.Sprintf("p%d", i), "").MessageID)
	}
	posts, more, err := c.History("", 3)
	if err != nil || !slices.Equal(postIDs(posts), ids[4:]) || !more {
		t.Fatalf("newest 3: %q more %v err %v", postIDs(posts), more, err)
	}
	posts, more, err = c.History(ids[4], 10)
	if err != nil || !slices.Equal(postIDs(posts), ids[:4]) || more {
		t.Fatalf("before %s: %q more %v err %v", ids[4], postIDs(posts), more, err)
	}
	if posts[0].Role != RoleClaudeCode || posts[0].Speaker != "Lin" {
		t.Fatalf("window post %+v", posts[0])
	}
	if _, _, err := c.History("nope", 10); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("unknown before: %v", err)
	}
	if _, _, err := h.History("unopened", "", 10); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("unopened room without log: %v", err)
	}
}

// TestConnLifecycle: hello rules, rename, per-connection roster, close.
func TestConnLifecycle(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	mustOpen(t, h, "u")
	sub := h.Subscribe()
	defer sub.Close()

	c := h.Connect()
	defer c.Close()
	if _, err := c.Post(Draft{Content: "hi"}); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("post before hello: %v", err)
	}
	if _, _, err := c.History("", 5); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("history before hello: %v", err)
	}
	for _, bad := range []Hello{{Room: "t"}, {Name: "  ", Room: "t"}, {Name: "x"}, {Name: "x", Room: "t", Protocol: 3}} {
		if err := c.Hello(bad); !errors.Is(err, ErrBadHello) {
			t.Fatalf("hello %+v: %v, want ErrBadHello", bad, err)
		}
	}
	if err := c.Hello(Hello{Name: "x", Room: "nowhere"}); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("hello to unknown room: %v", err)
	}
	if _, err := c.Post(Draft{Content: "hi"}); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("post after refused hello: %v", err)
	}
	hue := 200
	if err := c.Hello(Hello{Protocol: Protocol, Name: " Lin ", Room: "t", AccountID: "cc", Hue: &hue, FullName: "Claude Lin"}); err != nil {
		t.Fatal(err)
	}
	hue = 10 // the room keeps its own copy
	rc := nextEvent(t, sub, func(e RosterChanged) bool { return e.Topic == "t" })
	if len(rc.Roster) != 1 || rc.Roster[0].Name != "Lin" || *rc.Roster[0].Hue != 200 || rc.Roster[0].FullName != "Claude Lin" {
		t.Fatalf("roster after hello %+v", rc.Roster)
	}
	if err := c.Hello(Hello{Name: "Lin", Room: "u"}); !errors.Is(err, ErrBadHello) {
		t.Fatalf("hello to another room: %v", err)
	}
	if err := c.Hello(Hello{Name: "Lin2", Room: "t", AccountID: "cc"}); err != nil {
		t.Fatal(err)
	}
	rc = nextEvent(t, sub, func(e RosterChanged) bool { return e.Topic == "t" })
	if len(rc.Roster) != 1 || rc.Roster[0].Name != "Lin2" || rc.Roster[0].Hue != nil {
		t.Fatalf("roster after rename %+v", rc.Roster)
	}
	if joined, _ := terms.snapshot(); !slices.Equal(joined, []string{"t/cc"}) {
		t.Fatalf("SidecarJoined %q, want once for t/cc", joined)
	}
	c.Ready()
	if _, ready := terms.snapshot(); !slices.Equal(ready, []string{"t/cc"}) {
		t.Fatalf("SidecarReady %q", ready)
	}

	// Two connections with one name are two members; closing one leaves one.
	twin := seat(t, h, "t", "Lin2", "")
	nextEvent(t, sub, func(e RosterChanged) bool { return len(e.Roster) == 2 })
	twin.Ready() // no account: nothing reported
	twin.Close()
	rc = nextEvent(t, sub, func(e RosterChanged) bool { return e.Topic == "t" })
	if len(rc.Roster) != 1 || rc.Roster[0].AccountID != "cc" {
		t.Fatalf("after closing the twin %+v", rc.Roster)
	}
	if _, err := twin.Post(Draft{Content: "x"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("post on closed conn: %v", err)
	}
	if err := twin.Hello(Hello{Name: "x", Room: "t"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("hello on closed conn: %v", err)
	}

	h.CloseRoom("t")
	if _, err := c.Post(Draft{Content: "x"}); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("post after CloseRoom: %v", err)
	}
	if _, _, err := c.History("", 1); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("history after CloseRoom: %v", err)
	}
	if _, err := h.Roster("t"); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("roster after CloseRoom: %v", err)
	}
	if got := h.Rooms(); !slices.Equal(got, []string{"u"}) {
		t.Fatalf("rooms %q", got)
	}
	if _, ready := terms.snapshot(); len(ready) != 1 {
		t.Fatalf("ready reported for a connection without account: %q", ready)
	}
}

// TestAdmin: the UI's identity sits in every room, opened before or after
// SetAdmin; calling SetAdmin again renames; posting without it fails.
func TestAdmin(t *testing.T) {
	t.Parallel()
	h := newTestHub(t, nil, nil, testAccounts)
	mustOpen(t, h, "before")
	if _, err := h.Post("before", Draft{Content: "hi"}); !errors.Is(err, ErrNoAdmin) {
		t.Fatalf("post without admin: %v", err)
	}
	if _, err := h.Post("nowhere", Draft{Content: "hi"}); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("post to unopened room: %v", err)
	}
	h.SetAdmin(Hello{Name: "me", AccountID: "me", Room: "ignored"})
	mustOpen(t, h, "after")
	mustOpen(t, h, "after") // idempotent
	for _, topic := range []string{"before", "after"} {
		r, err := h.Roster(topic)
		if err != nil || len(r) != 1 || r[0].Name != "me" || r[0].Role != RoleAdmin || !r[0].Local {
			t.Fatalf("%s roster %+v, %v", topic, r, err)
		}
	}
	h.SetAdmin(Hello{Name: "Master", AccountID: "me"})
	r, _ := h.Roster("after")
	if len(r) != 1 || r[0].Name != "Master" {
		t.Fatalf("after rename %+v", r)
	}
	res, err := h.Post("after", Draft{Content: "hello", MessageID: "mine", TS: "2026-10-02T01:13:30+09:00"})
	if err != nil || res.Post.Speaker != "Master" || res.Post.MessageID != "mine" || res.Post.TS != "2026-10-02T01:13:30+09:00" {
		t.Fatalf("ui post %+v, %v", res.Post, err)
	}
	// A ts far from the room's clock is the room's own (the clock here
	// is 2026-10-01T16:14:05.123Z).
	for i, ts := range []string{"9999-12-31T00:00:00Z", "2026-10-01T16:17:00Z", "2026-10-01T16:11:00Z", "1970-01-01T00:00:00Z"} {
		res, err := h.Post("after", Draft{Content: "dated", TS: ts, LastSeen: res.Post.MessageID})
		if err != nil || res.Post.TS != "2026-10-01T16:14:05.123Z" {
			t.Fatalf("post %d dated %s: ts %q, %v", i, ts, res.Post.TS, err)
		}
	}
	res, err = h.Post("after", Draft{Content: "again", TS: "noon", LastSeen: "mine"})
	if err != nil || res.Post.TS != "2026-10-01T16:14:05.123Z" || res.Post.MessageID == "" {
		t.Fatalf("room-stamped ts/id: %+v, %v", res.Post, err)
	}
	if err := h.OpenRoom(""); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("OpenRoom(\"\"): %v", err)
	}
	if _, err := h.Post("after", Draft{Content: "  ", LastSeen: res.Post.MessageID}); !errors.Is(err, ErrEmptyPost) {
		t.Fatalf("empty ui post: %v", err)
	}
}

// TestReportsGoToTheSeat: a hook report reaches the running seat of its
// topic and account as sent (a copy); one for no running seat, or with no
// terminals at all, is refused with ErrNoSeat and nothing is kept.
func TestReportsGoToTheSeat(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	body := json.RawMessage(`{"model":{"id":"opus"}}`)
	if err := h.Report("t", "cc", ReportStatus, "", body); err != nil {
		t.Fatal(err)
	}
	body[2] = 'X' // the seat got its own copy
	if err := h.Report("t", "cc", ReportActivity, "PreToolUse", json.RawMessage(`{"tool_name":"Bash"}`)); err != nil {
		t.Fatal(err)
	}
	if r, ok := terms.lastReport("t", "cc", ReportStatus); !ok || string(r.Body) != `{"model":{"id":"opus"}}` {
		t.Fatalf("status report %+v %v", r, ok)
	}
	if r, ok := terms.lastReport("t", "cc", ReportActivity); !ok || r.Event != "PreToolUse" {
		t.Fatalf("activity report %+v %v", r, ok)
	}
	if err := h.Report("t", "cx", ReportStatus, "", body); !errors.Is(err, ErrNoSeat) {
		t.Fatalf("report for no running seat: %v", err)
	}
	if _, ok := terms.lastReport("t", "cx", ReportStatus); ok {
		t.Fatal("a refused report was kept")
	}
	bare := newTestHub(t, nil, nil, testAccounts)
	if err := bare.Report("t", "cc", ReportStatus, "", body); !errors.Is(err, ErrNoSeat) {
		t.Fatalf("report without terminals: %v", err)
	}
	bare.Close()
	if err := bare.Report("t", "cc", ReportStatus, "", body); !errors.Is(err, ErrClosed) {
		t.Fatalf("report after close: %v", err)
	}
}

// TestSubscriptions: in order, and a subscriber that reads late (within its
// bound) loses nothing and never blocks Deliver; Close ends the pump; no
// leaks.
func TestSubscriptions(t *testing.T) {
	base := runtime.NumGoroutine()
	h, err := NewHub(HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mustOpen(t, h, "t")
	slow := h.Subscribe()
	other := h.Subscribe()
	c := h.Connect()
	if err := c.Hello(Hello{Name: "Lin", Room: "t"}); err != nil {
		t.Fatal(err)
	}
	const n = 2000
	var ids []string
	for i := range n {
		ids = append(ids, say(t, c, fmt.Sprintf("p%d", i), "").MessageID) // nobody reads meanwhile
	}
	for _, s := range []*Subscription{slow, other} {
		nextEvent[RosterChanged](t, s, nil)
		for i := range n {
			ev := nextEvent[PostDelivered](t, s, nil)
			if ev.Post.MessageID != ids[i] || ev.Seq != uint64(i+1) {
				t.Fatalf("event %d is %s seq %d, want %s seq %d", i, ev.Post.MessageID, ev.Seq, ids[i], i+1)
			}
		}
	}
	slow.Close()
	slow.Close() // idempotent
	if _, open := <-slow.C(); open {
		t.Fatal("C still open after Close")
	}
	say(t, c, "after close", "")
	nextEvent[PostDelivered](t, other, nil)
	h.Close()
	waitClosed(t, other) // drained and closed by Hub.Close
	late := h.Subscribe()
	if _, open := <-late.C(); open {
		t.Fatal("subscription after Hub.Close is open")
	}
	if _, err := c.Post(Draft{Content: "x"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("post after hub close: %v", err)
	}
	if err := h.OpenRoom("x"); !errors.Is(err, ErrClosed) {
		t.Fatalf("open after close: %v", err)
	}
	waitGoroutines(t, base)
}

// TestStuckSubscriberCutOff: a subscriber that stops reading is cut off at
// its memory bound (pubsub.ErrOverflow) instead of growing without end;
// Deliver never waits for it and the other subscriber gets every post.
func TestStuckSubscriberCutOff(t *testing.T) {
	h, err := NewHub(HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	mustOpen(t, h, "t")
	stuck := h.Subscribe()
	live := h.Subscribe()
	c := h.Connect()
	if err := c.Hello(Hello{Name: "Lin", Room: "t"}); err != nil {
		t.Fatal(err)
	}
	nextEvent[RosterChanged](t, live, nil)
	big := strings.Repeat("x", MaxPostBytes-8) // the post cap: 64 of these fill the bound
	for i := range pubsub.DefaultMaxBytes>>20 + 2 {
		p := say(t, c, fmt.Sprintf("%d %s", i, big), "")
		if ev := nextEvent[PostDelivered](t, live, nil); ev.Post.MessageID != p.MessageID {
			t.Fatalf("live subscriber got %s, want %s", ev.Post.MessageID, p.MessageID)
		}
	}
	waitClosed(t, stuck) // what was queued before the cut-off, then closed
	if !errors.Is(stuck.Err(), pubsub.ErrOverflow) {
		t.Fatalf("stuck subscriber's Err = %v, want ErrOverflow", stuck.Err())
	}
}

// waitGoroutines waits until the goroutine count is back to base; on
// failure it logs every goroutine's stack, which names the leak.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	settled := false
	defer func() {
		if !settled {
			buf := make([]byte, 1<<16)
			t.Logf("%d goroutines, want ≤ %d:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
	}()
	testkit.Eventually(t, fmt.Sprintf("the goroutine count back to %d", base), func() bool {
		return runtime.NumGoroutine() <= base
	})
	settled = true
}

// TestAppNoticeContentKept: Pullcept's notices keep their text as given (no
// trimming, no mention processing, no to: docs/design.md §3), TS is the
// room's, and they are typed into every seat like any post (docs/design.md
// §2).
func TestAppNoticeContentKept(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	seat(t, h, "t", "Lin", "cc")
	text := "  line one\n@Lin\n"
	p := appNotice(t, h, "t", text)
	if p.Content != text || p.To != nil || p.Account != "" || !strings.HasSuffix(p.TS, "Z") {
		t.Fatalf("notice %+v", p)
	}
	if _, typed := terms.typedTo(p.MessageID); !slices.Equal(typed, []string{"cc"}) {
		t.Fatalf("notice typed into %q, want cc", typed)
	}
}
