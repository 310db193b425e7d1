//go:build linux || darwin

package seats_test

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// codexServerAccount adds an app-server Codex account with a character
// (its style file written with a frontmatter) and the user's own developer
// instructions given with -c, and prepares its CODEX_HOME (below home).
func codexServerAccount(t *testing.T, r *rig, home string) (config.Account, fakeapi.CodexSetup) {
	t.Helper()
	on := true
	a := r.codexAccount("cody", "Cody")
	a.CodexAppServer = &on
	a.Character = "luna"
	a.LaunchOptions = `-c 'developer_instructions="USER RULES: be brief."'`
	r.addAccount(a)
	styles := filepath.Join(a.WorkDir, ".codex", "output-styles")
	if err := os.MkdirAll(styles, 0o700); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: luna\n---\nYou are Luna, CHARACTER BODY.\n"
	if err := os.WriteFile(filepath.Join(styles, "luna.md"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	setup := fakeapi.CodexSetup{Home: home, WorkDirs: []string{a.WorkDir}, BaseURL: r.base}
	env, err := fakeapi.PrepareCodex(setup)
	if err != nil {
		t.Fatal(err)
	}
	r.setEnv(env)
	return a, setup
}

// TestE2ECodexAppServer drives the real Codex 0.169.0 as an app-server seat
// (issue 15): the conversation id is recorded before any post, the seat
// answers a room post through say_to_room, the conversation's developer
// instructions are the user's own, the character's body and the room
// sentence (read from the fake API's request), a wrong token gets 401, and
// stopping the seat leaves no process of it behind.
func TestE2ECodexAppServer(t *testing.T) {
	r := newRig(t, nil)
	cody, setup := codexServerAccount(t, r, filepath.Join(t.TempDir(), "codex-home"))
	server := serverSpawns(r)

	res, s := r.start(cody.ID)
	if res.Resumed || res.SessionID == "" {
		t.Fatalf("start = %+v, want fresh with its conversation id", res)
	}
	if got, _ := r.store.Session(e2eTopic, cody.ID); got != res.SessionID {
		t.Fatalf("the topic records %q right after the start, want %q", got, res.SessionID)
	}
	if _, ok := codex.Rollout(setup.Home, res.SessionID); !ok {
		t.Errorf("no rollout of %s before any turn (the opening developer item writes it)", res.SessionID)
	}
	for _, want := range []string{"app-server: ", "--ws-token-sha256 '<sha256>'", "\nterminal: ", "resume '<conversation id>' --remote 'unix://<tui socket>'"} {
		if !strings.Contains(res.Preview, want) {
			t.Errorf("preview lacks %q:\n%s", want, res.Preview)
		}
	}
	info := r.seatInfo(cody.ID)
	if len(info.Argv) < 3 || info.Argv[1] != "resume" || info.Argv[2] != res.SessionID || slices.ContainsFunc(info.Argv, func(w string) bool {
		return strings.Contains(w, "mcp_servers.")
	}) {
		t.Errorf("TUI argv = %q, want <codex> resume %s --remote … and no room server", info.Argv, res.SessionID)
	}
	if info.Usage.Model != "gpt-5.5" {
		t.Errorf("model shown before the first turn = %q, want gpt-5.5 (the server's answer)", info.Usage.Model)
	}
	pid := server()
	port, gate := serverPort(t, pid), remoteGate(info.Argv)
	if pid == 0 || gate == "" {
		t.Fatalf("no app-server of the seat, or no gate (pid %d, TUI argv %q)", pid, info.Argv)
	}
	checkRemote(t, info, gate)
	r.waitReady(cody.ID, s)

	hello := r.post("hello @Cody")
	reply := r.waitPost("Cody's reply", func(p room.Post) bool { return p.Account == cody.ID })
	if reply.Speaker != "Cody" || reply.Role != room.RoleCodexCLI || reply.Content != "reply to: hello" {
		t.Errorf("Cody's reply = %+v", reply)
	}
	exs := r.sessionCalls(res.SessionID)
	checkFirstTurn(t, exs, hello, "hello", "reply to: hello")
	// Blank lines between the parts; the body's own bytes (its last line
	// end too) unchanged (spec #303).
	want := "USER RULES: be brief.\n\nYou are Luna, CHARACTER BODY.\n\n\n" + launch.RoomPrompt(launch.MCPKey(cody.ID, e2eTopic))
	i := slices.IndexFunc(exs, func(ex fakeapi.Exchange) bool { return len(carrying(ex.Request, hello.MessageID)) > 0 })
	if i < 0 || !slices.ContainsFunc(exs[i].Request.Messages, func(m fakeapi.Message) bool {
		return m.Role == fakeapi.RoleDeveloper && slices.Contains(m.Texts, want)
	}) {
		var devs []string
		if i >= 0 {
			for _, m := range exs[i].Request.Messages {
				if m.Role == fakeapi.RoleDeveloper {
					devs = append(devs, m.Texts...)
				}
			}
		}
		t.Errorf("no developer message\n%q\nin the model call; developer texts:\n%q", want, devs)
	}
	e2eUntil(t, "Cody idle after its turn (the server's turn/completed)", func() bool {
		return r.seatInfo(cody.ID).Activity.Kind == cli.ActivityIdle
	}, s.Done())

	// The server takes only its token.
	for _, bearer := range []string{"", "Bearer wrong-token"} {
		h := http.Header{}
		if bearer != "" {
			h.Set("Authorization", bearer)
		}
		c, resp, err := websocket.DefaultDialer.Dial("ws://127.0.0.1:"+port, h)
		if err == nil {
			c.Close()
			t.Errorf("the app-server took a connection with %q", bearer)
		} else if resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("connection with %q: %v (response %+v), want 401", bearer, err, resp)
		}
	}

	checkGate(t, gate, info.Pid)

	tuiPid := info.Pid
	family := descendants(pid)
	if err := r.mgr.Stop(e2eTopic, cody.ID); err != nil {
		t.Fatal(err)
	}
	for _, p := range append([]int{tuiPid, pid}, family...) {
		waitGone(t, p)
	}
	t.Logf("stopped: TUI %d, server %d and its %d descendants gone", tuiPid, pid, len(family))
}

// descendants lists pid's descendants now (Linux /proc; none elsewhere).
func descendants(pid int) []int {
	parents := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		s := string(b)
		end := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[end+1:])
		if end < 0 || len(f) < 2 {
			continue
		}
		var me, pp int
		if _, err := fmtSscan(filepath.Base(filepath.Dir(path)), &me); err != nil {
			continue
		}
		if _, err := fmtSscan(f[1], &pp); err != nil {
			continue
		}
		parents[pp] = append(parents[pp], me)
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range parents[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// gone reports whether pid no longer runs (absent, or a zombie nobody
// reaped yet: it runs nothing).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return !isLinux()
	}
	s := string(b)
	end := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[end+1:])
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

func itoa(n int) string { return strconv.Itoa(n) }

func isLinux() bool { return runtime.GOOS == "linux" }

func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }

func waitGone(t *testing.T, pid int) {
	t.Helper()
	e2eUntil(t, "process "+itoa(pid)+" gone", func() bool { return gone(pid) }, nil)
}

// TestE2ECodexAppServerFailedStart: a start that fails after the
// conversation was opened (here the TUI cannot start) deletes the
// conversation (its rollout is gone), drops its record and ends the server.
func TestE2ECodexAppServerFailedStart(t *testing.T) {
	r := newRig(t, nil)
	cody, setup := codexServerAccount(t, r, filepath.Join(t.TempDir(), "codex-home"))
	var server pty.Proc
	seats.SetSpawn(r.mgr, func(o pty.Options) (pty.Proc, error) {
		if slices.Contains(o.Argv, "--remote") {
			return nil, errors.New("no terminal today")
		}
		p, err := pty.Start(o)
		server = p
		return p, err
	})
	_, err := r.mgr.Start(e2eTopic, cody.ID, 100, 30)
	if err == nil || !strings.Contains(err.Error(), "no terminal today") {
		t.Fatalf("start = %v, want the TUI's failure", err)
	}
	if server == nil {
		t.Fatal("no server was started")
	}
	waitGone(t, server.Pid())
	if got, _ := r.store.Session(e2eTopic, cody.ID); got != "" {
		t.Errorf("the failed start left session %q recorded", got)
	}
	sessions, _ := filepath.Glob(filepath.Join(setup.Home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(sessions) != 0 {
		t.Errorf("the failed start left rollouts %q", sessions)
	}
	if _, ok := r.mgr.Seat(e2eTopic, cody.ID); ok {
		t.Error("a seat is listed after the failed start")
	}
}

// TestE2ECodexAppServerApproval: the real Codex asks the human to approve a
// command (approval policy untrusted). The server's notes make the seat's
// activity a permission wait and hold room typing (a post's "\r" would
// answer the dialog); the human answers in the pane, the command runs, and
// the held post is typed afterwards.
func TestE2ECodexAppServerApproval(t *testing.T) {
	script := fakeapi.Script{}
	respond := func(req *fakeapi.Request) fakeapi.Reply {
		if posts := req.NewPosts(); len(posts) > 0 && posts[len(posts)-1].FirstLine() == "run it" {
			return fakeapi.CallTool(fakeapi.Tool{Name: "exec_command"}, map[string]any{
				"cmd": "touch approved.txt", "sandbox_permissions": "require_escalated", "justification": "the room asked"})
		}
		if res := req.NewResults(); len(res) > 0 && res[len(res)-1].Call != nil && res[len(res)-1].Call.Name == "exec_command" {
			return fakeapi.TextReply("ran it")
		}
		return script.Decide(withoutSeatPosts(req))
	}
	r := newRig(t, respond)
	cody, _ := codexServerAccount(t, r, filepath.Join(t.TempDir(), "codex-home"))
	cody.LaunchOptions = "-a untrusted -s read-only"
	r.addAccount(cody)
	res, s := r.start(cody.ID)
	if res.Resumed {
		t.Fatalf("start = %+v", res)
	}
	r.waitReady(cody.ID, s)
	r.post("run it @Cody")
	e2eUntil(t, "Cody waiting on the human's approval", func() bool {
		a := r.seatInfo(cody.ID).Activity
		return a.Kind == cli.ActivityPermission
	}, s.Done())
	if h := seats.TypingOf(s).Holds; !slices.Contains(h, cli.HoldPermission) {
		t.Fatalf("typing holds while the dialog is open = %q, want %q", h, cli.HoldPermission)
	}
	e2eUntil(t, "the approval dialog on Cody's screen", func() bool {
		return strings.Contains(seatText(s), "touch approved.txt") && strings.Contains(strings.ToLower(seatText(s)), "yes")
	}, s.Done())
	later := r.post("hello @Cody")
	if q := seats.TypingOf(s); q.Queued == 0 {
		t.Fatalf("a post reached a seat whose dialog is open: %+v", q)
	}
	if _, err := os.Stat(filepath.Join(cody.WorkDir, "approved.txt")); err == nil {
		t.Fatal("the command ran before it was approved")
	}
	if err := s.Input([]byte("y")); err != nil {
		t.Fatal(err)
	}
	e2eUntil(t, "the approved command's file", func() bool {
		_, err := os.Stat(filepath.Join(cody.WorkDir, "approved.txt"))
		return err == nil
	}, s.Done())
	reply := r.waitPost("Cody's reply to the held post", func(p room.Post) bool {
		return p.Account == cody.ID && p.Content == "reply to: hello"
	})
	if reply.MessageID == later.MessageID {
		t.Fatal("impossible")
	}
	// Typed only once the approved turn ended: a turn of its own, not
	// folded into the approved one (issue 30; Codex steers a post typed
	// during a turn into it, and the model never answered it).
	if fused := ownTurns(t, r, res.SessionID, []room.Post{later}); fused != 0 {
		t.Errorf("%d texts held more than one post", fused)
	}
	if h := seats.TypingOf(s).Holds; slices.Contains(h, cli.HoldPermission) {
		t.Errorf("holds after the approval = %q", h)
	}
}

// serverSpawns makes r's Manager start its PTYs with pty.Start and notes
// the app-server's process (its line holds "app-server"): the returned
// function gives its pid (0: none yet).
func serverSpawns(r *rig) func() int {
	var mu sync.Mutex
	pid := 0
	seats.SetSpawn(r.mgr, func(o pty.Options) (pty.Proc, error) {
		p, err := pty.Start(o)
		if err == nil && slices.Contains(o.Argv, "app-server") {
			mu.Lock()
			pid = p.Pid()
			mu.Unlock()
		}
		return p, err
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return pid
	}
}

// serverPort is the port the app-server under pid (its guard) listens on.
func serverPort(t *testing.T, pid int) string {
	t.Helper()
	port := ""
	testkit.Eventually(t, "the app-server's port", func() bool {
		for _, p := range append([]int{pid}, descendants(pid)...) { // the guard's child listens
			if port = listenPort(p); port != "" {
				return true
			}
		}
		return false
	})
	return port
}

// checkRemote: the seat's info says how its terminal reaches its server,
// the TUI's --remote gate (the details' connection method).
func checkRemote(t *testing.T, info seats.SeatInfo, gate string) {
	t.Helper()
	if info.Remote != "unix://"+gate {
		t.Errorf("the seat's connection = %q, want unix://%s (its TUI's --remote)", info.Remote, gate)
	}
}

// remoteGate is the socket of the TUI line's --remote unix://<path>.
func remoteGate(argv []string) string {
	i := slices.Index(argv, "--remote")
	if i < 0 || i+1 >= len(argv) {
		return ""
	}
	path, ok := strings.CutPrefix(argv[i+1], "unix://")
	if !ok {
		return ""
	}
	return path
}
