package logstore

import (
	"errors"
	"testing"
)

// TestSeen: a seat's seen mark is kept per account next to the session
// records, grows with LogSize, and survives a reopen.
func TestSeen(t *testing.T) {
	t.Parallel()
	s, data := openStore(t)
	if _, ok := s.Seen("t1", "acc-a"); ok {
		t.Fatal("a mark before any was recorded")
	}
	if err := s.Append("t1", post("m1", "hello")); err != nil {
		t.Fatal(err)
	}
	size, err := s.LogSize("t1")
	if err != nil || size == 0 {
		t.Fatalf("LogSize = %d, %v", size, err)
	}
	if err := s.RecordSeen("t1", "acc-a", size); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSeen("t1", "", size); !errors.Is(err, ErrBadSession) {
		t.Fatalf("RecordSeen without account: %v", err)
	}
	if err := s.Append("t1", post("m2", "since")); err != nil {
		t.Fatal(err)
	}
	if now, _ := s.LogSize("t1"); now <= size {
		t.Fatalf("LogSize after a post = %d, want more than %d", now, size)
	}
	s2 := openAt(t, data)
	if got, ok := s2.Seen("t1", "acc-a"); !ok || got != size {
		t.Fatalf("after reopen Seen = %d %v, want %d", got, ok, size)
	}
	if _, ok := s2.Seen("t1", "acc-b"); ok {
		t.Fatal("a mark for an account that never stopped a seat")
	}
}
