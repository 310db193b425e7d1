package seats

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// confirmRig is a Typist that confirms (TypistOptions.Confirm) with a
// composer the test sets, and the deliveries it reported.
type confirmRig struct {
	ty  *Typist
	w   *recWriter
	c   *fakeClock
	mu  sync.Mutex
	box Composer
	ds  []Delivery
}

const testConfirmWait = 15 * time.Second

func newConfirmRig(t *testing.T) *confirmRig {
	t.Helper()
	r := &confirmRig{c: newFakeClock()}
	r.w = newRecWriter(r.c)
	r.ty = NewTypist(r.w, TypistOptions{Clock: r.c, Location: time.FixedZone("JST", 9*3600), Ready: true,
		Confirm: true, ConfirmWait: testConfirmWait,
		InComposer: func(string) Composer { r.mu.Lock(); defer r.mu.Unlock(); return r.box },
		OnDelivery: func(d Delivery) { r.mu.Lock(); r.ds = append(r.ds, d); r.mu.Unlock() }})
	t.Cleanup(func() { _ = r.ty.Close() })
	return r
}

func (r *confirmRig) setBox(b Composer) { r.mu.Lock(); r.box = b; r.mu.Unlock() }

func (r *confirmRig) kinds() []DeliveryKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []DeliveryKind
	for _, d := range r.ds {
		out = append(out, d.Kind)
	}
	return out
}

// typeOne waits for the post's text (write n), runs the gap and waits for
// its "\r" (write n+1); the confirmation's bound is then armed.
func (r *confirmRig) typeOne(t *testing.T, n int, id, body string) {
	t.Helper()
	ws := r.w.waitN(t, n)
	if ws[n-1].data != payload(id, body) {
		t.Fatalf("write %d = %q, want post %s", n, ws[n-1].data, id)
	}
	r.c.waitArmed(t, typingGap)
	r.c.Advance(typingGap)
	if ws := r.w.waitN(t, n+1); ws[n].data != "\r" {
		t.Fatalf("write %d = %q, want \\r", n+1, ws[n].data)
	}
	r.c.waitArmed(t, testConfirmWait)
}

// TestTypistConfirmedOneAtATime: the next post is typed only once the CLI
// confirmed the previous one (docs/design.md §5 "Confirmed delivery"),
// however long that takes; a confirmation is a submit carrying its tag.
func TestTypistConfirmedOneAtATime(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.ty.Enqueue(testPost("m1", "one"))
	r.ty.Enqueue(testPost("m2", "two"))
	r.typeOne(t, 1, "m1", "one")
	r.c.Advance(typingGap * 10)
	if ws := settle(t, r.ty, r.w); len(ws) != 2 {
		t.Fatalf("post two typed before post one was confirmed: %q", datas(ws))
	}
	if st := r.ty.State(); st.Pending != "m1" || st.Queued != 1 || !st.Confirming {
		t.Fatalf("state while m1 waits: %+v", st)
	}
	r.ty.Submitted("the human's own prompt") // no tag: nothing
	r.ty.Submitted(payload("m1", "one"))
	r.typeOne(t, 3, "m2", "two") // the "\r" had its quiet time long ago
	st := r.ty.State()
	if st.Confirmed != "m1" || st.Pending != "m2" || st.ConfirmedAt.IsZero() {
		t.Fatalf("state after m1 confirmed: %+v", st)
	}
	if got := r.kinds(); !slices.Equal(got, []DeliveryKind{DeliveryConfirmed}) {
		t.Fatalf("deliveries %v", got)
	}
}

// TestTypistBusyHolds: no post is typed while the CLI is in a turn.
func TestTypistBusyHolds(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.ty.Busy(true)
	r.ty.Enqueue(testPost("m1", "one"))
	if ws := settle(t, r.ty, r.w); len(ws) != 0 {
		t.Fatalf("typed into a turn: %q", datas(ws))
	}
	if st := r.ty.State(); !st.Turn || st.Queued != 1 {
		t.Fatalf("state: %+v", st)
	}
	r.ty.Busy(false)
	r.w.waitN(t, 1)
}

// TestTypistUnconfirmedInBoxRetriesOnceThenSticks: a post still sitting in
// the CLI's input box gets one more Enter; unconfirmed after that it is
// marked and the queue waits for the human, who sends or clears the line.
// Nothing is typed twice.
func TestTypistUnconfirmedInBoxRetriesOnceThenSticks(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.setBox(ComposerHolds)
	r.ty.Enqueue(testPost("m1", "one"))
	r.ty.Enqueue(testPost("m2", "two"))
	r.typeOne(t, 1, "m1", "one")
	r.c.Advance(testConfirmWait)
	if ws := r.w.waitN(t, 3); ws[2].data != "\r" {
		t.Fatalf("write 3 = %q, want one more \\r", ws[2].data)
	}
	r.c.waitArmed(t, testConfirmWait)
	r.c.Advance(testConfirmWait)
	waitCond(t, "m1 stuck", func() bool { return r.ty.State().Stuck == "m1" })
	r.c.waitArmed(t, stuckLook) // the box is looked at again while stuck
	if ws := settle(t, r.ty, r.w); len(ws) != 3 {
		t.Fatalf("writes after m1 went unconfirmed: %q", datas(ws))
	}
	st := r.ty.State()
	if !slices.Equal(st.Unconfirmed, []string{"m1"}) || st.Pending != "" || st.Queued != 1 {
		t.Fatalf("state: %+v", st)
	}
	// The human presses Enter in the pane: the queue goes on.
	r.ty.Human([]byte("\r"))
	r.c.waitArmed(t, typingGap)
	r.c.Advance(typingGap)
	r.typeOne(t, 5, "m2", "two")
	texts := 0
	for _, w := range r.w.all() {
		if strings.Contains(w.data, `"message_id":"m1"`) {
			texts++
		}
	}
	if texts != 1 {
		t.Fatalf("post m1 typed %d times", texts)
	}
	// A late confirmation clears the mark.
	r.ty.Submitted(payload("m1", "one"))
	if st := r.ty.State(); len(st.Unconfirmed) != 0 || st.Confirmed != "m1" {
		t.Fatalf("after the late confirmation: %+v", st)
	}
	if got := r.kinds(); !slices.Equal(got, []DeliveryKind{DeliveryRetried, DeliveryUnconfirmed, DeliveryConfirmed}) {
		t.Fatalf("deliveries %v", got)
	}
}

// TestTypistUnconfirmedEmptyBoxGoesOn: a post not confirmed whose input box
// is empty is marked, and the next post goes (nothing can be glued to it).
func TestTypistUnconfirmedEmptyBoxGoesOn(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.setBox(ComposerEmpty)
	r.ty.Enqueue(testPost("m1", "one"))
	r.ty.Enqueue(testPost("m2", "two"))
	r.typeOne(t, 1, "m1", "one")
	r.c.Advance(testConfirmWait)
	r.typeOne(t, 3, "m2", "two")
	if st := r.ty.State(); st.Stuck != "" || !slices.Equal(st.Unconfirmed, []string{"m1"}) {
		t.Fatalf("state: %+v", st)
	}
}

// TestTypistStuckUnknownBox: an input box that cannot be read gets no
// Enter; the post sticks. Keys alone release nothing (Claude's Esc closes
// its history search and leaves the box as it was); the box read empty
// again lets the queue go on.
func TestTypistStuckUnknownBox(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.ty.Enqueue(testPost("m1", "one"))
	r.ty.Enqueue(testPost("m2", "two"))
	r.typeOne(t, 1, "m1", "one")
	r.c.Advance(testConfirmWait)
	waitCond(t, "m1 stuck", func() bool { return r.ty.State().Stuck == "m1" })
	r.c.waitArmed(t, stuckLook)
	r.ty.Human([]byte("\x1b[A")) // ↑: neither sends nor clears
	r.ty.Human([]byte{0x1b})     // a lone Esc
	waitCond(t, "the keys written", func() bool { return len(r.w.all()) == 4 })
	r.c.Advance(stuckLook) // the box still unknown: another look
	r.c.waitArmed(t, stuckLook)
	if st := r.ty.State(); st.Stuck != "m1" {
		t.Fatalf("released without the box read empty: %+v", st)
	}
	if ws := settle(t, r.ty, r.w); len(ws) != 4 {
		t.Fatalf("writes: %q", datas(ws))
	}
	r.setBox(ComposerEmpty)
	r.c.Advance(stuckLook)
	r.w.waitN(t, 5)
	if st := r.ty.State(); st.Stuck != "" || !slices.Equal(st.Unconfirmed, []string{"m1"}) {
		t.Fatalf("after the box read empty: %+v", st)
	}
}

// TestTypistFusedSubmit: a submit holding two posts typed here is counted
// and reported.
func TestTypistFusedSubmit(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.ty.Enqueue(testPost("m1", "one"))
	r.typeOne(t, 1, "m1", "one")
	r.ty.Submitted(payload("m1", "one"))
	waitCond(t, "m1 confirmed", func() bool { return r.ty.State().Pending == "" })
	r.ty.Enqueue(testPost("m2", "two"))
	r.c.waitArmed(t, typingGap) // quiet time after the "\r"
	r.c.Advance(typingGap)
	r.typeOne(t, 3, "m2", "two")
	r.ty.Submitted(payload("m1", "one") + payload("m2", "two"))
	// Counted; m2 is not confirmed by it (it was no turn of its own).
	if st := r.ty.State(); st.Fused != 1 || st.Pending != "m2" {
		t.Fatalf("state: %+v", st)
	}
	if got := r.kinds(); !slices.Contains(got, DeliveryFused) {
		t.Fatalf("deliveries %v", got)
	}
}

// TestTypistWithoutConfirmIgnoresSubmits: a kind that cannot confirm types
// as before, and Busy and Submitted change nothing.
func TestTypistWithoutConfirmIgnoresSubmits(t *testing.T) {
	t.Parallel()
	ty, w, c := newTestTypist(t, true)
	ty.Busy(true)
	ty.Enqueue(testPost("m1", "one"))
	ty.Enqueue(testPost("m2", "two"))
	w.waitN(t, 1)
	c.waitArmed(t, typingGap)
	c.Advance(typingGap)
	w.waitN(t, 2)
	c.waitArmed(t, typingGap)
	c.Advance(typingGap)
	w.waitN(t, 3)
	if st := ty.State(); st.Confirming || st.Pending != "" || st.Turn {
		t.Fatalf("state: %+v", st)
	}
}

func waitCond(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(typingDeadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", typingDeadline, what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTypistQuotedTagConfirmsNothing: a tag quoted in a post's body (a
// seat can write one) neither confirms nor clears the mark of another post,
// nor counts as a fusion (it names a post typed earlier).
func TestTypistQuotedTagConfirmsNothing(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.setBox(ComposerEmpty)
	r.ty.Enqueue(testPost("m1", "one"))
	r.typeOne(t, 1, "m1", "one")
	r.c.Advance(testConfirmWait) // m1 unconfirmed, the box empty: on
	waitCond(t, "m1 marked", func() bool { return len(r.ty.State().Unconfirmed) == 1 })
	r.ty.Enqueue(testPost("m2", "quoting "+payload("m1", "one")))
	r.typeOne(t, 3, "m2", "quoting "+payload("m1", "one"))
	r.ty.Submitted(payload("m2", "quoting "+payload("m1", "one")))
	st := r.ty.State()
	if st.Confirmed != "m2" || !slices.Equal(st.Unconfirmed, []string{"m1"}) || st.Fused != 0 {
		t.Fatalf("state after a submit quoting m1's tag: %+v (a tag of an earlier post is a quote, no fusion)", st)
	}
}

// TestKeepEnter: a text whose end would take Claude Code's Enter (a
// trailing backslash, an emoji shortcode) gets a space; others are typed
// as they are.
func TestKeepEnter(t *testing.T) {
	for in, want := range map[string]string{
		`see C:\Users\ada\`: `see C:\Users\ada\ `,
		"LGTM :+1":          "LGTM :+1 ",
		":sm":               ":sm ",
		"ends in :smi":      "ends in :smi ",
		"10:30":             "10:30",
		"note: done":        "note: done",
		":thumbsup:":        ":thumbsup:",
		"plain":             "plain",
	} {
		if got := keepEnter(in); got != want {
			t.Errorf("keepEnter(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTypistRetryNotIntoATurn: the one more Enter is not typed once the
// CLI is in a turn (it would join the turn); the post sticks instead.
func TestTypistRetryNotIntoATurn(t *testing.T) {
	t.Parallel()
	r := newConfirmRig(t)
	r.setBox(ComposerHolds)
	r.ty.Enqueue(testPost("m1", "one"))
	r.typeOne(t, 1, "m1", "one")
	r.ty.Busy(true)
	settle(t, r.ty, r.w)
	r.c.Advance(testConfirmWait)
	waitCond(t, "m1 stuck", func() bool { return r.ty.State().Stuck == "m1" })
	if ws := settle(t, r.ty, r.w); len(ws) != 2 {
		t.Fatalf("an Enter typed into a running turn: %q", datas(ws))
	}
}

// TestTypistWaitsForTheHumansTurn: after the human sends a line in the
// pane, the next post waits for the CLI to report the turn it starts (a
// late report let the post into that turn), or humanWait.
func TestTypistWaitsForTheHumansTurn(t *testing.T) {
	t.Parallel()
	for _, reported := range []bool{true, false} {
		r := newConfirmRig(t)
		r.ty.Human([]byte("do this"))
		r.ty.Enqueue(testPost("m1", "one"))
		r.ty.Human([]byte("\r"))
		r.w.waitN(t, 2)
		r.c.waitArmed(t, humanWait)
		// The writer notes the time of the "\r" after it armed humanWait:
		// advancing the clock before it is parked could date that write
		// later, and the gap after it would then never end (a flake seen
		// under Wine).
		settle(t, r.ty, r.w)
		r.c.Advance(typingGap)
		if ws := settle(t, r.ty, r.w); len(ws) != 2 {
			t.Fatalf("typed before the human's turn was reported: %q", datas(ws))
		}
		if reported {
			r.ty.Busy(true)
			r.ty.Busy(false) // the turn ran and ended
		} else {
			r.c.Advance(humanWait)
		}
		if ws := r.w.waitN(t, 3); ws[2].data != payload("m1", "one") {
			t.Fatalf("reported %v: write 3 = %q", reported, ws[2].data)
		}
	}
}
