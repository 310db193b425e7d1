//go:build linux

package bench

// The two side-by-side measurements of docs/design.md §13, run by `make compare`
// (compare.sh). They are measurements, not pass/fail timing checks: a test
// fails only when a side could not run or produced nothing; the figures and
// ratios are printed for the dashboard.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/pty"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// streamMB is the size of the compared stream (docs/design.md §13: 50 MB);
// PULLCEPT_COMPARE_MB overrides it for a quick look.
func streamMB(t *testing.T) int64 {
	t.Helper()
	if v := os.Getenv("PULLCEPT_COMPARE_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			t.Fatalf("PULLCEPT_COMPARE_MB=%q: want a positive number of MB", v)
		}
		return n
	}
	return 50
}

// uiFrame is the pane renderer's pace: the UI draws at most tui.FrameRate
// frames a second, and a pane re-renders only when its screen changed
// meanwhile.
const uiFrame = time.Second / tui.FrameRate

// clockTick is the unit of utime/stime in /proc/<pid>/stat (USER_HZ, 100 on
// every Linux ABI Go supports).
const clockTick = 10 * time.Millisecond

// procCPU is the user+system CPU time pid has used, from /proc/<pid>/stat
// (fields after "(comm)": state=0 … utime=11, stime=12).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * clockTick, nil
}

// selfCPU is this process's user+system CPU time (getrusage).
func selfCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// tmuxBin is tmux on PATH, or the test fails saying how to get it.
func tmuxBin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is not installed (%v): the comparison needs it", err)
	}
	return p
}

// tmuxServer is a private tmux server (its own socket, no user config),
// killed at cleanup.
type tmuxServer struct {
	bin, sock string
}

func newTmux(t *testing.T, name string) *tmuxServer {
	t.Helper()
	s := &tmuxServer{bin: tmuxBin(t), sock: fmt.Sprintf("pullcept-%s-%d", name, os.Getpid())}
	t.Cleanup(func() { _ = exec.Command(s.bin, "-L", s.sock, "kill-server").Run() })
	return s
}

func (s *tmuxServer) run(t *testing.T, args ...string) string {
	t.Helper()
	return strings.TrimSpace(s.raw(t, args...))
}

// raw is run without trimming the output (a captured screen keeps its
// leading spaces).
func (s *tmuxServer) raw(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(s.bin, append([]string{"-L", s.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tmuxServer) pid(t *testing.T) int {
	t.Helper()
	pid, err := strconv.Atoi(s.run(t, "display-message", "-p", "#{pid}"))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// shellQuote quotes p for sh.
func shellQuote(p string) string { return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'" }

// streamRun is one side's figures.
type streamRun struct {
	wall, cpu time.Duration
	renders   int
	screen    []string // the final screen, one trimmed line per row
}

// TestCompareStream plays the same streams through (a) our seat — `cat` in
// a seats PTY, terminal.Pump into a terminal.Screen (emu), and the pane render
// step at the UI's frame rate (tui.FrameRate), which is Screen.Snapshot (the rows rendered
// as run-length SGR strings) plus the border assembly tui/pane.go does (the
// tui pane itself is internal to package tui) — and (b) a tmux pane (`cat`
// inside `tmux new-session -d`, timed from a wait-for signal to the one cat
// sends when done). Two streams of the same size: the mixed recording
// (stream.go) and the line flood (flood.go, what `while :; do cat
// room/hub.go; done` prints). For each it prints wall and CPU time of both
// sides (cat itself excluded on both) and the ratios: throughput (ours
// against tmux's, at least 1 means we keep up) and CPU per MB (ours against
// tmux's, at most 1 means we spend no more).
func TestCompareStream(t *testing.T) {
	tmuxBin(t)
	size := streamMB(t) << 20
	compareStream(t, "mixed", func(w io.Writer) (int64, string, error) {
		written, recorded, err := WriteStream(w, size)
		return written, fmt.Sprintf("%.1f%% real Claude Code recording", 100*float64(recorded)/float64(max(written, 1))), err
	})
	compareStream(t, "line flood", func(w io.Writer) (int64, string, error) {
		written, err := WriteLineFlood(w, size)
		return written, "short lines of Go source", err
	})
}

// compareStream writes one stream to a file and plays it through both sides.
func compareStream(t *testing.T, name string, write func(io.Writer) (int64, string, error)) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "stream.ansi")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	written, what, err := write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	// Read once so both sides start from the page cache.
	if _, err := os.ReadFile(file); err != nil {
		t.Fatal(err)
	}
	// Each side runs compareRuns times, in turn, with a raw read of the
	// same PTY between (no emulator: what the kernel delivers): one run of
	// a side varies by ±15% on a shared machine, and the medians of runs
	// taken in turn compare the sides under the same load.
	var oursRuns, tmuxRuns []streamRun
	var raw []time.Duration
	for i := range compareRuns(t) {
		oursRuns = append(oursRuns, runOurs(t, file))
		tmuxRuns = append(tmuxRuns, runTmux(t, fmt.Sprintf("%s-%d", strings.ReplaceAll(name, " ", "-"), i), file))
		raw = append(raw, runRaw(t, file))
	}
	ours, theirs := medianRun(oursRuns), medianRun(tmuxRuns)
	slices.Sort(raw)

	same := 0
	for i := range min(len(ours.screen), len(theirs.screen)) {
		if ours.screen[i] == theirs.screen[i] {
			same++
		}
	}
	mb := float64(written) / (1 << 20)
	mbs := func(d time.Duration) float64 { return mb / d.Seconds() }
	perMB := func(d time.Duration) float64 { return float64(d.Milliseconds()) / mb }
	t.Logf("stream %s: %.1f MB (%s), pane %d×%d", name, mb, what, StreamCols, StreamRows)
	t.Logf("ours %s (seats PTY + Pump + Screen + pane render at the UI's frame rate; medians of %d runs): wall %v (%.1f MB/s), CPU %v (%.1f ms/MB), %d frames rendered",
		name, len(oursRuns), ours.wall.Round(time.Millisecond), mbs(ours.wall), ours.cpu.Round(time.Millisecond), perMB(ours.cpu), ours.renders)
	t.Logf("tmux %s %s pane: wall %v (%.1f MB/s), server CPU %v (%.1f ms/MB)",
		name, tmuxVersion(t), theirs.wall.Round(time.Millisecond), mbs(theirs.wall), theirs.cpu.Round(time.Millisecond), perMB(theirs.cpu))
	t.Logf("raw %s (the same PTY read and dropped, no emulator: what the kernel delivers): wall %v (%.1f MB/s)",
		name, raw[len(raw)/2].Round(time.Millisecond), mbs(raw[len(raw)/2]))
	t.Logf("RATIO %s: throughput %.2f× tmux's (at least 1: we keep up), CPU per MB %.2f× tmux's (at most 1: we spend no more)",
		name, theirs.wall.Seconds()/ours.wall.Seconds(), ours.cpu.Seconds()/max(theirs.cpu.Seconds(), clockTick.Seconds()))
	t.Logf("final screens %s: %d of %d rows identical", name, same, StreamRows)
	if ours.renders == 0 || strings.TrimSpace(strings.Join(ours.screen, "")) == "" || strings.TrimSpace(strings.Join(theirs.screen, "")) == "" {
		t.Fatalf("%s: a side rendered nothing", name)
	}
}

// compareRuns is how many times each side plays a stream (3;
// PULLCEPT_COMPARE_RUNS overrides it).
func compareRuns(t *testing.T) int {
	t.Helper()
	if v := os.Getenv("PULLCEPT_COMPARE_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("PULLCEPT_COMPARE_RUNS=%q: want a positive number", v)
		}
		return n
	}
	return 3
}

// medianRun is the run with the median wall time, with the median CPU time
// of all runs.
func medianRun(runs []streamRun) streamRun {
	byWall := slices.Clone(runs)
	slices.SortFunc(byWall, func(a, b streamRun) int { return int(a.wall - b.wall) })
	cpus := make([]time.Duration, len(runs))
	for i, r := range runs {
		cpus[i] = r.cpu
	}
	slices.Sort(cpus)
	m := byWall[len(byWall)/2]
	m.cpu = cpus[len(cpus)/2]
	return m
}

// runRaw reads file through a seats PTY as runOurs does, dropping the bytes.
func runRaw(t *testing.T, file string) time.Duration {
	t.Helper()
	start := time.Now()
	proc, err := pty.Start(pty.Options{
		Argv: []string{"/bin/sh", "-c", "stty -echo; exec cat " + shellQuote(file)},
		Dir:  filepath.Dir(file), Env: os.Environ(), Cols: StreamCols, Rows: StreamRows,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, proc); err != nil && !errors.Is(err, os.ErrClosed) {
		t.Logf("raw read: %v", err) // EIO at the end on Linux
	}
	wall := time.Since(start)
	if code, err := proc.Wait(); err != nil || code != 0 {
		t.Fatalf("cat in a raw PTY: exit %d, %v", code, err)
	}
	_ = proc.Close()
	return wall
}

func tmuxVersion(t *testing.T) string {
	out, err := exec.Command(tmuxBin(t), "-V").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "tmux ")
}

// runOurs plays file through our seat machinery and times it from the spawn
// of `cat` to the last frame rendered after its end.
func runOurs(t *testing.T, file string) streamRun {
	t.Helper()
	cpu0 := selfCPU(t)
	start := time.Now()
	proc, err := pty.Start(pty.Options{
		Argv: []string{"/bin/sh", "-c", "stty -echo; exec cat " + shellQuote(file)},
		Dir:  filepath.Dir(file), Env: os.Environ(), Cols: StreamCols, Rows: StreamRows,
	})
	if err != nil {
		t.Fatal(err)
	}
	typist := seats.NewTypist(proc, seats.TypistOptions{Ready: true})
	screen, err := terminal.NewScreen(StreamCols, StreamRows, typist.Reply)
	if err != nil {
		t.Fatal(err)
	}
	var frames int
	var sink int
	render := func() {
		snap := screen.Snapshot()
		var b strings.Builder
		for _, row := range snap.Lines {
			b.WriteString("│")
			b.WriteString(row)
			b.WriteString("\x1b[m│\n")
		}
		sink += b.Len()
		frames++
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("renderer panicked: %v", r)
			}
		}()
		last := time.Time{}
		for {
			select {
			case <-screen.Changed():
			case <-stop:
				return
			}
			if wait := uiFrame - time.Since(last); wait > 0 {
				select {
				case <-time.After(wait):
				case <-stop:
					return
				}
			}
			render()
			last = time.Now()
		}
	}()
	if err := terminal.Pump(proc, screen); err != nil {
		t.Fatal(err)
	}
	close(stop)
	<-done
	render() // the final frame
	wall := time.Since(start)
	cpu := selfCPU(t) - cpu0
	if code, err := proc.Wait(); err != nil || code != 0 {
		t.Fatalf("cat in our PTY: exit %d, %v", code, err)
	}
	_ = proc.Close()
	_ = typist.Close()
	lines := strings.Split(screen.Text(), "\n")
	_ = screen.Close()
	if sink == 0 {
		t.Fatal("nothing rendered")
	}
	return streamRun{wall: wall, cpu: cpu, renders: frames, screen: trimmed(lines)}
}

// runTmux plays file in a tmux pane of the same size (a server of its own,
// named after the stream), timed from the "go"
// signal to cat's "done".
func runTmux(t *testing.T, name, file string) streamRun {
	t.Helper()
	s := newTmux(t, "compare-"+name)
	script := fmt.Sprintf("stty -echo; %s -L %s wait-for go; cat %s; %s -L %s wait-for -S done; exec sleep 600",
		shellQuote(s.bin), s.sock, shellQuote(file), shellQuote(s.bin), s.sock)
	s.run(t, "new-session", "-d", "-s", "cmp", "-x", strconv.Itoa(StreamCols), "-y", strconv.Itoa(StreamRows), script)
	pid := s.pid(t)
	cpu0, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	var waitErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		waitErr = exec.Command(s.bin, "-L", s.sock, "wait-for", "done").Run()
	}()
	s.run(t, "wait-for", "-S", "go")
	wg.Wait()
	wall := time.Since(start)
	cpu1, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	if waitErr != nil {
		t.Fatalf("tmux wait-for done: %v", waitErr)
	}
	out := strings.TrimSuffix(s.raw(t, "capture-pane", "-p", "-t", "cmp"), "\n")
	lines := strings.Split(out, "\n")
	for len(lines) < StreamRows {
		lines = append(lines, "")
	}
	return streamRun{wall: wall, cpu: cpu1 - cpu0, screen: trimmed(lines)}
}

func trimmed(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// idleSeats and idleWindow are the idle comparison of docs/design.md §13: 8 idle seats for
// 30 s (PULLCEPT_COMPARE_IDLE overrides the window for a quick look).
const idleSeats = 8

func idleWindow(t *testing.T) time.Duration {
	t.Helper()
	if v := os.Getenv("PULLCEPT_COMPARE_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("PULLCEPT_COMPARE_IDLE=%q: want a positive Go duration", v)
		}
		return d
	}
	return 30 * time.Second
}

// Claude-squad's polling (smtg-ai/claude-squad at 434ca25, app/app.go):
// tickUpdateMetadataCmd sleeps 500 ms, then runs HasUpdated — `tmux
// capture-pane -p -e -J -t <session>` (session/tmux/tmux.go,
// CapturePaneContent) — for every active instance in parallel, and chains
// itself again when they are done; previewTickMsg refreshes the selected
// instance's preview, another capture-pane of that session, every 100 ms.
const (
	squadMetadataEvery = 500 * time.Millisecond
	squadPreviewEvery  = 100 * time.Millisecond
)

// TestCompareIdle measures the CPU that 8 idle seats cost for 30 s:
//
//   - ours: the real `pullcept` binary in a 220×60 PTY, 8 generic-CLI seats
//     started from the participant panel by keys (each the fake CLI of
//     testdata/fakecli, idle once its sidecar has joined the room, as Claude
//     Code waiting at its prompt), all 8 panes shown. Counted: the pullcept
//     process, the 8 `pullcept sidecar` processes and, where seats are
//     isolated, their 8 `pullcept seat-ns` inits — everything that is ours; the idle CLIs stand for the agents and are not counted.
//   - claude-squad's approach: a private tmux server with 8 sessions of an
//     idle program (`cat`), polled as claude-squad polls (see
//     squadMetadataEvery). Counted: the tmux server, every `tmux
//     capture-pane` client, and the poller's own CPU; the panes' programs
//     are not counted, and neither is claude-squad's own UI redrawing the
//     preview (so this side is, if anything, under-counted).
func TestCompareIdle(t *testing.T) {
	tmuxBin(t)
	window := idleWindow(t)
	ours := idleOurs(t, window)
	theirs := idleSquad(t, window)
	pct := func(d time.Duration) float64 { return 100 * d.Seconds() / window.Seconds() }
	t.Logf("idle, %d seats, %v: ours %v CPU (%.2f%% of a core): pullcept %v + %d sidecars and namespace inits %v; the app wrote to its terminal %d times",
		idleSeats, window, ours.total().Round(time.Millisecond), pct(ours.total()), ours.app.Round(time.Millisecond), ours.sidecars, ours.side.Round(time.Millisecond), ours.writes)
	t.Logf("idle, %d seats, %v: claude-squad polling %v CPU (%.2f%% of a core): tmux server %v, %d capture-pane clients %v, poller %v",
		idleSeats, window, theirs.total().Round(time.Millisecond), pct(theirs.total()), theirs.server.Round(time.Millisecond), theirs.captures, theirs.clients.Round(time.Millisecond), theirs.poller.Round(time.Millisecond))
	t.Logf("RATIO idle CPU ours/claude-squad: %.3f× (claude-squad uses %.0f× our CPU)",
		ours.total().Seconds()/theirs.total().Seconds(), theirs.total().Seconds()/max(ours.total().Seconds(), clockTick.Seconds()))
	if theirs.captures == 0 {
		t.Fatal("the claude-squad poller captured nothing")
	}
}

type idleOursRun struct {
	app, side time.Duration
	sidecars  int
	writes    uint64 // output writes of the app to its terminal in the window
}

func (r idleOursRun) total() time.Duration { return r.app + r.side }

type idleSquadRun struct {
	server, clients, poller time.Duration
	captures                int
}

func (r idleSquadRun) total() time.Duration { return r.server + r.clients + r.poller }

// idleJoinWait bounds every wait on the app's screen: a loaded 2-core box
// starts eight seats, each joining the room, in seconds (scaled).
var idleJoinWait = testkit.Slow(60 * time.Second)

// appScreen is the terminal the real app runs in: a seats PTY and Screen
// (we are the user's terminal emulator here), keys written through a Typist.
type appScreen struct {
	t      *testing.T
	proc   pty.Proc
	screen *terminal.Screen
	keys   *seats.Typist
	pumped chan struct{}
}

func startApp(t *testing.T, bin, dir string, env []string, cols, rows int) *appScreen {
	t.Helper()
	proc, err := pty.Start(pty.Options{Argv: []string{bin, "--no-server"}, Dir: dir, Env: env, Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	a := &appScreen{t: t, proc: proc, pumped: make(chan struct{})}
	a.keys = seats.NewTypist(proc, seats.TypistOptions{Ready: true})
	if a.screen, err = terminal.NewScreen(cols, rows, a.keys.Reply); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(a.pumped)
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("app screen pump panicked: %v", r)
			}
		}()
		_ = terminal.Pump(proc, a.screen)
	}()
	t.Cleanup(a.stop)
	return a
}

// stop ends the app (SIGHUP/SIGTERM to its group, as closing the terminal
// would) and waits for it and its pump.
func (a *appScreen) stop() {
	_ = a.proc.Kill()
	_, _ = a.proc.Wait()
	_ = a.proc.Close()
	<-a.pumped
	_ = a.keys.Close()
	_ = a.screen.Close()
}

// press types key bytes into the app.
func (a *appScreen) press(b string) { a.keys.Human([]byte(b)) }

// waitText waits until the screen satisfies ok, logging the screen when
// it never does.
func (a *appScreen) waitText(what string, ok func(string) bool) {
	a.t.Helper()
	defer func() {
		if a.t.Failed() {
			a.t.Logf("the screen:\n%s", a.screen.Text())
		}
	}()
	testkit.EventuallyWithin(a.t, idleJoinWait, what, func() bool { return ok(a.screen.Text()) })
}

func (a *appScreen) waitFor(s string) {
	a.t.Helper()
	a.waitText(fmt.Sprintf("%q", s), func(txt string) bool { return strings.Contains(txt, s) })
}

// appAdmin is the human's account in the real app's config.
var appAdmin = config.Account{ID: "admin", Name: "Master", Kind: config.KindAdmin}

// appEnv writes a config.json with accts into the data dir data and returns
// the environment the real app runs in: that data dir, English.
func appEnv(t *testing.T, data string, accts []config.Account) []string {
	t.Helper()
	raw, err := json.MarshalIndent(map[string]any{"accounts": accts}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "config.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "PULLCEPT_HOME="+data, "LANG=en_US.UTF-8", "LC_ALL=", "LC_MESSAGES=")
}

// focusAccounts focuses the participant panel (Tab cycles input → chat →
// topics → accounts; the focused row is marked "›"), on the human's row.
func (a *appScreen) focusAccounts() {
	a.t.Helper()
	for range 6 {
		if strings.Contains(a.screen.Text(), "› Master") {
			break
		}
		a.press("\t")
		time.Sleep(300 * time.Millisecond) // one key at a time, as a person types
	}
	a.waitFor("› Master")
}

// showPanes puts the focus back on the input bar and shows the seats'
// panes (the focus stays on the input bar).
func (a *appScreen) showPanes() {
	a.press("\x1b")
	time.Sleep(300 * time.Millisecond) // a key right after Esc would read as Alt+key
	a.press("\x14")                    // ctrl+t
}

// idleOurs runs the real app with 8 idle seats and measures it.
func idleOurs(t *testing.T, window time.Duration) idleOursRun {
	t.Helper()
	bin := fakecli.PullceptBinary(t)
	dir := t.TempDir()
	accts := []config.Account{appAdmin}
	for i := 1; i <= idleSeats; i++ {
		work := filepath.Join(dir, fmt.Sprintf("work-%d", i))
		if err := os.MkdirAll(work, 0o700); err != nil {
			t.Fatal(err)
		}
		accts = append(accts, fakecli.Account(t, fmt.Sprintf("idle-%d", i), fmt.Sprintf("Idle %d", i), work, "-join"))
	}
	a := startApp(t, bin, dir, appEnv(t, filepath.Join(dir, "data"), accts), 220, 60)
	a.waitFor("Idle 8")
	a.focusAccounts()
	for i := 1; i <= idleSeats; i++ {
		a.press("\x1b[B") // Down
		a.waitFor(fmt.Sprintf("› Idle %d", i))
		a.press("s")
	}
	running := func(txt string) bool { return len(idleSeatRuns.FindAllString(txt, -1)) >= idleSeats }
	a.waitText("all 8 seats running", running)
	a.showPanes()
	a.waitText("8 panes showing their idle CLI", func(txt string) bool { return strings.Count(txt, fakecli.Ready) >= idleSeats })
	// Let start-up work (first frames, sidecar handshakes) settle.
	time.Sleep(2 * time.Second) // letting the app go idle is the point here

	appPid := a.proc.Pid()
	// The 8 sidecars and, where seats run in namespaces of their own
	// (docs/design.md §16), their 8 namespace inits (pullcept seat-ns).
	sidecars := descendantsRunning(t, appPid, bin)
	if len(sidecars) != idleSeats && len(sidecars) != 2*idleSeats {
		t.Fatalf("%d pullcept processes under the app, want %d sidecars (and as many namespace inits)", len(sidecars), idleSeats)
	}
	cpuOf := func() (app, side time.Duration) {
		var err error
		if app, err = procCPU(appPid); err != nil {
			t.Fatalf("app CPU: %v", err)
		}
		for _, pid := range sidecars {
			c, err := procCPU(pid)
			if err != nil {
				t.Fatalf("sidecar %d CPU: %v", pid, err)
			}
			side += c
		}
		return app, side
	}
	app0, side0 := cpuOf()
	v0 := a.screen.Version()
	time.Sleep(window) // the measurement window: nothing happens on purpose
	app1, side1 := cpuOf()
	frames := a.screen.Version() - v0
	if txt := a.screen.Text(); len(idleSeatRuns.FindAllString(txt, -1)) < idleSeats {
		t.Fatalf("seats stopped during the window:\n%s", txt)
	}
	return idleOursRun{app: app1 - app0, side: side1 - side0, sidecars: len(sidecars), writes: frames}
}

// idleSeatRuns matches an accounts panel row saying an "Idle N" seat
// runs: a generic CLI's seat says running in its first second, then what
// its terminal shows (outputting, idle; issue 34 item 9).
var idleSeatRuns = regexp.MustCompile(`Idle \d+ +(running|outputting|thinking…|idle)`)

// descendantsRunning lists the processes below pid whose executable is exe.
func descendantsRunning(t *testing.T, pid int, exe string) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	parent := map[int]int{}
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 {
			continue
		}
		me, err1 := strconv.Atoi(strings.Fields(s)[0])
		pp, err2 := strconv.Atoi(f[1])
		if err1 == nil && err2 == nil {
			parent[me] = pp
		}
	}
	under := func(p int) bool {
		for i := 0; i < 64 && p > 1; i++ {
			if p = parent[p]; p == pid {
				return true
			}
		}
		return false
	}
	var out []int
	for p := range parent {
		if !under(p) {
			continue
		}
		if link, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", p)); err == nil && link == exe {
			out = append(out, p)
		}
	}
	return out
}

// idleSquad runs claude-squad's polling against 8 idle tmux sessions for
// window and measures it.
func idleSquad(t *testing.T, window time.Duration) idleSquadRun {
	t.Helper()
	s := newTmux(t, "squad")
	for i := 1; i <= idleSeats; i++ {
		s.run(t, "new-session", "-d", "-s", fmt.Sprintf("cs-%d", i), "-x", strconv.Itoa(StreamCols), "-y", strconv.Itoa(StreamRows), "cat")
	}
	pid := s.pid(t)
	time.Sleep(2 * time.Second) // the same settling as ours

	var mu sync.Mutex
	var r idleSquadRun
	var failed error
	capture := func(session string) []byte {
		cmd := exec.Command(s.bin, "-L", s.sock, "capture-pane", "-p", "-e", "-J", "-t", session)
		out, err := cmd.Output()
		mu.Lock()
		defer mu.Unlock()
		if err != nil && failed == nil {
			failed = fmt.Errorf("capture-pane %s: %w", session, err)
		}
		if cmd.ProcessState != nil {
			r.clients += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			r.captures++
		}
		return out
	}
	server0, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	self0 := selfCPU(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	guard := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if rec := recover(); rec != nil {
					t.Errorf("poller panicked: %v", rec)
				}
			}()
			f()
		}()
	}
	// tickUpdateMetadataCmd: sleep 500 ms, capture every instance in
	// parallel, compare with the last content, chain again.
	guard(func() {
		last := map[string]string{}
		for {
			select {
			case <-stop:
				return
			case <-time.After(squadMetadataEvery):
			}
			var round sync.WaitGroup
			var lm sync.Mutex
			for i := 1; i <= idleSeats; i++ {
				round.Add(1)
				go func() {
					defer round.Done()
					defer func() {
						if rec := recover(); rec != nil {
							t.Errorf("capture panicked: %v", rec)
						}
					}()
					name := fmt.Sprintf("cs-%d", i)
					out := string(capture(name))
					lm.Lock()
					last[name] = out
					lm.Unlock()
				}()
			}
			round.Wait()
		}
	})
	// previewTickMsg: the selected instance's preview every 100 ms.
	guard(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(squadPreviewEvery):
			}
			capture("cs-1")
		}
	})
	time.Sleep(window) // the measurement window
	close(stop)
	wg.Wait()
	server1, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	// The poller's own CPU: this process, less the children it reaped
	// (counted as clients above); nothing else runs in it meanwhile.
	r.poller = selfCPU(t) - self0
	r.server = server1 - server0
	if failed != nil {
		t.Fatal(failed)
	}
	return r
}
