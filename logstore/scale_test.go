package logstore

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/uuid"
)

// scaleTopics is the topic count of the scale benchmarks (issue 14: an
// index.json of 200 000 topics, 48 MB, took 33 s to open).
const scaleTopics = 200_000

// WriteScaleIndex writes data/logs/main/index.json with n topics of ~240
// bytes each (an id, a name, created_at and two session records: 200 000 of
// them make the 48 MB) and a log file for every 100th, and returns
// the ids in index order.
func writeScaleIndex(tb testing.TB, data string, n int) []string {
	tb.Helper()
	dir := filepath.Join(data, "logs", "main")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, indexName))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	ids := make([]string, n)
	w.WriteString("{\n  \"topics\": [\n")
	for i := range n {
		ids[i] = uuid.Must(uuid.NewV7()).String()
		at := fixedNow.Add(-time.Duration(n-i) * time.Minute).Format(TimeLayout)
		if i > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, `    {"id": %q, "name": "topic %d: the floor and the brake 話題", "created_at": %q, "sessions": {"acc-claude": %q, "acc-codex": %q}}`,
			ids[i], i, at, uuid.NewString(), uuid.NewString())
		if i%100 == 0 {
			writeFile(tb, filepath.Join(dir, ids[i]+".jsonl"), line(tb, post(fmt.Sprintf("m%d", i), fmt.Sprintf("post in topic %d", i))))
		}
	}
	w.WriteString("\n  ]\n}\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return ids
}

// BenchmarkOpen200k opens a store whose index.json holds 200 000 topics and
// lists them: what the app does once at start. Its ns/topic against
// BenchmarkOpen50k's is the speed side of TestOpenManyTopicsIsLinear: equal
// when opening is linear.
func BenchmarkOpen200k(b *testing.B) { benchmarkOpen(b, scaleTopics) }

// BenchmarkOpen50k is BenchmarkOpen200k with a quarter of the topics.
func BenchmarkOpen50k(b *testing.B) { benchmarkOpen(b, scaleTopics/4) }

func benchmarkOpen(b *testing.B, n int) {
	data := b.TempDir()
	writeScaleIndex(b, data, n)
	fi, err := os.Stat(filepath.Join(data, "logs", "main", indexName))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size()), "index-bytes")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Open(data, Options{Now: func() time.Time { return fixedNow }})
		if err != nil {
			b.Fatal(err)
		}
		ts, err := s.Topics()
		if err != nil || len(ts) != n {
			b.Fatalf("Topics = %d, %v", len(ts), err)
		}
		s.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/topic")
}

// BenchmarkSession200k is a lookup of one topic's session record in an
// index of 200 000 topics (a seat start reads it).
func BenchmarkSession200k(b *testing.B) {
	data := b.TempDir()
	ids := writeScaleIndex(b, data, scaleTopics)
	s := openAt(b, data)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := s.Session(ids[len(ids)-1-i%100], "acc-claude"); !ok {
			b.Fatal("no session")
		}
	}
}

// TestOpenManyTopicsIsLinear: opening an index and listing its topics does
// work in proportion to the topic count — counted here, never timed (issue
// 28; BenchmarkOpen50k and BenchmarkOpen200k measure the time). Each entry
// was once checked against every earlier one for a repeated id (issue 14:
// 20 000 topics took 6.5 s, 200 000 more than ten minutes). Now four times
// the topics cost about four times the allocations (a step quadratic in
// what it copies or builds would cost sixteen), and the repeated-id check
// is a lookup in the id map, which holds every entry, never a walk of the
// entries (the walk allocated nothing, so only this check catches it).
func TestOpenManyTopicsIsLinear(t *testing.T) {
	const small, large = 2_000, 8_000
	type work struct{ mallocs, bytes uint64 }
	open := func(n int) (work, *Store, []string) {
		data := t.TempDir()
		ids := writeScaleIndex(t, data, n)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		s := openAt(t, data)
		ts, err := s.Topics()
		runtime.ReadMemStats(&m1)
		if err != nil || len(ts) != n {
			t.Fatalf("%d topics: Topics = %d, %v", n, len(ts), err)
		}
		return work{m1.Mallocs - m0.Mallocs, m1.TotalAlloc - m0.TotalAlloc}, s, ids
	}
	w1, _, _ := open(small)
	w4, s, ids := open(large)
	ratio := func(a, b uint64) float64 { return float64(b) / float64(max(a, 1)) }
	t.Logf("%d topics: %d allocations, %d KiB; %d topics: %d allocations, %d KiB (×%.2f, ×%.2f)",
		small, w1.mallocs, w1.bytes>>10, large, w4.mallocs, w4.bytes>>10, ratio(w1.mallocs, w4.mallocs), ratio(w1.bytes, w4.bytes))
	// Linear: ×4 and a little (the constant part shrinks); quadratic: ×16.
	if r := ratio(w1.mallocs, w4.mallocs); r > 6 {
		t.Errorf("4× the topics made %.1f× the allocations: opening is not linear", r)
	}
	if r := ratio(w1.bytes, w4.bytes); r > 6 {
		t.Errorf("4× the topics allocated %.1f× the bytes: opening is not linear", r)
	}
	if n := len(s.idx.byID); n != large {
		t.Fatalf("the id map holds %d of %d entries", n, large)
	}
	probe := &indexDoc{}
	probe.add(&entry{ID: ids[0]})
	delete(probe.byID, ids[0])
	if probe.find(ids[0]) != nil {
		t.Fatal("find walks the entries: opening checks each against every earlier one")
	}
	if _, ok := s.Session(ids[len(ids)-1], "acc-claude"); !ok {
		t.Fatal("the last topic's session is not found")
	}
	// A write after the open finds the entry (it does not add a second one).
	if err := s.Rename(ids[7], "renamed"); err != nil {
		t.Fatal(err)
	}
	if ts, _ := s.Topics(); len(ts) != len(ids) {
		t.Fatalf("after a rename %d topics", len(ts))
	}
}
