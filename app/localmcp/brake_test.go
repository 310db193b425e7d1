package localmcp

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestNoticeFloodIsFolded (issue 32): a server pushing 20 000 notices of
// 16 KB as fast as it can write, under a notice callback that keeps every
// text it is given (as the rooms' logs and seats' queues did): only the
// brake's burst becomes notices, the rest is folded into a few fold calls
// (never one per push) whose counts add up to the flood, and what the
// callback holds, and the heap after a GC, stay bounded. Before the brake
// all 20 000 became notices: 314 MiB held, 379 MiB of heap.
func TestNoticeFloodIsFolded(t *testing.T) {
	const (
		flood = 20000
		size  = 16 << 10
		burst = 10
	)
	var notes sink
	var mu sync.Mutex
	var folds []uint64
	onFolded := func(server string, n uint64) {
		mu.Lock()
		folds = append(folds, n)
		mu.Unlock()
	}
	foldSum := func() (sum uint64, calls int) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range folds {
			sum += n
		}
		return sum, len(folds)
	}
	// One hour per notice after the burst: how many get through does not
	// depend on how fast this machine reads.
	s := newSupervisor(t, Options{OnNotice: notes.add, OnFolded: onFolded,
		NoticeBurst: burst, NoticeEvery: time.Hour, FoldCalm: 200 * time.Millisecond})
	if err := s.Start("x", fakeSpec(t, fakeConfig{Flood: flood, FloodBytes: size})); err != nil {
		t.Fatal(err)
	}
	// 320 MB through a pipe: under -race on a busy machine that takes
	// minutes (40 s was not enough at CI). Wait while the count moves; fail
	// only when it stalls for a whole deadline.
	for last := uint64(1 << 63); ; {
		var n uint64
		testkit.Eventually(t, "every push read (the count stalled)", func() bool {
			st := s.State("x")
			n = st.Received + st.Folded + st.Dropped
			return n == flood || n != last
		})
		if n == flood {
			break
		}
		last = n
	}
	testkit.Eventually(t, "the folds sent", func() bool {
		sum, _ := foldSum()
		return sum == flood-burst
	})
	var held int
	for _, n := range notes.all() {
		held += len(n)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	sum, calls := foldSum()
	st := s.State("x")
	t.Logf("%d notices (%d KiB held), %d folded in %d folds, heap in use %d MiB", len(notes.all()), held>>10, sum, calls, ms.HeapInuse>>20)
	if n := len(notes.all()); n != burst || st.Received != burst || st.Folded != flood-burst {
		t.Errorf("%d notices out of a flood of %d, want the burst %d (state %+v)", n, flood, burst, st)
	}
	if calls > 10 {
		t.Errorf("%d folds, want a few", calls)
	}
	if ms.HeapInuse > 64<<20 {
		t.Errorf("heap in use %d MiB after the flood, want under 64", ms.HeapInuse>>20)
	}
	waitLog(t, s, "x", "folded ")
}

// TestFoldedText: the fold notice in both languages, with grouped digits.
func TestFoldedText(t *testing.T) {
	if got, want := FoldedText("en", "Lin's server", 14993), "Lin's server: 14,993 more notices, folded"; got[:len(want)] != want {
		t.Errorf("en: %q", got)
	}
	if got := FoldedText("ja", "Lin's server", 14993); got[:len("Lin's server：ほかに 14,993 件")] != "Lin's server：ほかに 14,993 件" {
		t.Errorf("ja: %q", got)
	}
}

// TestBrakeFoldsWhenCalm: folds go out once the server was quiet for
// FoldCalm, and at the latest FoldEvery after a batch's first fold.
func TestBrakeFoldsWhenCalm(t *testing.T) {
	b := newNoticeBrake(Options{NoticeBurst: 1, NoticeEvery: time.Hour})
	t0 := time.Unix(1000, 0)
	if n, _ := b.due(t0, time.Second, time.Minute); n != 0 {
		t.Fatalf("nothing folded yet, due %d", n)
	}
	for i := range 5 {
		b.fold(t0.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	if n, wait := b.due(t0.Add(500*time.Millisecond), time.Second, time.Minute); n != 0 || wait != 900*time.Millisecond {
		t.Fatalf("not calm yet: %d, wait %v", n, wait)
	}
	if n, _ := b.due(t0.Add(1400*time.Millisecond), time.Second, time.Minute); n != 5 {
		t.Fatalf("calm: %d, want 5", n)
	}
	for i := range 600 { // a flood that never calms: one fold every 100 ms
		b.fold(t0.Add(2*time.Second + time.Duration(i)*100*time.Millisecond))
	}
	if n, _ := b.due(t0.Add(62*time.Second), time.Second, time.Minute); n != 600 {
		t.Fatalf("after FoldEvery: %d, want 600", n)
	}
}
