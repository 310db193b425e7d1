//go:build linux

package realapp

// Topics and quitting as a newcomer meets them (issue 14): the quit
// dialog names the seats that stop and which resume; a restart opens the
// topic open last and a delete its neighbour; a long topic name is shown
// whole on a wide screen; the selected account row keeps its state word;
// a notice leaves at a topic switch or after its time; a topic that got
// posts while another was open counts them and marks one to the human.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// topicsRig is pullcept in tmux on a data directory that outlives one run
// of the app, so a test can quit and start it again.
type topicsRig struct {
	*rig
	data string
	w, h int
	pid  int
}

// newTopicsRig writes a config with the admin Alice and accounts (each a
// map as config.json holds it) and starts pullcept at w×h.
func newTopicsRig(t *testing.T, w, h int, accounts ...map[string]any) *topicsRig {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	work := t.TempDir()
	r := &topicsRig{rig: &rig{t: t, work: work, sock: fmt.Sprintf("pullcept-topics-%d-%s", os.Getpid(), t.Name())},
		data: filepath.Join(work, "data"), w: w, h: h}
	if err := os.MkdirAll(r.data, 0o700); err != nil {
		t.Fatal(err)
	}
	accts := append([]map[string]any{{"id": "admin", "name": "Alice", "kind": "admin"}}, accounts...)
	b, err := json.MarshalIndent(map[string]any{"language": "en", "accounts": accts}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.data, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", r.screenOrEmpty())
		}
		r.stop()
		_ = exec.Command("tmux", "-L", r.sock, "kill-server").Run()
	})
	r.start()
	return r
}

// start runs the app (again) on the rig's data directory.
func (r *topicsRig) start() {
	r.t.Helper()
	r.tmux("-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", strconv.Itoa(r.w), "-y", strconv.Itoa(r.h),
		"env", "PULLCEPT_HOME="+r.data, "TERM=xterm-256color", "LANG=C.UTF-8", fakecli.PullceptBinary(r.t), "--no-server")
	r.pid = r.appPID()
	r.waitScreen("the app is up", func(s string) bool { return strings.Contains(s, "F1 help") })
}

// stop ends the app if it runs (SIGTERM stops its seats) and its session.
func (r *topicsRig) stop() {
	if r.pid == 0 {
		return
	}
	_ = syscall.Kill(r.pid, syscall.SIGTERM)
	testkit.Eventually(r.t, "the app ended", func() bool { return syscall.Kill(r.pid, 0) != nil })
	r.pid = 0
	_ = exec.Command("tmux", "-L", r.sock, "kill-session", "-t", "app").Run()
}

// quit presses ctrl+q and waits for the app to end.
func (r *topicsRig) quit() {
	r.t.Helper()
	r.keys("C-q")
	pid := r.pid
	testkit.Eventually(r.t, "the app quit", func() bool { return syscall.Kill(pid, 0) != nil })
	r.pid = 0
	_ = exec.Command("tmux", "-L", r.sock, "kill-session", "-t", "app").Run()
}

// bottom is the status line: the screen's last non-empty row.
func bottom(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return rows[len(rows)-1]
}

// opened reports whether the status line names topic as the open one: its
// right part is "<topic>[ · <people>] · F1 help", after the report on the
// left (which may fill the line up to one space before it).
func opened(screen, topic string) bool {
	re := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(topic) + `( · \d+)? · F1 help\s*$`)
	return re.MatchString(bottom(screen))
}

// post sends text from the input bar and waits until the topic is named
// after it (its first post names a new topic).
func (r *topicsRig) post(text, name string) {
	r.t.Helper()
	r.text(text)
	r.keys("Enter")
	r.waitScreen("the topic is named "+name, func(s string) bool { return opened(s, name) })
}

// genericSeat is a fake CLI account in prompt mode working in its own
// directory under work; resume gives it a resume line (the same command),
// and {session_id} in its options records a session at its start.
func genericSeat(t *testing.T, work, id, name string, resume bool) map[string]any {
	cwd := filepath.Join(work, "seat-"+id)
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	opts := "-prompt -lines " + filepath.Join(work, "lines-"+id+".jsonl") + " {session_id}"
	a := map[string]any{"id": id, "name": name, "kind": "cli", "cwd": cwd, "command": fakecli.Command(t),
		"launch_options": opts, "env": fakecli.SeatEnv()}
	if resume {
		a["resume_command"] = fakecli.Command(t) + " " + opts
	}
	return a
}

// boxText is the text inside the screen's one framed box (a dialog), its
// rows joined and its spaces collapsed.
func boxText(screen string) string {
	var b []string
	for _, row := range strings.Split(screen, "\n") {
		i, j := strings.Index(row, "│ "), strings.LastIndex(row, " │")
		if i >= 0 && j > i {
			b = append(b, row[i+len("│ "):j])
		}
	}
	return strings.Join(strings.Fields(strings.Join(b, " ")), " ")
}

// startSeat starts account name's seat from the accounts panel and waits
// for its row to say it runs.
func (r *topicsRig) startSeat(name string) {
	r.t.Helper()
	r.selectAccount(name)
	r.keys("s")
	r.waitScreen(name+" runs", func(s string) bool { return seatRuns(s, name) })
	r.keys("Escape")
	r.waitScreen("the panel lets go", func(s string) bool { return selected(s) == "" })
}

// selectAccount moves the focus to the accounts panel and its cursor to
// the row of name (the rows below Alice, in config order).
func (r *topicsRig) selectAccount(name string) {
	r.t.Helper()
	if selected(r.screenOrEmpty()) == "" {
		r.keys("Tab", "Tab", "Tab") // the input bar, the chat, the topics, the panel
	}
	r.waitScreen("the accounts panel has focus", func(s string) bool { return selected(s) != "" })
	for range 8 {
		s := r.screenOrEmpty()
		if strings.HasPrefix(name, selected(s)) {
			return
		}
		r.keys("Down")
		r.waitScreen("the cursor moves", func(t string) bool { return selected(t) != selected(s) || strings.HasPrefix(name, selected(t)) })
	}
	r.waitScreen("the cursor on "+name, func(s string) bool { return strings.HasPrefix(name, selected(s)) })
}

// runsWords are the words of a generic CLI's running seat (its CLI
// reports nothing, so its terminal is read, issue 34 item 9): running in
// its first second, then outputting or thinking… while output comes, idle
// after a second without.
const runsWords = `(running|outputting|thinking…|idle(?: .* ago)?)`

// runsWordsJa are runsWords in Japanese.
const runsWordsJa = `(稼働中|出力中|考え中…|(?:.*前から)?待機)`

// seatRuns reports whether the accounts panel says name's generic seat
// runs.
func seatRuns(screen, name string) bool { return accountRow(screen, name, runsWords) }

// accountRow reports whether the accounts panel has a row of name ending
// in a word matching the regular expression word.
func accountRow(screen, name, word string) bool {
	re := regexp.MustCompile(regexp.QuoteMeta(name) + `\s+` + word + `\s*$`)
	for _, row := range strings.Split(screen, "\n") {
		if re.MatchString(row) {
			return true
		}
	}
	return false
}

// Quitting names each running seat with its topic and says which resume
// their conversation when started again there and which start fresh, and
// why (the dialog listed topic names as if they were seats).
func TestQuitDialogSaysWhichSeatsResume(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	r := newTopicsRig(t, 160, 45, genericSeat(t, work, "cl", "Claudia", true), genericSeat(t, work, "sh", "Shell", false))
	r.post("parser review", "parser review")
	r.startSeat("Claudia")
	r.startSeat("Shell")
	r.keys("C-q")
	s := r.waitScreen("the quit dialog", func(s string) bool { return strings.Contains(s, "Quit Pullcept") })
	flat := boxText(s)
	for _, want := range []string{
		"Quitting stops every running seat. When you start one again in its topic, it:",
		"• Claudia in “parser review”: resumes its conversation",
		"• Shell in “parser review”: starts fresh (its account has no resume line)",
	} {
		if !strings.Contains(flat, want) {
			t.Fatalf("the quit dialog lacks %q:\n%s", want, s)
		}
	}
	r.keys("y")
	pid := r.pid
	testkit.Eventually(t, "the app quit", func() bool { return syscall.Kill(pid, 0) != nil })
	r.pid = 0
}

// A restart opens the topic that was open at the quit, and deleting the
// open topic opens its neighbour, not a blank "New topic".
func TestRestartOpensTheLastTopicAndDeleteItsNeighbour(t *testing.T) {
	t.Parallel()
	r := newTopicsRig(t, 140, 40)
	r.post("alpha topic", "alpha topic")
	r.keys("C-n")
	r.waitScreen("a new topic", func(s string) bool { return opened(s, "New topic") })
	r.post("beta topic", "beta topic")
	r.keys("M-Down")
	r.waitScreen("alpha open again", func(s string) bool { return opened(s, "alpha topic") })
	r.quit()

	r.start()
	r.waitScreen("the restart opens alpha", func(s string) bool { return opened(s, "alpha topic") })
	r.keys("F8")
	r.waitScreen("the delete question", func(s string) bool { return strings.Contains(s, "Delete") && strings.Contains(s, "alpha topic") })
	r.keys("y")
	r.waitScreen("the neighbour opens", func(s string) bool { return opened(s, "beta topic") })
}

// At 200 columns a long topic name is shown whole in the list (it was cut
// to 16 cells whatever the width).
func TestLongTopicNameWholeOnAWideScreen(t *testing.T) {
	t.Parallel()
	r := newTopicsRig(t, 200, 40)
	name := "Parser review: tokenizer fails on CRLF"
	r.post(name, name)
	r.waitScreen("the list shows the whole name", func(s string) bool {
		for _, row := range strings.Split(s, "\n") {
			if i := strings.Index(row, name); i >= 0 && i < 4 {
				return true
			}
		}
		return false
	})
}

// The selected account row keeps its state word whole: the name gives
// way, with "…" (the row read "› Claudia  runni").
func TestSelectedAccountRowKeepsItsState(t *testing.T) {
	t.Parallel()
	long := "Claudia the careful reviewer"
	r := newTopicsRig(t, 100, 30, genericSeat(t, t.TempDir(), "cl", long, false))
	r.selectAccount(long)
	r.keys("s")
	row := regexp.MustCompile(`› Claudia[^\n]*` + runsWords)
	s := r.waitScreen("the selected row runs", func(s string) bool { return row.MatchString(s) })
	if !regexp.MustCompile(`› Claudia[^\n]*… ` + runsWords + `\s*$`).MatchString(firstMatch(s, "› Claudia")) {
		t.Fatalf("the selected row cuts its state, or its name without …:\n%s", s)
	}
}

// firstMatch is the first row holding sub.
func firstMatch(screen, sub string) string {
	for _, row := range strings.Split(screen, "\n") {
		if strings.Contains(row, sub) {
			return row
		}
	}
	return ""
}

// A notice leaves the status line at a topic switch, and after its time.
func TestNoticeLeavesAtASwitchAndAfterItsTime(t *testing.T) {
	t.Parallel()
	r := newTopicsRig(t, 140, 40)
	r.post("first one", "first one")
	r.keys("C-n")
	r.waitScreen("a new topic", func(s string) bool { return opened(s, "New topic") })
	r.post("second one", "second one")
	// rename renames the open topic and returns when the Enter that makes
	// the notice was sent (the notice is set after it).
	rename := func(name string) time.Time {
		r.keys("F2")
		r.keys("C-u")
		r.text(name)
		sent := time.Now()
		r.keys("Enter")
		r.waitScreen("the rename notice", func(s string) bool { return strings.Contains(bottom(s), "Renamed topic to") })
		return sent
	}
	// The switch drops the notice: the first frame naming the other topic
	// open (the switch clears the notice in the same update) shows none.
	// That tells the switch from the notice's own expiry only while the
	// notice could still be alive, noticeLife after the Enter that set it;
	// a box so loaded that the frame came later tries again (no wall-clock
	// bound on the app: issue 28).
	names := [2]string{"second one", "first one"} // the open topic, the other
	for try := 1; ; try++ {
		names[0] = fmt.Sprintf("renamed %d", try)
		sent := rename(names[0])
		r.keys(map[bool]string{true: "M-Down", false: "M-Up"}[try%2 == 1])
		s := r.waitScreen("the switch to "+names[1], func(s string) bool { return opened(s, names[1]) })
		if strings.Contains(bottom(s), "Renamed") {
			t.Fatalf("the switch to %s left the notice:\n%s", names[1], s)
		}
		if time.Since(sent) < noticeLife {
			break
		}
		if try == 3 {
			t.Fatalf("three switches each came after the notice's time (%v): the box is too loaded to tell the switch from the expiry", noticeLife)
		}
		t.Logf("the switch came after the notice's time (%v); trying again", noticeLife)
		names[0], names[1] = names[1], names[0]
	}
	// Then a notice stays at least a few seconds (counted from the Enter
	// that set it, before it can be shown: load only lengthens this).
	sent := rename("renamed again")
	testkit.EventuallyWithin(t, testkit.Slow(15*time.Second), "the notice expires", func() bool {
		return !strings.Contains(bottom(r.screenOrEmpty()), "Renamed")
	})
	if d := time.Since(sent); d < 3*time.Second {
		t.Fatalf("the notice left %v after the rename: too soon to read", d)
	}
}

// noticeLife is how long the app shows a notice (tui's statusLife for
// anything but an error).
const noticeLife = 6 * time.Second

// Posts a seat makes in a topic while another is open are counted beside
// its name, "@" first when one is to the human; opening it clears both.
func TestUnreadTopicCountsAndMarksPostsToTheHuman(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	startFile, cwd := filepath.Join(work, "go"), filepath.Join(work, "loader")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	loader := map[string]any{"id": "ld", "name": "Loader", "kind": "cli", "cwd": cwd, "command": fakecli.Command(t),
		"launch_options": "-join -load 4 -for 1s -to Alice -start " + startFile + " -out " + filepath.Join(work, "load.json"),
		"env":            fakecli.SeatEnv()}
	r := newTopicsRig(t, 140, 40, loader)
	r.post("busy topic", "busy topic")
	r.startSeat("Loader")
	r.keys("C-n")
	r.waitScreen("a new topic", func(s string) bool { return opened(s, "New topic") })
	if err := os.WriteFile(startFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	badge := regexp.MustCompile(`busy topic\s+@\((\d+)\)`)
	s := r.waitScreen("the unread count and mark", func(s string) bool { return badge.MatchString(s) })
	if n, _ := strconv.Atoi(badge.FindStringSubmatch(s)[1]); n < 1 {
		t.Fatalf("unread count %d", n)
	}
	r.keys("M-Down")
	r.waitScreen("opening it clears them", func(s string) bool {
		return opened(s, "busy topic") && !strings.Contains(s, "@(")
	})
	r.keys("C-q")
	r.waitScreen("the quit dialog", func(s string) bool { return strings.Contains(s, "Quit Pullcept") })
	r.keys("y")
	pid, start := r.pid, time.Now()
	testkit.Eventually(t, "the app quit", func() bool { return syscall.Kill(pid, 0) != nil })
	r.pid = 0
	t.Logf("quit took %v", time.Since(start))
}
