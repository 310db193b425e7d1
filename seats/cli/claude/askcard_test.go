package claude

import (
	"slices"
	"testing"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// applyHook is applyHookAsk for a report that names no card.
func applyHook(cur cli.Activity, wait cli.PermWait, event string, body []byte, now time.Time) cli.Step {
	return applyHookAsk(cur, wait, event, body, 0, now)
}

// TestCardAnswersAndPaneKeys: a card's answer marks its own request
// answered, wherever it stands; a key in the pane with several dialogs
// open closes no card (which dialog it answered is unknown), and once the
// keys match the open requests every card closes.
func TestCardAnswersAndPaneKeys(t *testing.T) {
	t.Parallel()
	w := cli.PermWait{Pending: []cli.PermRequest{{Tool: "a", Ask: 1}, {Tool: "b", Ask: 2}, {Tool: "c", Ask: 3}}}
	w = w.AnswerAsk(3, false)
	if !w.Pending[2].Answered || w.Keys != 0 || !slices.Equal(w.OpenAsks(), []uint64{1, 2}) || !w.DialogOpen() {
		t.Fatalf("after answering 3: %+v", w)
	}
	if again := w.AnswerAsk(3, true); !again.Equal(w) {
		t.Fatalf("a card answered twice changed the wait: %+v", again)
	}
	if unknown := w.AnswerAsk(0, false); !unknown.Equal(w) {
		t.Fatal("card 0 answered something")
	}
	step := cli.AnswerDialog(cli.Activity{}, w, []byte("\r"), time.Now())
	if step.Wait.Keys != 1 || !slices.Equal(step.Wait.OpenAsks(), []uint64{1, 2}) || len(cli.ClosedAsks(w, step.Wait)) != 0 {
		t.Fatalf("one key of two open dialogs closed a card on a guess: %+v", step.Wait)
	}
	if !step.Wait.DialogOpen() || step.Next.Kind != cli.ActivityPermission || step.Next.Tool != "b" {
		t.Fatalf("one key of two open dialogs: %+v %+v", step.Next, step.Wait)
	}
	last := cli.AnswerDialog(step.Next, step.Wait, []byte("1"), time.Now())
	if last.Wait.Keys != 0 || len(last.Wait.OpenAsks()) != 0 || !slices.Equal(cli.ClosedAsks(step.Wait, last.Wait), []uint64{1, 2}) || last.Wait.DialogOpen() {
		t.Fatalf("two keys for two open dialogs: %+v", last.Wait)
	}
	denied := cli.PermWait{Pending: []cli.PermRequest{{Ask: 1, Answered: true, Denied: true}, {Ask: 2}}}.DropDenied()
	if len(denied.Pending) != 1 || denied.Pending[0].Ask != 2 || !denied.DialogOpen() {
		t.Fatalf("dropDenied = %+v", denied)
	}
}

// TestPaneKeyPlacedByTheToolThatRan: Claude Code shows its dialogs in
// its own order, not the order their requests arrive in (measured under
// load: the second dialog's request arrived first). One key in the pane
// answers the dialog shown; its tool's result says which it was, and the
// other request's dialog is still open: its card stays, and posts are held
// for the permission, not for the answered one. Both orders.
func TestPaneKeyPlacedByTheToolThatRan(t *testing.T) {
	t.Parallel()
	now := time.Unix(1796100000, 0)
	a, b := `{"file_path":"/elsewhere/a.txt"}`, `{"file_path":"/elsewhere/b.txt"}`
	for _, ran := range []string{a, b} {
		cur, wait := cli.Activity{}, cli.PermWait{}
		apply := func(event, input string, ask uint64) {
			t.Helper()
			step := applyHookAsk(cur, wait, event, hookBody(event, "Read", input), ask, now)
			cur, wait = step.Next, step.Wait
		}
		apply(hookPermissionRequest, b, 1) // b's request arrives first
		apply(hookPermissionRequest, a, 2)
		before := wait
		step := cli.AnswerDialog(cur, wait, []byte("\r"), now)
		cur, wait = step.Next, step.Wait
		if closed := cli.ClosedAsks(before, wait); len(closed) != 0 {
			t.Fatalf("ran %s: a key of two dialogs closed card %v on a guess", ran, closed)
		}
		before = wait
		apply(hookPostToolUse, ran, 0)
		still := map[string]uint64{a: 1, b: 2}[ran] // the other one's card
		if !slices.Equal(wait.OpenAsks(), []uint64{still}) || !slices.Equal(cli.ClosedAsks(before, wait), []uint64{3 - still}) {
			t.Errorf("ran %s: open cards %v, closed %v; want %d open", ran, wait.OpenAsks(), cli.ClosedAsks(before, wait), still)
		}
		if p, an := wait.Holds(); !p || an || cur.Kind != cli.ActivityPermission {
			t.Errorf("ran %s: the other dialog is open, yet holds permission %v answered %v, activity %+v", ran, p, an, cur)
		}
		step = cli.AnswerDialog(cur, wait, []byte("\r"), now)
		if p, an := step.Wait.Holds(); p || !an || len(step.Wait.OpenAsks()) != 0 {
			t.Errorf("ran %s: both answered: holds %v %v, open %v", ran, p, an, step.Wait.OpenAsks())
		}
	}
}
