//go:build !windows

package app

import (
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// TestSeatEndAndMouseReachTheUI: what the panes need crosses the seam as
// plain values — the mouse reporting the seat's program asked for and its
// alternate screen (the pane says it keeps no scrollback there), how a
// seat ended (a stop the human asked for, a signal nobody sent), and
// ForgetSeat closing an exited seat's pane.
func TestSeatEndAndMouseReachTheUI(t *testing.T) {
	_, b := openTest(t)
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	if err := b.SendInput(topic, "sh", []byte("printf '\\033[?1002h\\033[?1006h\\033[?1049h'\r")); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the seat's mouse modes and alternate screen in its snapshot", func() bool {
		s, ok := b.Snapshot(topic, "sh")
		return ok && s.Mouse == tui.PaneMouse{Tracking: tui.MouseButtonMotion, SGR: true} && s.AltScreen
	})
	if err := b.StopSeat(topic, "sh"); err != nil {
		t.Fatal(err)
	}
	if s := b.Seats(topic); len(s) != 1 || s[0].State != tui.SeatExited || !s[0].Requested || s[0].Signal != 0 {
		t.Fatalf("after a stop: %+v", s)
	}

	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	if err := b.SendInput(topic, "sh", []byte("kill -9 $$\r")); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the killed seat's end", func() bool {
		s := b.Seats(topic)
		return len(s) == 1 && s[0].State == tui.SeatExited
	})
	if s := b.Seats(topic)[0]; s.Requested || s.Signal != 9 || s.ExitCode != 137 {
		t.Fatalf("after kill -9: %+v", s)
	}
	b.ForgetSeat(topic, "sh")
	if s := b.Seats(topic); len(s) != 0 {
		t.Fatalf("after ForgetSeat: %+v", s)
	}
}
