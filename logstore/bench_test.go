package logstore

import (
	"bufio"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
)

// benchPosts is the size of the long topic: a million posts (~200 MB).
const benchPosts = 1_000_000

// bigTopic is the million-post topic shared by the benchmarks: built once per
// test binary (it takes seconds) and removed by TestMain.
var bigTopic struct {
	once sync.Once
	dir  string // data dir
	size int64
	mid  string // message_id of a post in the middle
	err  error
}

func TestMain(m *testing.M) {
	m.Run()
	if bigTopic.dir != "" {
		os.RemoveAll(bigTopic.dir)
	}
}

// benchContents are realistic post bodies, mixed English and Japanese, that
// make lines of ~130–300 bytes (~200 on average) once the JSON keys are added.
var benchContents = []string{
	"了解です。floor の判定を確認しました。",
	"I pushed the fix to room/floor.go; please re-run go test -race ./room/...",
	"ログの末尾が千切れていても読み飛ばして続きを表示します。件数は状況行に出します。",
	"@Kai can you look at the resize path? 端末の幅が変わると PTY も合わせます。",
	"ok",
	"テスト結果: 42 passed, 0 failed (3.2s)。ベンチマークも追加しました。",
	"Reading the spec section «部屋のログ» again: no rotation, no size cap, tail first.",
}

// recordFor is post number i of the long topic.
func recordFor(i int, id string) Record {
	r := Record{
		MessageID: id,
		Speaker:   []string{"Lin", "Kai", "Master", "Mio"}[i%4],
		Content:   benchContents[i%len(benchContents)],
		TS:        fixedNow.Add(-time.Duration(benchPosts-i) * 3 * time.Second).Format(TimeLayout),
	}
	if i%4 != 2 {
		r.Account = "acc-" + r.Speaker
	}
	if i%5 == 0 {
		r.To = Names{"Master"}
	}
	return r
}

func buildBigTopic(b *testing.B) {
	bigTopic.once.Do(func() {
		dir, err := os.MkdirTemp("", "logstore-bench-")
		if err != nil {
			bigTopic.err = err
			return
		}
		bigTopic.dir = dir
		logDir := filepath.Join(dir, "logs", "main")
		if bigTopic.err = os.MkdirAll(logDir, 0o700); bigTopic.err != nil {
			return
		}
		f, err := os.Create(filepath.Join(logDir, "big.jsonl"))
		if err != nil {
			bigTopic.err = err
			return
		}
		defer f.Close()
		w := bufio.NewWriterSize(f, 1<<20)
		for i := range benchPosts {
			id := uuid.NewString()
			if i == benchPosts/2 {
				bigTopic.mid = id
			}
			line, err := encodeLine(recordFor(i, id), MaxLineBytes)
			if err != nil {
				bigTopic.err = err
				return
			}
			w.Write(line[1:])
		}
		if bigTopic.err = w.Flush(); bigTopic.err != nil {
			return
		}
		fi, err := f.Stat()
		bigTopic.size, bigTopic.err = fi.Size(), err
	})
	if bigTopic.err != nil {
		b.Fatalf("build the million-post topic: %v", bigTopic.err)
	}
}

// BenchmarkTailOneMillion: the newest 50 posts of a 1,000,000-post topic
// (~200 MB). Tail reads one 64 KiB block from the end: time and bytes per op
// must not grow with the file.
func BenchmarkTailOneMillion(b *testing.B) {
	buildBigTopic(b)
	s := openAt(b, bigTopic.dir)
	b.ReportAllocs()
	for b.Loop() {
		recs, more, err := s.Page("big", "", 50)
		if err != nil || len(recs) != 50 || !more {
			b.Fatalf("Tail = %d records, more=%v, err=%v", len(recs), more, err)
		}
	}
	b.ReportMetric(float64(bigTopic.size), "file-bytes")
}

// BenchmarkPageBackOneMillion: paging back 50 posts at a time from the
// middle of the million-post topic, the way the UI scrolls (before = the
// oldest post of the previous page, found through the remembered offset).
func BenchmarkPageBackOneMillion(b *testing.B) {
	buildBigTopic(b)
	s := openAt(b, bigTopic.dir)
	recs, _, err := s.Page("big", bigTopic.mid, 50) // cold: scans from the end
	if err != nil {
		b.Fatal(err)
	}
	before := recs[0].MessageID
	b.ReportAllocs()
	for b.Loop() {
		recs, more, err := s.Page("big", before, 50)
		if err != nil || len(recs) != 50 || !more {
			b.Fatalf("Page = %d records, more=%v, err=%v", len(recs), more, err)
		}
		before = recs[0].MessageID
	}
}

// BenchmarkAppend: one post appended to a topic file (the work done inside
// the room lock): encode, one write through the cached O_APPEND handle.
func BenchmarkAppend(b *testing.B) {
	s := openAt(b, b.TempDir())
	recs := make([]Record, 64)
	var bytes int
	for i := range recs {
		recs[i] = recordFor(i, uuid.NewString())
		bytes += len(line(b, recs[i]))
	}
	b.SetBytes(int64(bytes / len(recs)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := s.Append("bench", recs[i%len(recs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
