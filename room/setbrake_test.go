package room

import (
	"errors"
	"testing"
)

// TestSetBrakeAppliesAtOnce: the settings change the brake of a running
// hub (docs/design.md §2 "The brake"): a lower limit brakes at the next AI
// post that reaches it, a higher one lets the run go on, 0 turns it off; a
// room already braked stays braked until the human releases it; a negative
// limit is refused and changes nothing.
func TestSetBrakeAppliesAtOnce(t *testing.T) {
	t.Parallel()
	b := newBrakeRoom(t, 5)
	run := b.volley(t, 2, "")
	if err := b.h.SetBrake(2); err != nil {
		t.Fatal(err)
	}
	// The run already holds 2: the next AI post engages, and the notice
	// says how many it took.
	third := b.volley(t, 1, run[1].MessageID)
	if !b.h.Braked("t") {
		t.Fatal("not braked at the first AI post after lowering the limit below the run")
	}
	hist := b.history(t)
	b.checkNotice(t, hist[len(hist)-1], 3)
	if got := b.typed(third[0]); got != nil {
		t.Fatalf("the post that engaged the brake was typed into %q", got)
	}

	// Off while braked: the room stays braked until the human releases it.
	if err := b.h.SetBrake(0); err != nil {
		t.Fatal(err)
	}
	if !b.h.Braked("t") {
		t.Fatal("turning the brake off released a braked room")
	}
	if err := b.h.ReleaseBrake("t"); err != nil {
		t.Fatal(err)
	}
	last := hist[len(hist)-1].MessageID
	free := b.volley(t, 20, last)
	if b.h.Braked("t") || b.notices(t) != 1 {
		t.Fatalf("braked %v with %d notices after 20 AI posts with the brake off", b.h.Braked("t"), b.notices(t))
	}
	for _, p := range free {
		if len(b.typed(p)) != 2 {
			t.Fatalf("%s not typed into both seats with the brake off", p.Content)
		}
	}

	// A negative limit is refused and the brake stays off.
	if err := b.h.SetBrake(-1); !errors.Is(err, ErrBadBrake) {
		t.Fatalf("SetBrake(-1) = %v, want ErrBadBrake", err)
	}
	// Back on at 4: the run counts from the human's next post.
	if err := b.h.SetBrake(4); err != nil {
		t.Fatal(err)
	}
	human := uiSayAfter(t, b.h, "again", free[len(free)-1].MessageID)
	again := b.volley(t, 4, human.MessageID)
	if !b.h.Braked("t") {
		t.Fatal("not braked after 4 AI posts at a limit of 4")
	}
	if got := b.typed(again[2]); len(got) != 2 {
		t.Fatalf("the third post at a limit of 4 was typed into %q", got)
	}
	hist = b.history(t)
	b.checkNotice(t, hist[len(hist)-1], 4)
}
