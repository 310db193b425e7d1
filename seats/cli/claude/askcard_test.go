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

// TestCardIDsAreKeptInOrder: answering a card out of order keeps the
// answered requests before the open ones, so the pane's key answers the
// oldest open dialog.
func TestCardIDsAreKeptInOrder(t *testing.T) {
	t.Parallel()
	w := cli.PermWait{Pending: []cli.PermRequest{{Tool: "a", Ask: 1}, {Tool: "b", Ask: 2}, {Tool: "c", Ask: 3}}}
	w = w.AnswerAsk(3, false)
	if w.Answered != 1 || w.Pending[0].Ask != 3 || !slices.Equal(w.OpenAsks(), []uint64{1, 2}) {
		t.Fatalf("after answering 3: %+v", w)
	}
	if again := w.AnswerAsk(3, true); !again.Equal(w) {
		t.Fatalf("a card answered twice changed the wait: %+v", again)
	}
	if unknown := w.AnswerAsk(0, false); !unknown.Equal(w) {
		t.Fatal("card 0 answered something")
	}
	step := cli.AnswerDialog(cli.Activity{}, w, []byte("\r"), time.Now())
	if !slices.Equal(step.Wait.OpenAsks(), []uint64{2}) || !slices.Equal(cli.ClosedAsks(w, step.Wait), []uint64{1}) {
		t.Fatalf("the pane's key answered %+v", step.Wait)
	}
	denied := cli.PermWait{Pending: []cli.PermRequest{{Ask: 1, Denied: true}, {Ask: 2}}, Answered: 1}.DropDenied()
	if len(denied.Pending) != 1 || denied.Answered != 0 || denied.Pending[0].Ask != 2 {
		t.Fatalf("dropDenied = %+v", denied)
	}
}
