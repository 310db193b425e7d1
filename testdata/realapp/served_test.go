package realapp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// served is the pullcept binary in served mode (docs/serve.md): windows
// are tmux sessions of one tmux server, each running a client, and the
// Pullcept server outlives them.
type served struct {
	t    *testing.T
	bin  string
	sock string // the tmux server's
	data string
	work string
	env  []string
}

func newServed(t *testing.T) *served {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	work := t.TempDir()
	s := &served{t: t, bin: fakecli.PullceptBinary(t), sock: fmt.Sprintf("pullcept-served-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-")),
		data: filepath.Join(work, "data"), work: work}
	s.env = []string{"PULLCEPT_HOME=" + s.data, "TERM=xterm-256color", "LANG=C.UTF-8"}
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := exec.Command("tmux", "-L", s.sock, "list-sessions", "-F", "#{session_name}").Output()
			for _, w := range strings.Fields(string(out)) {
				t.Logf("last screen of %s:\n%s", w, s.screen(w))
			}
			t.Logf("pullcept ls:\n%s", s.ls())
		}
		// Whatever happened, no server and no seat outlive the test (the
		// pid first: the server removes server.json on its way out).
		pid := s.serverPID()
		_ = exec.Command(s.bin, "kill-server", "--data", s.data).Run()
		if pid > 0 {
			testkit.Eventually(t, "the server ended", func() bool { return syscall.Kill(pid, 0) != nil })
		}
		_ = exec.Command("tmux", "-L", s.sock, "kill-server").Run()
	})
	return s
}

// window opens a tmux session running pullcept with args at w×h.
func (s *served) window(name string, w, h int, args ...string) {
	s.t.Helper()
	cmd := append([]string{"-f", "/dev/null", "new-session", "-d", "-s", name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "env"},
		s.env...)
	cmd = append(cmd, s.bin)
	s.tmux(append(cmd, args...)...)
}

func (s *served) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *served) screen(name string) string {
	out, _ := exec.Command("tmux", "-L", s.sock, "capture-pane", "-p", "-t", name).Output()
	return string(out)
}

func (s *served) waitScreen(name, what string, ok func(string) bool) string {
	s.t.Helper()
	var got string
	testkit.Eventually(s.t, name+": "+what, func() bool { got = s.screen(name); return ok(got) })
	return got
}

// ls is `pullcept ls`'s output ("" when it fails).
func (s *served) ls() string {
	out, err := exec.Command(s.bin, "ls", "--data", s.data).CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// serverPID is server.json's pid (0: none).
func (s *served) serverPID() int {
	b, err := os.ReadFile(filepath.Join(s.data, "server.json"))
	if err != nil {
		return 0
	}
	m := regexp.MustCompile(`"pid":\s*(\d+)`).FindSubmatch(b)
	if m == nil {
		return 0
	}
	pid, _ := strconv.Atoi(string(m[1]))
	return pid
}

// seatPID is the pid `pullcept ls` gives the named seat when it runs.
// echoAnswers counts Echo's answers ("re <id>") on a screen: the id may
// wrap to its own line ("re" alone at a line's end; chat text wraps by
// Unicode line breaking, an id starting its own line).
func echoAnswers(x string) int {
	return len(echoAnswer.FindAllString(x, -1))
}

var echoAnswer = regexp.MustCompile(`(?m)(^|\s)re( |$)`)

func seatPID(ls, name string) int {
	m := regexp.MustCompile(regexp.QuoteMeta(name) + `\s+running\s+pid (\d+)`).FindStringSubmatch(ls)
	if m == nil {
		return 0
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// TestServedSeatsOutliveTheWindow is issue 29's first "done when" with
// fake CLIs (testdata/newcomer.sh does the real Claude Code's part): a
// window starts pullcept and two seats — one printing a counter, one
// answering every post — and is killed; the server and both seats go on;
// a second window attaches and sees the same topic, its post reaches the
// answering seat, and the answer shows in it and in a third window;
// detaching the second leaves the third; kill-server ends both seats and
// removes the socket.
func TestServedSeatsOutliveTheWindow(t *testing.T) {
	s := newServed(t)
	count := filepath.Join(s.work, "count")
	counter := filepath.Join(s.work, "counter.sh")
	if err := os.WriteFile(counter, []byte("#!/bin/sh\ni=0\nwhile :; do i=$((i+1)); echo \"tick $i\"; echo $i > "+count+".new; mv "+count+".new "+count+"; sleep 0.2; done\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	lines := filepath.Join(s.work, "lines.jsonl")
	for _, d := range []string{s.data, filepath.Join(s.work, "c"), filepath.Join(s.work, "e")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "cnt", Name: "Counter", Kind: "cli", Cwd: filepath.Join(s.work, "c"), Command: counter},
		fakecli.ConfigAccount{ID: "echo", Name: "Echo", Kind: "cli", Cwd: filepath.Join(s.work, "e"), Command: fakecli.Command(t),
			Options: "-join -echo -lines " + lines, Env: fakecli.SeatEnv()})

	s.window("w1", 120, 40)
	s.waitScreen("w1", "the accounts panel", func(x string) bool { return strings.Contains(x, "Echo") })
	for range 3 {
		s.tmux("send-keys", "-t", "w1", "Tab")
	}
	s.waitScreen("w1", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w1", "Down", "s", "Down", "s")
	var ls string
	testkit.Eventually(t, "pullcept ls lists both seats running", func() bool {
		ls = s.ls()
		return seatPID(ls, "Counter") > 0 && seatPID(ls, "Echo") > 0
	})
	counterPID, echoPID := seatPID(ls, "Counter"), seatPID(ls, "Echo")
	// The seats end with their PTY's hangup if the server dies: none of
	// them may inherit an ignored SIGHUP from it.
	if ign := sigIgnored(t, counterPID); ign&1 != 0 {
		t.Fatalf("the Counter's seat ignores SIGHUP (SigIgn %#x): it would outlive a dead server", ign)
	}
	// A post reaches the seats in the room when it is sent: wait for Echo's
	// sidecar to join (the room counts Alice and Echo; Counter never joins).
	s.waitScreen("w1", "Echo joined the room", func(x string) bool { return strings.Contains(x, "· 2 · F1 help") })
	s.waitScreen("w1", "both seats running, the cursor on Echo", func(x string) bool {
		return seatRuns(x, "Counter") && seatRuns(x, "Echo") && strings.Contains(x, "› Echo")
	})
	s.tmux("send-keys", "-t", "w1", "Escape")
	// A key right after Esc would arrive as Alt+key: wait until the panel
	// let the focus go.
	s.waitScreen("w1", "the accounts panel lets the focus go", func(x string) bool { return !strings.Contains(x, "› Echo") })
	s.tmux("send-keys", "-t", "w1", "-l", "@Echo first from one")
	s.tmux("send-keys", "-t", "w1", "Enter")
	s.waitScreen("w1", "Echo's answer", func(x string) bool { return echoAnswers(x) >= 1 })

	// The window goes (its terminal hangs up): the server keeps the seats.
	s.tmux("kill-session", "-t", "w1")
	testkit.Eventually(t, "pullcept ls: no client, both seats running", func() bool {
		ls = s.ls()
		return clients(ls) == 0 && seatPID(ls, "Counter") == counterPID && seatPID(ls, "Echo") == echoPID
	})
	before := readCount(t, count)
	testkit.Eventually(t, "the counter keeps counting", func() bool { return readCount(t, count) > before+2 })

	// Two more windows attach: the same topic and chat.
	s.window("w2", 100, 30, "attach")
	s.window("w3", 80, 24, "attach")
	for _, w := range []string{"w2", "w3"} {
		s.waitScreen(w, "the first post", func(x string) bool { return strings.Contains(x, "first from one") })
	}
	s.tmux("send-keys", "-t", "w2", "-l", "@Echo second from two")
	s.tmux("send-keys", "-t", "w2", "Enter")
	testkit.Eventually(t, "Echo read the post of window two", func() bool {
		got, _ := fakecli.Lines(lines)
		for _, l := range got {
			if strings.Contains(l, "second from two") {
				return true
			}
		}
		return false
	})
	for _, w := range []string{"w2", "w3"} {
		s.waitScreen(w, "the post and Echo's second answer", func(x string) bool {
			return strings.Contains(x, "second from two") && echoAnswers(x) >= 2
		})
	}

	// Ctrl+Q in window two: detach (the safe answer has the focus); window
	// three stays attached and the seats run on.
	s.tmux("send-keys", "-t", "w2", "C-q")
	s.waitScreen("w2", "the leave dialog", func(x string) bool { return strings.Contains(x, "Detach") })
	s.tmux("send-keys", "-t", "w2", "Enter")
	testkit.Eventually(t, "window two's client ended, window three's stays", func() bool {
		ls = s.ls()
		return clients(ls) == 1 && seatPID(ls, "Counter") == counterPID
	})
	s.tmux("send-keys", "-t", "w3", "-l", "@Echo third from three")
	s.tmux("send-keys", "-t", "w3", "Enter")
	s.waitScreen("w3", "window three still works", func(x string) bool { return strings.Contains(x, "third from three") })

	// kill-server: both seats end, then the server; the socket goes.
	server := s.serverPID()
	if out, err := exec.Command(s.bin, "kill-server", "--data", s.data).CombinedOutput(); err != nil {
		t.Fatalf("kill-server: %v\n%s", err, out)
	}
	testkit.Eventually(t, "the seats and the server ended", func() bool {
		return syscall.Kill(counterPID, 0) != nil && syscall.Kill(echoPID, 0) != nil && syscall.Kill(server, 0) != nil
	})
	if out, err := exec.Command(s.bin, "ls", "--data", s.data).CombinedOutput(); err == nil {
		t.Fatalf("pullcept ls after kill-server found a server:\n%s", out)
	}
	sock, err := config.SocketPath(s.data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Errorf("the socket %s is left after kill-server", sock)
	}
	if _, err := os.Stat(filepath.Join(s.data, "server.json")); err == nil {
		t.Error("server.json is left after kill-server")
	}
}

func readCount(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// clients is the number of attached terminals `pullcept ls` gives (-1:
// none given).
func clients(ls string) int {
	m := regexp.MustCompile(`(?m)^clients\s+(\d+)`).FindStringSubmatch(ls)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestHangupStopsTheSingleProcessInOrder: `pullcept --no-server` whose
// terminal goes (tmux kill-session hangs its pane up, as closing a window
// or losing an SSH link does) runs the orderly end: its seat's process
// ends and the seat's .mcp.json entry is removed. Without the SIGHUP
// handler the process dies on the spot and the entry stays.
func TestHangupStopsTheSingleProcessInOrder(t *testing.T) {
	s := newServed(t)
	cwd := filepath.Join(s.work, "e")
	lines := filepath.Join(s.work, "lines.jsonl")
	for _, d := range []string{s.data, cwd} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "echo", Name: "Echo", Kind: "cli", Cwd: cwd, Command: fakecli.Command(t),
			Options: "-join -echo -lines " + lines, Env: fakecli.SeatEnv()})
	s.window("w1", 120, 40, "--no-server")
	s.waitScreen("w1", "the accounts panel", func(x string) bool { return strings.Contains(x, "Echo") })
	appPID, err := strconv.Atoi(strings.TrimSpace(s.tmux("display-message", "-p", "-t", "w1", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		s.tmux("send-keys", "-t", "w1", "Tab")
	}
	s.waitScreen("w1", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w1", "Down", "s")
	s.waitScreen("w1", "Echo joined the room", func(x string) bool { return strings.Contains(x, "· 2 · F1 help") })
	mcp := filepath.Join(cwd, ".mcp.json")
	if b, err := os.ReadFile(mcp); err != nil || !strings.Contains(string(b), "pullcept") {
		t.Fatalf(".mcp.json has no Pullcept entry while the seat runs: %v\n%s", err, b)
	}
	seat := childPIDs(appPID)
	if len(seat) == 0 {
		t.Fatal("no seat process under the app")
	}

	s.tmux("kill-session", "-t", "w1")
	testkit.Eventually(t, "the app and its seat ended", func() bool {
		if syscall.Kill(appPID, 0) == nil {
			return false
		}
		for _, p := range seat {
			if syscall.Kill(p, 0) == nil {
				return false
			}
		}
		return true
	})
	if b, err := os.ReadFile(mcp); err == nil && strings.Contains(string(b), "pullcept") {
		t.Errorf("the hangup left the seat's .mcp.json entry:\n%s", b)
	}
	log, _ := os.ReadFile(filepath.Join(s.data, "pullcept.log"))
	if !strings.Contains(string(log), "seat") {
		t.Logf("app log:\n%s", log)
	}
}

// childPIDs are the pids whose parent is pid (Linux /proc).
func childPIDs(pid int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces: cut at the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			if p, err := strconv.Atoi(strings.Fields(s)[0]); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestServedScreenEqualsTheSingleProcess: the same data directory drawn
// through the attach path (the server's UI → SSH → pullcept attach →
// tmux) equals the single process's direct drawing, cell for cell with
// colours and the cursor, at 80×24 and 200×60 — what a renderer that
// assumed another newline mapping would break (docs/serve.md "Bubble Tea
// over a socket").
func TestServedScreenEqualsTheSingleProcess(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := newServed(t)
			if err := os.MkdirAll(s.data, 0o700); err != nil {
				t.Fatal(err)
			}
			fakecli.WriteConfig(t, s.data, map[string]any{"language": "ja"},
				fakecli.ConfigAccount{ID: "sh", Name: "Shell", Kind: "cli", Cwd: s.work, Command: "/bin/sh"})
			w, h := size[0], size[1]
			// A topic with posts of both widths, then quit: both runs below
			// reopen it.
			s.window("seed", w, h, "--no-server")
			s.waitScreen("seed", "the app", func(x string) bool { return strings.Contains(x, "Shell") })
			for _, p := range []string{"hello 世界 from the seed", "a second, longer line that wraps or not depending on the width of the chat column here"} {
				s.tmux("send-keys", "-t", "seed", "-l", p)
				s.tmux("send-keys", "-t", "seed", "Enter")
				s.waitScreen("seed", "the post", func(x string) bool { return strings.Contains(x, p[:12]) })
			}
			s.tmux("send-keys", "-t", "seed", "C-q")
			testkit.Eventually(t, "the seed run quit", func() bool { return !s.hasSession("seed") })

			direct := s.still("direct", w, h, "--no-server")
			s.tmux("send-keys", "-t", "direct", "C-q")
			testkit.Eventually(t, "the direct run quit", func() bool { return !s.hasSession("direct") })
			served := s.still("served", w, h)
			if direct != served {
				t.Errorf("the attached screen differs from the direct one\n--- direct\n%s\n--- served\n%s", direct, served)
			}
		})
	}
}

// still starts a window and returns its screen with styles (capture-pane
// -e) and the cursor, once two captures in a row agree and the chat shows.
func (s *served) still(name string, w, h int, args ...string) string {
	s.t.Helper()
	s.window(name, w, h, args...)
	var last string
	testkit.Eventually(s.t, name+": a still screen", func() bool {
		out, err := exec.Command("tmux", "-L", s.sock, "capture-pane", "-p", "-e", "-t", name).Output()
		if err != nil {
			return false
		}
		cur, _ := exec.Command("tmux", "-L", s.sock, "display-message", "-p", "-t", name, "#{cursor_x},#{cursor_y},#{cursor_flag}").Output()
		now := string(out) + "\ncursor " + string(cur)
		same := now == last && strings.Contains(now, "hello")
		last = now
		return same
	})
	return last
}

func (s *served) hasSession(name string) bool {
	return exec.Command("tmux", "-L", s.sock, "has-session", "-t", name).Run() == nil
}

// windowEnv is window with variables of this terminal's own (LANG, TZ).
func (s *served) windowEnv(name string, w, h int, env []string, args ...string) {
	s.t.Helper()
	saved := s.env
	s.env = append(slices.Clone(saved), env...)
	defer func() { s.env = saved }()
	s.window(name, w, h, args...)
}

// TestServedClientOwnsItsTerminal: each attached terminal gets its own
// language and time zone (from its LANG and TZ, config.json naming none),
// Ctrl+Z in one never stops the server, and a copy from a seat's
// scrollback lands in that client's terminal clipboard (OSC 52), not the
// server host's.
func TestServedClientOwnsItsTerminal(t *testing.T) {
	s := newServed(t)
	counter := filepath.Join(s.work, "counter.sh")
	if err := os.WriteFile(counter, []byte("#!/bin/sh\ni=0\nwhile :; do i=$((i+1)); echo \"tick $i\"; sleep 0.2; done\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		t.Fatal(err)
	}
	fakecli.WriteConfig(t, s.data, nil,
		fakecli.ConfigAccount{ID: "cnt", Name: "Counter", Kind: "cli", Cwd: s.work, Command: counter})
	s.windowEnv("english", 120, 40, []string{"TZ=UTC"})
	s.waitScreen("english", "the English UI", func(x string) bool { return strings.Contains(x, "Accounts") })
	t0 := time.Now()
	s.tmux("send-keys", "-t", "english", "-l", "what time is it")
	s.tmux("send-keys", "-t", "english", "Enter")
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	shows := func(x string, loc *time.Location) bool {
		for _, at := range []time.Time{t0, t0.Add(time.Minute)} {
			if strings.Contains(x, at.In(loc).Format("15:04")) {
				return true
			}
		}
		return false
	}
	s.waitScreen("english", "the post at UTC's time", func(x string) bool {
		return strings.Contains(x, "what time is it") && shows(x, time.UTC)
	})
	// Attached after the post, the second terminal opens its topic.
	s.windowEnv("japanese", 120, 40, []string{"LANG=ja_JP.UTF-8", "TZ=Asia/Tokyo"}, "attach")
	s.waitScreen("japanese", "the Japanese UI", func(x string) bool { return strings.Contains(x, "アカウント") })
	s.waitScreen("japanese", "the post at Tokyo's time", func(x string) bool {
		return strings.Contains(x, "what time is it") && shows(x, tokyo) && !shows(x, time.UTC)
	})

	// Ctrl+Z: nothing stops; both UIs still answer.
	server := s.serverPID()
	s.tmux("send-keys", "-t", "japanese", "C-z")
	s.tmux("send-keys", "-t", "japanese", "-l", "still here")
	s.waitScreen("japanese", "the UI after Ctrl+Z", func(x string) bool { return strings.Contains(x, "still here") })
	if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", server)); err != nil || strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:]))[0] == "T" {
		t.Fatalf("the server stopped after Ctrl+Z: %v %s", err, st)
	}
	s.tmux("send-keys", "-t", "japanese", "C-u")

	// A copy from the Counter's scrollback reaches the client's terminal.
	s.tmux("set-option", "-s", "set-clipboard", "on")
	for range 3 {
		s.tmux("send-keys", "-t", "japanese", "Tab")
	}
	s.waitScreen("japanese", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "japanese", "Down", "s")
	s.waitScreen("japanese", "the Counter runs", func(x string) bool { return accountRow(x, "Counter", runsWordsJa) })
	s.tmux("send-keys", "-t", "japanese", "C-t")
	// Enough ticks that some scrolled off into the scrollback.
	s.waitScreen("japanese", "the Counter's pane", func(x string) bool { return strings.Contains(x, "tick 60") })
	s.tmux("send-keys", "-t", "japanese", "F6")
	s.tmux("send-keys", "-t", "japanese", "S-PPage")
	s.waitScreen("japanese", "the Counter's scrollback", func(x string) bool { return strings.Contains(x, "スクロールバック") })
	s.tmux("send-keys", "-t", "japanese", "3", "y")
	testkit.Eventually(t, "the copy in the client's terminal clipboard", func() bool {
		out, _ := exec.Command("tmux", "-L", s.sock, "show-buffer").Output()
		return strings.Contains(string(out), "tick")
	})
}

// TestServedCrashOffersTheSeatsAsResumable: the server killed with
// SIGKILL takes its seat with it (the PTY hangs up); the next pullcept
// starts a new server over the stale socket and lists the seat as
// resumable — not running: nothing spends tokens without the human — and
// one key starts it again.
func TestServedCrashOffersTheSeatsAsResumable(t *testing.T) {
	s := newServed(t)
	lines := filepath.Join(s.work, "lines.jsonl")
	cwd := filepath.Join(s.work, "e")
	for _, d := range []string{s.data, cwd} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "echo", Name: "Echo", Kind: "cli", Cwd: cwd, Command: fakecli.Command(t),
			Options: "-join -echo -lines " + lines, Env: fakecli.SeatEnv()})
	s.window("w1", 120, 40)
	s.waitScreen("w1", "the accounts panel", func(x string) bool { return strings.Contains(x, "Echo") })
	s.tmux("send-keys", "-t", "w1", "-l", "before the crash")
	s.tmux("send-keys", "-t", "w1", "Enter")
	for range 3 {
		s.tmux("send-keys", "-t", "w1", "Tab")
	}
	s.waitScreen("w1", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w1", "Down", "s")
	var ls string
	testkit.Eventually(t, "Echo runs", func() bool { ls = s.ls(); return seatPID(ls, "Echo") > 0 })
	seat, server := seatPID(ls, "Echo"), s.serverPID()
	sock, err := config.SocketPath(s.data)
	if err != nil {
		t.Fatal(err)
	}

	if err := syscall.Kill(server, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the server and its seat are gone", func() bool {
		return syscall.Kill(server, 0) != nil && syscall.Kill(seat, 0) != nil
	})
	if _, err := os.Lstat(sock); err != nil {
		t.Fatalf("SIGKILL left no socket to replace: %v", err)
	}

	s.window("w2", 120, 40)
	s.waitScreen("w2", "Echo listed as resumable", func(x string) bool { return regexp.MustCompile(`Echo\s+resumable`).MatchString(x) })
	if ls = s.ls(); seatPID(ls, "Echo") != 0 || s.serverPID() == server {
		t.Fatalf("after the restart, before any key:\n%s", ls)
	}
	for range 3 {
		s.tmux("send-keys", "-t", "w2", "Tab")
	}
	s.waitScreen("w2", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w2", "Down", "s")
	testkit.Eventually(t, "one key brought Echo back", func() bool { return seatPID(s.ls(), "Echo") > 0 })
	s.waitScreen("w2", "Echo no longer resumable", func(x string) bool { return !strings.Contains(x, "resumable") })
}

// sigIgnored is the SigIgn mask of pid (bit n-1: signal n).
func sigIgnored(t *testing.T, pid int) uint64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^SigIgn:\s*([0-9a-f]+)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no SigIgn in /proc/%d/status", pid)
	}
	v, err := strconv.ParseUint(string(m[1]), 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSeatCannotAttach: a seat's process that runs pullcept attach (it
// can read the data directory's client key) is refused — it descends from
// the server — and every UI says a seat tried; another terminal's attach
// is announced in the UIs already there.
func TestSeatCannotAttach(t *testing.T) {
	s := newServed(t)
	rc := filepath.Join(s.work, "attach.rc")
	sneak := filepath.Join(s.work, "sneak.sh")
	script := "#!/bin/sh\n\"" + s.bin + "\" attach --data \"" + s.data + "\"\necho $? > " + rc + ".new; mv " + rc + ".new " + rc + "\nexec sleep 600\n"
	if err := os.WriteFile(sneak, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		t.Fatal(err)
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"},
		fakecli.ConfigAccount{ID: "sneak", Name: "Sneak", Kind: "cli", Cwd: s.work, Command: sneak})
	s.window("w1", 160, 45)
	s.waitScreen("w1", "the accounts panel", func(x string) bool { return strings.Contains(x, "Sneak") })
	s.window("w2", 120, 40, "attach")
	s.waitScreen("w1", "the second terminal announced", func(x string) bool { return strings.Contains(x, "Another terminal attached") })
	for range 3 {
		s.tmux("send-keys", "-t", "w1", "Tab")
	}
	s.waitScreen("w1", "the accounts panel has focus", func(x string) bool { return strings.Contains(x, "› Alice") })
	s.tmux("send-keys", "-t", "w1", "Down", "s")
	testkit.Eventually(t, "the seat's attach ended", func() bool { _, err := os.Stat(rc); return err == nil })
	if b, _ := os.ReadFile(rc); strings.TrimSpace(string(b)) == "0" {
		t.Fatal("a seat's pullcept attach got in (status 0)")
	}
	// A notice is shown for a while: both screens are watched at once.
	seen := map[string]bool{}
	testkit.Eventually(t, "both UIs tell of the refused attempt", func() bool {
		for _, w := range []string{"w1", "w2"} {
			seen[w] = seen[w] || strings.Contains(s.screen(w), "A seat tried to attach")
		}
		return seen["w1"] && seen["w2"]
	})
	if n := clients(s.ls()); n != 2 {
		t.Fatalf("clients after the seat's attempt = %d, want the two windows", n)
	}
}

// TestServedAttachReadsConfigEdits: config.json edited by hand while the
// server runs reaches the next terminal to attach (a server runs for days;
// "start Pullcept again" would mean stopping every seat).
func TestServedAttachReadsConfigEdits(t *testing.T) {
	s := newServed(t)
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		t.Fatal(err)
	}
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "en"})
	s.window("w1", 100, 30)
	s.waitScreen("w1", "the English UI", func(x string) bool { return strings.Contains(x, "Accounts") })
	fakecli.WriteConfig(t, s.data, map[string]any{"language": "ja"})
	s.window("w2", 100, 30, "attach")
	s.waitScreen("w2", "the language edited by hand", func(x string) bool { return strings.Contains(x, "アカウント") })
}
