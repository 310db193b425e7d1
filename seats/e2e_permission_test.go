//go:build linux || darwin

package seats_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// permissionFake is the fake model of TestE2EClaudePermissionHold: the
// admin's first post gets a Bash call that creates marker (Claude Code in
// default permission mode asks the human first); the answer to that call's
// result is held until released, so the turn is still running when the
// held post is typed; any other input gets a short text.
type permissionFake struct {
	marker  string
	hold    chan struct{}
	release sync.Once
}

// permissionAsk is the body of the post the fake answers with the Bash call.
const permissionAsk = "please create the marker"

func (f *permissionFake) respond(q *fakeapi.Request) fakeapi.Reply {
	for _, p := range q.NewPosts() {
		if p.Body == permissionAsk {
			return fakeapi.CallTool(fakeapi.Tool{Name: "Bash"}, map[string]string{
				"command": "touch " + config.QuoteWord(f.marker), "description": "Create the marker file"})
		}
	}
	for _, res := range q.NewResults() {
		if res.Call != nil && res.Call.Tool.Name == "Bash" {
			return fakeapi.Reply{Text: "The marker is there.", Hold: f.hold}
		}
	}
	return fakeapi.TextReply("Read it.")
}

// TestE2EClaudePermissionHold: a real Claude Code seat in default
// permission mode stops on "Do you want to proceed?" for a Bash call. A
// room post that arrives then is held — never typed into the dialog, whose
// default answer its "\r" would pick — so the command does not run and the
// dialog stays open. The human answers in the pane; the command runs, and
// the held post is typed and reaches the model as its own user turn after
// the running one.
func TestE2EClaudePermissionHold(t *testing.T) {
	f := &permissionFake{hold: make(chan struct{})}
	r := newRig(t, f.respond)
	defer f.release.Do(func() { close(f.hold) })
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	f.marker = filepath.Join(r.root, "ran-the-command")
	ada := r.addAccount(config.Account{ID: "ada", Name: "Ada", Kind: config.KindClaudeCode,
		WorkDir: r.workDir("ada"), Command: fakeapi.CLIPath(t, fakeapi.CLIClaude),
		// Claude Code 2.1.328 starts in auto mode, whose server-side check
		// the fake does not answer (it then asks on a screen of its own).
		LaunchOptions: "--permission-mode default"})
	res, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)

	run := r.post(permissionAsk + " @Ada")
	e2eUntil(t, "Ada waits for permission", func() bool {
		return r.seatInfo(ada.ID).Activity.Kind == cli.ActivityPermission
	}, s.Done())
	e2eUntil(t, "the permission dialog on Ada's screen", func() bool {
		return strings.Contains(s.Screen().Text(), "Do you want to proceed?")
	}, s.Done())

	second := r.post("a second post while the dialog is open @Ada")
	e2eUntil(t, "the second post held for the permission wait", func() bool {
		st := seats.TypingOf(s)
		return st.Queued == 1 && slices.Contains(st.Holds, "permission")
	}, s.Done())
	if _, err := os.Stat(f.marker); !os.IsNotExist(err) {
		t.Fatalf("the command ran before the human answered (stat: %v)", err)
	}
	if !strings.Contains(s.Screen().Text(), "Do you want to proceed?") {
		t.Fatalf("the dialog closed without an answer:\n%s", s.Screen().Text())
	}
	if st := r.seatInfo(ada.ID).Typing; st.Queued != 1 || !slices.Equal(st.Holds, []string{"permission"}) {
		t.Errorf("the panel's view of the queue = %+v, want 1 held for the permission wait", st)
	}

	// The human picks "1. Yes" (the default) with Enter in the pane, and
	// presses it again if the dialog took no key yet (Claude Code ignores
	// keys for a moment after it shows one). Until the tool's result
	// arrives the post stays held: never typed into a closing dialog.
	var pressed time.Time
	e2eUntil(t, "the allowed command ran", func() bool {
		if _, err := os.Stat(f.marker); err == nil {
			return true
		}
		if time.Since(pressed) > time.Second {
			if err := s.Input([]byte("\r")); err != nil {
				t.Fatal(err)
			}
			pressed = time.Now()
		}
		return false
	}, s.Done())
	// The turn goes on (the model's answer is held): the post waits for
	// its end, never typed into it (issue 30: Claude Code would queue it
	// and send it with the next one as one message).
	e2eUntil(t, "the held post waiting for the turn's end", func() bool {
		st := seats.TypingOf(s)
		return st.Queued == 1 && st.Turn && len(st.Holds) == 0
	}, s.Done())
	f.release.Do(func() { close(f.hold) })
	e2eUntil(t, "the held post typed after the turn", func() bool {
		st := seats.TypingOf(s)
		return st.Queued == 0 && !st.Typing && len(st.Holds) == 0
	}, s.Done())

	var own *fakeapi.Request
	e2eUntil(t, "the held post at the model", func() bool {
		for _, ex := range r.sessionCalls(res.SessionID) {
			if len(carrying(ex.Request, second.MessageID)) > 0 {
				own = ex.Request
				return true
			}
		}
		return false
	}, s.Done())
	checkOwnTurn(t, own, second, run)
}

// checkOwnTurn: the request that first carries post p starts a user turn
// of its own — no tool result beside it, nothing of "while you were
// working" — and the post's tag line opens its text block; the earlier
// post run is already answered in the history.
func checkOwnTurn(t *testing.T, req *fakeapi.Request, p, run room.Post) {
	t.Helper()
	if n := len(req.NewResults()); n != 0 {
		t.Errorf("the held post came with %d tool results (folded into the running turn)", n)
	}
	texts := req.NewUserTexts()
	found := false
	for _, text := range texts {
		if strings.Contains(text, "while you were working") {
			t.Errorf("the held post was folded into the running turn: %q", text)
		}
		if strings.HasPrefix(text, "[pullcept] ") && strings.Contains(text, p.MessageID) {
			found = true
		}
	}
	if !found {
		t.Errorf("no user text block opens with the held post's tag: %q", texts)
	}
	if len(carrying(req, run.MessageID)) == 0 {
		t.Errorf("the request lacks the earlier post %s in its history", run.MessageID)
	}
}

// TestE2EClaudePermissionNoInThePane: the human answers Claude Code's own
// permission dialog with Esc ("No") in the pane. Claude fires no hook for
// it; the transcript's interrupt line ends the turn (issue 30), so the
// panel says idle, not "thinking…", and the post held for the dialog is
// typed and reaches the model as a user turn of its own.
func TestE2EClaudePermissionNoInThePane(t *testing.T) {
	f := &permissionFake{hold: make(chan struct{})}
	r := newRig(t, f.respond)
	defer f.release.Do(func() { close(f.hold) })
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	f.marker = filepath.Join(r.root, "ran-the-command")
	ada := r.addAccount(config.Account{ID: "ada", Name: "Ada", Kind: config.KindClaudeCode,
		WorkDir: r.workDir("ada"), Command: fakeapi.CLIPath(t, fakeapi.CLIClaude),
		LaunchOptions: "--permission-mode default"})
	res, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)

	r.post(permissionAsk + " @Ada")
	e2eUntil(t, "the permission dialog on Ada's screen", func() bool {
		return r.seatInfo(ada.ID).Activity.Kind == cli.ActivityPermission &&
			strings.Contains(s.Screen().Text(), "Do you want to proceed?")
	}, s.Done())
	f.release.Do(func() { close(f.hold) }) // nothing of this test waits on the model
	second := r.post("a post while the dialog is open @Ada")
	e2eUntil(t, "the post held for the dialog", func() bool {
		st := seats.TypingOf(s)
		return st.Queued == 1 && slices.Contains(st.Holds, "permission")
	}, s.Done())

	// Esc is "No" in Claude Code's dialog; pressed again while the dialog
	// still shows (Claude ignores keys for a moment after it opens one).
	var pressed time.Time
	e2eUntil(t, "the dialog closed by Esc", func() bool {
		if !strings.Contains(s.Screen().Text(), "Do you want to proceed?") {
			return true
		}
		if time.Since(pressed) > time.Second {
			if err := s.Input([]byte("\x1b")); err != nil {
				t.Fatal(err)
			}
			pressed = time.Now()
		}
		return false
	}, s.Done())
	e2eUntil(t, "Ada idle after No, not thinking", func() bool {
		return r.seatInfo(ada.ID).Activity.Kind == cli.ActivityIdle
	}, s.Done())
	if _, err := os.Stat(f.marker); !os.IsNotExist(err) {
		t.Fatalf("the refused command ran (stat: %v)", err)
	}
	e2eUntil(t, "the held post confirmed", func() bool {
		return !r.reports.firstAt("UserPromptSubmit", second.MessageID).IsZero()
	}, s.Done())
	var own *fakeapi.Request
	e2eUntil(t, "the held post at the model", func() bool {
		for _, ex := range r.sessionCalls(res.SessionID) {
			if len(carrying(ex.Request, second.MessageID)) > 0 {
				own = ex.Request
				return true
			}
		}
		return false
	}, s.Done())
	// Claude tells the model of the refusal in the same message: the
	// refused call's result (an error) beside the post, which opens a text
	// block of its own with its tag (not "while you were working").
	for _, res := range own.NewResults() {
		if !res.IsError {
			t.Errorf("the held post came with a tool result that is no refusal: %+v", res)
		}
	}
	opens := false
	for _, text := range own.NewUserTexts() {
		if strings.Contains(text, "while you were working") {
			t.Errorf("the held post was folded into a turn: %q", text)
		}
		opens = opens || strings.HasPrefix(text, "[pullcept] ") && strings.Contains(text, second.MessageID)
	}
	if !opens {
		t.Errorf("no user text block opens with the held post's tag: %q", own.NewUserTexts())
	}
	if st := seats.TypingOf(s); len(st.Unconfirmed) != 0 || st.Fused != 0 {
		t.Errorf("typing state at the end: %+v", st)
	}
}
