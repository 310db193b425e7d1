//go:build linux

package sidecar

// Faults around the sidecar (docs/design.md §13, faults), with the real `pullcept
// sidecar` binary and a real room: a room that restarted on a new port with
// a new token is reported unreachable in tool results instead of hanging,
// and a seat started afterwards works; a sidecar whose CLI died does not
// outlive it.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	pconfig "github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// faultTopic is the room every fault test sits in.
const faultTopic = "fault-topic"

// faultKinds is room.Accounts for these tests.
type faultKinds map[string]string

func (k faultKinds) AccountKind(id string) (string, bool) {
	v, ok := k[id]
	return v, ok
}

// liveRoom is a real hub and loopback server with faultTopic open and a
// subscription, closed at cleanup (or earlier by stop).
type liveRoom struct {
	hub *room.Hub
	srv *room.Server
	sub *room.Subscription
}

func startLiveRoom(t *testing.T, terms room.Terminals) *liveRoom {
	t.Helper()
	hub, err := room.NewHub(room.HubOptions{Terminals: terms, Accounts: faultKinds{"acct-lin": "claude_code", "acct-new": "cli", "me": "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	hub.SetAdmin(room.Hello{Name: "Master", AccountID: "me"})
	if err := hub.OpenRoom(faultTopic); err != nil {
		t.Fatal(err)
	}
	srv, err := room.NewServer(hub, room.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := &liveRoom{hub: hub, srv: srv, sub: hub.Subscribe()}
	t.Cleanup(r.stop)
	return r
}

// stop is the app going away: sockets closed, the port no longer listening.
func (r *liveRoom) stop() {
	_ = r.srv.Close()
	r.sub.Close()
	r.hub.Close()
}

// rosterLen is the room's roster size without the UI's own seat.
func (r *liveRoom) rosterLen() int {
	m, err := r.hub.Roster(faultTopic)
	if err != nil {
		return -1
	}
	n := 0
	for _, x := range m {
		if !x.Local {
			n++
		}
	}
	return n
}

// waitDelivered waits for a post whose content is content.
func (r *liveRoom) waitDelivered(t *testing.T, content string) room.Post {
	t.Helper()
	deadline := time.After(waitLong)
	for {
		select {
		case e, ok := <-r.sub.C():
			if !ok {
				t.Fatal("subscription closed")
			}
			if pd, is := e.(room.PostDelivered); is && pd.Post.Content == content {
				return pd.Post
			}
		case <-deadline:
			t.Fatalf("no post %q delivered within %v", content, waitLong)
		}
	}
}

// sidecarEnv is the environment a seat's CLI gives `pullcept sidecar`: the
// .mcp.json entry's variables plus the token and launched-as from the
// process environment.
func sidecarEnv(r *liveRoom) []string {
	return []string{
		room.EnvRoomURL + "=" + r.srv.URL(),
		room.EnvRoomToken + "=" + r.srv.Token(),
		room.EnvAgentName + "=Lin",
		room.EnvAccountID + "=acct-lin",
		room.EnvLaunchedAs + "=acct-lin",
		room.EnvRoomID + "=" + faultTopic,
	}
}

// callText calls a tool and returns its text, whether it is an error, and
// how long the call took.
func callText(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	start := time.Now()
	res, err := c.CallTool(ctx, callReq(name, args))
	took := time.Since(start)
	if err != nil {
		t.Fatalf("tools/call %s after %v: %v", name, took, err)
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := mcp.AsTextContent(ct); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, took
}

// unreachableWithin bounds a tool call while the room is gone: the real
// sidecar's reconnect wait (defaultTuning, 5 s) plus 10 s a loaded box may
// add (scaled). It tells an answer after the reconnect wait from a hang (a
// hang runs into waitLong), it is not a speed check.
var unreachableWithin = defaultTuning().reconnectWait + testkit.Slow(10*time.Second)

// TestRoomRestartNewPortNewToken (docs/design.md §13, faults): the real `pullcept
// sidecar` joins a real room; the app restarts, so the room comes back on a
// new port with a new token. The sidecar's environment still names the old
// URL and token, so every tool call answers "unreachable" within its
// reconnect wait instead of hanging, and it never reaches the new room. A
// seat started afterwards by a new Manager on the new room works: its CLI
// starts the sidecar from .mcp.json, joins, speaks, and posts are typed into
// its terminal.
func TestRoomRestartNewPortNewToken(t *testing.T) {
	bin := buildPullcept(t)
	old := startLiveRoom(t, nil)
	c, err := client.NewStdioMCPClient(bin, sidecarEnv(old), "sidecar")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	initReq := mcp.InitializeRequest{}
	initReq.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	initReq.Params.ClientInfo = mcp.Implementation{Name: "fault-test", Version: "1"}
	if _, err := c.Initialize(ctx, initReq); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	if text, isErr, _ := callText(t, c, room.ToolSayToRoom, map[string]any{"content": "before the restart"}); isErr || !strings.HasPrefix(text, "Delivered") {
		t.Fatalf("say before the restart: %v %q", isErr, text)
	}
	old.waitDelivered(t, "before the restart")

	oldURL := old.srv.URL()
	old.stop()
	// The restarted app: a new Manager and a new room on a new port with a
	// new token, the Manager typing the room's posts into its seats.
	m, acct := newSeatManager(t, bin)
	fresh := startLiveRoom(t, m)
	m.SetRoom(seats.RoomEndpoint{URL: fresh.srv.URL(), HooksURL: fresh.srv.HooksURL(), Grant: fresh.srv.Grant})
	if fresh.srv.URL() == oldURL || fresh.srv.Token() == old.srv.Token() {
		t.Fatalf("the restarted room kept its address or token")
	}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{room.ToolSayToRoom, map[string]any{"content": "after the restart"}},
		{room.ToolReadRoomHistory, nil},
		{room.ToolMyUsage, nil},
	} {
		text, isErr, took := callText(t, c, call.tool, call.args)
		t.Logf("%s after the restart: answered in %v: %q", call.tool, took.Round(time.Millisecond), firstLine(text))
		if !isErr || !strings.Contains(text, "unreachable") {
			t.Fatalf("%s after the restart: isError %v, %q; want the room reported unreachable", call.tool, isErr, text)
		}
		if took > unreachableWithin {
			t.Fatalf("%s after the restart took %v, want at most %v", call.tool, took, unreachableWithin)
		}
	}
	if n := fresh.rosterLen(); n != 0 {
		t.Fatalf("the restarted room has %d sockets; the old sidecar cannot know its address", n)
	}

	// A seat started now, by the new Manager on the new room, works.
	newSeatWorks(t, m, acct, fresh)
}

// seatCLIEnv makes the re-executed test binary act as a seat's CLI
// (TestHelperSeatCLI); the value is the content it says once joined.
const seatCLIEnv = "SIDECAR_TEST_SEAT_CLI"

// TestHelperSeatCLI is not a test: it is the generic CLI the Manager seats in
// TestRoomRestartNewPortNewToken (re-executing this binary). Without
// seatCLIEnv it returns at once. Like a real CLI it starts its room sidecar
// from ./.mcp.json (the pullcept-room entry for its account and topic) with
// mcp-go's stdio client, lists the tools (the sidecar then reports ready),
// says seatCLIEnv's value with say_to_room, prints the result, and then
// prints "got: <line>" for every line typed into its terminal until EOF.
func TestHelperSeatCLI(t *testing.T) {
	say := os.Getenv(seatCLIEnv)
	if say == "" {
		return
	}
	fail := func(format string, args ...any) {
		fmt.Printf("seat cli: "+format+"\n", args...)
		os.Exit(3)
	}
	raw, err := os.ReadFile(".mcp.json")
	if err != nil {
		fail("%v", err)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		fail(".mcp.json: %v", err)
	}
	var c *client.Client
	for key, e := range doc.MCPServers {
		if !strings.HasPrefix(key, "pullcept-room") || e.Env[room.EnvAccountID] != os.Getenv(room.EnvLaunchedAs) || e.Env[room.EnvRoomID] != os.Getenv(room.EnvRoomID) {
			continue
		}
		var env []string
		for k, v := range e.Env {
			env = append(env, k+"="+v)
		}
		if c, err = client.NewStdioMCPClient(e.Command, env, e.Args...); err != nil {
			fail("start %s: %v", key, err)
		}
	}
	if c == nil {
		fail("no room entry for this seat in .mcp.json")
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	initReq := mcp.InitializeRequest{}
	initReq.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	initReq.Params.ClientInfo = mcp.Implementation{Name: "seat-cli", Version: "1"}
	if _, err := c.Initialize(ctx, initReq); err != nil {
		fail("initialize: %v", err)
	}
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		fail("tools/list: %v", err)
	}
	res, err := c.CallTool(ctx, callReq(room.ToolSayToRoom, map[string]any{"content": say}))
	if err != nil {
		fail("say_to_room: %v", err)
	}
	for _, ct := range res.Content {
		if tc, ok := mcp.AsTextContent(ct); ok {
			fmt.Printf("said: %s\n", tc.Text)
		}
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Printf("got: %s\n", sc.Text())
	}
	os.Exit(0)
}

// newSeatManager is the restarted app's seat Manager (its own topic log)
// with one generic-CLI account whose CLI is TestHelperSeatCLI.
func newSeatManager(t *testing.T, bin string) (*seats.Manager, pconfig.Account) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, err := logstore.Open(filepath.Join(dir, "data"), logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	acct := pconfig.Account{ID: "acct-new", Name: "Nova", Kind: pconfig.KindCLI, WorkDir: work, Command: self,
		LaunchOptions: pconfig.QuoteWord("-test.run=^TestHelperSeatCLI$") + " -test.count=1",
		Env:           []pconfig.EnvVar{{Name: seatCLIEnv, Value: "a new seat after the restart"}}}
	m, err := seats.NewManager(seats.ManagerOptions{
		Sessions:     store,
		Accounts:     func(id string) (pconfig.Account, bool) { return acct, id == acct.ID },
		PullceptPath: bin,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Registered after the store's cleanup, so it runs first: seats stop
	// before their topic log closes.
	t.Cleanup(m.Close)
	return m, acct
}

// newSeatWorks starts acct's seat with m on r and checks that its sidecar
// joins, its post is delivered, and a post from the UI is typed into its
// terminal.
func newSeatWorks(t *testing.T, m *seats.Manager, acct pconfig.Account, r *liveRoom) {
	t.Helper()
	if _, err := m.Start(faultTopic, acct.ID, 160, 40); err != nil {
		t.Fatalf("start a seat after the restart: %v", err)
	}
	s, _ := m.Seat(faultTopic, acct.ID)
	joined := r.waitDelivered(t, "a new seat after the restart")
	if joined.Speaker != "Nova" || joined.Role != room.RoleCLI {
		t.Fatalf("the new seat's post: %+v", joined)
	}
	screenHas := func(what string) {
		t.Helper()
		testkit.Eventually(t, what, func() bool { return strings.Contains(s.Screen().Text(), what) })
	}
	screenHas("said: Delivered to the room.")
	res, err := r.hub.Post(faultTopic, room.Draft{Content: "welcome back", LastSeen: joined.MessageID})
	if err != nil || !res.Delivered {
		t.Fatalf("UI post: %v %+v", err, res)
	}
	screenHas(`"message_id":"` + res.Post.MessageID + `"`)
	screenHas("got: welcome back")
	if st := s.State(); st != seats.StateRunning {
		t.Fatalf("new seat state %v, want running", st)
	}
}

// sidecarParentEnv makes the re-executed test binary the parent CLI of a
// real sidecar (TestHelperSidecarParent): "<pullcept binary> <room url>";
// the token comes in the environment as a CLI's would.
const sidecarParentEnv = "SIDECAR_TEST_SIDECAR_PARENT"

// TestHelperSidecarParent is not a test: it plays a seat's CLI for
// TestSidecarDiesWithItsCLI. Without sidecarParentEnv it returns at once. It
// starts `pullcept sidecar` with its stdin a pipe it holds, prints
// "sidecar <pid>", and waits to be killed.
func TestHelperSidecarParent(t *testing.T) {
	bin := os.Getenv(sidecarParentEnv)
	if bin == "" {
		return
	}
	cmd := exec.Command(bin, "sidecar")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(3)
	}
	if _, err := cmd.StdoutPipe(); err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(3)
	}
	if err := cmd.Start(); err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(3)
	}
	fmt.Printf("sidecar %d\n", cmd.Process.Pid)
	_ = stdin // held open until this process dies
	select {}
}

// procState is the state letter of pid in /proc ("" when it is gone).
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// TestSidecarDiesWithItsCLI (docs/design.md §13, faults): a real `pullcept sidecar`
// whose parent CLI is SIGKILLed sees its stdin end and exits, leaving the
// room, within a deadline: it never outlives its CLI.
func TestSidecarDiesWithItsCLI(t *testing.T) {
	bin := buildPullcept(t)
	r := startLiveRoom(t, nil)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(self, "-test.run=^TestHelperSidecarParent$", "-test.count=1")
	parent.Env = append(os.Environ(), sidecarParentEnv+"="+bin)
	parent.Env = append(parent.Env, sidecarEnv(r)...)
	parent.Stderr = os.Stderr
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = parent.Process.Kill()
		_ = parent.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("parent CLI: %v", err)
	}
	pidText, ok := strings.CutPrefix(strings.TrimSpace(line), "sidecar ")
	pid, perr := strconv.Atoi(pidText)
	if !ok || perr != nil {
		t.Fatalf("parent CLI said %q", line)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // only if the test failed
	testkit.Eventually(t, "the sidecar to join the room", func() bool { return r.rosterLen() == 1 })

	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	killed := time.Now()
	// The sidecar is an orphan now: gone, or a zombie waiting for init.
	testkit.Eventually(t, "the sidecar to exit after its CLI was killed", func() bool {
		st := procState(pid)
		return st == "" || st == "Z"
	})
	exited := time.Since(killed)
	testkit.Eventually(t, "the sidecar's socket to leave the room", func() bool { return r.rosterLen() == 0 })
	t.Logf("the sidecar exited %v after its CLI was SIGKILLed", exited.Round(time.Millisecond))
}
