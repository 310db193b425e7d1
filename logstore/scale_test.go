package logstore

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
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
// lists them: what the app does once at start.
func BenchmarkOpen200k(b *testing.B) {
	data := b.TempDir()
	writeScaleIndex(b, data, scaleTopics)
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
		if err != nil || len(ts) != scaleTopics {
			b.Fatalf("Topics = %d, %v", len(ts), err)
		}
		s.Close()
	}
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

// TestOpenManyTopicsIsLinear: opening an index of 50 000 topics takes well
// under the budget (each entry was checked against every earlier one for a
// repeated id: 20 000 topics took 6.5 s, 200 000 more than ten minutes).
func TestOpenManyTopicsIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 12 MB index")
	}
	data := t.TempDir()
	ids := writeScaleIndex(t, data, 50_000)
	start := time.Now()
	s := openAt(t, data)
	ts, err := s.Topics()
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("opening and listing 50 000 topics took %v", took)
	}
	if err != nil || len(ts) != len(ids) {
		t.Fatalf("Topics = %d, %v", len(ts), err)
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
