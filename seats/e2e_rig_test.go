//go:build linux || darwin

package seats_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// e2eWait bounds each wait on a real CLI. A healthy Claude Code or Codex
// seat starts and answers a post in 5–15 s on the 2-core CI box; the box is
// shared and the test binary runs with -race, so a step may take several
// times that. 90 s is far above any healthy step (scaled: testkit.Slow).
var e2eWait = testkit.Slow(90 * time.Second)

// e2eTopic is the topic (room) every e2e test seats its CLIs in.
const e2eTopic = "0196f0a0-0000-7000-8000-00000000e2e0"

// The admin: the human at this screen, whose posts come from the UI entry.
const (
	e2eAdminID   = "admin"
	e2eAdminName = "Alice"
)

// rig is one isolated Pullcept below the UI, wired as app.go wires it: a
// topic log in a temporary data directory, the room hub and its loopback
// server, the seat Manager as the hub's Terminals, the admin seated in the
// topic's room, and a fake model API on loopback. Every CLI gets the
// environment in env (isolated HOME, CLAUDE_CONFIG_DIR / CODEX_HOME).
type rig struct {
	t     *testing.T
	root  string // parent of every seat's working directory
	data  string // the data directory
	store *logstore.Store
	hub   *room.Hub
	srv   *room.Server
	mgr   *seats.Manager
	fake  *fakeapi.Server
	base  string // the fake's base URL

	mu       sync.Mutex
	accounts map[string]config.Account
	book     *config.Book // when set, seats open their env values with it (useBook)
	env      []string
	room     *watch[room.Event]
	seat     *watch[seats.Event]
	reports  *reportLog // every hook report a seat took
	lastSeen string     // the newest post the admin has seen
	// skip is how far the Manager's clock runs ahead (ns).
	skip atomic.Int64
	// release replaces the Codex release check when set (checkRelease).
	release func(ctx context.Context, acct config.Account, env []string) (limits.Release, error)
}

// reportLog keeps the hook reports the seats took, in order.
type reportLog struct {
	mu    sync.Mutex
	list  []room.Report
	times []time.Time // when each arrived
}

func (l *reportLog) add(r room.Report) {
	l.mu.Lock()
	l.list = append(l.list, r)
	l.times = append(l.times, time.Now())
	l.mu.Unlock()
}

// firstAt is when the first report of event whose body contains part
// arrived (zero: none).
func (l *reportLog) firstAt(event, part string) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, r := range l.list {
		if r.Event == event && strings.Contains(string(r.Body), part) {
			return l.times[i]
		}
	}
	return time.Time{}
}

// has reports whether a report of event whose body contains part arrived.
func (l *reportLog) has(event, part string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.list, func(r room.Report) bool {
		return r.Event == event && strings.Contains(string(r.Body), part)
	})
}

// newRig starts everything. respond is the fake model (nil: the default
// Script answering only the admin, see adminOnly).
func newRig(t *testing.T, respond func(*fakeapi.Request) fakeapi.Reply) *rig {
	t.Helper()
	return newRigWith(t, fakeapi.Options{Respond: respond}, 0)
}

// newRigBrake is newRig with the hub's brake on AI-to-AI loops at brake AI
// posts in a row (0: off, as in newRig; docs/design.md §2 "The brake").
func newRigBrake(t *testing.T, respond func(*fakeapi.Request) fakeapi.Reply, brake int) *rig {
	t.Helper()
	return newRigWith(t, fakeapi.Options{Respond: respond}, brake)
}

// newRigWith is newRig with the fake's options (Respond nil: adminOnly)
// and the brake (0: off).
func newRigWith(t *testing.T, fo fakeapi.Options, brake int) *rig {
	t.Helper()
	return newRigHub(t, fo, room.HubOptions{Brake: brake})
}

// newRigHub is newRigWith with the hub's options (Log, Terminals and
// Accounts are the rig's own).
func newRigHub(t *testing.T, fo fakeapi.Options, ho room.HubOptions, tune ...func(*seats.ManagerOptions)) *rig {
	t.Helper()
	pullcept := fakecli.PullceptBinary(t)
	if fo.Respond == nil {
		fo.Respond = adminOnly(fakeapi.Script{})
	}
	fo.Logf = t.Logf
	r := &rig{t: t, root: t.TempDir(), data: t.TempDir(), accounts: map[string]config.Account{}}
	if d := os.Getenv(rigDirEnv); d != "" {
		// A rig in a child process that a test kills: its folders outlive
		// it, for the next one (e2e_codexserver_linux_test.go).
		r.root, r.data = filepath.Join(d, "root"), filepath.Join(d, "data")
		for _, dir := range []string{r.root, r.data} {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
		}
	}
	fake, err := fakeapi.New(fo)
	if err != nil {
		t.Fatalf("fake api: %v", err)
	}
	if r.base, err = fake.Start(); err != nil {
		t.Fatalf("fake api start: %v", err)
	}
	r.fake = fake
	// Cleanups run last-in first-out: the fake outlives the CLIs.
	t.Cleanup(func() {
		if err := fake.Close(); err != nil {
			t.Errorf("close fake api: %v", err)
		}
	})
	if r.store, err = logstore.Open(r.data, logstore.Options{}); err != nil {
		t.Fatalf("log store: %v", err)
	}
	mo := seats.ManagerOptions{
		Sessions:     r.store,
		Accounts:     r.account,
		PullceptPath: pullcept,
		Environ:      r.environ,
		OpenEnv:      r.openEnv,
		// As the app does: a Claude seat reads the topic's attachments
		// without asking.
		AttachmentsDir: r.store.TopicAttachmentsDir,
		// As the app does: usage-limit notices go into the room.
		AppNotice: func(topicID, text string, skip ...string) (room.Post, error) {
			return r.hub.AppNotice(topicID, text, skip...)
		},
		// As the app does: a permission request answered in the pane
		// closes its card in the room.
		AskClosed:    func(topicID, accountID string, ask uint64) { r.hub.AskClosed(topicID, accountID, ask) },
		CheckRelease: r.checkRelease,
		Logger:       rigLogger(t),
		// Usage-limit tests wait 2 s after a reset, not 30 (limits_test.go
		// checks the 30 s with a fake clock).
		LimitGrace: 2 * time.Second,
		// The Manager's clock runs ahead by skip (usage-limit tests jump
		// past a reset time instead of waiting for it).
		Now: func() time.Time { return time.Now().Add(time.Duration(r.skip.Load())) },
	}
	for _, f := range tune {
		f(&mo)
	}
	if r.mgr, err = seats.NewManager(mo); err != nil {
		t.Fatalf("seat manager: %v", err)
	}
	if dir := os.Getenv(recordPTYEnv); dir != "" {
		recordPTYs(t, r.mgr, dir)
	}
	r.reports = &reportLog{}
	terms := recordingTerminals{Manager: r.mgr, t: t, dir: os.Getenv(recordClaudeEnv), log: r.reports}
	ho.Log, ho.Terminals, ho.Accounts = r.store, terms, r
	if r.hub, err = room.NewHub(ho); err != nil {
		t.Fatalf("hub: %v", err)
	}
	if r.srv, err = room.NewServer(r.hub, room.ServerOptions{SocketDir: testkit.RoomSocketDir(t)}); err != nil {
		t.Fatalf("room server: %v", err)
	}
	r.mgr.SetRoom(seats.RoomEndpoint{URL: r.srv.URL(), HooksURL: r.srv.HooksURL(), Grant: r.srv.Grant,
		Socket: r.srv.SocketPath(), Bind: r.srv.BindTree, Protect: protectDirs(r.srv.SocketPath())})
	r.hub.SetAdmin(room.Hello{Name: e2eAdminName, AccountID: e2eAdminID})
	r.accounts[e2eAdminID] = config.Account{ID: e2eAdminID, Name: e2eAdminName, Kind: config.KindAdmin}
	sub := r.hub.Subscribe()
	r.room = newWatch(sub.C())
	r.seat = newWatch(r.mgr.Subscribe().C())
	if err := r.hub.OpenRoom(e2eTopic); err != nil {
		t.Fatalf("open room: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			r.dumpScreens() // before the seats stop and their CLIs clear them
		}
		r.checkIsolated() // every seat of every e2e test ran in its namespaces
		// As app.close: seats first (their sidecars leave), then the room.
		r.mgr.Close()
		r.seat.wait()
		sub.Close()
		r.room.wait()
		if err := r.srv.Close(); err != nil {
			t.Errorf("close room server: %v", err)
		}
		r.hub.Close()
		if err := r.store.Close(); err != nil {
			t.Errorf("close log store: %v", err)
		}
	})
	return r
}

// checkRelease is the Codex release check: the test's own when it set
// one (rig.release), else the real one.
func (r *rig) checkRelease(ctx context.Context, acct config.Account, env []string) (limits.Release, error) {
	r.mu.Lock()
	f := r.release
	r.mu.Unlock()
	if f != nil {
		return f(ctx, acct, env)
	}
	return codex.CheckRelease(ctx, acct, env)
}

// rigLogger is the Manager's log: into the test's output when
// PULLCEPT_TEST_LOG is set, else discarded.
func rigLogger(t *testing.T) *slog.Logger {
	if os.Getenv("PULLCEPT_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(testLogWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testLogWriter struct{ t *testing.T }

func (w testLogWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// rigDirEnv names a folder a rig keeps its work and data folders in
// (instead of fresh temporary ones).
const rigDirEnv = "PULLCEPT_TEST_RIG_DIR"

// recordClaudeEnv names a folder; when set, every status line and hook
// body a seat's CLI reports is saved below it unedited, the newest of each
// kind winning: <test>/statusline.json and <test>/hook-<Event>.json
// (seats/cli/claude/testdata/README.md).
const recordClaudeEnv = "PULLCEPT_RECORD_CLAUDE"

// recordingTerminals is the seat Manager as the hub's Terminals, saving
// what the CLIs report when dir is set.
type recordingTerminals struct {
	*seats.Manager
	t   *testing.T
	dir string
	log *reportLog
}

func (rt recordingTerminals) Reported(topicID, accountID string, rep room.Report) bool {
	ok := rt.Manager.Reported(topicID, accountID, rep)
	if ok {
		rt.log.add(rep)
	}
	if !ok || rt.dir == "" {
		return ok
	}
	name := "statusline.json"
	if rep.Kind == room.ReportActivity {
		name = "hook-" + rep.Event + ".json"
	}
	dir := filepath.Join(rt.dir, rt.t.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		rt.t.Errorf("record: %v", err)
		return ok
	}
	if err := os.WriteFile(filepath.Join(dir, name), rep.Body, 0o644); err != nil {
		rt.t.Errorf("record %s: %v", name, err)
	}
	return ok
}

// gateway is env with the Claude credential replaced by
// fakeapi.GatewayToken, so that Claude Code reads the fake's rate-limit
// headers into its status line (docs/clis.md §2.9).
func gateway(env []string) []string {
	out := slices.Clone(env)
	for i, kv := range out {
		if strings.HasPrefix(kv, "ANTHROPIC_AUTH_TOKEN=") {
			out[i] = "ANTHROPIC_AUTH_TOKEN=" + fakeapi.GatewayToken()
		}
	}
	return out
}

// account is ManagerOptions.Accounts.
func (r *rig) account(id string) (config.Account, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.accounts[id]
	return a, ok
}

// AccountKind is room.Accounts: the kind named in a hello sets the role.
func (r *rig) AccountKind(id string) (string, bool) {
	a, ok := r.account(id)
	return string(a.Kind), ok
}

// openEnv is ManagerOptions.OpenEnv: the book's vault once a test set one
// (useBook), else values in the clear only.
func (r *rig) openEnv(a config.Account) ([]string, error) {
	r.mu.Lock()
	b := r.book
	r.mu.Unlock()
	if b != nil {
		return b.OpenEnv(a)
	}
	return config.OpenEnv(a.Env, nil)
}

func (r *rig) environ() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.env)
}

// setEnv sets the environment every CLI of the rig starts with.
func (r *rig) setEnv(env []string) {
	r.mu.Lock()
	r.env = slices.Clone(env)
	r.mu.Unlock()
}

// workDir makes the working directory of account id under root.
func (r *rig) workDir(id string) string {
	r.t.Helper()
	dir := filepath.Join(r.root, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Fatal(err)
	}
	return dir
}

func (r *rig) addAccount(a config.Account) config.Account {
	r.mu.Lock()
	r.accounts[a.ID] = a
	r.mu.Unlock()
	return a
}

// claudeAccount adds a Claude Code account in bypass mode (the rig's env
// must come from fakeapi.ClaudeEnv with r.root trusted).
func (r *rig) claudeAccount(id, name string) config.Account {
	return r.addAccount(config.Account{ID: id, Name: name, Kind: config.KindClaudeCode, WorkDir: r.workDir(id),
		Command: fakeapi.CLIPath(r.t, fakeapi.CLIClaude), LaunchOptions: "--dangerously-skip-permissions"})
}

// codexAccount adds a Codex CLI account in hook mode (the rig's env must
// come from fakeapi.CodexEnv with its working directory trusted); the
// app-server tests turn CodexAppServer on.
func (r *rig) codexAccount(id, name string) config.Account {
	hook := false
	return r.addAccount(config.Account{ID: id, Name: name, Kind: config.KindCodexCLI, WorkDir: r.workDir(id),
		Command: fakeapi.CLIPath(r.t, fakeapi.CLICodex), CodexAppServer: &hook})
}

// fakeCLIAccount adds a generic CLI account that runs the test binary's
// fake CLI with opts (fakecli.Main's flags).
func (r *rig) fakeCLIAccount(id, name, opts string) config.Account {
	return r.addAccount(fakecli.Account(r.t, id, name, r.workDir(id), opts))
}

// start starts account id's seat in the e2e topic (a 160×50 pane, roomy
// enough that no footer is cut off).
func (r *rig) start(id string) (seats.StartResult, *seats.Seat) {
	r.t.Helper()
	res, err := r.mgr.Start(e2eTopic, id, 160, 50)
	if err != nil {
		r.t.Fatalf("start %s: %v", id, err)
	}
	s, ok := r.mgr.Seat(e2eTopic, id)
	if !ok {
		r.t.Fatalf("start %s: no seat after Start", id)
	}
	r.t.Logf("started %s: %+v", id, res)
	r.checkVersionRead(id, res)
	return res, s
}

// checkVersionRead: a real CLI's start read its version (issue 34 item
// 12), the pinned one, and found it new enough (it started).
func (r *rig) checkVersionRead(id string, res seats.StartResult) {
	r.t.Helper()
	r.mu.Lock()
	a := r.accounts[id]
	r.mu.Unlock()
	if a.Command != fakeapi.CLIPath(r.t, fakeapi.CLIClaude) && a.Command != fakeapi.CLIPath(r.t, fakeapi.CLICodex) {
		return
	}
	want := "Claude Code " + fakeapi.PinnedVersion(r.t, fakeapi.CLIClaude)
	if a.Kind == config.KindCodexCLI {
		want = "Codex CLI " + fakeapi.PinnedVersion(r.t, fakeapi.CLICodex)
	}
	if res.CLIVersion != want || res.VersionUnread != "" {
		r.t.Errorf("start %s: version %q (unread: %q), want %q read before the start", id, res.CLIVersion, res.VersionUnread, want)
	}
}

// waitReady waits until the seat's sidecar joined the room (the account is
// in the roster) and reported ready (the seat's typing queue is open).
func (r *rig) waitReady(id string, s *seats.Seat) {
	r.t.Helper()
	start := time.Now()
	e2eUntil(r.t, id+" joined and ready", func() bool {
		if !seats.TypingOf(s).Ready {
			return false
		}
		roster, err := r.hub.Roster(e2eTopic)
		if err != nil {
			return false
		}
		return slices.ContainsFunc(roster, func(m room.Member) bool { return m.AccountID == id })
	}, s.Done())
	r.t.Logf("%s joined and ready after %v", id, time.Since(start).Round(time.Millisecond))
}

// post posts content as the admin, with last_seen the newest post the
// admin has seen, as the UI does. A floor rejection (a seat spoke since)
// is handled as the UI handles it: the missed posts are seen and the post
// is sent again.
func (r *rig) post(content string) room.Post {
	r.t.Helper()
	for range 3 {
		r.mu.Lock()
		seen := r.lastSeen
		r.mu.Unlock()
		res, err := r.hub.Post(e2eTopic, room.Draft{Content: content, LastSeen: seen})
		if err != nil {
			r.t.Fatalf("admin post %q: %v", content, err)
		}
		if res.Delivered {
			r.see(res.Post)
			return res.Post
		}
		r.see(res.Missed...)
	}
	r.t.Fatalf("admin post %q: rejected three times", content)
	return room.Post{}
}

// see moves the admin's watermark to the newest of posts.
func (r *rig) see(posts ...room.Post) {
	if len(posts) == 0 {
		return
	}
	r.mu.Lock()
	r.lastSeen = posts[len(posts)-1].MessageID
	r.mu.Unlock()
}

// waitPost waits for a delivered post that match accepts (in delivery
// order) and marks it seen by the admin.
func (r *rig) waitPost(what string, match func(room.Post) bool) room.Post {
	r.t.Helper()
	e := r.room.waitFor(r.t, what, func(e room.Event) bool {
		d, ok := e.(room.PostDelivered)
		return ok && d.Topic == e2eTopic && match(d.Post)
	})
	p := e.(room.PostDelivered).Post
	r.see(p)
	return p
}

// waitStop waits until a Claude seat reported the end of a turn (its Stop
// hook, docs/design.md §11) later than after: its activity is idle since
// then.
func (r *rig) waitStop(id string, after time.Time) {
	r.t.Helper()
	testkit.Eventually(r.t, id+"'s Stop hook", func() bool {
		a := r.seatInfo(id).Activity
		return a.Kind == cli.ActivityIdle && a.Since.After(after)
	})
}

// logRecords reads the topic's JSONL file as it is on disk (docs/design.md §8).
func (r *rig) logRecords() []logstore.Record {
	r.t.Helper()
	f, err := os.Open(filepath.Join(r.store.Dir(), e2eTopic+".jsonl"))
	if err != nil {
		r.t.Fatalf("topic log: %v", err)
	}
	defer f.Close()
	var out []logstore.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		var rec logstore.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			r.t.Fatalf("topic log line %q: %v", sc.Text(), err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		r.t.Fatalf("topic log: %v", err)
	}
	return out
}

// logged returns the topic log's record of messageID.
func (r *rig) logged(messageID string) logstore.Record {
	r.t.Helper()
	for _, rec := range r.logRecords() {
		if rec.MessageID == messageID {
			return rec
		}
	}
	r.t.Fatalf("post %s is not in the topic log", messageID)
	return logstore.Record{}
}

// sessionCalls returns the fake's model calls of one CLI session (Claude's
// X-Claude-Code-Session-Id, Codex's session-id header), in order.
func (r *rig) sessionCalls(session string) []fakeapi.Exchange {
	var out []fakeapi.Exchange
	for _, ex := range r.fake.Exchanges() {
		if ex.Request.ModelCall && ex.Request.Session == session {
			out = append(out, ex)
		}
	}
	return out
}

// seatText is a seat's scrollback and visible screen as plain text.
func seatText(s *seats.Seat) string {
	sc := s.Screen()
	lines := sc.ScrollbackLines(0, sc.ScrollbackLen())
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(e2eStripSGR(l))
		b.WriteByte('\n')
	}
	b.WriteString(sc.Text())
	return b.String()
}

// e2eStripSGR removes the SGR sequences a rendered scrollback line carries.
func e2eStripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func (r *rig) dumpScreens() {
	for _, in := range r.mgr.Seats("") {
		if s, ok := r.mgr.Seat(in.Topic, in.Account); ok {
			r.t.Logf("screen of %s (%v, exit %d):\n%s", in.Account, in.State, in.ExitCode,
				strings.TrimRight(seatText(s), " \n"))
		}
	}
}

// adminOnly is the fake model of these tests: script (a tagged post →
// say_to_room, the result → a closing text or the draft re-send), answering
// only the admin. Another seat's post is read and left unanswered, as a
// model may do, so two seats never answer each other in a loop.
func adminOnly(script fakeapi.Script) func(*fakeapi.Request) fakeapi.Reply {
	return func(r *fakeapi.Request) fakeapi.Reply { return script.Decide(withoutSeatPosts(r)) }
}

// withoutSeatPosts returns a copy of r whose user texts carrying only posts
// of non-admin speakers are removed (r itself is not modified).
func withoutSeatPosts(r *fakeapi.Request) *fakeapi.Request {
	cp := *r
	cp.Messages = slices.Clone(r.Messages)
	for i, m := range cp.Messages {
		if m.Role != fakeapi.RoleUser {
			continue
		}
		var keep []string
		for _, text := range m.Texts {
			posts := fakeapi.FindPosts(text)
			if len(posts) > 0 && !slices.ContainsFunc(posts, func(p fakeapi.TaggedPost) bool { return p.Tag.Role == string(room.RoleAdmin) }) {
				continue
			}
			keep = append(keep, text)
		}
		m.Texts = keep
		cp.Messages[i] = m
	}
	return &cp
}

// carrying returns the user messages of req that carry post messageID in a
// tag line (FindPosts), as "message index → texts".
func carrying(req *fakeapi.Request, messageID string) map[int][]string {
	out := map[int][]string{}
	for i, m := range req.Messages {
		if m.Role != fakeapi.RoleUser {
			continue
		}
		for _, text := range m.Texts {
			for _, p := range fakeapi.FindPosts(text) {
				if p.Tag.MessageID == messageID {
					out[i] = append(out[i], text)
				}
			}
		}
	}
	return out
}

// typedTag is p's tag line as the room types it into the seat called you:
// an addressed post tells that seat its name there (docs/design.md §4).
func typedTag(p room.Post, you string) string {
	if len(p.To) > 0 {
		p.You = you
	}
	return room.Tag(p, time.Local)
}

// checkTyped asserts that req, a model call of the seat p addresses first
// (or of any seat, for a post to the whole room), carries post p exactly as
// the room types it (docs/design.md §4, §5): ONE user message holds it, in
// one text whose first line is the tag and whose next line is the body's
// first line.
func checkTyped(t *testing.T, req *fakeapi.Request, p room.Post, bodyLine string) {
	t.Helper()
	var you string
	if len(p.To) > 0 {
		you = p.To[0]
	}
	msgs := carrying(req, p.MessageID)
	if len(msgs) != 1 {
		t.Errorf("request #%d: %d user messages carry post %s, want 1: %v", req.Seq, len(msgs), p.MessageID, msgs)
		return
	}
	for _, texts := range msgs {
		if len(texts) != 1 {
			t.Errorf("request #%d: post %s in %d texts of one message, want 1: %q", req.Seq, p.MessageID, len(texts), texts)
			return
		}
		lines := strings.Split(strings.TrimLeft(texts[0], "\n"), "\n")
		want := typedTag(p, you)
		if len(lines) < 2 || lines[0] != want || lines[1] != bodyLine {
			t.Errorf("request #%d: post text %q, want first line %q and second line %q", req.Seq, texts[0], want, bodyLine)
		}
	}
}

// e2eUntil waits until cond holds, failing t after e2eWait or as soon as
// gone closes first (the seat's process exited: it never will).
func e2eUntil(t *testing.T, what string, cond func() bool, gone <-chan struct{}) {
	t.Helper()
	testkit.EventuallyWithin(t, e2eWait, what, func() bool {
		if cond() {
			return true
		}
		select {
		case <-gone:
			if !cond() {
				t.Fatalf("waiting for %s: the seat exited", what)
			}
			return true
		default:
			return false
		}
	})
}

// watch drains an event channel until it closes and lets tests wait on
// what arrived.
type watch[E any] struct {
	mu      sync.Mutex
	events  []E
	changed chan struct{} // closed and replaced on every event
	done    chan struct{}
}

func newWatch[E any](c <-chan E) *watch[E] {
	w := &watch[E]{changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for e := range c {
			w.mu.Lock()
			w.events = append(w.events, e)
			close(w.changed)
			w.changed = make(chan struct{})
			w.mu.Unlock()
		}
	}()
	return w
}

// wait blocks until the channel closed and everything was drained.
func (w *watch[E]) wait() { <-w.done }

// all is every event received so far.
func (w *watch[E]) all() []E {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.events)
}

// waitFor returns the first event that match accepts, failing t after
// e2eWait.
func (w *watch[E]) waitFor(t *testing.T, what string, match func(E) bool) E {
	t.Helper()
	return w.waitForAfter(t, what, 0, match)
}

// waitForAfter is waitFor over the events from index after on.
func (w *watch[E]) waitForAfter(t *testing.T, what string, after int, match func(E) bool) E {
	t.Helper()
	deadline := time.After(e2eWait)
	for {
		w.mu.Lock()
		for _, e := range w.events[min(after, len(w.events)):] {
			if match(e) {
				w.mu.Unlock()
				return e
			}
		}
		ch := w.changed
		w.mu.Unlock()
		select {
		case <-ch:
		case <-w.done:
			t.Fatalf("waiting for %s: the event stream closed", what)
		case <-deadline:
			t.Fatalf("waiting for %s: not within %v", what, e2eWait)
		}
	}
}

// fakeLines waits until the fake CLI's lines file holds want (in order, as
// consecutive lines) and returns the file.
func fakeLines(t *testing.T, path string, gone <-chan struct{}, want ...string) []string {
	t.Helper()
	var lines []string
	e2eUntil(t, fmt.Sprintf("lines %q in %s", want, filepath.Base(path)), func() bool {
		var err error
		lines, err = fakecli.Lines(path)
		if err != nil {
			return false
		}
		for i := range lines {
			if i+len(want) <= len(lines) && slices.Equal(lines[i:i+len(want)], want) {
				return true
			}
		}
		return false
	}, gone)
	return lines
}

// protectDirs is what the app protects in a seat (RoomEndpoint.Protect):
// the room socket's directory.
func protectDirs(socket string) []string {
	if socket == "" {
		return nil
	}
	return []string{filepath.Dir(socket)}
}
