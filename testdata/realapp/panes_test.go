//go:build linux

package realapp

// What a person sees of the seat panes (docs/design.md §10): F6 through
// every pane, an exited pane leaving typing mode and closing, the words a
// seat's end is told in, the real terminal cursor at a seat's caret while
// Japanese is typed, the mouse reaching a seat that asked for it, and the
// clipboard written by the human's copy but never by a seat. The cursor is
// read with display-message, the clipboard as tmux's paste buffers (OSC 52
// with set-clipboard on). The seats are the fake CLI in prompt mode, which
// draws its input line as Claude Code does: cursor hidden, its own caret
// drawn, the hidden cursor parked at the caret.

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

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// seat is one fake CLI account of a rig.
type seat struct {
	id, name string
	opts     string // the fake CLI's flags besides -prompt and -lines
}

// rig is the pullcept binary in its own tmux server.
type rig struct {
	t     *testing.T
	work  string
	sock  string
	seats []seat
}

// newRig starts pullcept at w×h in language lang ("en", "ja") with an
// admin and the seats' accounts, each the fake CLI in prompt mode.
func newRig(t *testing.T, w, h int, lang string, seats ...seat) *rig {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	work := t.TempDir()
	r := &rig{t: t, work: work, sock: fmt.Sprintf("pullcept-panes-%d-%s", os.Getpid(), t.Name()), seats: seats}
	data := filepath.Join(work, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	var accts []fakecli.ConfigAccount
	for _, s := range seats {
		cwd := filepath.Join(work, "seat-"+s.id)
		if err := os.MkdirAll(cwd, 0o700); err != nil {
			t.Fatal(err)
		}
		accts = append(accts, fakecli.ConfigAccount{ID: s.id, Name: s.name, Kind: "cli", Cwd: cwd, Command: fakecli.Command(t),
			Options: strings.TrimSpace("-prompt -lines " + r.linesFile(s.id) + " " + s.opts), Env: fakecli.SeatEnv()})
	}
	fakecli.WriteConfig(t, data, map[string]any{"language": lang}, accts...)
	bin := fakecli.PullceptBinary(t)
	r.tmux("-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h),
		"env", "PULLCEPT_HOME="+data, "TERM=xterm-256color", "LANG=C.UTF-8", bin, "--no-server")
	// tmux keeps what the app writes with OSC 52 as a paste buffer: the
	// clipboard as the app's terminal sees it.
	r.tmux("set-option", "-s", "set-clipboard", "on")
	pid := r.appPID()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", r.screenOrEmpty())
		}
		_ = syscall.Kill(pid, syscall.SIGTERM)
		testkit.Eventually(t, "the app quit (its seats stopped)", func() bool {
			return syscall.Kill(pid, 0) != nil
		})
		_ = exec.Command("tmux", "-L", r.sock, "kill-server").Run()
	})
	r.waitScreen("the app shows its accounts", func(s string) bool { return strings.Contains(s, seats[len(seats)-1].name) })
	return r
}

func (r *rig) linesFile(id string) string { return filepath.Join(r.work, "lines-"+id+".jsonl") }

func (r *rig) tmux(args ...string) string {
	r.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", r.sock}, args...)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *rig) appPID() int {
	r.t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(r.tmux("display-message", "-p", "-t", "app", "#{pane_pid}")))
	if err != nil {
		r.t.Fatal(err)
	}
	return pid
}

// keys sends tmux key names; text sends literal text.
func (r *rig) keys(keys ...string) {
	r.t.Helper()
	r.tmux(append([]string{"send-keys", "-t", "app"}, keys...)...)
}
func (r *rig) text(s string) { r.t.Helper(); r.tmux("send-keys", "-t", "app", "-l", s) }

// allow presses y on the card that has the keys until it takes it, then
// waits until done: a card takes no answer in its first 0.6 s on screen
// (tui's cardDwell) and says "just appeared", so y goes again while it
// says so (at most every 100 ms).
func (r *rig) allow(what string, wait time.Duration, done func(string) bool) {
	r.t.Helper()
	r.keys("y")
	last := time.Now()
	testkit.EventuallyWithin(r.t, wait, what, func() bool {
		s := r.screenOrEmpty()
		if done(s) {
			return true
		}
		if strings.Contains(s, "just appeared") && time.Since(last) >= 100*time.Millisecond {
			r.keys("y")
			last = time.Now()
		}
		return false
	})
}

func (r *rig) screenOrEmpty() string {
	out, _ := exec.Command("tmux", "-L", r.sock, "capture-pane", "-p", "-t", "app").Output()
	return string(out)
}

// waitScreen waits until the screen satisfies ok and returns it.
func (r *rig) waitScreen(what string, ok func(string) bool) string {
	r.t.Helper()
	var s string
	testkit.Eventually(r.t, what, func() bool {
		s = r.screenOrEmpty()
		return ok(s)
	})
	return s
}

// lines is what seat id's fake CLI read: its lines, and its mouse reports.
func (r *rig) lines(id string) []string {
	got, _ := fakecli.Lines(r.linesFile(id))
	return got
}

// waitLine waits until seat id read line.
func (r *rig) waitLine(id, line string) {
	r.t.Helper()
	testkit.Eventually(r.t, id+" read "+line, func() bool { return slices.Contains(r.lines(id), line) })
}

// cursor is the real terminal cursor of the app, as tmux has it.
func (r *rig) cursor() (x, y int) {
	r.t.Helper()
	f := strings.Fields(r.tmux("display-message", "-p", "-t", "app", "#{cursor_x} #{cursor_y}"))
	x, _ = strconv.Atoi(f[0])
	y, _ = strconv.Atoi(f[1])
	return x, y
}

// startSeats starts every seat from the accounts panel as a person does
// (Tab to it; Down and s on each row), then shows the panes (Ctrl+T) and
// waits for each fake CLI's prompt.
func (r *rig) startSeats() {
	r.t.Helper()
	for range 3 {
		r.keys("Tab")
	}
	r.waitScreen("the accounts panel has focus", func(s string) bool { return strings.Contains(s, "› Alice") })
	for range r.seats {
		r.keys("Down", "s")
	}
	r.keys("C-t")
	r.waitScreen("every seat's prompt", func(s string) bool {
		return strings.Count(s, fakecli.PromptMark) == len(r.seats)
	})
}

// caretAt finds the row holding text on the screen and the cell just after
// it: where the seat's caret is when text is what was typed last.
func caretAt(screen, text string) (x, y int, ok bool) {
	for y, row := range strings.Split(screen, "\n") {
		if i := strings.Index(row, text); i >= 0 {
			return ansi.StringWidth(row[:i+len(text)]), y, true
		}
	}
	return 0, 0, false
}

// selected is the name on the participant panel's selected row.
func selected(screen string) string {
	if m := selectedRow.FindStringSubmatch(screen); m != nil {
		return m[1]
	}
	return ""
}

var selectedRow = regexp.MustCompile(`› (\S+)`)

// paneTitle is the border title of name's pane on the screen, "" if none.
func paneTitle(screen, name string) string {
	for _, row := range strings.Split(screen, "\n") {
		if i := strings.Index(row, "╭─ "+name+" · "); i >= 0 {
			end := strings.Index(row[i:], " ─")
			if end < 0 {
				end = strings.Index(row[i:], " ╮") // a title cut to the border
			}
			if end < 0 {
				return row[i:]
			}
			return row[i+len("╭─ ") : i+end]
		}
	}
	return ""
}

// TestPaneFocusAndLifecycle: at 120×30, F6 goes through every pane and
// wraps, Shift+F6 back (the text typed after each lands in that seat); a
// seat that exits by itself takes its pane out of typing mode (the next key
// goes to the input bar) and says "exited 3"; F6 reaches the exited pane,
// whose close key closes it; a seat the human stops says "stopped", not
// the raw 143.
func TestPaneFocusAndLifecycle(t *testing.T) {
	r := newRig(t, 120, 30, "en", seat{id: "ana", name: "Ana"}, seat{id: "ben", name: "Ben"})
	r.startSeats()

	for i, id := range []string{"ana", "ben", "ana"} {
		r.keys("F6")
		line := fmt.Sprintf("f6 %d", i+1)
		r.text(line)
		r.keys("Enter")
		r.waitLine(id, line)
	}
	r.keys("S-F6")
	r.text("back")
	r.keys("Enter")
	r.waitLine("ben", "back")
	if got := r.lines("ana"); !slices.Equal(got, []string{"f6 1", "f6 3"}) {
		t.Fatalf("Ana read %q", got)
	}

	r.text("exit 3")
	r.keys("Enter")
	r.waitScreen("Ben's pane says how it ended", func(s string) bool { return strings.HasPrefix(paneTitle(s, "Ben"), "Ben · exited 3") })
	r.text("zq")
	r.waitScreen("the next keys reach the input bar", func(s string) bool { return strings.Contains(s, "zq") })
	r.keys("C-c")

	r.keys("F6", "F6")
	r.waitScreen("the exited pane offers its close key", func(s string) bool {
		return paneTitle(s, "Ben") == "Ben · exited 3 · x closes" && strings.Contains(s, "Ben's terminal: exited 3. x closes it.")
	})
	r.keys("x")
	r.waitScreen("the exited pane closed", func(s string) bool {
		return paneTitle(s, "Ben") == "" && strings.Contains(s, "Closed Ben's terminal.")
	})

	// Stop Ana from the panel (Tab to it, to her row, x, answer y).
	r.keys("Tab", "Tab", "Tab")
	r.waitScreen("the accounts panel has focus", func(s string) bool { return strings.Contains(s, "› ") })
	for i := 0; selected(r.screenOrEmpty()) != "Ana"; i++ {
		if i == 5 {
			t.Fatalf("Ana's row never selected:\n%s", r.screenOrEmpty())
		}
		was, move := selected(r.screenOrEmpty()), "Up"
		if was == "Alice" {
			move = "Down"
		}
		r.keys(move)
		r.waitScreen("the selection moved", func(s string) bool { return selected(s) != was })
	}
	r.keys("x")
	r.waitScreen("the stop dialog", func(s string) bool { return strings.Contains(s, "Stop Ana in this topic?") })
	r.keys("y")
	s := r.waitScreen("Ana's pane says it was stopped", func(s string) bool { return strings.HasPrefix(paneTitle(s, "Ana"), "Ana · stopped") })
	// The words, not the number: a temp path on screen may hold "143".
	for _, raw := range []string{"exited 143", "exited 129", "code 143", "code 129", "(143)", "(129)"} {
		if strings.Contains(s, raw) {
			t.Fatalf("a requested stop shows a raw exit code (%s):\n%s", raw, s)
		}
	}
}

// TestRealCursorAndClipboard: typing Japanese into a seat that hides its
// cursor and draws its own caret (as Claude Code does) puts the real
// terminal cursor — where an input method opens its window — at the caret,
// at 200×60 in Japanese and again after the window shrinks to 80×24. A
// click goes to the seat that asked for mouse reports, encoded as it
// asked. The seat's own OSC 52 never reaches the terminal's clipboard; the
// human's copy (y in scrollback) does.
func TestRealCursorAndClipboard(t *testing.T) {
	r := newRig(t, 200, 60, "ja",
		seat{id: "ana", name: "Ana", opts: "-mouse -osc52 seat-secret"}, seat{id: "ben", name: "Ben"})
	r.startSeats()
	r.keys("F6")
	// The caret is read from the screen each time: a resize may move the
	// pane after the text shows.
	checkCaret := func(typed string) {
		t.Helper()
		var wx, wy, x, y int
		testkit.Eventually(t, "the real cursor at the caret after "+typed, func() bool {
			var ok bool
			wx, wy, ok = caretAt(r.screenOrEmpty(), fakecli.PromptMark+typed+" ")
			x, y = r.cursor()
			return ok && x == wx-1 && y == wy
		})
	}
	r.text("日本語")
	checkCaret("日本語")

	// A click on Ana's prompt row reaches Ana as an SGR report at the
	// cell of her terminal.
	s := r.screenOrEmpty()
	cx, cy, ok := caretAt(s, fakecli.PromptMark)
	if !ok {
		t.Fatalf("no prompt on screen:\n%s", s)
	}
	r.text(fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", cx+1, cy+1, cx+1, cy+1))
	testkit.Eventually(t, "Ana read the click", func() bool {
		return slices.ContainsFunc(r.lines("ana"), func(l string) bool { return strings.HasPrefix(l, "mouse <0;") && strings.HasSuffix(l, "m") })
	})

	// The human's copy: scrollback, 99 lines, y.
	r.keys("S-PPage")
	r.waitScreen("Ana's scrollback", func(s string) bool { return strings.Contains(paneTitle(s, "Ana"), "スクロールバック") })
	r.keys("9", "9", "y")
	testkit.Eventually(t, "the human's copy in the terminal's clipboard", func() bool {
		out, _ := exec.Command("tmux", "-L", r.sock, "show-buffer").Output()
		return strings.Contains(string(out), fakecli.Ready)
	})
	r.keys("q")

	r.tmux("resize-window", "-t", "app", "-x", "80", "-y", "24")
	r.text("で")
	checkCaret("日本語で")
	bufs := r.tmux("list-buffers", "-F", "#{buffer_sample}")
	if strings.Contains(bufs, "seat-secret") {
		t.Fatalf("the seat's own OSC 52 reached the clipboard: %q", bufs)
	}
}
