//go:build linux

package realapp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// app is the pullcept binary in a tmux session of its own server.
type app struct {
	t     *testing.T
	sock  string // tmux -L
	lines string // every line the fake CLI seats read from their terminals
}

// startApp writes a config (the admin Alice; Shell, a generic CLI account
// running the fake CLI, which joins the room and records what it reads)
// and starts pullcept on it in tmux at 200×60.
func startApp(t *testing.T) *app {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	work := t.TempDir()
	a := &app{t: t, sock: fmt.Sprintf("pullcept-realapp-%d", os.Getpid()), lines: filepath.Join(work, "lines.jsonl")}
	data, cwd := filepath.Join(work, "data"), filepath.Join(work, "seat")
	for _, d := range []string{data, cwd} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := json.Marshal(map[string]any{"accounts": []map[string]string{
		{"id": "admin", "name": "Alice", "kind": "admin"},
		{"id": "sh", "name": "Shell", "kind": "cli", "cwd": cwd, "command": fakecli.Command(t),
			"launch_options": "-join -lines " + a.lines},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	// The seat inherits the app's environment: FAKECLI makes the test
	// binary it runs the fake CLI (no env value is stored in the account).
	a.tmux("new-session", "-d", "-s", "app", "-x", "200", "-y", "60",
		"env", "PULLCEPT_HOME="+data, fakecli.Env+"=1", "TERM=xterm-256color", "LANG=C.UTF-8", fakecli.PullceptBinary(t), "--no-server")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", a.screenOrEmpty())
		}
		a.quit()
		_ = exec.Command("tmux", "-L", a.sock, "kill-server").Run()
	})
	a.waitScreen("the accounts panel", "Shell")
	return a
}

func (a *app) tmuxOrEmpty(args ...string) string {
	out, _ := exec.Command("tmux", append([]string{"-L", a.sock}, args...)...).Output()
	return string(out)
}

func (a *app) tmux(args ...string) string {
	a.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", a.sock}, args...)...).CombinedOutput()
	if err != nil {
		a.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends keys as tmux names them ("Tab", "C-s", "M-Down", or text).
func (a *app) keys(keys ...string) {
	a.t.Helper()
	for _, k := range keys {
		a.tmux("send-keys", "-t", "app", k)
	}
}

// press sends one key and waits (at most a second, scaled: some keys
// change nothing) until the screen, styles included, shows its effect, so
// the next key is sent to what the person would see.
func (a *app) press(key string) {
	a.t.Helper()
	styled := func() string { return a.tmuxOrEmpty("capture-pane", "-p", "-e", "-t", "app") }
	before := styled()
	a.keys(key)
	deadline := time.NewTimer(testkit.Slow(time.Second))
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for styled() == before {
		select {
		case <-deadline.C:
			return
		case <-tick.C:
		}
	}
}

// leavePanel presses Esc on the accounts panel and waits until its cursor
// is gone: a key sent right after a lone Esc would be read as Alt+key.
func (a *app) leavePanel() {
	a.t.Helper()
	a.keys("Escape")
	testkit.EventuallyWithin(a.t, testkit.Slow(10*time.Second), "the panel lets the focus go", func() bool { return a.panelCursor() == "" })
}

func (a *app) screenOrEmpty() string { return a.tmuxOrEmpty("capture-pane", "-p", "-t", "app") }

// waitScreen waits until the screen shows want.
func (a *app) waitScreen(what, want string) string {
	a.t.Helper()
	var s string
	testkit.EventuallyWithin(a.t, testkit.Wait, what, func() bool {
		s = a.screenOrEmpty()
		return strings.Contains(s, want)
	})
	return s
}

// quit stops the app with SIGTERM to the pane's process (it stops its
// seats on the way out) and waits for the pane to close.
func (a *app) quit() {
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(a.tmuxOrEmpty("display-message", "-p", "-t", "app", "#{pane_pid}")), &pid); err != nil || pid <= 0 {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(testkit.Slow(10 * time.Second))
	for time.Now().Before(deadline) && syscall.Kill(pid, 0) == nil {
		time.Sleep(50 * time.Millisecond)
	}
}

// panel is the accounts panel as drawn: the columns from just left of its
// title on.
func (a *app) panel() string {
	lines := strings.Split(a.screenOrEmpty(), "\n")
	left := -1
	for i, r := range []rune(lines[0]) {
		if strings.HasPrefix(string([]rune(lines[0])[i:]), "Accounts") && r == 'A' {
			left = i
		}
	}
	if left < 2 {
		return ""
	}
	left -= 2 // the cursor's › stands left of the title
	var out []string
	for _, l := range lines {
		if r := []rune(l); len(r) > left {
			out = append(out, string(r[left:]))
		}
	}
	return strings.Join(out, "\n")
}

// panelCursor is the name on the accounts panel's cursor row ("" while
// the panel has no focus).
func (a *app) panelCursor() string {
	if m := regexp.MustCompile(`› (\S+)`).FindStringSubmatch(a.panel()); m != nil {
		return m[1]
	}
	return ""
}

// toPanel moves the focus to the accounts panel, its cursor on the row
// showing name.
func (a *app) toPanel(name string) {
	a.t.Helper()
	for i := 0; a.panelCursor() == ""; i++ {
		if i == 6 {
			a.t.Fatal("Tab does not reach the accounts panel")
		}
		a.press("Tab")
	}
	for a.panelCursor() != name { // up to name or the top: the cursor does not wrap around
		at := a.panelCursor()
		a.press("Up")
		if a.panelCursor() == at {
			break
		}
	}
	for i := 0; a.panelCursor() != name; i++ {
		if i == 8 {
			a.t.Fatalf("no row %s on the accounts panel", name)
		}
		a.press("Down")
	}
}

// startSeat starts the seat of the account shown as name in the open
// topic from the panel, waits until the panel says it runs and the room
// counts it (the rig's only seat), and leaves the panel.
func (a *app) startSeat(name string) {
	a.t.Helper()
	a.toPanel(name)
	a.keys("s")
	testkit.EventuallyWithin(a.t, testkit.Wait, name+"'s seat runs", func() bool { return seatRuns(a.screenOrEmpty(), name) })
	// Joined: the room counts the human and the seat (the @ popup offers a
	// seat account before it joins, so it is no sign of that).
	a.waitScreen(name+"'s seat joined the room", "· 2 · F1 help")
	a.leavePanel()
}

// say types text in the input bar, completing the first @ from the popup
// with Tab after typing prefix, then sends it, and returns the tag the seat
// read before body.
func (a *app) say(prefix, wantPopup, body string) map[string]any {
	a.t.Helper()
	a.keys(prefix)
	a.waitScreen("the @ popup offers "+wantPopup, "│@"+wantPopup+" │")
	a.keys("Tab", body, "Enter")
	var tag map[string]any
	testkit.EventuallyWithin(a.t, testkit.Wait, "the seat read "+body, func() bool {
		lines, _ := fakecli.Lines(a.lines)
		for i := 1; i < len(lines); i++ {
			if strings.Contains(lines[i], body) {
				return json.Unmarshal([]byte(strings.TrimPrefix(lines[i-1], "[pullcept] ")), &tag) == nil
			}
		}
		return false
	})
	return tag
}

// edit opens the editor on the panel row name, replaces the text of the
// field reached with tabs Tabs from the name with value, and saves.
func (a *app) edit(name string, tabs int, value string) {
	a.t.Helper()
	a.toPanel(name)
	a.keys("e")
	a.waitScreen("the editor", "Ctrl+S save")
	for range tabs {
		a.keys("Tab")
	}
	a.keys("End")
	for range 12 {
		a.keys("BSpace")
	}
	a.keys(value, "C-s")
	a.waitScreen("the save", "Saved account “"+value+"”")
}

// TestRenameInTheRealApp: with Shell's seat running in two topics, the
// human renames the seat's account (a nickname) and themself (a new name)
// in the account editor. At once, in both topics: the panel shows the new
// names, the @ popup offers only the seat's new name, the post it completes
// is addressed to it by that name, and the tag typed into the seat names
// the human anew (from) and the seat anew (to, you). The human's old posts
// stay on the right in the same colour as the new ones (docs/design.md §9
// "Identity").
func TestRenameInTheRealApp(t *testing.T) {
	a := startApp(t)
	a.startSeat("Shell")
	if tag := a.say("@Sh", "Shell", "first topic, before"); tag["from"] != "Alice" || fmt.Sprint(tag["to"]) != "[Shell]" {
		t.Fatalf("before the rename: tag %v", tag)
	}
	a.keys("C-n")
	a.startSeat("Shell")
	a.say("@Sh", "Shell", "second topic, before")

	a.edit("Shell", 1, "Shelly") // the nickname field
	a.edit("Alice", 0, "Alicia") // the name field
	a.leavePanel()
	for i, topic := range []string{"second", "first"} {
		if i > 0 {
			a.keys("M-Down")
			a.waitScreen("the "+topic+" topic open", topic+" topic, before · 2 · F1 help") // the status line's open topic
		}
		if p := a.panel(); !strings.Contains(p, "Alicia") || !strings.Contains(p, "Shelly") || strings.Contains(p, "Shell ") {
			t.Fatalf("%s topic: the panel does not show the new names:\n%s", topic, p)
		}
		tag := a.say("@Sh", "Shelly", topic+" topic, after")
		if tag["from"] != "Alicia" || fmt.Sprint(tag["to"]) != "[Shelly]" || tag["you"] != "Shelly" || tag["your_full_name"] != "Shell" {
			t.Fatalf("%s topic: tag after the rename %v", topic, tag)
		}
		a.checkOwnRows(topic+" topic, before", topic+" topic, after")
	}
}

// checkOwnRows requires the human's rows old and new in the chat's right
// half (the first line showing each: the status line below may repeat the
// topic's name), drawn in one colour.
func (a *app) checkOwnRows(old, new string) {
	a.t.Helper()
	sgrRE := regexp.MustCompile("\x1b\\[[0-9;]*m")
	s := a.tmux("capture-pane", "-p", "-e", "-t", "app")
	sgr := map[string]string{}
	for _, text := range []string{old, new} {
		for _, l := range strings.Split(s, "\n") {
			i := strings.Index(l, text)
			if i < 0 {
				continue
			}
			plain := sgrRE.ReplaceAllString(l, "")
			if col := len([]rune(plain[:strings.Index(plain, text)])); col < 100 {
				continue // the topic list
			}
			if codes := sgrRE.FindAllString(l[:i], -1); len(codes) > 0 {
				sgr[text] = codes[len(codes)-1]
			}
			break
		}
	}
	if sgr[old] == "" || sgr[old] != sgr[new] {
		a.t.Fatalf("the human's old and new rows not on the right in one colour: %q %q", sgr[old], sgr[new])
	}
}
