package seats

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestLedgerOneSeatPerTopicAndAccount(t *testing.T) {
	t.Parallel()
	l := NewLedger()
	c, err := l.Claim("t1", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Claim("t1", "alice"); !errors.Is(err, ErrSeatTaken) {
		t.Fatalf("second claim while starting = %v, want ErrSeatTaken", err)
	}
	// Other topics and accounts are independent places.
	if _, err := l.Claim("t2", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Claim("t1", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Running("t1", "alice"); ok {
		t.Fatal("claimed seat reported running before Started")
	}
	started := time.Date(2026, 10, 2, 1, 14, 0, 0, time.UTC)
	argv := []string{"claude", "--session-id", "x"}
	if err := l.Started(c, SeatRecord{Pid: 4242, Started: started, Argv: argv, Dir: "/work"}); err != nil {
		t.Fatal(err)
	}
	argv[0] = "changed by the caller"
	r, ok := l.Running("t1", "alice")
	if !ok || r.Pid != 4242 || !r.Started.Equal(started) || r.Dir != "/work" || r.Argv[0] != "claude" {
		t.Fatalf("Running = %+v, %v", r, ok)
	}
	r.Argv[0] = "changed by a reader"
	if r2, _ := l.Running("t1", "alice"); r2.Argv[0] != "claude" {
		t.Fatal("Running shares the ledger's argv")
	}
	if _, err := l.Claim("t1", "alice"); !errors.Is(err, ErrSeatTaken) {
		t.Fatalf("claim while running = %v, want ErrSeatTaken", err)
	}
	if !l.Release(c) {
		t.Fatal("Release of the holder returned false")
	}
	if l.Release(c) {
		t.Fatal("second Release returned true")
	}
	if _, ok := l.Running("t1", "alice"); ok {
		t.Fatal("released seat still running")
	}
	// The place is free again, and the old claim cannot touch the new one.
	c2, err := l.Claim("t1", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if l.Release(c) {
		t.Fatal("a stale claim released its successor")
	}
	if err := l.Started(c, SeatRecord{Pid: 1}); !errors.Is(err, ErrSeatReleased) {
		t.Fatalf("Started with a stale claim = %v", err)
	}
	if err := l.Started(c2, SeatRecord{Pid: 7}); err != nil {
		t.Fatal(err)
	}
	if r, _ := l.Running("t1", "alice"); r.Pid != 7 {
		t.Fatalf("successor's record %+v", r)
	}
}

func TestLedgerBadInput(t *testing.T) {
	t.Parallel()
	l := NewLedger()
	for _, k := range [][2]string{{"", "a"}, {"t", ""}, {"", ""}} {
		if _, err := l.Claim(k[0], k[1]); !errors.Is(err, ErrNoSeatKey) {
			t.Fatalf("Claim(%q, %q) = %v", k[0], k[1], err)
		}
	}
	var zero Claim
	if l.Release(zero) {
		t.Fatal("the zero Claim released something")
	}
	if err := l.Started(zero, SeatRecord{}); !errors.Is(err, ErrSeatReleased) {
		t.Fatalf("Started(zero) = %v", err)
	}
}

func TestLedgerList(t *testing.T) {
	t.Parallel()
	l := NewLedger()
	cb, _ := l.Claim("t1", "bob")
	_, _ = l.Claim("t1", "alice")
	_, _ = l.Claim("t2", "carol")
	if err := l.Started(cb, SeatRecord{Pid: 2, Argv: []string{"codex"}}); err != nil {
		t.Fatal(err)
	}
	got := l.List("t1")
	if len(got) != 2 || got[0].Account != "alice" || got[0].Running || got[1].Account != "bob" || !got[1].Running || got[1].Record.Pid != 2 {
		t.Fatalf("List(t1) = %+v", got)
	}
	got[1].Record.Argv[0] = "changed"
	if again := l.List("t1"); again[1].Record.Argv[0] != "codex" {
		t.Fatal("List shares the ledger's argv")
	}
	all := l.List("")
	if len(all) != 3 || all[2].Topic != "t2" {
		t.Fatalf("List(\"\") = %+v", all)
	}
	if got := l.List("none"); len(got) != 0 {
		t.Fatalf("List(none) = %+v", got)
	}
}

func TestLedgerConcurrentClaimsOneWinner(t *testing.T) {
	t.Parallel()
	l := NewLedger()
	const racers = 32
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := l.Claim("topic", "acct")
			if err != nil {
				if !errors.Is(err, ErrSeatTaken) {
					t.Errorf("racer %d: %v", i, err)
				}
				return
			}
			mu.Lock()
			won++
			mu.Unlock()
			if err := l.Started(c, SeatRecord{Pid: i}); err != nil {
				t.Errorf("winner Started: %v", err)
			}
			_ = l.List("topic")
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d claims won the same place", won)
	}
	// Claim/release cycles from many goroutines keep the invariant.
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acct := fmt.Sprint("a", i%4)
			for range 50 {
				if c, err := l.Claim("cycle", acct); err == nil {
					_ = l.Started(c, SeatRecord{Pid: i})
					if len(l.List("cycle")) > 4 {
						t.Error("more places than accounts")
					}
					l.Release(c)
				}
			}
		}()
	}
	wg.Wait()
	if got := l.List("cycle"); len(got) != 0 {
		t.Fatalf("leftover places %+v", got)
	}
}
