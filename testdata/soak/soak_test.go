//go:build linux

package soak

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/fakemcp"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// soakPlan is one run's size: `make test` runs a short one that proves the
// harness, `make soak` (PULLCEPT_SOAK=60s) the issue's: 16 honest seats at a
// combined 800 posts/s for 60 s.
type soakPlan struct {
	notices int // the local MCP server's flood: notices of 16 KB
	honest  int
	rate    int // posts/s, all honest seats together
	dur     time.Duration
	unauth  int // connections the tokenless local user holds
	long    bool
}

func plan(t *testing.T) soakPlan {
	v := os.Getenv("PULLCEPT_SOAK")
	if v == "" {
		return soakPlan{honest: 4, rate: 80, dur: 6 * time.Second, unauth: 500, notices: 2000}
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("PULLCEPT_SOAK=%q: want a Go duration such as 60s", v)
	}
	return soakPlan{honest: 16, rate: 800, dur: d, unauth: 3000, long: true, notices: 20000}
}

// rssBound is the app's peak resident memory the long run is held to (the
// short one only reports it; measured: 190–240 MiB without the notice
// flood, of which the log's and body files' page cache is not part). The
// flood's notices the brake lets through are 16 KB each, typed into all
// 17 seats: their terminals' scrollbacks fill to their line cap
// (seats/terminal scrollbackLines), which costs about 30 MiB a seat at
// these widths — measured with the flood 723–795 MiB, 264 MiB with
// notices of 200 bytes; the flood's own memory is bounded (brake, typing
// queues; issue 32). The keystroke echo is measured and printed beside a
// plain cat's, never bounded: speed is not asserted in tests (issue 28;
// `make compare` measures it against tmux).
const rssBound = 1 << 30

// echoWait bounds the wait for one typed key to come back: it tells a lost
// key from a slow one (scaled: testkit.Slow).
var echoWait = testkit.Slow(10 * time.Second)

// TestSoakRealApp: the pullcept binary runs in tmux at 200×60 with honest
// seats posting through their real sidecars and one hostile seat running
// every flood of the hostile-seats issue with its own token, while a local
// user without the token holds connections to the room's port and a person
// types into the input bar. Afterwards: no honest post is lost (every
// delivered one is in the topic log once), the log, the seats' terminals
// and the chat show one order, no flood got through, and the figures —
// keystroke echo, RSS, posts — are printed.
func TestSoakRealApp(t *testing.T) {
	p := plan(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	r := newRig(t, p)
	r.startSeats(t)
	url := r.roomURL(t)

	stopUnauth := holdUnauthenticated(t, strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/room"), p.unauth)
	rss := sampleRSS(t, r.appPID(t))
	if err := os.WriteFile(r.goFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	echoes, plainEchoes, screens := r.typeWhile(t, start.Add(p.dur))
	var notices int
	folded := "none"
	if p.notices > 0 {
		notices, folded = r.checkFlood(t, start)
	}
	held := stopUnauth()
	peak := rss()

	results := r.waitResults(t)
	hostile, err := fakecli.ReadResult[fakecli.HostileReport](r.hostileOut)
	if err != nil {
		t.Fatalf("hostile report: %v", err)
	}
	order, bodies := r.logOrder(t)
	delivered := checkNoneLost(t, results, order)
	checkTerminals(t, r, order)
	checkChat(t, screens, bodies)
	for _, b := range hostile.Breaches {
		t.Errorf("hostile flood got through: %s", b)
	}

	slices.Sort(echoes)
	slices.Sort(plainEchoes)
	pctOf := func(d []time.Duration, q float64) time.Duration {
		if len(d) == 0 {
			return 0
		}
		return d[min(len(d)-1, int(q*float64(len(d))))].Round(time.Millisecond)
	}
	pct := func(q float64) time.Duration { return pctOf(echoes, q) }
	t.Logf("soak: %d honest seats, %d posts/s asked, %v: %d honest posts delivered (%.0f/s), %d in the log",
		p.honest, p.rate, p.dur, delivered, float64(delivered)/p.dur.Seconds(), len(order))
	t.Logf("soak: keystroke echo through tmux over %d keys: pullcept p50 %v, p95 %v, max %v; cat in a tmux pane beside it p50 %v, p95 %v, max %v",
		len(echoes), pct(0.5), pct(0.95), pct(1), pctOf(plainEchoes, 0.5), pctOf(plainEchoes, 0.95), pctOf(plainEchoes, 1))
	t.Logf("soak: a local MCP server flooded %d notices of 16 KB: %d in the log, the first fold notice says %s more, folded",
		p.notices, notices, folded)
	t.Logf("soak: pullcept RSS peak %.0f MiB; tokenless connections held at the end %d of %d tried", float64(peak)/(1<<20), held, p.unauth)
	for _, name := range slices.Sorted(maps.Keys(hostile.Floods)) {
		f := hostile.Floods[name]
		t.Logf("soak: flood %q: %d runs, answers %v", name, f.Runs, f.Answers)
	}
	if os.Getenv("PULLCEPT_SOAK") != "" {
		if len(hostile.Floods) < 10 {
			t.Errorf("only %d of the 10 floods ran", len(hostile.Floods))
		}
		if peak > rssBound {
			t.Errorf("RSS peaked at %d MiB, bound %d MiB", peak>>20, rssBound>>20)
		}
	}
}

// rig is the app under test in its tmux server.
type rig struct {
	p          soakPlan
	work, data string
	sock       string
	goFile     string
	hostileOut string
	accounts   []string // honest account ids, panel order
}

func newRig(t *testing.T, p soakPlan) *rig {
	t.Helper()
	work := t.TempDir()
	r := &rig{p: p, work: work, data: filepath.Join(work, "data"), sock: fmt.Sprintf("pullcept-soak-%d", os.Getpid()),
		goFile: filepath.Join(work, "go"), hostileOut: filepath.Join(work, "hostile.json")}
	if err := os.MkdirAll(r.data, 0o700); err != nil {
		t.Fatal(err)
	}
	var accts []fakecli.ConfigAccount
	nice, err := exec.LookPath("nice")
	if err != nil {
		t.Fatal(err)
	}
	seat := func(id, name, opts string) {
		cwd := filepath.Join(work, "seat-"+id)
		if err := os.MkdirAll(cwd, 0o700); err != nil {
			t.Fatal(err)
		}
		// The seats are the load generator: they run at nice 10, like a
		// build a person starts in the background, so the box's two cores
		// are not a queue the app waits in (docs/design.md §13).
		accts = append(accts, fakecli.ConfigAccount{ID: id, Name: name, Kind: "cli", Cwd: cwd, Command: nice,
			Options: "-n 10 " + fakecli.Command(t) + " " + opts, Env: fakecli.SeatEnv()})
	}
	each := max(p.rate/p.honest, 1)
	for i := range p.honest {
		id := fmt.Sprintf("honest-%02d", i)
		r.accounts = append(r.accounts, id)
		seat(id, fmt.Sprintf("Seat %02d", i), fmt.Sprintf("-join -load %d -start %s -for %s -out %s -lines %s",
			each, r.goFile, p.dur, r.out(id), r.lines(id)))
	}
	seat("mallory", "Mallory", fmt.Sprintf("-join -hostile -start %s -for %s -out %s -lines %s",
		r.goFile, p.dur, r.hostileOut, r.lines("mallory")))
	if p.notices > 0 {
		accts = append(accts, fakecli.ConfigAccount{ID: "mcp-hook", Name: "GitHub", Kind: "mcp", Server: "hook"})
	}
	fakecli.WriteConfig(t, r.data, nil, accts...)
	if p.notices > 0 {
		r.writeFlood(t)
	}
	bin := fakecli.PullceptBinary(t)
	r.tmux(t, "new-session", "-d", "-s", "soak", "-x", "200", "-y", "60",
		"env", "PULLCEPT_HOME="+r.data, "TERM=xterm-256color", "LANG=C.UTF-8", bin, "--no-server")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", r.screenOrEmpty())
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(r.tmux(t, "display-message", "-p", "-t", "soak", "#{pane_pid}"))); err == nil {
			_ = syscall.Kill(pid, syscall.SIGTERM)
			// Its seats stop on the way out; then the server goes (or the
			// wait ends: this is cleanup, nothing fails here).
			waitGone(pid, testkit.Slow(5*time.Second))
		}
		_ = exec.Command("tmux", "-L", r.sock, "kill-server").Run()
	})
	testkit.EventuallyWithin(t, testkit.Slow(30*time.Second), "the app shows its accounts", func() bool {
		return strings.Contains(r.screenOrEmpty(), "Seat 00")
	})
	return r
}

// waitGone polls until pid no longer runs or d passed.
func waitGone(pid int, d time.Duration) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for syscall.Kill(pid, 0) == nil {
		select {
		case <-deadline.C:
			return
		case <-tick.C:
		}
	}
}

// writeFlood writes mcp-servers.json: the scripted server that pushes
// p.notices notices of 16 KB as fast as it can once the run starts
// (issue 32: such a flood took the app to 1,145 MB RSS).
func (r *rig) writeFlood(t *testing.T) {
	t.Helper()
	l := fakemcp.Command(t, fakemcp.Config{Flood: r.p.notices, FloodBytes: 16 << 10, FloodAfter: r.goFile})
	b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"hook": map[string]any{"command": l.Command, "args": l.Args, "env": l.EnvMap()}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.data, "mcp-servers.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkFlood waits for Pullcept's fold notice of the flood in the topic
// log, and checks that the brake let at most its burst and its rate of
// the server's notices through (docs/design.md §6 "Local MCP servers").
// It returns the notices and the folded count the notice gives.
func (r *rig) checkFlood(t *testing.T, since time.Time) (notices int, folded string) {
	t.Helper()
	fold := regexp.MustCompile(`^GitHub: ([\d,]+) more notices, folded`)
	testkit.EventuallyWithin(t, testkit.Slow(90*time.Second), "the fold notice in the log", func() bool {
		notices, folded = 0, ""
		for _, rec := range r.logRecords(t) {
			if rec.Account == "mcp-hook" {
				notices++
			}
			if m := fold.FindStringSubmatch(rec.Content); rec.FromApp && m != nil {
				folded = m[1]
			}
		}
		return folded != ""
	})
	if most := 20 + int(time.Since(since)/(3*time.Second)) + 1; notices > most {
		t.Errorf("%d of the server's notices in the log, the brake lets at most %d through", notices, most)
	}
	return notices, folded
}

func (r *rig) out(id string) string   { return filepath.Join(r.work, "out-"+id+".json") }
func (r *rig) lines(id string) string { return filepath.Join(r.work, "lines-"+id+".jsonl") }

func (r *rig) tmux(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", r.sock}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *rig) keys(t *testing.T, keys ...string) {
	t.Helper()
	r.tmux(t, append([]string{"send-keys", "-t", "soak"}, keys...)...)
}

func (r *rig) screenOrEmpty() string {
	out, _ := exec.Command("tmux", "-L", r.sock, "capture-pane", "-p", "-t", "soak").Output()
	return string(out)
}

func (r *rig) screen(t *testing.T) string {
	t.Helper()
	return r.tmux(t, "capture-pane", "-p", "-t", "soak")
}

// startSeats starts every seat from the accounts panel (Tab to it, then
// Down and s on each row, as a person does) and waits until every fake CLI
// has joined its room (its -lines file exists once its sidecar listed the
// tools).
func (r *rig) startSeats(t *testing.T) {
	t.Helper()
	testkit.EventuallyWithin(t, testkit.Slow(10*time.Second), "the accounts panel has focus", func() bool {
		if strings.Contains(r.screenOrEmpty(), "› Alice") {
			return true
		}
		r.keys(t, "Tab")
		time.Sleep(200 * time.Millisecond) // let the UI draw before the next Tab
		return false
	})
	all := append(slices.Clone(r.accounts), "mallory")
	for _, id := range all {
		r.keys(t, "Down")
		r.keys(t, "s")
		path := r.lines(id)
		testkit.EventuallyWithin(t, testkit.Slow(60*time.Second), id+"'s seat joined its room", func() bool {
			_, err := os.Stat(path)
			return err == nil
		})
	}
	// A key right after Esc would arrive as Alt+key: the next one waits
	// until the app took the Esc (the panel's cursor is gone).
	r.keys(t, "Escape")
	panelCursor := regexp.MustCompile(`› (Alice|Seat \d|Mallory)`)
	testkit.Eventually(t, "the accounts panel lets the focus go", func() bool {
		return !panelCursor.MatchString(r.screenOrEmpty())
	})
	// Hide the topic list: it shows the topic's name — the first honest
	// post's body, whole since the list grows with its names — beside the
	// chat, and checkChat reads the screen for post bodies in order (it
	// leaves out the status line, which names the topic too).
	r.keys(t, "C-b")
	testkit.EventuallyWithin(t, testkit.Slow(10*time.Second), "the topic list is hidden", func() bool {
		return !strings.Contains(r.screenOrEmpty(), "Topics")
	})
}

// roomURL is the room's WebSocket address, from a seat's .mcp.json.
func (r *rig) roomURL(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.work, "seat-"+r.accounts[0], ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`ws://127\.0\.0\.1:\d+/room`).Find(b)
	if m == nil {
		t.Fatalf("no room URL in .mcp.json:\n%s", b)
	}
	return string(m)
}

func (r *rig) appPID(t *testing.T) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(r.tmux(t, "display-message", "-p", "-t", "soak", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// typeWhile types until end, one "z" at a time at a person's pace, into
// the app's input bar and, in turn, into a plain `cat` in another pane of
// the same tmux server (what a terminal alone does on this machine under
// the same load). It returns how long each key took to come back out of
// each program through tmux: from send-keys (tmux writes the key into the
// program's terminal) to the first "z" the program writes after it, read
// from the pane's output stream (pipe-pane) — no screen polling, which
// would cost the machine the CPU it measures. Nothing else on either screen
// writes a "z" (the app's renderer writes only the changed cell). The app's
// line is cleared every 20 keys.
func (r *rig) typeWhile(t *testing.T, end time.Time) (app, plain []time.Duration, screens []string) {
	t.Helper()
	r.tmux(t, "new-window", "-d", "-t", "soak:", "-n", "plain", "stty -echoctl; cat")
	appProbe := r.probe(t, "soak:0", "app.out")
	plainProbe := r.probe(t, "soak:plain", "plain.out")
	k := 0
	for time.Now().Before(end) {
		app = append(app, appProbe.echo(t))
		plain = append(plain, plainProbe.echo(t))
		if k++; k == 20 {
			for range 20 {
				r.keys(t, "BSpace")
			}
			testkit.Eventually(t, "the input bar is clear again", func() bool {
				return !strings.Contains(inputRows(r.screen(t)), "z")
			})
			screens = append(screens, r.screen(t))
			k = 0
		}
		time.Sleep(100 * time.Millisecond) // a person's pace between keys
	}
	return app, plain, append(screens, r.screen(t))
}

// echoProbe types into one pane and reads that pane's output stream.
type echoProbe struct {
	r      *rig
	target string
	f      *os.File
	buf    []byte
}

func (r *rig) probe(t *testing.T, target, name string) *echoProbe {
	t.Helper()
	stream := filepath.Join(r.work, name)
	r.tmux(t, "pipe-pane", "-O", "-t", target, "cat >> "+stream)
	testkit.Eventually(t, "the output stream of "+target+" is open", func() bool {
		_, err := os.Stat(stream)
		return err == nil
	})
	f, err := os.Open(stream)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &echoProbe{r: r, target: target, f: f, buf: make([]byte, 64<<10)}
}

// echo sends one "z" and waits for the pane to write one back.
func (p *echoProbe) echo(t *testing.T) time.Duration {
	t.Helper()
	if _, err := p.f.Seek(0, io.SeekEnd); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	p.r.tmux(t, "send-keys", "-t", p.target, "-l", "z")
	for {
		if time.Since(sent) > echoWait {
			t.Fatalf("a key typed into %s did not come back within %v", p.target, echoWait)
		}
		n, _ := p.f.Read(p.buf)
		if n == 0 {
			time.Sleep(time.Millisecond)
			continue
		}
		if bytes.IndexByte(p.buf[:n], 'z') >= 0 {
			return time.Since(sent)
		}
	}
}

// inputRows is the bottom of the screen, where the input bar sits.
func inputRows(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.Join(rows[max(0, len(rows)-5):], "\n")
}

// holdUnauthenticated holds n connections to addr without the token,
// opening a new one for each the server closes, until the returned stop;
// stop says how many were still open.
func holdUnauthenticated(t *testing.T, addr string, n int) func() int {
	t.Helper()
	var held atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := net.Dial("tcp", addr)
				if err == nil {
					held.Add(1)
					if i%2 == 1 {
						_, _ = fmt.Fprintf(c, "GET /room HTTP/1.1\r\nHost: %s\r\n", addr) // never ends its headers
					}
					closed := make(chan struct{})
					go func() {
						defer close(closed)
						_, _ = c.Read(make([]byte, 1))
					}()
					select {
					case <-done:
						c.Close()
						<-closed
						held.Add(-1)
						return
					case <-closed:
						c.Close()
						held.Add(-1)
					}
				}
				select { // a patient holder: it opens again a second later
				case <-done:
					return
				case <-time.After(time.Second):
				}
			}
		}()
	}
	return func() int {
		n := int(held.Load())
		close(done)
		wg.Wait()
		return n
	}
}

// sampleRSS samples pid's resident memory every 250 ms until the returned
// stop, which gives the peak.
func sampleRSS(t *testing.T, pid int) func() int64 {
	t.Helper()
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
						if kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64); err == nil && kb<<10 > peak.Load() {
							peak.Store(kb << 10)
						}
					}
				}
			}
			select {
			case <-done:
				return
			case <-time.After(250 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

// waitResults waits for every honest seat's LoadResult.
func (r *rig) waitResults(t *testing.T) []fakecli.LoadResult {
	t.Helper()
	var out []fakecli.LoadResult
	testkit.EventuallyWithin(t, testkit.Slow(2*time.Minute), "every seat wrote its result", func() bool {
		out = out[:0]
		for _, id := range r.accounts {
			res, err := fakecli.ReadResult[fakecli.LoadResult](r.out(id))
			if err != nil {
				return false
			}
			out = append(out, res)
		}
		_, err := os.Stat(r.hostileOut)
		return err == nil
	})
	return out
}

// logOrder reads the one topic's log: its message ids in order, and the
// position of each short body.
func (r *rig) logOrder(t *testing.T) ([]string, map[string]int) {
	t.Helper()
	var ids []string
	bodies := map[string]int{}
	for _, rec := range r.logRecords(t) {
		if strings.HasPrefix(rec.TS, "9999") {
			t.Errorf("post %s kept the sender's time %s", rec.MessageID, rec.TS)
		}
		if len(rec.Content) < 64 {
			bodies[rec.Content] = len(ids)
		}
		ids = append(ids, rec.MessageID)
	}
	return ids, bodies
}

// logRecords reads the one topic log.
func (r *rig) logRecords(t *testing.T) []logstore.Record {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(r.data, "logs", "main", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("want one topic log, found %v", logs)
	}
	f, err := os.Open(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []logstore.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, logstore.MaxLineBytes)
	for sc.Scan() {
		var rec logstore.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("log line %d: %v", len(recs)+1, err)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// checkNoneLost: every post the room told an honest seat it delivered is
// in the log exactly once, in that seat's order. It returns how many.
func checkNoneLost(t *testing.T, results []fakecli.LoadResult, order []string) int {
	t.Helper()
	at := make(map[string]int, len(order))
	for i, id := range order {
		if _, dup := at[id]; dup {
			t.Errorf("message id %s is in the log twice", id)
		}
		at[id] = i
	}
	total := 0
	for _, res := range results {
		for _, e := range res.Errors {
			t.Errorf("%s: %s", res.Account, e)
		}
		last := -1
		for _, id := range res.Delivered {
			i, ok := at[id]
			if !ok {
				t.Errorf("%s: delivered post %s is not in the log", res.Account, id)
				continue
			}
			if i < last {
				t.Errorf("%s: post %s is in the log before an earlier post of the same seat", res.Account, id)
			}
			last = i
		}
		total += len(res.Delivered)
	}
	if total == 0 {
		t.Error("no honest post was delivered")
	}
	return total
}

// checkTerminals: the tags typed into each honest seat's terminal follow
// the log's order.
func checkTerminals(t *testing.T, r *rig, order []string) {
	t.Helper()
	at := make(map[string]int, len(order))
	for i, id := range order {
		at[id] = i
	}
	for _, id := range r.accounts {
		lines, err := fakecli.Lines(r.lines(id))
		if err != nil {
			t.Fatal(err)
		}
		last := -1
		for _, line := range lines {
			js, ok := strings.CutPrefix(line, room.TagPrefix)
			if !ok {
				continue
			}
			var tag struct {
				MessageID string `json:"message_id"`
			}
			if json.Unmarshal([]byte(js), &tag) != nil {
				continue
			}
			i, ok := at[tag.MessageID]
			if !ok {
				t.Errorf("%s: typed post %s is not in the log", id, tag.MessageID)
				continue
			}
			if i < last {
				t.Errorf("%s: typed post %s out of the log's order", id, tag.MessageID)
			}
			last = i
		}
	}
}

// checkChat: the honest posts the chat showed, in screens taken during the
// run, are in the log's order (each body "load <account> <n>" is unique).
func checkChat(t *testing.T, screens []string, bodies map[string]int) {
	t.Helper()
	shown := 0
	for _, screen := range screens {
		last := -1
		// The status line's right part names the open topic: the first
		// post's body. Only the chat above it counts.
		if i := strings.LastIndex(strings.TrimRight(screen, "\n"), "\n"); i >= 0 {
			screen = screen[:i]
		}
		for _, body := range regexp.MustCompile(`load honest-\d+ \d+`).FindAllString(screen, -1) {
			i, ok := bodies[body]
			if !ok {
				t.Errorf("the chat shows %q, which is not in the log", body)
				continue
			}
			if i < last {
				t.Errorf("the chat shows %q out of the log's order", body)
			}
			last = i
			shown++
		}
	}
	if shown == 0 {
		t.Errorf("the chat showed no honest post in %d screens", len(screens))
	}
}
