package seats

import (
	"slices"
	"testing"
	"time"
)

// applyHook is applyHookAsk for a report that names no card.
func applyHook(cur Activity, wait permWait, event string, body []byte, now time.Time) activityStep {
	return applyHookAsk(cur, wait, event, body, 0, now)
}

// TestCardIDsAreKeptInOrder: answering a card out of order keeps the
// answered requests before the open ones, so the pane's key answers the
// oldest open dialog.
func TestCardIDsAreKeptInOrder(t *testing.T) {
	t.Parallel()
	w := permWait{pending: []permRequest{{tool: "a", ask: 1}, {tool: "b", ask: 2}, {tool: "c", ask: 3}}}
	w = w.answerAsk(3, false)
	if w.answered != 1 || w.pending[0].ask != 3 || !slices.Equal(w.openAsks(), []uint64{1, 2}) {
		t.Fatalf("after answering 3: %+v", w)
	}
	if again := w.answerAsk(3, true); !again.equal(w) {
		t.Fatalf("a card answered twice changed the wait: %+v", again)
	}
	if unknown := w.answerAsk(0, false); !unknown.equal(w) {
		t.Fatal("card 0 answered something")
	}
	step := answerDialog(Activity{}, w, []byte("\r"), time.Now())
	if !slices.Equal(step.wait.openAsks(), []uint64{2}) || !slices.Equal(closedAsks(w, step.wait), []uint64{1}) {
		t.Fatalf("the pane's key answered %+v", step.wait)
	}
	denied := permWait{pending: []permRequest{{ask: 1, denied: true}, {ask: 2}}, answered: 1}.dropDenied()
	if len(denied.pending) != 1 || denied.answered != 0 || denied.pending[0].ask != 2 {
		t.Fatalf("dropDenied = %+v", denied)
	}
}
