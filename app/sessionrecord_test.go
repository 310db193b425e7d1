package app

import (
	"testing"

	"github.com/pullcept/pullcept/tui"
)

// TestSeatsCarryTheTopicsRecord: the seats a UI lists carry the session id
// the topic's index records for each account (spec «参加者パネル» #139,
// #144): an account with a record and no seat is listed offline with it,
// after a restart too, and a running seat shows the record, not its
// launch's id. Before, the id was the launch's and an account without a
// seat had none to read or copy after a restart.
func TestSeatsCarryTheTopicsRecord(t *testing.T) {
	a0, b0 := openTest(t)
	topic, err := b0.NewTopic()
	if err != nil {
		t.Fatal(err)
	}
	if err := a0.store.RecordSession(topic, "sh", "rec-1"); err != nil {
		t.Fatal(err)
	}
	if s := b0.Seats(topic); len(s) != 1 || s[0].Account != "sh" || s[0].State != tui.SeatOffline || s[0].SessionID != "rec-1" || s[0].Resumable {
		t.Fatalf("seats with a record and no seat = %+v", s)
	}
	if s := b0.Seats("another"); len(s) != 0 {
		t.Fatalf("a topic without records lists %+v", s)
	}
	if _, err := b0.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	if s := b0.Seats(topic); len(s) != 1 || s[0].State != tui.SeatRunning || s[0].SessionID != "rec-1" {
		t.Fatalf("a running seat = %+v, want the topic's record", s)
	}
	dir := a0.dataDir
	b0.Close()
	a0.Close()
	a, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	b := NewBackend(a)
	t.Cleanup(b.Close)
	if s := b.Seats(topic); len(s) != 1 || s[0].State != tui.SeatOffline || s[0].SessionID != "rec-1" {
		t.Fatalf("after a restart = %+v, want the record offline", s)
	}
}
