//go:build unix

package codex

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestFreshSeatRolloutScanSlows: a fresh hook-mode seat that never takes a
// turn (no rollout appears) looks for it every poll during its first
// minute, then every 10 s (spec «Codex の席は自分の様子を rollout で知らせる»:
// sessions/ is not scanned each second for ever). The clock and the timer
// are the test's: each wait moves the clock by its length. Before, the
// search ticked every poll for as long as the seat ran.
func TestFreshSeatRolloutScanSlows(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newFakeSeat()
	var mu sync.Mutex
	clock := time.Date(2026, 10, 2, 14, 30, 0, 0, time.UTC)
	var waits []time.Duration
	var end sync.Once
	const looks = 75
	s.clock = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	a := New(time.Second, nil)
	a.after = func(d time.Duration) <-chan time.Time {
		mu.Lock()
		defer mu.Unlock()
		ch := make(chan time.Time, 1)
		if len(waits) == looks {
			return make(chan time.Time) // never: the seat ends
		}
		waits = append(waits, d)
		clock = clock.Add(d)
		ch <- clock
		if len(waits) == looks {
			end.Do(func() { close(s.done) })
		}
		return ch
	}
	r := &run{a: a, acct: config.Account{ID: "cc", WorkDir: t.TempDir()},
		getenv: func(k string) string { return map[string]string{"CODEX_HOME": home}[k] }}
	found := make(chan bool, 1)
	go func() {
		_, ok := r.findRollout(s)
		found <- ok
	}()
	select {
	case ok := <-found:
		if ok {
			t.Fatal("a rollout found where there is none")
		}
	case <-time.After(testkit.Slow(30 * time.Second)):
		end.Do(func() { close(s.done) })
		<-found
		t.Fatal("the search did not wait on the adapter's timer")
	}
	mu.Lock()
	defer mu.Unlock()
	want := slices.Repeat([]time.Duration{time.Second}, 60)
	want = append(want, slices.Repeat([]time.Duration{10 * time.Second}, looks-60)...)
	if !slices.Equal(waits, want) {
		t.Fatalf("waits between looks = %v, want 60 of 1s then 10s", waits)
	}
}

// TestFreshSeatRolloutInCdDir: a fresh hook-mode seat with -C/--cd finds
// the rollout whose session_meta names that directory (Codex works there),
// through the launch's CLIDir, not one of the working directory it was
// started in. Before, the search looked for the working directory's and
// never found the seat's session.
func TestFreshSeatRolloutInCdDir(t *testing.T) {
	t.Parallel()
	f := newOptionsFixture(t)
	in := f.input("-C sub")
	l := mustLaunch(t, in)
	getenv := func(k string) string { return map[string]string{"CODEX_HOME": f.home}[k] }
	ln := &cli.Launching{Account: in.Account, Launch: &l, Getenv: getenv, Logger: slog.New(slog.DiscardHandler)}
	cr, err := New(time.Millisecond, nil).Prepare(context.Background(), ln)
	if err != nil {
		t.Fatal(err)
	}
	const (
		inWork = "019a0000-0000-7000-8000-0000000000a1"
		inSub  = "019a0000-0000-7000-8000-0000000000a2"
	)
	writeRollout(t, f.home, time.Now(), inWork, f.work, true)
	writeRollout(t, f.home, time.Now().Add(time.Second), inSub, f.sub, true)
	s := newFakeSeat()
	defer close(s.done)
	found := make(chan Session, 1)
	go func() {
		cs, _ := cr.(*run).findRollout(s)
		found <- cs
	}()
	select {
	case cs := <-found:
		if cs.ID != inSub || s.session != inSub {
			t.Fatalf("found %+v (seat's session %q), want %s of %s", cs, s.session, inSub, f.sub)
		}
	case <-time.After(testkit.Slow(30 * time.Second)):
		t.Fatal("the rollout of the -C directory was not found")
	}
}
