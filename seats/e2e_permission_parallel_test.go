//go:build linux || darwin

package seats_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// readsRig is a real Claude Code seat in default permission mode whose
// fake model answers "read them" with two Read calls in one answer (Claude
// Code runs them in parallel), and the results with a text. A Read of a
// file outside the seat's directory asks the human first.
type readsRig struct {
	*rig
	s       *seats.Seat
	session string
}

// writeFile writes content to a new file in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// heldFor waits until n posts wait in Ada's queue for one of the holds.
func (r *readsRig) heldFor(n int, holds ...string) {
	r.t.Helper()
	e2eUntil(r.t, "posts held", func() bool {
		st := seats.TypingOf(r.s)
		return st.Queued == n && len(st.Holds) > 0 && !slices.ContainsFunc(st.Holds, func(h string) bool { return !slices.Contains(holds, h) })
	}, r.s.Done())
	r.t.Logf("held: %+v, activity %+v", seats.TypingOf(r.s), r.seatInfo("ada").Activity)
}

// answerUntil presses key in Ada's pane once a dialog shows, and again
// while done stays false: Claude Code ignores keys for a moment after a
// dialog shows. It returns the number of presses.
func (r *readsRig) answerUntil(key, what string, done func() bool) int {
	r.t.Helper()
	presses := 0
	var last time.Time
	// A press is made once the dialog is on screen, and waits 5 s for its
	// effect, twice as long after each further press: a press ignored as
	// the dialog appeared is pressed again, but on a loaded machine a press
	// taken and drawn late is not followed by one that answers the next
	// dialog (seen twice in cold-cache CI runs at 1.5 s).
	e2eUntil(r.t, "a dialog on screen before "+what, func() bool {
		return done() || strings.Contains(r.s.Screen().Text(), "Do you want to proceed?")
	}, r.s.Done())
	every := 5 * time.Second
	e2eUntil(r.t, what, func() bool {
		if done() {
			return true
		}
		if time.Since(last) > every {
			if err := r.s.Input([]byte(key)); err != nil {
				r.t.Fatal(err)
			}
			if presses++; presses > 1 {
				every *= 2
			}
			last = time.Now()
		}
		return false
	}, r.s.Done())
	return presses
}

// sawResult reports whether a tool result holding text reached the model.
func (r *readsRig) sawResult(text string) bool {
	for _, ex := range r.sessionCalls(r.session) {
		for _, res := range ex.Request.NewResults() {
			if strings.Contains(res.Text, text) {
				return true
			}
		}
	}
	return false
}

// reached waits until post p reaches the model.
func (r *readsRig) reached(p room.Post) {
	r.t.Helper()
	e2eUntil(r.t, "the held post at the model", func() bool {
		for _, ex := range r.sessionCalls(r.session) {
			if len(carrying(ex.Request, p.MessageID)) > 0 {
				return true
			}
		}
		return false
	}, r.s.Done())
}

// TestE2EClaudeParallelToolKeepsTheHold: of two Reads in one answer, one
// (outside the seat's directory) asks the human and the other does not.
// The other's result arrives while the dialog is open and must not end the
// hold (the breaker review found it did: a room post's "\r" then approved
// the outside Read and the post was lost). The post waits; the human's
// answer reads the file; the post then reaches the model.
func TestE2EClaudeParallelToolKeepsTheHold(t *testing.T) {
	outside := writeFile(t, t.TempDir(), "a.txt", "SECRET-OUTSIDE\n")
	var inside atomic.Value // the seat's directory is known once the rig is up
	r := newReadsRigWith(t, func() (string, string) { return outside, inside.Load().(string) })
	inside.Store(writeFile(t, r.workDir("ada"), "inside.txt", "gamma\n"))
	r.post("read them @Ada")
	e2eUntil(t, "the inside Read done while the dialog is open", func() bool {
		return r.reports.has("PostToolUse", "inside.txt") && r.reports.has("PermissionRequest", "a.txt")
	}, r.s.Done())
	e2eUntil(t, "the dialog on screen", func() bool {
		return strings.Contains(r.s.Screen().Text(), "Do you want to proceed?")
	}, r.s.Done())
	post := r.post("a post while the dialog is open @Ada")
	r.heldFor(1, cli.HoldPermission)
	if r.sawResult("SECRET-OUTSIDE") || r.reports.has("PostToolUse", "a.txt") {
		t.Fatal("the outside file was read before the human answered")
	}
	r.answerUntil("\r", "the human's answer read the outside file", func() bool { return r.reports.has("PostToolUse", "a.txt") })
	r.reached(post)
	if !r.sawResult("SECRET-OUTSIDE") {
		t.Error("the allowed Read's result never reached the model")
	}
}

// TestE2EClaudeTwoDialogs: two Reads outside the seat's directory ask at
// once ("1 of 2"). The human answers the first (its Read may run then), and
// the second dialog is still open — posts stay held for it (the breaker review
// found the first tool's result released them, and a post's "\r" approved
// the second Read). The human answers the second; the post then reaches
// the model. Claude Code shows the dialogs in its own order, which on a
// busy machine is neither the calls' order nor the order their requests
// reach the room (measured): so "the first" is whichever shows first. A
// press closes no card on a guess: until a Read runs, both cards stay open
// in the room, and posts are held for the permission (before, the press
// was taken for the first request to arrive, and its card closed while
// its dialog could be the one still on screen).
func TestE2EClaudeTwoDialogs(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", "FIRST-OUTSIDE\n")
	b := writeFile(t, dir, "b.txt", "SECOND-OUTSIDE\n")
	r := newReadsRigWith(t, func() (string, string) { return a, b })
	r.post("read them @Ada")
	e2eUntil(t, "both permission requests", func() bool {
		return r.reports.has("PermissionRequest", "a.txt") && r.reports.has("PermissionRequest", "b.txt")
	}, r.s.Done())
	post := r.post("a post while two dialogs wait @Ada")
	r.heldFor(1, cli.HoldPermission)

	// The first answer shows "2 of 2"; the Read it allowed may run at once,
	// and its result must not release the post while the other dialog waits.
	ran := func() []string {
		var out []string
		for _, f := range []string{"a.txt", "b.txt"} {
			if r.reports.has("PostToolUse", f) {
				out = append(out, f)
			}
		}
		return out
	}
	first := r.answerUntil("\r", "the first dialog answered", func() bool {
		return strings.Contains(r.s.Screen().Text(), "2 of 2") || len(ran()) > 0
	})
	t.Logf("the first answer took %d presses of Enter (keys are ignored as a dialog shows); ran: %v", first, ran())
	if len(ran()) > 1 {
		t.Fatal("one answer, yet both Reads ran")
	}
	if first == 1 {
		r.cardsStayOpen(ran)
	}
	// Keys the dialog ignored were counted as answers: the reason may say
	// answered, but the post is held until the second Read's own result.
	r.heldFor(1, cli.HoldPermission, cli.HoldAnswered)
	e2eUntil(t, "the second dialog on screen", func() bool {
		return strings.Contains(r.s.Screen().Text(), "Do you want to proceed?")
	}, r.s.Done())
	r.answerUntil("\r", "the second dialog answered and both Reads ran", func() bool {
		return len(ran()) == 2
	})
	r.reached(post)
	if !r.sawResult("FIRST-OUTSIDE") || !r.sawResult("SECOND-OUTSIDE") {
		t.Error("the allowed Reads' results did not reach the model")
	}
}

// cardsStayOpen checks, after one press answered one of the two dialogs,
// that no card closed on a guess: every Read that has not run keeps its
// card in the room (which dialog the press answered is known only once its
// Read runs), and posts are held for the permission — a dialog is open.
func (r *readsRig) cardsStayOpen(ran func() []string) {
	r.t.Helper()
	var cards []string // read before ran: a Read not run then had not run now
	for _, c := range r.hub.PermissionAsks() {
		cards = append(cards, c.Summary)
	}
	holds := seats.TypingOf(r.s).Holds
	done := ran()
	for _, f := range []string{"a.txt", "b.txt"} {
		if !slices.Contains(done, f) && !slices.ContainsFunc(cards, func(s string) bool { return strings.HasSuffix(s, f) }) {
			r.t.Errorf("one press, %v ran: %s has not run, yet its card closed: cards %q", done, f, cards)
		}
	}
	if !slices.Equal(holds, []string{cli.HoldPermission}) {
		r.t.Errorf("one press, %v ran: a dialog is open, yet posts are held for %v", done, holds)
	}
}

// newReadsRigWith starts the rig; files names the two Reads' files when
// "read them" arrives.
func newReadsRigWith(t *testing.T, files func() (string, string)) *readsRig {
	t.Helper()
	respond := func(q *fakeapi.Request) fakeapi.Reply {
		for _, p := range q.NewPosts() {
			if p.Body == "read them" {
				first, second := files()
				rep := fakeapi.CallTool(fakeapi.Tool{Name: "Read"}, map[string]string{"file_path": first})
				rep.Extra = []fakeapi.ToolCall{{Tool: fakeapi.Tool{Name: "Read"}, Input: readInput(second)}}
				return rep
			}
		}
		if len(q.NewResults()) > 0 {
			return fakeapi.TextReply("Done reading.")
		}
		return fakeapi.TextReply("Read it.")
	}
	r := newRig(t, respond)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	r.addAccount(config.Account{ID: "ada", Name: "Ada", Kind: config.KindClaudeCode,
		WorkDir: r.workDir("ada"), Command: fakeapi.CLIPath(t, fakeapi.CLIClaude),
		LaunchOptions: "--permission-mode default"})
	res, s := r.start("ada")
	r.waitReady("ada", s)
	return &readsRig{rig: r, s: s, session: res.SessionID}
}

// readInput is a Read call's input.
func readInput(path string) []byte {
	b, _ := json.Marshal(map[string]string{"file_path": path})
	return b
}
