//go:build linux

package realapp

// `make demo` as a newcomer tries it (issue 35, README "Try it offline",
// docs/design.md §13 "The demo"): testdata/demo/run.sh in tmux at 120×40,
// driven only by keys and read only from the screen, with the real Claude
// Code and Codex against the fake model following testdata/demo/script.json.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/room/textcut"
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// demoRows are the demo's accounts panel, top down.
var demoRows = []string{"You", "Claude", "Codex", "Shell"}

// TestDemoInTheRealApp: the demo starts with its three accounts; Claude
// and Codex started from the panel both answer the human's post to the
// room; "@Claude run greet.sh" brings Claude Code's permission card, and
// allowing it with F7, y gives the command's output in Claude's answer,
// and Codex runs it with no card and no bubblewrap warning in its pane;
// "@Claude restart" and "@Codex restart" make each restart its own seat,
// which Pullcept's notices report, and Codex answers after its restart;
// Codex never answers Claude's posts to the human (the topic holds its
// four posts to the human only).
// Quitting stops the fake model and removes the temporary folder.
func TestDemoInTheRealApp(t *testing.T) {
	fakeapi.CLIPath(t, fakeapi.CLIClaude)
	fakeapi.CLIPath(t, fakeapi.CLICodex)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	fakemodel := filepath.Join(work, "fakemodel")
	if out, err := exec.Command("go", "build", "-o", fakemodel, "github.com/pullcept/pullcept/testdata/fakeapi/cmd/fakemodel").CombinedOutput(); err != nil {
		t.Fatalf("go build fakemodel: %v\n%s", err, out)
	}
	tmp := filepath.Join(work, "tmp") // the demo's mktemp lands here
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	pullcept := fakecli.PullceptBinary(t)
	r := &rig{t: t, work: work, sock: fmt.Sprintf("pullcept-demo-%d", os.Getpid())}
	r.tmux("-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", "120", "-y", "40",
		"env", "-i", "PATH="+os.Getenv("PATH"), "HOME="+work, "TMPDIR="+tmp, "TERM=xterm-256color", "LANG=C.UTF-8",
		"bash", filepath.Join(root, "testdata", "demo", "run.sh"), pullcept, fakemodel)
	r.tmux("set-option", "-w", "-t", "app", "remain-on-exit", "on") // the script's last words stay readable
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", r.screenOrEmpty())
			for _, name := range []string{"fake.log", filepath.Join("data", "pullcept.log")} {
				logs, _ := filepath.Glob(filepath.Join(tmp, "pullcept-demo.*", name))
				for _, l := range logs {
					b, _ := os.ReadFile(l)
					t.Logf("%s:\n%s", name, textcut.LastBytes(string(b), 20000))
				}
			}
		}
		_ = exec.Command("tmux", "-L", r.sock, "kill-server").Run() // a hangup: run.sh passes it on, cleans up
		testkit.Eventually(t, "the fake model stopped", func() bool { return !running(fakemodel) })
	})
	r.waitScreen("the demo's accounts", func(s string) bool { return strings.Contains(s, "Shell") && strings.Contains(s, "F1 help") })

	demoStart(r, "Claude", 2)
	demoStart(r, "Codex", 3)
	r.keys("Escape")
	r.waitScreen("the panel lets the focus go", func(s string) bool { return selected(s) == "" })

	r.text("hello everyone")
	r.keys("Enter")
	demoWait(r, "both seats answer the human's post to the room", "Claude here", "Codex here")

	demoSay(r, "Claude", "run greet.sh")
	demoWait(r, "Claude Code's permission card", "Permission · Claude · Bash", "./greet.sh Pullcept")
	r.keys("F7")
	r.waitScreen("the card has the keys", func(s string) bool { return strings.Contains(s, "y allow") })
	r.allow("the card took y", claudeWait, func(s string) bool { return !strings.Contains(s, "Permission · Claude") })
	demoWait(r, "Claude's answer with the command's output", "Ran ./greet.sh Pullcept", "Hello, Pullcept!")

	// Codex runs it too, unsandboxed: no bubblewrap needed (its pane is
	// checked for the warning below).
	demoSay(r, "Codex", "run greet.sh")

	// A restarted seat's new launch joins the room a moment after the
	// notice; a post said before is not typed into it (nor is "@Claude"
	// an address then): the room counts it again first.
	demoSay(r, "Claude", "restart")
	demoWait(r, "the session operation's notice", "Claude restarted itself (succeeded)")
	demoWait(r, "Claude back in the room", "· 3 · F1 help")
	// Codex reads the session list as its own tool output wraps it.
	demoSay(r, "Codex", "restart")
	demoWait(r, "Codex's restart notice", "Codex restarted itself (succeeded)")
	demoWait(r, "Codex back in the room", "· 3 · F1 help")

	// Codex takes its posts in order: its answer to this one comes after
	// any answer to Claude's posts before it, and after its restart.
	demoSay(r, "Codex", "hello")
	data, err := filepath.Glob(filepath.Join(tmp, "pullcept-demo.*", "data"))
	if err != nil || len(data) != 1 {
		t.Fatalf("the demo's data directory: %v %v", data, err)
	}
	var md string
	testkit.EventuallyWithin(t, claudeWait, "Codex's answer after its restart in the topic's log", func() bool {
		out, err := exec.Command(pullcept, "export", "hello", "--data", data[0]).Output()
		md = string(out)
		_, after, ok := strings.Cut(md, "Codex restarted itself (succeeded)")
		return err == nil && ok && strings.Contains(after, "## Codex ·") && strings.Contains(after, "Codex here")
	})
	if n := strings.Count(md, "## Codex"); n != 4 {
		t.Errorf("Codex posted %d times, want 4 (hello, greet.sh's output, restarting, hello again):\n%s", n, md)
	}
	if n := strings.Count(md, "Hello, Pullcept!"); n != 2 {
		t.Errorf("greet.sh's output is in %d answers, want Claude's and Codex's:\n%s", n, md)
	}
	demoCodexWarnsNothing(r)
	for _, l := range strings.Split(md, "\n") {
		if (strings.HasPrefix(l, "## Codex ") || strings.HasPrefix(l, "## Claude ")) && !strings.HasSuffix(l, " → You") {
			t.Errorf("a seat answered someone else than the human: %q\n%s", l, md)
		}
	}

	r.keys("C-q")
	r.waitScreen("the quit dialog", func(s string) bool { return strings.Contains(s, "Quit Pullcept") })
	r.keys("Right")
	r.keys("Enter")
	demoWait(r, "the demo cleaned up", "demo: stopped the seats and the fake model, removed")
	if left, _ := filepath.Glob(filepath.Join(tmp, "pullcept-demo.*")); len(left) != 0 {
		t.Errorf("the demo left %v", left)
	}
	testkit.Eventually(t, "the fake model stopped", func() bool { return !running(fakemodel) })
}

// demoCodexWarnsNothing shows the seats' panes, wide (side panels hidden),
// and fails if Codex's footer counts a warning ("⚠ 1 warning · f2 to
// view": the missing bubblewrap, docs/clis.md §3.2); then hides them again.
func demoCodexWarnsNothing(r *rig) {
	r.t.Helper()
	r.keys("C-b")
	r.waitScreen("the topics panel hidden", func(s string) bool { return !strings.Contains(s, "+ New topic") })
	r.keys("C-o")
	r.waitScreen("the accounts panel hidden", func(s string) bool { return !strings.Contains(s, "Claude Code — 1") })
	r.keys("C-t")
	r.waitScreen("Codex's pane with its footer", func(s string) bool {
		return strings.Contains(s, "╭─ Codex · ") && strings.Contains(s, "for agents")
	})
	for _, l := range strings.Split(r.screenOrEmpty(), "\n") {
		if strings.Contains(l, "⚠") && strings.Contains(l, "f2") {
			r.t.Errorf("Codex warns: %q\n%s", strings.TrimSpace(l), r.screenOrEmpty())
		}
	}
	r.keys("C-t")
	r.waitScreen("the panes hidden", func(s string) bool { return !strings.Contains(s, "╭─ Codex · ") })
	r.keys("C-b")
	r.waitScreen("the topics panel back", func(s string) bool { return strings.Contains(s, "+ New topic") })
	r.keys("C-o")
	r.waitScreen("the accounts panel back", func(s string) bool { return strings.Contains(s, "Claude Code — 1") })
}

// demoStart moves the panel's cursor to name's row (from the input bar,
// Tab three times, then one row at a time, each move seen) and starts its
// seat, waiting until the room counts n and the start ended.
func demoStart(r *rig, name string, n int) {
	r.t.Helper()
	if selected(r.screenOrEmpty()) == "" {
		r.keys("Tab", "Tab", "Tab")
		r.waitScreen("the accounts panel has the keys", func(s string) bool { return selected(s) != "" })
	}
	for at := selected(r.screenOrEmpty()); at != name; at = selected(r.screenOrEmpty()) {
		i, want := slices.Index(demoRows, at), slices.Index(demoRows, name)
		if i < 0 {
			r.t.Fatalf("the cursor is on %q, not a row of %q:\n%s", at, demoRows, r.screenOrEmpty())
		}
		key := "Down"
		if want < i {
			key = "Up"
		}
		r.keys(key)
		r.waitScreen("the cursor left "+at, func(s string) bool { return selected(s) != at })
	}
	r.keys("s")
	demoWait(r, name+" joined the room", fmt.Sprintf("· %d · F1 help", n))
	// A Codex seat's sidecar joins the room before its start ends, and a
	// post said meanwhile is typed into no terminal (seats.Manager.Enqueue
	// refuses it; noticed, not this test's subject): the status line says
	// the start ended.
	testkit.EventuallyWithin(r.t, claudeWait, name+"'s start ended", func() bool {
		s := r.screenOrEmpty()
		return strings.Contains(s, name+" started fresh.") || strings.Contains(s, name+" resumed session")
	})
}

// demoSay addresses body to name through the @ popup and sends it.
func demoSay(r *rig, name, body string) {
	r.t.Helper()
	r.text("@" + name[:3])
	r.waitScreen("the @ popup offers "+name, func(s string) bool { return strings.Contains(s, "│@"+name+" ") })
	r.keys("Tab")
	r.text(body)
	r.waitScreen("the input bar holds "+body, func(s string) bool { return strings.Contains(s, "@"+name+" "+body) })
	r.keys("Enter")
	r.waitScreen("the post left the input bar", func(s string) bool { return strings.Contains(s, "Say something to the room") })
}

// demoWait waits, as long as a real CLI may take, until the screen shows
// every one of texts.
func demoWait(r *rig, what string, texts ...string) {
	r.t.Helper()
	testkit.EventuallyWithin(r.t, claudeWait, what, func() bool {
		s := r.screenOrEmpty()
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// running reports whether a process runs the program at path.
func running(path string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.HasPrefix(string(b), path+"\x00") {
			return true
		}
	}
	return false
}
