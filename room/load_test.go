package room_test

// The load and soak test of docs/design.md §13: 16 real WebSocket clients post
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
	"math"
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

// Load figures (docs/design.md §13, load).
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
	// loadTopic is the one room all clients sit in.
	loadTopic = "load-topic"
	// rssSlack is the memory growth the run may show on top of doubling:
	// the floor window, socket buffers, the Go heap's own headroom and the
	// test's own bookkeeping (the ids of every post, ~3 MB in the soak).
	rssSlack = 50 << 20
)

// loadDrain bounds the wait, after the last post, for every subscriber and
// typing queue to have everything (they lag by milliseconds; scaled).
var loadDrain = testkit.Slow(60 * time.Second)

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
// so what it passes as last_seen (docs/design.md §2).
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
func (tt *typistTerms) SidecarJoined(string, string)                    {}
func (tt *typistTerms) SidecarReady(string, string)                     {}
func (tt *typistTerms) Reported(string, string, room.Report) bool       { return false }
func (tt *typistTerms) PermissionAnswered(string, string, uint64, bool) {}
func (tt *typistTerms) Usage(string, string) (room.SeatUsage, bool)     { return room.SeatUsage{}, false }

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
// (docs/design.md §13, load), each passing as last_seen the newest post typed into its
// own seat. Every post frame is answered delivered or rejected with its
// missed posts (a rejected post is re-sent in the client's next slot, new
// message_id, until delivered or the run ends); no delivered post is missing
// from either subscriber, the topic log (read back with Page), or any other
// seat's typing queue; all see one order; the process's RSS after the run
// stays within 2× + 50 MB of before.
func TestLoadSoak(t *testing.T) {
	dur := soakDuration(t)
	rig := newLoadRig(t)
	conns := rig.dial(t)

	rssBefore, haveRSS := settledRSS()
	sampler := startRSSSampler(rig.fail)
	t.Cleanup(func() { sampler.stop() }) // a failed wait below must not leave it running
	tallies, elapsed := rig.run(conns, dur)
	if t.Failed() {
		return
	}
	total := rig.waitDrained(t, tallies)
	rssPeak := sampler.stop()
	rssAfter, _ := settledRSS()

	order, speakers := checkOneOrder(t, rig.subs, total)
	checkDeliveredBy(t, order, speakers, tallies)
	checkSeatTapes(t, rig.tapes, order, speakers)
	// The topic log, read back page by page from the end, holds the same
	// posts in the same order, and nothing it could not read.
	checkLogOrder(t, rig.store, order)

	logLoadFigures(t, elapsed, tallies)
	checkRSS(t, rssBefore, rssAfter, rssPeak, haveRSS)
}

// loadAccount is the account id of load client i; its seat is typed into
// by the Typist of that account.
func loadAccount(i int) string { return fmt.Sprintf("acct-%02d", i) }

// loadRig is the room under load: a real logstore.Store, a Hub typing into
// one real seats.Typist per account, the loopback Server, and two
// subscribers draining the events. Everything is closed at cleanup.
type loadRig struct {
	store *logstore.Store
	hub   *room.Hub
	srv   *room.Server
	tapes []*seatTape // one per client, in client order
	subs  []*subTape  // subs[0] keeps the ids: the reference order
	// fail reports a failure from any goroutine (t.Errorf, serialised).
	fail func(format string, args ...any)
}

func newLoadRig(t *testing.T) *loadRig {
	t.Helper()
	rig := &loadRig{}
	var failMu sync.Mutex
	rig.fail = func(format string, args ...any) {
		failMu.Lock()
		defer failMu.Unlock()
		t.Errorf(format, args...)
	}
	store, err := logstore.Open(t.TempDir(), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rig.store = store
	t.Cleanup(func() {
		if err := store.Close(); err != nil {
			t.Errorf("close log store: %v", err)
		}
	})
	hub, err := room.NewHub(room.HubOptions{Log: store, Terminals: rig.startTypists(t), Accounts: kinds{}})
	if err != nil {
		t.Fatal(err)
	}
	rig.hub = hub
	t.Cleanup(hub.Close)
	if err := hub.OpenRoom(loadTopic); err != nil {
		t.Fatal(err)
	}
	srv, err := room.NewServer(hub, room.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rig.srv = srv
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("server close: %v", err)
		}
	})
	rig.subscribe(t)
	return rig
}

// startTypists makes each client's seat: a real Typist writing to a
// seatTape, on an instant clock. They are closed at cleanup.
func (rig *loadRig) startTypists(t *testing.T) *typistTerms {
	t.Helper()
	terms := &typistTerms{typists: map[string]*seats.Typist{}}
	rig.tapes = make([]*seatTape, loadClients)
	for i := range rig.tapes {
		acct := loadAccount(i)
		rig.tapes[i] = &seatTape{account: acct}
		terms.typists[acct] = seats.NewTypist(rig.tapes[i], seats.TypistOptions{Clock: newInstantClock(), Ready: true})
	}
	t.Cleanup(func() {
		for acct, ty := range terms.typists {
			if err := ty.Close(); err != nil {
				t.Errorf("typist %s: %v", acct, err)
			}
		}
	})
	return terms
}

// subscribe starts the two subscribers' drains, ended at cleanup.
func (rig *loadRig) subscribe(t *testing.T) {
	t.Helper()
	rig.subs = []*subTape{{keepIDs: true}, {}}
	for _, st := range rig.subs {
		sub := rig.hub.Subscribe()
		done := make(chan struct{})
		go st.run(sub, done, rig.fail)
		t.Cleanup(func() {
			sub.Close()
			<-done
		})
	}
}

// dial connects every client's socket, says its hello, and waits until all
// of them sit in the room.
func (rig *loadRig) dial(t *testing.T) []*websocket.Conn {
	t.Helper()
	hdr := http.Header{"Authorization": {"Bearer " + rig.srv.Token()}}
	conns := make([]*websocket.Conn, loadClients)
	for i := range conns {
		ws, _, err := websocket.DefaultDialer.Dial(rig.srv.URL(), hdr)
		if err != nil {
			t.Fatalf("dial client %d: %v", i, err)
		}
		t.Cleanup(func() { ws.Close() })
		hello := room.HelloFrame{Type: room.FrameHello, Hello: room.Hello{
			Protocol: room.Protocol, Name: fmt.Sprintf("Seat %02d", i), Room: loadTopic, AccountID: loadAccount(i)}}
		if err := ws.WriteJSON(hello); err != nil {
			t.Fatal(err)
		}
		conns[i] = ws
	}
	testkit.Eventually(t, fmt.Sprintf("all %d clients in the roster", loadClients), func() bool {
		r, err := rig.hub.Roster(loadTopic)
		return err == nil && len(r) == loadClients
	})
	return conns
}

// run posts from every client at once for dur and returns each client's
// tally and how long the run took. Failures go through rig.fail.
func (rig *loadRig) run(conns []*websocket.Conn, dur time.Duration) ([]loadClient, time.Duration) {
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
					rig.fail("client %d panicked: %v", i, r)
				}
			}()
			first := start.Add(time.Duration(i) * interval / loadClients)
			if err := runLoadClient(i, ws, rig.tapes[i].lastTyped, first, interval, end, &tallies[i]); err != nil {
				rig.fail("client %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	return tallies, time.Since(start)
}

// waitDrained waits until every delivered post reached both subscribers and
// every typing queue but its speaker's (they lag by milliseconds; bounded by
// loadDrain) and returns how many posts were delivered.
func (rig *loadRig) waitDrained(t *testing.T, tallies []loadClient) int {
	t.Helper()
	total := 0
	ownBy := map[string]int{}
	for i, tl := range tallies {
		total += len(tl.delivered)
		ownBy[loadAccount(i)] = len(tl.delivered)
	}
	testkit.EventuallyWithin(t, loadDrain, fmt.Sprintf("both subscribers and every typing queue to have all %d posts", total), func() bool {
		for _, st := range rig.subs {
			if st.count() < total {
				return false
			}
		}
		for _, tp := range rig.tapes {
			if n, enter, _, _ := tp.counts(); n < total-ownBy[tp.account] || enter < n {
				return false
			}
		}
		return true
	})
	return total
}

// checkOneOrder checks that both subscribers saw the total posts in one
// order, with gapless seqs and no failed log append, and returns that order
// (the first subscriber's: the reference) with each post's account.
func checkOneOrder(t *testing.T, subs []*subTape, total int) (order, speakers []string) {
	t.Helper()
	ref := subs[0]
	ref.mu.Lock()
	order, speakers = append([]string(nil), ref.ids...), append([]string(nil), ref.speakers...)
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
	return order, speakers
}

// checkDeliveredBy checks that every delivered post is in the room's order
// exactly once, under the account of the client that sent it.
func checkDeliveredBy(t *testing.T, order, speakers []string, tallies []loadClient) {
	t.Helper()
	byID := make(map[string]string, len(order))
	for i, id := range order {
		if _, dup := byID[id]; dup {
			t.Fatalf("post %s delivered twice", id)
		}
		byID[id] = speakers[i]
	}
	for i, tl := range tallies {
		acct := loadAccount(i)
		for _, id := range tl.delivered {
			if byID[id] != acct {
				t.Fatalf("client %d: delivered post %s is %q in the room's order", i, id, byID[id])
			}
		}
	}
}

// checkSeatTapes checks that every seat got every post but its own, in the
// room's order, and nothing that is not a tagged post.
func checkSeatTapes(t *testing.T, tapes []*seatTape, order, speakers []string) {
	t.Helper()
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
}

// logLoadFigures reports the run's rates. Rates are reported, never asserted
// (speed is for `make bench`): on a shared box a -race run may answer far
// fewer than offered, and when a round trip takes longer than the others'
// posting interval a client may be rejected every time (the floor working
// as designed).
func logLoadFigures(t *testing.T, elapsed time.Duration, tallies []loadClient) {
	t.Helper()
	var total, attempts, rejections, missed int
	minD, maxD := math.MaxInt, 0
	for _, tl := range tallies {
		total += len(tl.delivered)
		attempts += tl.attempts
		rejections += tl.rejections
		missed += tl.missedSeen
		minD, maxD = min(minD, len(tl.delivered)), max(maxD, len(tl.delivered))
	}
	rate := float64(attempts) / elapsed.Seconds()
	t.Logf("load: %d clients for %v: %d post frames answered (%.0f posts/s, offered %d/s): %d delivered (%.0f/s), %d floor rejections re-sent (%d missed posts returned); every delivered post typed into the %d other seats",
		loadClients, elapsed.Round(time.Millisecond), attempts, rate, loadRate, total, float64(total)/elapsed.Seconds(), rejections, missed, loadClients-1)
	t.Logf("load: delivered per client: fewest %d, most %d", minD, maxD)
}

// checkRSS checks the memory bound: the RSS after the run (settled) within
// 2× + rssSlack of before. Where /proc is absent it only says so.
func checkRSS(t *testing.T, before, after, peak int64, haveRSS bool) {
	t.Helper()
	if !haveRSS {
		t.Logf("RSS: /proc/self/status is not available on %s; memory bound not checked", runtime.GOOS)
		return
	}
	t.Logf("RSS: before %.1f MB, after %.1f MB, peak during the run %.1f MB",
		mb(before), mb(after), mb(max(peak, after)))
	if after > 2*before+rssSlack {
		t.Fatalf("RSS grew from %.1f MB to %.1f MB (bound: 2× + %.0f MB)", mb(before), mb(after), mb(rssSlack))
	}
}

// rssSampler records the highest RSS seen every 250 ms while the load runs.
type rssSampler struct {
	peak atomic.Int64
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

// startRSSSampler starts sampling; a panic in it is reported through fail.
func startRSSSampler(fail func(string, ...any)) *rssSampler {
	s := &rssSampler{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer func() {
			if r := recover(); r != nil {
				fail("RSS sampler panicked: %v", r)
			}
		}()
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-s.quit:
				return
			case <-tick.C:
				if n, ok := rssBytes(); ok && n > s.peak.Load() {
					s.peak.Store(n)
				}
			}
		}
	}()
	return s
}

// stop ends the sampling, waits for it and returns the peak. Idempotent.
func (s *rssSampler) stop() int64 {
	s.once.Do(func() { close(s.quit) })
	<-s.done
	return s.peak.Load()
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// runLoadClient sends one post frame on ws at first + n·interval (catching
// up at once when behind) until end by the schedule or the clock, reading
// each answer before the next. last_seen is always the newest post typed
// into the client's own seat, what its CLI would have seen. A floor rejection keeps the post as the draft: it
// is re-sent (new message_id, judged again, docs/design.md §7) in the next slot until
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
	_ = ws.SetReadDeadline(time.Now().Add(testkit.Slow(time.Minute)))
	var fr room.PostResultFrame
	for { // the identity frames the room sends unasked are not answers
		if err := ws.ReadJSON(&fr); err != nil {
			return fr, fmt.Errorf("read post_result %s: %w", id, err)
		}
		if fr.Type != room.FrameIdentity {
			break
		}
		fr = room.PostResultFrame{}
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
