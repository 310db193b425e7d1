//go:build linux

package realapp

// The rig of the attention tests (issue 33, docs/design.md §17
// "Attention"): the pullcept binary in tmux under util-linux `script`, so
// that a file holds every byte the app wrote to its own terminal — the
// rings among them — while tmux draws the screen as a person sees it.
// Focus reports come from the test as raw input (CSI I, CSI O), as a
// terminal sends them. One seat may be the real Claude Code against the
// fake model API (testdata/fakeapi, on loopback); the others are the fake
// CLI.

import (
	"encoding/json"
	"fmt"
	"maps"
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
	"github.com/pullcept/pullcept/testdata/fakeapi"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// claudeWait bounds what waits on the real Claude Code: its start (a
// native binary of 200 MB, its MCP servers and hooks) and its turns, on a
// loaded two-core box.
var claudeWait = testkit.Slow(60 * time.Second)

// The Claude Code seat of the attention rig and what its fake model does
// for a post to it (its body): "tell TEXT" → say_to_room
// TEXT to Alice; "run NAME" → Bash "touch <root>/NAME", which needs the
// human's permission in default mode (a card); "limit" → the plan's usage
// limit refusal (Claude writes its stop into its transcript); anything
// else → a plain answer, no post.
const (
	linID   = "lin"
	linName = "Lin"
)

// attnOptions configure an attention rig.
type attnOptions struct {
	// claude adds Lin, the real Claude Code in default permission mode;
	// gateway gives it the credential with which it reads the plan's
	// limits (fakeapi.GatewayToken), so "limit" stops it.
	claude, gateway bool
	// inTmux sets TMUX, as tmux does in its panes: a ring then goes
	// through tmux's passthrough, a BEL after it.
	inTmux     bool
	seats      []seat                    // fake CLI accounts (-lines is added)
	accounts   []fakecli.ConfigAccount   // other accounts, as written
	settings   map[string]any            // config.json's top-level keys
	mcpServers map[string]map[string]any // mcp-servers.json's entries
	// served: the window runs `pullcept`, a client of the data
	// directory's server (docs/serve.md), which it starts; more windows
	// attach with window. Else `pullcept --no-server`.
	served bool
}

// attnRig is one window of the app: its own tmux server, the app in it
// under script, its terminal's output recorded.
type attnRig struct {
	*rig
	rec  string // the typescript: every byte the app wrote to its terminal
	root string // where Lin's commands touch their files
	fake *fakeapi.Server
	pid  int      // the app's process (the client's when served)
	rows []string // the accounts panel's rows, top down
	data string   // the data directory
	env  []string // the app's environment but PULLCEPT_HOME, TERM, LANG
	args []string // pullcept's arguments
}

// newAttnRig writes the data directory and starts pullcept at 200×50
// under `script -f` in tmux, then waits for its accounts panel.
func newAttnRig(t *testing.T, o attnOptions) *attnRig {
	t.Helper()
	for _, tool := range []string{"tmux", "script"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (apt-get install tmux bsdutils: util-linux's script): %v", tool, err)
		}
	}
	work := t.TempDir()
	r := &attnRig{rig: &rig{t: t, work: work, sock: fmt.Sprintf("pullcept-attn-%d-%s", os.Getpid(), t.Name()), seats: o.seats},
		rec: filepath.Join(work, "typescript"), root: filepath.Join(work, "touched")}
	data := filepath.Join(work, "data")
	for _, d := range []string{data, r.root} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + work, "PATH=" + os.Getenv("PATH")}
	var accts []fakecli.ConfigAccount
	if o.claude {
		seatDir := filepath.Join(work, "seat-"+linID)
		if err := os.MkdirAll(seatDir, 0o700); err != nil {
			t.Fatal(err)
		}
		env = r.startFake(seatDir, o.gateway)
		accts = append(accts, fakecli.ConfigAccount{ID: linID, Name: linName, Kind: string(config.KindClaudeCode), Cwd: seatDir,
			Command: fakeapi.CLIPath(t, fakeapi.CLIClaude), Options: "--permission-mode default"})
	}
	for _, s := range o.seats {
		cwd := filepath.Join(work, "seat-"+s.id)
		if err := os.MkdirAll(cwd, 0o700); err != nil {
			t.Fatal(err)
		}
		accts = append(accts, fakecli.ConfigAccount{ID: s.id, Name: s.name, Kind: string(config.KindCLI), Cwd: cwd,
			Command: fakecli.Command(t), Options: strings.TrimSpace("-lines " + r.linesFile(s.id) + " " + s.opts)})
	}
	accts = append(accts, o.accounts...)
	r.rows = []string{"Alice"}
	for _, a := range accts { // one kind after another, as the panel groups them
		r.rows = append(r.rows, a.Name)
	}
	r.rows = append(r.rows, slices.Sorted(maps.Keys(o.mcpServers))...)
	settings := map[string]any{"language": "en"}
	for k, v := range o.settings {
		settings[k] = v
	}
	fakecli.WriteConfig(t, data, settings, accts...)
	if o.mcpServers != nil {
		b, err := json.MarshalIndent(map[string]any{"mcpServers": o.mcpServers}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, config.MCPServersFileName), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A clean environment (env -i): the seats inherit the app's, Claude
	// Code's fenced one included, and FAKECLI, which makes the test binary
	// a fake CLI seat runs the fake CLI (an account's env value would be a
	// warning on the status line); no TMUX unless asked for.
	env = append(env, fakecli.Env+"=1")
	if o.inTmux {
		env = append(env, fmt.Sprintf("TMUX=/tmp/tmux-%d/%s,1,0", os.Getuid(), r.sock))
	}
	r.data, r.env, r.args = data, env, []string{"--no-server"}
	if o.served {
		r.args = nil
		bin := fakecli.PullceptBinary(t)
		t.Cleanup(func() { _ = exec.Command(bin, "kill-server", "--data", data).Run() })
	}
	r.start()
	return r
}

// window opens another window on r's data directory: a client of its
// server (attnOptions.served), in a tmux server of its own.
func (r *attnRig) window(name string) *attnRig {
	r.t.Helper()
	w := &attnRig{rig: &rig{t: r.t, work: r.work, sock: r.sock + "-" + name, seats: r.seats},
		rec: filepath.Join(r.work, "typescript-"+name), root: r.root, rows: r.rows, data: r.data, env: r.env, args: r.args}
	w.start()
	return w
}

// start runs the app in its window: pullcept under script in tmux.
func (r *attnRig) start() {
	t := r.t
	t.Helper()
	script, _ := exec.LookPath("script")
	args := append([]string{"-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", "200", "-y", "50", "env", "-i"}, r.env...)
	args = append(args, "PULLCEPT_HOME="+r.data, "TERM=xterm-256color", "LANG=C.UTF-8",
		script, "-q", "-f", r.rec, "-c", "exec "+shellJoin(append([]string{fakecli.PullceptBinary(t)}, r.args...)))
	r.tmux(args...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen of %s:\n%s", r.sock, r.screenOrEmpty())
			t.Logf("rings: %q", r.rings())
		}
		r.quit()
		_ = exec.Command("tmux", "-L", r.sock, "kill-server").Run()
	})
	testkit.Eventually(t, "the app under script", func() bool {
		r.pid = childOf(r.appPID())
		return r.pid > 0
	})
	r.waitScreen("the app shows its accounts", func(s string) bool { return strings.Contains(s, "F1 help") })
}

// startFake starts the fake model API for Lin and prepares an isolated,
// offline Claude Code trusting seatDir; it returns the environment the app
// runs in (the seat inherits it).
func (r *attnRig) startFake(seatDir string, gateway bool) []string {
	t := r.t
	opts := fakeapi.Options{Respond: attnModel(r.root)}
	if gateway {
		now := time.Now().Truncate(time.Second)
		opts.ClaudeLimits = &fakeapi.ClaudeLimits{
			FiveHour: &fakeapi.ClaudeLimit{Utilization: 0.23, ResetsAt: now.Add(3 * time.Hour)},
			SevenDay: &fakeapi.ClaudeLimit{Utilization: 0.41, ResetsAt: now.Add(100 * time.Hour)},
		}
	}
	fake, err := fakeapi.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	base, err := fake.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Close() })
	r.fake = fake
	env, _ := fakeapi.ClaudeEnv(t, base, seatDir)
	if gateway {
		for i, kv := range env {
			if strings.HasPrefix(kv, "ANTHROPIC_AUTH_TOKEN=") {
				env[i] = "ANTHROPIC_AUTH_TOKEN=" + fakeapi.GatewayToken()
			}
		}
	}
	return slices.DeleteFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "TERM=") || strings.HasPrefix(kv, "LANG=")
	})
}

// attnModel is Lin's fake model (see linID).
func attnModel(root string) func(*fakeapi.Request) fakeapi.Reply {
	say := fakeapi.Script{Say: func(p fakeapi.TaggedPost) fakeapi.SayArgs {
		_, text, _ := strings.Cut(p.Body, "tell ")
		return fakeapi.SayArgs{Content: strings.TrimSpace(text), To: []string{"Alice"}, LastSeen: p.Tag.MessageID}
	}}
	return func(r *fakeapi.Request) fakeapi.Reply {
		if len(r.OutputSchema) > 0 {
			return say.Decide(r) // the title side request
		}
		if res := r.NewResults(); len(res) > 0 {
			if c := res[len(res)-1].Call; c != nil && c.Tool.Name == "Bash" {
				return fakeapi.TextReply("Ran it.")
			}
			return say.Decide(r) // the tool search, or say_to_room's result
		}
		posts := r.NewPosts()
		if len(posts) == 0 {
			return fakeapi.TextReply("OK.")
		}
		body := posts[len(posts)-1].Body
		words := strings.Fields(body)
		switch i := slices.IndexFunc(words, func(w string) bool { return w == "tell" || w == "run" || w == "limit" }); {
		case i < 0:
			return fakeapi.TextReply("OK.")
		case words[i] == "tell":
			return say.Decide(r)
		case words[i] == "limit":
			return fakeapi.ClaudeRateLimit(time.Now().Add(time.Hour).Truncate(time.Second))
		case i+1 < len(words):
			name := words[i+1]
			return fakeapi.CallTool(fakeapi.Tool{Name: "Bash"}, map[string]string{
				"command": "touch " + config.QuoteWord(filepath.Join(root, name)), "description": "Touch " + name})
		}
		return fakeapi.TextReply("OK.")
	}
}

// childOf is the one child of process pid (0 while it has none).
func childOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// quit stops the app with SIGTERM (it stops its seats on the way out) and
// waits until it is gone.
func (r *attnRig) quit() {
	if r.pid <= 0 {
		return
	}
	_ = syscall.Kill(r.pid, syscall.SIGTERM)
	deadline := time.Now().Add(testkit.Slow(20 * time.Second))
	for time.Now().Before(deadline) && syscall.Kill(r.pid, 0) == nil {
		time.Sleep(50 * time.Millisecond)
	}
}

// focusOut and focusIn send the terminal's focus reports to the app as a
// terminal does: CSI O when its window loses focus, CSI I when it gets it.
func (r *attnRig) focusOut() { r.t.Helper(); r.tmux("send-keys", "-t", "app", "-H", "1b", "5b", "4f") }
func (r *attnRig) focusIn()  { r.t.Helper(); r.tmux("send-keys", "-t", "app", "-H", "1b", "5b", "49") }

// ringRE is one OSC 9 notification: ESC ] 9 ; text, ended by BEL or ST.
var ringRE = regexp.MustCompile("\x1b\\]9;([^\x07\x1b]*)(?:\x07|\x1b\\\\)")

// passedRE is an OSC 9 ring as it goes through tmux (ansi.TmuxPassthrough:
// DCS tmux; the sequence with its ESC doubled, ST), then a BEL.
var passedRE = regexp.MustCompile("\x1bPtmux;\x1b\x1b\\]9;[^\x07\x1b]*\x07\x1b\\\\\x07")

// passed counts the rings written through tmux's passthrough.
func (r *attnRig) passed() int {
	b, _ := os.ReadFile(r.rec)
	return len(passedRE.FindAll(b, -1))
}

// rings are the texts of the OSC 9 notifications the app wrote to its
// terminal so far, in order (through tmux's passthrough or not).
func (r *attnRig) rings() []string {
	b, _ := os.ReadFile(r.rec)
	var out []string
	for _, m := range ringRE.FindAllSubmatch(b, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// waitRings waits until the app rang n times and returns the rings.
func (r *attnRig) waitRings(what string, n int, within time.Duration) []string {
	r.t.Helper()
	var got []string
	testkit.EventuallyWithin(r.t, within, what, func() bool {
		got = r.rings()
		return len(got) >= n
	})
	return got
}

// needRE is the status line's count of what needs the human.
var needRE = regexp.MustCompile(`! (\d+) need you`)

// need is the count the status line shows (0 when it shows none).
func need(screen string) int {
	m := needRE.FindStringSubmatch(screen)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// toPanel moves the focus from the input bar to the accounts panel (Tab
// three times: input, chat, topics, accounts; a permission card that shows
// comes after them) and its cursor to name's row, one row at a time, each
// move seen before the next.
func (r *attnRig) toPanel(name string) {
	r.t.Helper()
	r.keys("Tab", "Tab", "Tab")
	r.waitScreen("the accounts panel has the keys", func(s string) bool { return selected(s) != "" })
	want := slices.Index(r.rows, name)
	for at := selected(r.screenOrEmpty()); at != name; at = selected(r.screenOrEmpty()) {
		i := slices.Index(r.rows, at)
		if i < 0 || want < 0 {
			r.t.Fatalf("the cursor is on %q, not a row of %q:\n%s", at, r.rows, r.screenOrEmpty())
		}
		key := "Down"
		if want < i {
			key = "Up"
		}
		r.keys(key)
		r.waitScreen("the cursor left "+at, func(s string) bool { return selected(s) != at })
	}
}

// leavePanel gives the keys back to the input bar from the panel: Esc,
// then wait until the panel's cursor is gone (a key right after a lone Esc
// would be read as Alt+key).
func (r *attnRig) leavePanel() {
	r.t.Helper()
	r.keys("Escape")
	r.waitScreen("the panel lets the focus go", func(s string) bool { return selected(s) == "" })
}

// answerer is a fake CLI seat that answers each post addressed to it with
// one post to Alice, the human.
func answerer(id, name string) seat {
	return seat{id: id, name: name, opts: "-join -echo -mine -to Alice"}
}

// startSeat starts name's seat in the open topic from the accounts panel
// and waits until the room counts n connections (the human's and the
// seats'), then gives the keys back to the input bar.
func (r *attnRig) startSeat(name string, n int, within time.Duration) {
	r.t.Helper()
	r.toPanel(name)
	r.keys("s")
	want := fmt.Sprintf("· %d · F1 help", n)
	testkit.EventuallyWithin(r.t, within, name+" joined the room", func() bool {
		return strings.Contains(r.screenOrEmpty(), want)
	})
	r.leavePanel()
}

// say posts body to name (completed from the @ popup) and waits until it
// left the input bar.
func (r *attnRig) say(name, body string) {
	r.t.Helper()
	r.text("@" + name[:2])
	r.waitScreen("the @ popup offers "+name, func(s string) bool { return strings.Contains(s, "│@"+name+" │") })
	r.keys("Tab")
	r.text(body)
	r.waitScreen("the input bar holds "+body, func(s string) bool { return strings.Contains(s, "@"+name+" "+body) })
	r.keys("Enter")
	r.waitScreen("the post left the input bar", func(s string) bool { return strings.Contains(s, "Say something to the room") })
}

// cardShows waits for Lin's permission card for the command touching name.
func (r *attnRig) cardShows(name string) {
	r.t.Helper()
	testkit.EventuallyWithin(r.t, claudeWait, "Lin's card for "+name, func() bool {
		s := r.screenOrEmpty()
		return strings.Contains(s, "Permission · "+linName+" · Bash") && strings.Contains(s, filepath.Join(r.root, name))
	})
}

// allowCard gives the card the keys (F7), allows it (y) and waits until
// the command ran and the card is gone.
func (r *attnRig) allowCard(name string) {
	r.t.Helper()
	r.keys("F7")
	r.waitScreen("the card has the keys", func(s string) bool { return strings.Contains(s, "y allow") })
	r.allow("the card took y", claudeWait, func(s string) bool { return !strings.Contains(s, "Permission · "+linName) })
	testkit.EventuallyWithin(r.t, claudeWait, "Lin ran the command touching "+name, func() bool {
		_, err := os.Stat(filepath.Join(r.root, name))
		return err == nil
	})
	r.waitScreen("the card went", func(s string) bool { return !strings.Contains(s, "Permission · "+linName) })
}

// linTold waits until the chat shows Lin's post text to Alice.
func (r *attnRig) linTold(text string) {
	r.t.Helper()
	testkit.EventuallyWithin(r.t, claudeWait, "Lin's post "+text, func() bool {
		s := r.screenOrEmpty()
		return strings.Contains(s, linName+" → Alice") && hasRow(s, text)
	})
}

// hasRow reports whether a row of screen holds text as its whole content.
func hasRow(screen, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) == text {
			return true
		}
	}
	return false
}

// checkRings fails unless the rings are exactly what want names, in order:
// each ring's text holds its entry ("Ana wrote to you").
func (r *attnRig) checkRings(got []string, want ...string) {
	r.t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.Contains(got[i], want[i])
	}
	if !ok {
		r.t.Fatalf("rings %q, want %q", got, want)
	}
}

// waitNeed waits until the status line counts n items (0: none shown).
func (r *attnRig) waitNeed(what string, n int) string {
	r.t.Helper()
	return r.waitScreen(what, func(s string) bool { return need(s) == n })
}

// openTopic is the open topic's name as the status line ends with it
// ("… · NAME · N · F1 help", right of the report and its padding).
func openTopic(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimRight(l, " ")
		if !strings.HasSuffix(l, " · F1 help") {
			continue
		}
		for _, sep := range []string{"  ", "… "} { // the report's padding, or the report cut
			if i := strings.LastIndex(l, sep); i >= 0 {
				l = l[i+len(sep):]
			}
		}
		if parts := strings.Split(strings.TrimSpace(l), " · "); len(parts) >= 3 {
			return parts[len(parts)-3]
		}
	}
	return ""
}

// jump presses F5 and waits until the screen shows where it went (landed)
// and the status line counts left items.
func (r *attnRig) jump(what string, left int, landed func(string) bool) string {
	r.t.Helper()
	r.keys("F5")
	return r.waitScreen("F5 went to "+what, func(s string) bool { return landed(s) && need(s) == left })
}

// newTopic opens a new topic (Ctrl+N) and names it with a first post
// addressed to no one.
func (r *attnRig) newTopic(name string) {
	r.t.Helper()
	r.keys("C-n")
	r.waitScreen("a new topic", func(s string) bool { return openTopic(s) == "New topic" })
	r.text(name)
	r.keys("Enter")
	r.waitScreen("the topic is "+name, func(s string) bool { return openTopic(s) == name })
}
