package room

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestBrakeCount: the run of AI posts, what ends it and when the brake
// engages (docs/design.md §2 "The brake"), on the room's counter alone.
func TestBrakeCount(t *testing.T) {
	t.Parallel()
	const (
		ai    = RoleClaudeCode
		human = RoleAdmin
	)
	tests := []struct {
		name    string
		limit   int
		roles   []Role
		wantRun int
		wantOn  bool
		changes []BrakeChanged // in order
	}{
		{"below the limit", 3, []Role{ai, RoleCodexCLI}, 2, false, nil},
		{"every AI kind counts", 3, []Role{RoleClaudeCode, RoleCodexCLI, RoleCLI}, 3, true,
			[]BrakeChanged{{On: true, Count: 3}}},
		{"the human's post resets the run", 3, []Role{ai, ai, human, ai, ai}, 2, false, nil},
		{"notices and unknown speakers neither count nor reset", 3,
			[]Role{ai, RoleApp, RoleMCP, RoleUnknown, ai, RoleApp, ai}, 3, true, []BrakeChanged{{On: true, Count: 3}}},
		{"the run is frozen while braked", 2, []Role{ai, ai, ai, ai, RoleApp}, 2, true,
			[]BrakeChanged{{On: true, Count: 2}}},
		{"the human releases, the count starts from zero", 2, []Role{ai, ai, ai, human, ai}, 1, false,
			[]BrakeChanged{{On: true, Count: 2}, {On: false}}},
		{"engages again after a release", 2, []Role{ai, ai, human, ai, ai}, 2, true,
			[]BrakeChanged{{On: true, Count: 2}, {On: false}, {On: true, Count: 2}}},
		{"a limit of one brakes every AI post", 1, []Role{human, ai}, 1, true,
			[]BrakeChanged{{On: true, Count: 1}}},
		{"zero is off", 0, slices.Repeat([]Role{ai}, 100), 0, false, nil},
		{"the human's post when not braked changes nothing", 2, []Role{human, human}, 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b brake
			var changes []BrakeChanged
			for _, r := range tt.roles {
				if c, ok := b.count(tt.limit, r); ok {
					changes = append(changes, c)
				}
			}
			if b.run != tt.wantRun || b.on != tt.wantOn {
				t.Errorf("run %d on %v, want %d %v", b.run, b.on, tt.wantRun, tt.wantOn)
			}
			if !slices.Equal(changes, tt.changes) {
				t.Errorf("changes %+v, want %+v", changes, tt.changes)
			}
		})
	}
}

// brakeRoom is a room with the brake at limit: the admin (me, with a
// running seat too), two AI seats Lin (cc) and Kai (cx), a memLog and a
// recording Terminals, subscribed from the start.
type brakeRoom struct {
	h     *Hub
	log   *memLog
	terms *fakeTerms
	lin   *Conn
	kai   *Conn
	sub   *Subscription
}

func newBrakeRoom(t *testing.T, limit int) *brakeRoom {
	t.Helper()
	b := &brakeRoom{log: newMemLog(), terms: newFakeTerms("t/cc", "t/cx", "t/me")}
	h, err := NewHub(HubOptions{Log: b.log, Terminals: b.terms, Accounts: testAccounts, Now: fixedNow, NewID: counterIDs(), Brake: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	b.h = h
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	b.lin = seat(t, h, "t", "Lin", "cc")
	b.kai = seat(t, h, "t", "Kai", "cx")
	b.sub = h.Subscribe()
	t.Cleanup(b.sub.Close)
	return b
}

// volley has Lin and Kai answer each other n times, each passing the
// previous post as last_seen, starting after lastSeen; it returns the posts.
func (b *brakeRoom) volley(t *testing.T, n int, lastSeen string) []Post {
	t.Helper()
	var out []Post
	for i := range n {
		c := b.lin
		if i%2 == 1 {
			c = b.kai
		}
		p := say(t, c, fmt.Sprintf("answer %d", i+1), lastSeen)
		out = append(out, p)
		lastSeen = p.MessageID
	}
	return out
}

// typed returns the accounts p was enqueued for.
func (b *brakeRoom) typed(p Post) []string {
	all, _ := b.terms.typedTo(p.MessageID)
	return all
}

// eventsUntil reads the room's events up to the PostDelivered of
// messageID (a fence the test posted last) and returns the brake changes
// and the delivered posts' ids, in order.
func (b *brakeRoom) eventsUntil(t *testing.T, messageID string) (changes []BrakeChanged, delivered []string) {
	t.Helper()
	for {
		switch e := nextEvent[Event](t, b.sub, nil).(type) {
		case BrakeChanged:
			changes = append(changes, e)
		case PostDelivered:
			delivered = append(delivered, e.Post.MessageID)
			if e.Post.MessageID == messageID {
				return changes, delivered
			}
		}
	}
}

// TestBrakeStopsTypingAIPosts: after N AI posts in a row the room types no
// AI post into any seat, delivers one app notice (typed into every seat),
// still logs and returns the AI posts, and the human's post releases the
// brake; posts made while braked are never typed afterwards, and the count
// starts from zero (docs/design.md §2 "The brake").
func TestBrakeStopsTypingAIPosts(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 3)
	run := b.volley(t, 3, "")
	for _, p := range run[:2] {
		if got := b.typed(p); len(got) != 2 {
			t.Fatalf("%s typed into %q before the brake, want two seats", p.Content, got)
		}
	}
	if got := b.typed(run[2]); got != nil {
		t.Fatalf("the post that engaged the brake was typed into %q", got)
	}
	if !b.h.Braked("t") {
		t.Fatal("Braked = false after 3 AI posts")
	}

	// The notice follows the third post at once: Pullcept's own post.
	ids := b.log.ids("t")
	if len(ids) != 4 || !slices.Equal(ids[:3], postIDs(run)) {
		t.Fatalf("log %q, want the three posts and the notice", ids)
	}
	notice := b.history(t)[3]
	b.checkNotice(t, notice, 3)

	// While braked: delivered, logged, in history, typed into no one, and
	// no second notice however many follow.
	quiet := b.volley(t, 4, notice.MessageID)
	for _, p := range quiet {
		if got := b.typed(p); got != nil {
			t.Fatalf("%s typed into %q while braked", p.Content, got)
		}
	}
	hist := b.history(t)
	if len(hist) != 8 || hist[7].MessageID != quiet[3].MessageID {
		t.Fatalf("history holds %d posts, want the 7 AI posts and the notice", len(hist))
	}

	// The human's post releases: typed into the seats as always.
	human := uiSayAfter(t, b.h, "go on", quiet[3].MessageID)
	if got := b.typed(human); !slices.Equal(got, []string{"cc", "cx"}) {
		t.Fatalf("the human's post typed into %q", got)
	}
	if b.h.Braked("t") {
		t.Fatal("still braked after the human's post")
	}
	// The count starts from zero: two more are typed, the third brakes again.
	again := b.volley(t, 3, human.MessageID)
	for i, p := range again {
		if got, want := len(b.typed(p)), map[bool]int{true: 0, false: 2}[i == 2]; got != want {
			t.Fatalf("post %d after the release typed into %d seats, want %d", i+1, got, want)
		}
	}
	// Posts made while braked are dropped by the human's post: it is what
	// the seats answer now (history has them).
	for _, p := range append(quiet, run[2]) {
		if got := b.typed(p); got != nil {
			t.Fatalf("%s (made while braked) was typed later into %q", p.Content, got)
		}
	}

	hist = b.history(t)
	second := hist[len(hist)-1] // the second engagement's own notice
	if hist[len(hist)-2].MessageID != again[2].MessageID {
		t.Fatalf("the second engagement is not followed by its notice: %+v", second)
	}
	b.checkNotice(t, second, 3)
	changes, delivered := b.eventsUntil(t, second.MessageID)
	want := []BrakeChanged{{Topic: "t", On: true, Count: 3}, {Topic: "t", On: false, Dropped: len(quiet) + 1}, {Topic: "t", On: true, Count: 3}}
	if !slices.Equal(changes, want) {
		t.Fatalf("brake events %+v, want %+v", changes, want)
	}
	if i := slices.Index(delivered, run[2].MessageID); i < 0 || delivered[i+1] != notice.MessageID {
		t.Fatalf("delivered %q: the notice does not follow the post that engaged the brake", delivered)
	}
	if n := b.notices(t); n != 2 {
		t.Fatalf("%d notices, want one per engagement (2)", n)
	}
}

// checkNotice asserts that p is the brake's notice after n AI posts:
// Pullcept's own post, its text saying what stopped and how to go on, typed
// into every seat (an app post is not an AI post).
func (b *brakeRoom) checkNotice(t *testing.T, p Post, n int) {
	t.Helper()
	if p.Role != RoleApp || p.Speaker != AppSpeaker || !p.FromApp || p.Account != "" || p.Hue != nil || p.To != nil {
		t.Fatalf("notice stamped %+v", p)
	}
	for _, want := range []string{fmt.Sprintf("after %d AI posts in a row", n), "stopped typing AI posts into the seats",
		"the human posts", "release", "(no reply needed)"} {
		if !strings.Contains(p.Content, want) {
			t.Errorf("notice %q lacks %q", p.Content, want)
		}
	}
	if got := b.typed(p); !slices.Equal(got, []string{"me", "cc", "cx"}) {
		t.Fatalf("notice typed into %q, want every seat", got)
	}
}

// history returns the topic's posts as history reads them.
func (b *brakeRoom) history(t *testing.T) []Post {
	t.Helper()
	posts, _, err := b.h.History("t", "", HistoryMax)
	if err != nil {
		t.Fatal(err)
	}
	return posts
}

// notices counts the app notices in the topic's history.
func (b *brakeRoom) notices(t *testing.T) int {
	t.Helper()
	n := 0
	for _, p := range b.history(t) {
		if p.Role == RoleApp {
			n++
		}
	}
	return n
}

// uiSayAfter posts content from the UI with lastSeen and requires delivery.
func uiSayAfter(t testing.TB, h *Hub, content, lastSeen string) Post {
	t.Helper()
	res, err := h.Post("t", Draft{Content: content, LastSeen: lastSeen})
	if err != nil || !res.Delivered {
		t.Fatalf("ui post %q: %v, delivered %v", content, err, res.Delivered)
	}
	return res.Post
}

// TestReleaseBrake: the release key's call types the posts the brake held
// back, in order, into every seat but each one's speaker (issue 35: F9
// "released" and nothing happened), then the next AI post as usual; the
// count starts from zero; a second release types nothing again; it is a
// no-op when the brake is off and refuses an unknown room.
func TestReleaseBrake(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 2)
	run := b.volley(t, 2, "")
	notice := b.history(t)[2]
	quiet := say(t, b.lin, "while braked", notice.MessageID)
	for _, p := range []Post{run[1], quiet} {
		if got := b.typed(p); got != nil {
			t.Fatalf("%s typed into %q while braked", p.Content, got)
		}
	}
	if err := b.h.ReleaseBrake("t"); err != nil {
		t.Fatal(err)
	}
	if b.h.Braked("t") {
		t.Fatal("still braked after ReleaseBrake")
	}
	if got := b.typed(run[1]); !slices.Equal(got, []string{"me", "cc"}) {
		t.Fatalf("held %q typed into %q after the release", run[1].Content, got)
	}
	if got := b.typed(quiet); !slices.Equal(got, []string{"me", "cx"}) {
		t.Fatalf("held %q typed into %q after the release", quiet.Content, got)
	}
	if order := b.terms.order(); slices.Index(order, run[1].MessageID) > slices.Index(order, quiet.MessageID) {
		t.Fatalf("held posts typed out of order: %q", order)
	}
	if err := b.h.ReleaseBrake("t"); err != nil {
		t.Fatalf("ReleaseBrake with the brake off: %v", err)
	}
	next := b.volley(t, 1, quiet.MessageID)[0]
	if got := b.typed(next); !slices.Equal(got, []string{"me", "cx"}) {
		t.Fatalf("the first AI post after the release typed into %q", got)
	}
	for _, p := range []Post{run[1], quiet} {
		if got := b.typed(p); len(got) != 2 {
			t.Fatalf("%s typed into %q: more than once", p.Content, got)
		}
	}
	say(t, b.kai, "second after the release", next.MessageID)
	hist := b.history(t)
	changes, _ := b.eventsUntil(t, hist[len(hist)-1].MessageID) // the second notice
	want := []BrakeChanged{{Topic: "t", On: true, Count: 2}, {Topic: "t", On: false, Released: true, Typed: 2}, {Topic: "t", On: true, Count: 2}}
	if !slices.Equal(changes, want) {
		t.Fatalf("brake events %+v, want %+v (one release event, the count from zero)", changes, want)
	}
	if err := b.h.ReleaseBrake("nowhere"); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("ReleaseBrake of an unknown room: %v, want ErrNoRoom", err)
	}
	b.h.Close()
	if err := b.h.ReleaseBrake("t"); !errors.Is(err, ErrClosed) {
		t.Fatalf("ReleaseBrake after Close: %v, want ErrClosed", err)
	}
}

// TestBrakeNoticeOnTheFloor: the notice is never judged and counts against
// a seat that had not seen it; rejected posts neither count nor release.
func TestBrakeNoticeOnTheFloor(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 2)
	run := b.volley(t, 2, "")
	notice := b.history(t)[2]
	res, err := b.lin.Post(Draft{Content: "late", LastSeen: run[1].MessageID})
	if err != nil || res.Delivered || !slices.Equal(postIDs(res.Missed), []string{notice.MessageID}) {
		t.Fatalf("post that had not seen the notice: %v delivered %v missed %q", err, res.Delivered, postIDs(res.Missed))
	}
	// A rejected human post does not release.
	hr, err := b.h.Post("t", Draft{Content: "stale", LastSeen: run[0].MessageID})
	if err != nil || hr.Delivered {
		t.Fatalf("stale ui post: %v delivered %v", err, hr.Delivered)
	}
	if !b.h.Braked("t") {
		t.Fatal("a rejected human post released the brake")
	}
}

// TestBrakeOff: with N = 0 no run ever brakes.
func TestBrakeOff(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 0)
	for _, p := range b.volley(t, 40, "") {
		if got := b.typed(p); len(got) != 2 {
			t.Fatalf("%s typed into %q with the brake off", p.Content, got)
		}
	}
	if b.h.Braked("t") || b.notices(t) != 0 {
		t.Fatal("the brake engaged with N = 0")
	}
	if _, err := NewHub(HubOptions{Brake: -1}); !errors.Is(err, ErrBadBrake) {
		t.Fatalf("NewHub with brake -1: %v, want ErrBadBrake", err)
	}
}

// TestBrakeFirstPost: with N = 1 the very first post of a new topic engages
// the brake; it, not the notice, names the topic.
func TestBrakeFirstPost(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 1)
	p := say(t, b.lin, "first words", "")
	if got := b.log.firstIDs(); !slices.Equal(got, []string{p.MessageID}) {
		t.Fatalf("first posts %q, want %q", got, p.MessageID)
	}
	if b.notices(t) != 1 || b.typed(p) != nil {
		t.Fatal("the first AI post with N = 1 did not brake")
	}
}

// TestBrakeConcurrentSeats: seats racing to post (each retrying with the
// missed posts as a seat does) still get exactly N-1 AI posts typed and one
// notice: the count and the typing decision share the room lock.
func TestBrakeConcurrentSeats(t *testing.T) {
	t.Parallel()
	const limit, each = 5, 20
	b := newBrakeRoom(t, limit)
	var wg sync.WaitGroup
	for _, c := range []*Conn{b.lin, b.kai} {
		wg.Go(func() {
			last := ""
			for i := 0; i < each; {
				res, err := c.Post(Draft{Content: fmt.Sprintf("post %d", i), LastSeen: last})
				if err != nil {
					t.Error(err)
					return
				}
				if res.Delivered {
					last, i = res.Post.MessageID, i+1
				} else {
					last = res.Missed[len(res.Missed)-1].MessageID
				}
			}
		})
	}
	wg.Wait()
	typedAI := 0
	for _, p := range b.history(t) {
		if p.Role.AI() && b.typed(p) != nil {
			typedAI++
		}
	}
	if typedAI != limit-1 || b.notices(t) != 1 {
		t.Fatalf("%d AI posts typed and %d notices, want %d and 1", typedAI, b.notices(t), limit-1)
	}
}

// TestBrakeHoldsBounded: a seat that goes on posting while braked keeps at
// most maxHeld posts (and maxHeldBytes) in the room; a release types the
// newest ones in order and counts the rest as dropped.
func TestBrakeHoldsBounded(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 1)
	b.volley(t, 1, "")
	hist := b.history(t)
	last := hist[len(hist)-1].MessageID // the notice
	var posts []Post
	for i := range maxHeld + 5 {
		p := say(t, b.lin, fmt.Sprintf("flood %d", i), last)
		posts, last = append(posts, p), p.MessageID
	}
	big := say(t, b.kai, strings.Repeat("x", MaxPostBytes-64), last)
	if err := b.h.ReleaseBrake("t"); err != nil {
		t.Fatal(err)
	}
	typed := 0
	for _, p := range append(posts, big) {
		if b.typed(p) != nil {
			typed++
		}
	}
	if typed == 0 || typed > maxHeld {
		t.Fatalf("%d held posts typed, want 1..%d", typed, maxHeld)
	}
	if b.typed(big) == nil || b.typed(posts[0]) != nil {
		t.Fatal("the newest held post was not typed, or the oldest was kept past the bound")
	}
	for {
		if e, ok := nextEvent[Event](t, b.sub, nil).(BrakeChanged); ok && e.Released {
			if e.Typed != typed || e.Typed+e.Dropped != len(posts)+2 { // + the post that engaged it
				t.Fatalf("release %+v: typed %d of %d held", e, typed, len(posts)+2)
			}
			return
		}
	}
}

// TestReleaseBrakeTypesToWhomItHeld: a release types each held post into
// the accounts it was kept from — seated when it was said, still seated
// now, a restarted seat of one included — never into a seat that took its
// place after the post: without the brake it would never have got it
// (breaker review: a seat started while braked was typed up to 32 posts
// from before it existed, and answered them).
func TestReleaseBrakeTypesToWhomItHeld(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 2)
	b.terms.mu.Lock()
	b.terms.seated["t/cc2"] = true
	b.terms.mu.Unlock()
	run := b.volley(t, 2, "") // Kai's run[1] engages the brake and is held
	notice := b.history(t)[2]
	b.lin.Close() // Lin's seat restarts: the same account, a new connection
	seat(t, b.h, "t", "Lin", "cc")
	late := seat(t, b.h, "t", "Ada", "cc2") // a seat started while braked
	quiet := say(t, b.kai, "while braked", notice.MessageID)
	if err := b.h.ReleaseBrake("t"); err != nil {
		t.Fatal(err)
	}
	if got := b.typed(run[1]); !slices.Equal(got, []string{"me", "cc"}) {
		t.Fatalf("held %q typed into %q, want the seats it was kept from (me, cc)", run[1].Content, got)
	}
	if got := b.typed(quiet); !slices.Equal(got, []string{"me", "cc", "cc2"}) {
		t.Fatalf("held %q typed into %q, want me, cc and cc2", quiet.Content, got)
	}
	next := say(t, late, "hello", quiet.MessageID)
	if got := b.typed(next); !slices.Equal(got, []string{"me", "cx", "cc"}) {
		t.Fatalf("the first post after the release typed into %q", got)
	}
}

// TestBrakeFloodLosesItsOwnHeld: past the bounds a seat that floods a
// braked room lets go of its own oldest held posts, not another seat's: a
// release still types Kai's one post after Lin's 100 (breaker review: the
// oldest overall went, so one seat's flood kept every other seat's posts
// from ever being typed).
func TestBrakeFloodLosesItsOwnHeld(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 1)
	b.volley(t, 1, "")
	hist := b.history(t)
	last := hist[len(hist)-1].MessageID // the notice
	kai := say(t, b.kai, "the one that matters", last)
	last = kai.MessageID
	var flood []Post
	for i := range 100 {
		p := say(t, b.lin, fmt.Sprintf("flood %d", i), last)
		flood, last = append(flood, p), p.MessageID
	}
	if err := b.h.ReleaseBrake("t"); err != nil {
		t.Fatal(err)
	}
	if got := b.typed(kai); !slices.Equal(got, []string{"me", "cc"}) {
		t.Fatalf("Kai's held post typed into %q after Lin's flood, want me and cc", got)
	}
	if b.typed(flood[0]) != nil || b.typed(flood[len(flood)-1]) == nil {
		t.Fatal("the flood's oldest was typed or its newest was not")
	}
	if order := b.terms.order(); slices.Index(order, kai.MessageID) > slices.Index(order, flood[len(flood)-1].MessageID) {
		t.Fatalf("held posts typed out of order: %q", order)
	}

	// The bytes too: one seat's big posts go before another's small one.
	b2 := newBrakeRoom(t, 1)
	b2.volley(t, 1, "")
	hist = b2.history(t)
	last = hist[len(hist)-1].MessageID
	small := say(t, b2.kai, "small", last)
	last = small.MessageID
	for i := range 4 {
		p := say(t, b2.lin, strings.Repeat(fmt.Sprint(i), MaxPostBytes/2), last)
		last = p.MessageID
	}
	if err := b2.h.ReleaseBrake("t"); err != nil {
		t.Fatal(err)
	}
	if b2.typed(small) == nil {
		t.Fatal("Kai's small post was let go for Lin's big ones")
	}
}

// TestBrakeNoticeCountsOne: the English notice says "1 AI post", not
// "1 AI posts" (issue 35); more are plural.
func TestBrakeNoticeCountsOne(t *testing.T) {
	t.Parallel()
	if got := BrakeNotice(1, "F9"); !strings.Contains(got, "after 1 AI post in a row") {
		t.Errorf("one: %q", got)
	}
	if got := BrakeNotice(3, "F9"); !strings.Contains(got, "after 3 AI posts in a row") {
		t.Errorf("three: %q", got)
	}
}
