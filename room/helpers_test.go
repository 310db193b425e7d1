package room

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// waitFor bounds every wait on a condition in these tests (scaled:
// testkit.Slow).
var waitFor = testkit.Slow(10 * time.Second)

// memLog is a recording fake Log: records per topic in append order.
type memLog struct {
	mu        sync.Mutex
	recs      map[string][]logstore.Record
	appendErr error // returned by Append (nothing stored) when set
	noteErr   error
	firsts    []logstore.Record // NoteFirstPost calls
	pageCalls int
	bodies    map[string]string // SaveBody
}

func newMemLog() *memLog { return &memLog{recs: make(map[string][]logstore.Record)} }

var errNotInLog = errors.New("message not in log")

func (l *memLog) Append(topic string, rec logstore.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.appendErr != nil {
		return l.appendErr
	}
	l.recs[topic] = append(l.recs[topic], rec)
	return nil
}

func (l *memLog) NoteFirstPost(topic string, rec logstore.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.firsts = append(l.firsts, rec)
	return l.noteErr
}

func (l *memLog) Page(topic, before string, limit int) ([]logstore.Record, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pageCalls++
	recs := l.recs[topic]
	end := len(recs)
	if before != "" {
		end = slices.IndexFunc(recs, func(r logstore.Record) bool { return r.MessageID == before })
		if end < 0 {
			return nil, false, fmt.Errorf("page before %q: %w", before, errNotInLog)
		}
	}
	start := max(end-limit, 0)
	return slices.Clone(recs[start:end]), start > 0, nil
}

// SaveBody keeps long posts' bodies by name; their "path" is mem:<name>.
func (l *memLog) SaveBody(topic, id, body string) (string, string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bodies == nil {
		l.bodies = map[string]string{}
	}
	name := topic + "/" + id
	l.bodies[name] = body
	return name, "mem:" + name, nil
}

// DropBody forgets a body SaveBody kept.
func (l *memLog) DropBody(topic, name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.bodies[name]; !ok {
		return fmt.Errorf("drop body %q: %w", name, errNotInLog)
	}
	delete(l.bodies, name)
	return nil
}

func (l *memLog) BodyPath(topic, name string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.bodies[name]; !ok {
		return ""
	}
	return "mem:" + name
}

func (l *memLog) setAppendErr(err error) {
	l.mu.Lock()
	l.appendErr = err
	l.mu.Unlock()
}

func (l *memLog) ids(topic string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []string
	for _, r := range l.recs[topic] {
		ids = append(ids, r.MessageID)
	}
	return ids
}

func (l *memLog) firstIDs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []string
	for _, r := range l.firsts {
		ids = append(ids, r.MessageID)
	}
	return ids
}

// enqueued is one Terminals.Enqueue call.
type enqueued struct {
	topic, account string
	post           Post
	typed          bool
}

// fakeTerms is a recording fake Terminals; an account has a running seat in
// a topic when seated[topic+"/"+account].
type fakeTerms struct {
	mu      sync.Mutex
	seated  map[string]bool
	calls   []enqueued
	joined  []string // topic/account
	ready   []string // topic/account
	reports []reported
	usage   map[string]SeatUsage // topic/account → its reported usage
	// answered are the card answers told (PermissionAnswered).
	answered []answeredAsk
}

// answeredAsk is one card answer a fake seat was told of.
type answeredAsk struct {
	topic, account string
	ask            uint64
	allowed        bool
}

// reported is one hook report a fake seat took.
type reported struct {
	topic, account string
	r              Report
}

func newFakeTerms(seats ...string) *fakeTerms {
	t := &fakeTerms{seated: make(map[string]bool)}
	for _, s := range seats {
		t.seated[s] = true
	}
	return t
}

// order is the message ids typed, in the order they were typed.
func (t *fakeTerms) order() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var ids []string
	for _, c := range t.calls {
		if c.typed && !slices.Contains(ids, c.post.MessageID) {
			ids = append(ids, c.post.MessageID)
		}
	}
	return ids
}

func (t *fakeTerms) Enqueue(topic, account string, p Post) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	ok := t.seated[topic+"/"+account]
	t.calls = append(t.calls, enqueued{topic, account, p, ok})
	return ok
}

func (t *fakeTerms) SidecarJoined(topic, account string) {
	t.mu.Lock()
	t.joined = append(t.joined, topic+"/"+account)
	t.mu.Unlock()
}

func (t *fakeTerms) SidecarReady(topic, account string) {
	t.mu.Lock()
	t.ready = append(t.ready, topic+"/"+account)
	t.mu.Unlock()
}

// Reported takes a report for a seated account and records it.
func (t *fakeTerms) Reported(topic, account string, r Report) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.seated[topic+"/"+account] {
		return false
	}
	t.reports = append(t.reports, reported{topic, account, r})
	return true
}

// PermissionAnswered records the card answers the seat was told of.
func (t *fakeTerms) PermissionAnswered(topic, account string, ask uint64, allowed bool) {
	t.mu.Lock()
	t.answered = append(t.answered, answeredAsk{topic, account, ask, allowed})
	t.mu.Unlock()
}

// Usage answers the usage set for topic/account.
func (t *fakeTerms) Usage(topic, account string) (SeatUsage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	u, ok := t.usage[topic+"/"+account]
	return u, ok
}

// lastReport is the newest report the fake took for (topic, account, kind).
func (t *fakeTerms) lastReport(topic, account, kind string) (Report, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(t.reports) - 1; i >= 0; i-- {
		if rp := t.reports[i]; rp.topic == topic && rp.account == account && rp.r.Kind == kind {
			return rp.r, true
		}
	}
	return Report{}, false
}

// typedTo returns the accounts p was enqueued for, in call order.
func (t *fakeTerms) typedTo(messageID string) (all, typed []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.calls {
		if c.post.MessageID != messageID {
			continue
		}
		all = append(all, c.account)
		if c.typed {
			typed = append(typed, c.account)
		}
	}
	return all, typed
}

func (t *fakeTerms) snapshot() (joined, ready []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.joined), slices.Clone(t.ready)
}

// fakeAccounts maps account id → kind.
type fakeAccounts map[string]string

func (a fakeAccounts) AccountKind(id string) (string, bool) {
	k, ok := a[id]
	return k, ok
}

// testAccounts covers every kind.
var testAccounts = fakeAccounts{
	"me":    "admin",
	"cc":    "claude_code",
	"cc2":   "claude_code",
	"cx":    "codex_cli",
	"gen":   "cli",
	"gh":    "mcp",
	"ghost": "claude_code", // never seated in tests
}

// fixedNow is the tests' clock: 2026-10-01T16:14:05.123Z.
func fixedNow() time.Time { return time.Date(2026, 10, 1, 16, 14, 5, 123e6, time.UTC) }

// counterIDs returns a NewID making "id-1", "id-2", ….
func counterIDs() func() string {
	var mu sync.Mutex
	n := 0
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("id-%d", n)
	}
}

// newTestHub makes a hub with the given fakes (nil allowed), a fixed clock
// and counter ids; closed at cleanup.
func newTestHub(t testing.TB, log Log, terms Terminals, accts Accounts) *Hub {
	t.Helper()
	opts := HubOptions{Accounts: accts, Now: fixedNow, NewID: counterIDs()}
	if log != nil {
		opts.Log = log
	}
	if terms != nil {
		opts.Terminals = terms
	}
	h, err := NewHub(opts)
	if err != nil {
		t.Fatalf("NewHub: %v", err)
	}
	t.Cleanup(h.Close)
	return h
}

// mustOpen opens topic or fails.
func mustOpen(t testing.TB, h *Hub, topic string) {
	t.Helper()
	if err := h.OpenRoom(topic); err != nil {
		t.Fatalf("OpenRoom(%q): %v", topic, err)
	}
}

// seat connects and says hello, or fails.
func seat(t testing.TB, h *Hub, topic, name, account string) *Conn {
	t.Helper()
	c := h.Connect()
	if err := c.Hello(Hello{Protocol: Protocol, Name: name, Room: topic, AccountID: account}); err != nil {
		t.Fatalf("hello %s: %v", name, err)
	}
	t.Cleanup(c.Close)
	return c
}

// say posts content from c with lastSeen and requires delivery.
func say(t testing.TB, c *Conn, content, lastSeen string) Post {
	t.Helper()
	res, err := c.Post(Draft{Content: content, LastSeen: lastSeen})
	if err != nil {
		t.Fatalf("post %q: %v", content, err)
	}
	if !res.Delivered {
		t.Fatalf("post %q rejected, missed %d", content, len(res.Missed))
	}
	return res.Post
}

// uiSay posts content from the UI (the admin's seat) and requires delivery.
func uiSay(t testing.TB, h *Hub, topic, content string) Post {
	t.Helper()
	res, err := h.Post(topic, Draft{Content: content})
	if err != nil {
		t.Fatalf("ui post %q to %s: %v", content, topic, err)
	}
	if !res.Delivered {
		t.Fatalf("ui post %q to %s rejected, missed %d", content, topic, len(res.Missed))
	}
	return res.Post
}

// appNotice delivers Pullcept's own notice (role app) through deliver's
// app sender, the path the brake's notice takes, and requires delivery.
func appNotice(t testing.TB, h *Hub, topic, content string) Post {
	t.Helper()
	r, err := h.room(topic)
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.deliver(r, sender{kind: sendApp}, Draft{Content: content})
	if err != nil || !res.Delivered {
		t.Fatalf("app notice %q: %v, delivered %v", content, err, res.Delivered)
	}
	return res.Post
}

// nextEvent returns the next event of type T from s matching ok, skipping
// others, or fails at the deadline.
func nextEvent[T Event](t testing.TB, s *Subscription, ok func(T) bool) T {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case e, open := <-s.C():
			if !open {
				var zero T
				t.Fatalf("subscription closed while waiting for %T", zero)
			}
			if v, is := e.(T); is && (ok == nil || ok(v)) {
				return v
			}
		case <-deadline:
			var zero T
			t.Fatalf("no %T event within %v", zero, waitFor)
		}
	}
}

// waitClosed reads s until its channel is closed, or fails at the deadline.
func waitClosed(t testing.TB, s *Subscription) {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case _, open := <-s.C():
			if !open {
				return
			}
		case <-deadline:
			t.Fatalf("subscription still open after %v", waitFor)
		}
	}
}

func postIDs(posts []Post) []string {
	ids := make([]string, 0, len(posts))
	for _, p := range posts {
		ids = append(ids, p.MessageID)
	}
	return ids
}
