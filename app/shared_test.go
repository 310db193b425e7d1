package app

import (
	"slices"
	"testing"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestCloseRoomWaitsForTheLastUI: one UI leaving a fresh topic does not
// drop the room another UI of the same server shows.
func TestCloseRoomWaitsForTheLastUI(t *testing.T) {
	a, b1 := openTest(t)
	b2 := NewBackend(a)
	t.Cleanup(b2.Close)
	topic, _ := b1.NewTopic()
	for _, b := range []*Backend{b1, b2} {
		if err := b.OpenRoom(topic); err != nil {
			t.Fatal(err)
		}
	}
	b1.CloseRoom(topic)
	if !slices.Contains(a.hub.Rooms(), topic) {
		t.Fatal("the room closed while the second UI shows it")
	}
	if _, err := b2.Post(topic, room.Draft{Content: "still here"}); err != nil {
		t.Fatalf("post from the second UI: %v", err)
	}
	b2.CloseRoom(topic)
	if slices.Contains(a.hub.Rooms(), topic) {
		t.Fatal("the room stayed open after the last UI left it")
	}
}

// TestDetachKeepsTheRoom: a UI that closes (detaches) lets its holds go
// without closing a room, like the one UI whose process ended.
func TestDetachKeepsTheRoom(t *testing.T) {
	a, b1 := openTest(t)
	b2 := NewBackend(a)
	topic, _ := b1.NewTopic()
	if err := b2.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	b2.Close()
	if !slices.Contains(a.hub.Rooms(), topic) {
		t.Fatal("a detaching UI closed the room")
	}
	if err := b1.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	b1.CloseRoom(topic)
	if slices.Contains(a.hub.Rooms(), topic) {
		t.Fatal("the detached UI's hold outlived it")
	}
}

// resizes records what reached a seat's PTY.
type resizes [][2]int

func (r *resizes) to(cols, rows int) error { *r = append(*r, [2]int{cols, rows}); return nil }

// TestSeatSizeFollowsTheLatestTypist is tmux's window-size "latest": the
// UI that started or last typed into a seat sets its size; another UI's
// size waits until it types there; when the owner leaves, the latest
// other wish applies.
func TestSeatSizeFollowsTheLatestTypist(t *testing.T) {
	var z seatSizes
	k := seatKey{"t", "sh"}
	b1, b2 := &Backend{}, &Backend{}
	var got resizes
	z.started(k, b1, 80, 24)
	if err := z.want(k, b2, 120, 40, got.to); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("the other UI's size reached the PTY: %v", got)
	}
	if err := z.want(k, b1, 100, 30, got.to); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, resizes{{100, 30}}) {
		t.Fatalf("the owner's resize = %v, want [100 30]", got)
	}
	if err := z.claim(k, b2, got.to); err != nil { // b2 types into the seat
		t.Fatal(err)
	}
	if !slices.Equal(got, resizes{{100, 30}, {120, 40}}) {
		t.Fatalf("after the second UI typed = %v, want its 120x40", got)
	}
	if err := z.claim(k, b2, got.to); err != nil { // typing again changes nothing
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("a second key resized again: %v", got)
	}
	z.leave(b2, func(_ seatKey, c, r int) { _ = got.to(c, r) })
	if !slices.Equal(got[2:], resizes{{100, 30}}) {
		t.Fatalf("after the owner left = %v, want the first UI's 100x30", got)
	}
	z.leave(b1, func(seatKey, int, int) { t.Fatal("nobody is left to resize for") })
	if len(z.seats) != 0 {
		t.Fatalf("sizes kept after every UI left: %v", z.seats)
	}
}

// TestSeatSizeFollowsTheUIThatTypes: through the Backends, a second UI's
// pane size reaches a seat's terminal once that UI types there, and the
// first UI's comes back when the second leaves (the rule itself, with
// what never reaches the PTY, is TestSeatSizeFollowsTheLatestTypist).
func TestSeatSizeFollowsTheUIThatTypes(t *testing.T) {
	a, b1 := openTest(t)
	b2 := NewBackend(a)
	t.Cleanup(b2.Close)
	topic, _ := b1.NewTopic()
	if _, err := b1.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	cols := func() int {
		s, ok := a.seats.Seat(topic, "sh")
		if !ok {
			t.Fatal("no seat")
		}
		return s.Screen().Snapshot().Cols
	}
	if err := b2.Resize(topic, "sh", 120, 40); err != nil {
		t.Fatal(err)
	}
	if err := b2.SendInput(topic, "sh", []byte(" ")); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the seat takes the typing UI's 120 columns", func() bool { return cols() == 120 })
	b2.Close()
	testkit.Eventually(t, "the seat takes the remaining UI's 80 columns", func() bool { return cols() == 80 })
}
