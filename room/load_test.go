package room_test

// The load and soak test of issue 5 ("Load"): 16 real WebSocket clients post
// through the real room.Server into a Hub backed by a real logstore.Store and
// real seats.Typists, at a combined 800 new posts per second, and everything
// that came out is checked against everything that went in.
//
// `make test` runs the short variant (loadShort); `make soak` sets
// PULLCEPT_SOAK=60s for the long one.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// Load figures (issue 5 "Load").
const (
	// loadClients socket participants, each with its own account and seat.
	loadClients = 16
	// loadRate is the combined rate of post frames (posts/s) over all
	// clients; a re-send after a floor rejection takes its client's next slot.
	loadRate = 800
	// loadShort is the run of the variant in `make test`: long enough for
	// ~3,200 posts and many rejections, short enough for a -race suite on a
	// shared 2-core box.
	loadShort = 4 * time.Second
	// loadDrain bounds the wait, after the last post, for every subscriber
	// and typing queue to have everything (they lag by milliseconds).
	loadDrain = 60 * time.Second
	// loadTopic is the one room all clients sit in.
	loadTopic = "load-topic"
	// rssSlack is the memory growth the run may show on top of doubling:
	// the floor window, socket buffers, the Go heap's own headroom and the
	// test's own bookkeeping (the ids of every post, ~3 MB in the soak).
	rssSlack = 50 << 20
)

// soakDuration is how long the load runs: PULLCEPT_SOAK (a Go duration, as
// in `make soak`) or loadShort.
func soakDuration(t *testing.T) time.Duration {
	t.Helper()
	v := os.Getenv("PULLCEPT_SOAK")
	if v == "" {
		return loadShort
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("PULLCEPT_SOAK=%q: want a positive Go duration such as 60s", v)
	}
	return d
}

// rssBytes reads this process's resident set size from /proc/self/status
// (VmRSS, in kB). ok is false where /proc is absent (not Linux).
func rssBytes() (n int64, ok bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, found := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !found {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 1 {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// settledRSS returns the RSS after a GC that hands freed memory back to the
// OS, so before/after compare live memory rather than the heap's high water.
func settledRSS() (int64, bool) {
	runtime.GC()
	debug.FreeOSMemory()
	return rssBytes()
}

// instantClock makes a real Typist type without real waits: virtual time
// that jumps forward by d whenever the Typist waits d, so every pause it
// takes (the 200 ms paste/Enter gap, the quiet time before a post) is over
// at once and still measures as elapsed. The load checks what is typed and
// in which order, not the pacing (seats/typing_test.go checks that), and a
// seat typing 5 posts/s could never keep up with 750 posts/s. One per Typist.
type instantClock struct {
	mu  sync.Mutex
	now time.Time
}

func newInstantClock() *instantClock { return &instantClock{now: time.Now()} }

func (c *instantClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *instantClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

// seatTape is the terminal of one seat: what its Typist wrote, checked as it
// arrives. It keeps an order-sensitive hash of the typed message ids, their
// count, and the newest one; anything that is not a tag + body or a lone
// "\r" is a failure.
type seatTape struct {
	account string

	mu    sync.Mutex
	n     int
	hash  uint64 // fnvChain over the typed message ids, in order
	last  string // the newest typed message id
	bad   []string
	enter int // lone "\r" writes
}

// lastTyped is the newest post typed into this seat: what its CLI has seen,
// so what it passes as last_seen (DESIGN §2).
func (s *seatTape) lastTyped() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// fnvChain folds id into an order-sensitive running hash.
func fnvChain(h uint64, id string) uint64 {
	f := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(h >> (8 * i))
	}
	f.Write(b[:])
	f.Write([]byte(id))
	return f.Sum64()
}

// Write is the seat's PTY as the Typist sees it.
func (s *seatTape) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if string(p) == "\r" {
		s.enter++
		return len(p), nil
	}
	line, _, _ := bytes.Cut(p, []byte("\n"))
	var tag struct {
		MessageID string `json:"message_id"`
		From      string `json:"from"`
	}
	rest, ok := bytes.CutPrefix(line, []byte(room.TagPrefix))
	if !ok || json.Unmarshal(rest, &tag) != nil || tag.MessageID == "" {
		s.bad = append(s.bad, fmt.Sprintf("%.120q", p))
		return len(p), nil
	}
	s.n++
	s.hash = fnvChain(s.hash, tag.MessageID)
	s.last = tag.MessageID
	return len(p), nil
}

func (s *seatTape) counts() (n, enter int, hash uint64, bad []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n, s.enter, s.hash, append([]string(nil), s.bad...)
}

// typistTerms is room.Terminals over one real seats.Typist per account.
type typistTerms struct {
	typists map[string]*seats.Typist // topic is always loadTopic
}

func (tt *typistTerms) Enqueue(topic, account string, p room.Post) bool {
	ty, ok := tt.typists[account]
	if !ok || topic != loadTopic {
		return false
	}
	ty.Enqueue(p)
	return true
}
func (tt *typistTerms) SidecarJoined(string, string) {}
func (tt *typistTerms) SidecarReady(string, string)  {}

// kinds is room.Accounts: every load account is a Claude Code seat.
type kinds struct{}

func (kinds) AccountKind(id string) (string, bool) {
	if strings.HasPrefix(id, "acct-") {
		return "claude_code", true
	}
	return "", false
}

// subTape drains one Subscription: the delivered posts' ids in order (ids
// kept only by the first), an order hash, seq gaps and log failures.
type subTape struct {
	keepIDs bool

	mu       sync.Mutex
	ids      []string
	speakers []string
	n        int
	hash     uint64
	seqErr   string
	logFails int
}

func (s *subTape) run(sub *room.Subscription, done chan<- struct{}, fail func(string, ...any)) {
	defer close(done)
	defer func() {
		if r := recover(); r != nil {
			fail("subscriber panicked: %v", r)
		}
	}()
	for e := range sub.C() {
		switch e := e.(type) {
		case room.PostDelivered:
			s.mu.Lock()
			s.n++
			if e.Seq != uint64(s.n) && s.seqErr == "" {
				s.seqErr = fmt.Sprintf("event %d has seq %d", s.n, e.Seq)
			}
			s.hash = fnvChain(s.hash, e.Post.MessageID)
			if s.keepIDs {
				s.ids = append(s.ids, e.Post.MessageID)
				s.speakers = append(s.speakers, e.Post.Account)
			}
			s.mu.Unlock()
		case room.LogFailed:
			s.mu.Lock()
			s.logFails++
			s.mu.Unlock()
		}
	}
}

func (s *subTape) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// loadClient is one socket participant's tally.
type loadClient struct {
	delivered  []string // message ids the room delivered, in order
	attempts   int
	rejections int
	missedSeen int // posts listed as missed over all rejections
}

// TestLoadSoak: 16 socket participants post at a combined 800 posts/s
// (issue 5 "Load"), each passing as last_seen the newest post typed into its
// own seat. Every post frame is answered delivered or rejected with its
// missed posts (a rejected post is re-sent in the client's next slot, new
// message_id, until delivered or the run ends); no delivered post is missing
// from either subscriber, the topic log (read back with Page), or any other
// seat's typing queue; all see one order; the process's RSS after the run
// stays within 2× + 50 MB of before.
func TestLoadSoak(t *testing.T) {
	dur := soakDuration(t)
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := store.Close(); err != nil {
			t.Errorf("close log store: %v", err)
		}
	})
	terms := &typistTerms{typists: map[string]*seats.Typist{}}
	tapes := make([]*seatTape, loadClients)
	for i := range tapes {
		acct := fmt.Sprintf("acct-%02d", i)
		tapes[i] = &seatTape{account: acct}
		terms.typists[acct] = seats.NewTypist(tapes[i], seats.TypistOptions{Clock: newInstantClock(), Ready: true})
	}
	t.Cleanup(func() {
		for acct, ty := range terms.typists {
			if err := ty.Close(); err != nil {
				t.Errorf("typist %s: %v", acct, err)
			}
		}
	})
	hub, err := room.NewHub(room.HubOptions{Log: store, Terminals: terms, Accounts: kinds{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	if err := hub.OpenRoom(loadTopic); err != nil {
		t.Fatal(err)
	}
	srv, err := room.NewServer(hub, room.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("server close: %v", err)
		}
	})

	var failMu sync.Mutex
	fail := func(format string, args ...any) {
		failMu.Lock()
		defer failMu.Unlock()
		t.Errorf(format, args...)
	}
	subs := []*subTape{{keepIDs: true}, {}}
	subDone := make([]chan struct{}, len(subs))
	for i, st := range subs {
		sub := hub.Subscribe()
		subDone[i] = make(chan struct{})
		go st.run(sub, subDone[i], fail)
		t.Cleanup(func() {
			sub.Close()
			<-subDone[i]
		})
	}

	hdr := http.Header{"Authorization": {"Bearer " + srv.Token()}}
	conns := make([]*websocket.Conn, loadClients)
	for i := range conns {
		ws, _, err := websocket.DefaultDialer.Dial(srv.URL(), hdr)
		if err != nil {
			t.Fatalf("dial client %d: %v", i, err)
		}
		t.Cleanup(func() { ws.Close() })
		hello := room.HelloFrame{Type: room.FrameHello, Hello: room.Hello{
			Protocol: room.Protocol, Name: fmt.Sprintf("Seat %02d", i), Room: loadTopic, AccountID: fmt.Sprintf("acct-%02d", i)}}
		if err := ws.WriteJSON(hello); err != nil {
			t.Fatal(err)
		}
		conns[i] = ws
	}
	testkit.Eventually(t, fmt.Sprintf("all %d clients in the roster", loadClients), func() bool {
		r, err := hub.Roster(loadTopic)
		return err == nil && len(r) == loadClients
	})

	rssBefore, haveRSS := settledRSS()
	var rssPeak atomic.Int64
	sampleStop, sampleDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampleDone)
		defer func() {
			if r := recover(); r != nil {
				fail("RSS sampler panicked: %v", r)
			}
		}()
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-sampleStop:
				return
			case <-tick.C:
				if n, ok := rssBytes(); ok && n > rssPeak.Load() {
					rssPeak.Store(n)
				}
			}
		}
	}()

	// Each client sends its n-th post frame at start + offset + n·interval,
	// catching up at once when it fell behind, so the combined rate of post
	// frames is loadRate for the whole run unless the room cannot keep up.
	interval := time.Duration(loadClients) * time.Second / loadRate
	start := time.Now()
	end := start.Add(dur)
	tallies := make([]loadClient, loadClients)
	var wg sync.WaitGroup
	for i, ws := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					fail("client %d panicked: %v", i, r)
				}
			}()
			first := start.Add(time.Duration(i) * interval / loadClients)
			if err := runLoadClient(i, ws, tapes[i].lastTyped, first, interval, end, &tallies[i]); err != nil {
				fail("client %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if t.Failed() {
		close(sampleStop)
		<-sampleDone
		return
	}

	// Everything delivered must reach both subscribers and every typing
	// queue; wait for them (bounded).
	var total, attempts, rejections, missed int
	ownBy := map[string]int{}
	for i, tl := range tallies {
		total += len(tl.delivered)
		attempts += tl.attempts
		rejections += tl.rejections
		missed += tl.missedSeen
		ownBy[fmt.Sprintf("acct-%02d", i)] = len(tl.delivered)
	}
	testkit.EventuallyWithin(t, loadDrain, fmt.Sprintf("both subscribers and every typing queue to have all %d posts", total), func() bool {
		for _, st := range subs {
			if st.count() < total {
				return false
			}
		}
		for _, tp := range tapes {
			if n, enter, _, _ := tp.counts(); n < total-ownBy[tp.account] || enter < n {
				return false
			}
		}
		return true
	})
	close(sampleStop)
	<-sampleDone
	rssAfter, _ := settledRSS()

	// One order: the first subscriber's ids are the reference.
	ref := subs[0]
	ref.mu.Lock()
	order, speakers := append([]string(nil), ref.ids...), append([]string(nil), ref.speakers...)
	refHash, refFails, seqErr := ref.hash, ref.logFails, ref.seqErr
	ref.mu.Unlock()
	if len(order) != total {
		t.Fatalf("subscriber saw %d posts, clients had %d delivered", len(order), total)
	}
	if seqErr != "" {
		t.Fatalf("subscriber 0: %s", seqErr)
	}
	if refFails != 0 {
		t.Fatalf("%d log appends failed", refFails)
	}
	for i, st := range subs[1:] {
		st.mu.Lock()
		n, h, se := st.n, st.hash, st.seqErr
		st.mu.Unlock()
		if n != total || h != refHash || se != "" {
			t.Fatalf("subscriber %d: %d posts, hash %x (%s); subscriber 0: %d posts, hash %x", i+1, n, h, se, total, refHash)
		}
	}
	// Every delivered post exactly once, by the client that sent it.
	byID := make(map[string]string, total)
	for i, id := range order {
		if _, dup := byID[id]; dup {
			t.Fatalf("post %s delivered twice", id)
		}
		byID[id] = speakers[i]
	}
	for i, tl := range tallies {
		acct := fmt.Sprintf("acct-%02d", i)
		for _, id := range tl.delivered {
			if byID[id] != acct {
				t.Fatalf("client %d: delivered post %s is %q in the room's order", i, id, byID[id])
			}
		}
	}
	// Every seat got every post but its own, in the room's order.
	for _, tp := range tapes {
		n, _, h, bad := tp.counts()
		if len(bad) > 0 {
			t.Fatalf("seat %s: %d writes that are not a tagged post, e.g. %s", tp.account, len(bad), bad[0])
		}
		var want uint64
		wantN := 0
		for i, id := range order {
			if speakers[i] != tp.account {
				want = fnvChain(want, id)
				wantN++
			}
		}
		if n != wantN || h != want {
			t.Fatalf("seat %s: %d posts typed (hash %x), want %d (hash %x)", tp.account, n, h, wantN, want)
		}
	}
	// The topic log, read back page by page from the end, holds the same
	// posts in the same order, and nothing it could not read.
	checkLogOrder(t, store, order)

	rate := float64(attempts) / elapsed.Seconds()
	t.Logf("load: %d clients for %v: %d post frames answered (%.0f posts/s, offered %d/s): %d delivered (%.0f/s), %d floor rejections re-sent (%d missed posts returned); every delivered post typed into the %d other seats",
		loadClients, elapsed.Round(time.Millisecond), attempts, rate, loadRate, total, float64(total)/elapsed.Seconds(), rejections, missed, loadClients-1)
	minD, maxD := total, 0
	for _, tl := range tallies {
		minD, maxD = min(minD, len(tl.delivered)), max(maxD, len(tl.delivered))
	}
	// Rates are reported, never asserted (speed is for `make bench`): on a
	// shared box a -race run may answer far fewer than offered, and when a
	// round trip takes longer than the others' posting interval a client may
	// be rejected every time (the floor working as designed).
	t.Logf("load: delivered per client: fewest %d, most %d", minD, maxD)
	if !haveRSS {
		t.Logf("RSS: /proc/self/status is not available on %s; memory bound not checked", runtime.GOOS)
		return
	}
	t.Logf("RSS: before %.1f MB, after %.1f MB, peak during the run %.1f MB",
		mb(rssBefore), mb(rssAfter), mb(max(rssPeak.Load(), rssAfter)))
	if rssAfter > 2*rssBefore+rssSlack {
		t.Fatalf("RSS grew from %.1f MB to %.1f MB (bound: 2× + %.0f MB)", mb(rssBefore), mb(rssAfter), mb(rssSlack))
	}
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// runLoadClient sends one post frame on ws at first + n·interval (catching
// up at once when behind) until end by the schedule or the clock, reading
// each answer before the next. last_seen is always the newest post typed
// into the client's own seat, what its CLI would have seen. A floor rejection keeps the post as the draft: it
// is re-sent (new message_id, judged again, DESIGN §7) in the next slot until
// delivered or the run ends. Any answer other than delivered or rejected
// with missed posts is an error.
func runLoadClient(i int, ws *websocket.Conn, seen func() string, first time.Time, interval time.Duration, end time.Time, tl *loadClient) error {
	post, attempt := 0, 0
	for n := 0; ; n++ {
		// The run ends by the clock: a client that fell behind on a loaded
		// box sends fewer frames rather than running over.
		due := first.Add(time.Duration(n) * interval)
		if !due.Before(end) || time.Now().After(end) {
			return nil
		}
		if d := time.Until(due); d > 0 {
			time.Sleep(d) // pacing to a schedule, not waiting on a condition
		}
		id := fmt.Sprintf("c%02d-p%06d-a%d", i, post, attempt)
		tl.attempts++
		fr, err := postOnce(ws, id, fmt.Sprintf("post %d of seat %02d: the tests pass 👍 テストは通りました", post, i), seen())
		if err != nil {
			return err
		}
		if fr.Delivered {
			tl.delivered = append(tl.delivered, id)
			post, attempt = post+1, 0
			continue
		}
		if len(fr.Missed) == 0 {
			return fmt.Errorf("post %s rejected without missed posts", id)
		}
		tl.rejections++
		tl.missedSeen += len(fr.Missed)
		attempt++
	}
}

// errAnswer is an answer that is neither delivered nor a floor rejection.
var errAnswer = errors.New("unexpected answer")

// postOnce sends one post frame and reads its post_result.
func postOnce(ws *websocket.Conn, id, content, lastSeen string) (room.PostResultFrame, error) {
	if err := ws.WriteJSON(room.PostFrame{Type: room.FramePost, MessageID: id, Content: content, LastSeen: lastSeen}); err != nil {
		return room.PostResultFrame{}, fmt.Errorf("write post %s: %w", id, err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(time.Minute))
	var fr room.PostResultFrame
	if err := ws.ReadJSON(&fr); err != nil {
		return fr, fmt.Errorf("read post_result %s: %w", id, err)
	}
	if fr.Type != room.FramePostResult || fr.MessageID != id || fr.Error != "" {
		return fr, fmt.Errorf("post %s: %w: %+v", id, errAnswer, fr)
	}
	return fr, nil
}

// checkLogOrder pages the topic log back from the end (200 posts a page,
// the sidecar's largest history page) and compares it with order.
func checkLogOrder(t *testing.T, store *logstore.Store, order []string) {
	t.Helper()
	end, before := len(order), ""
	for {
		recs, more, err := store.Page(loadTopic, before, room.HistoryMax)
		if err != nil {
			t.Fatalf("read the topic log before %q: %v", before, err)
		}
		if len(recs) > end {
			t.Fatalf("the topic log has more posts than were delivered")
		}
		for j, rec := range recs {
			if want := order[end-len(recs)+j]; rec.MessageID != want {
				t.Fatalf("topic log post %d is %s, delivered order has %s", end-len(recs)+j, rec.MessageID, want)
			}
		}
		end -= len(recs)
		if !more {
			break
		}
		before = recs[0].MessageID
	}
	if end != 0 {
		t.Fatalf("the topic log misses the first %d delivered posts", end)
	}
	if n := store.Skipped(loadTopic); n != 0 {
		t.Fatalf("the topic log has %d unreadable lines", n)
	}
}
