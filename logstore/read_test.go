package logstore

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestAppendAfterTornLine: a kill -9 mid-write leaves a last line without
// '\n'; the next append must start a new line, the torn one is skipped and
// counted, and nothing else is lost.
func TestAppendAfterTornLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, tail string
		skipped    int
		wantIDs    []string
	}{
		{"torn json", `{"message_id":"m2","speaker":"Lin","con`, 1, []string{"m1", "m3"}},
		{"complete json without newline", line(t, post("m2", "x"))[:len(line(t, post("m2", "x")))-1], 0, []string{"m1", "m2", "m3"}},
		{"binary junk", "\x00\x01\xff", 1, []string{"m1", "m3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			s := openAt(t, data)
			path := s.logPath("t1")
			writeFile(t, path, line(t, post("m1", "first"))+tc.tail)
			if err := s.Append("t1", post("m3", "after the crash")); err != nil {
				t.Fatal(err)
			}
			want := line(t, post("m1", "first")) + tc.tail + "\n" + line(t, post("m3", "after the crash"))
			if got := readFile(t, path); got != want {
				t.Fatalf("file\n got %q\nwant %q", got, want)
			}
			// A second append needs no extra newline.
			if err := s.Append("t1", post("m4", "again")); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != want+line(t, post("m4", "again")) {
				t.Fatalf("second append glued or doubled: %q", got)
			}
			recs, more, err := s.Page("t1", "", 10)
			if err != nil || more {
				t.Fatalf("Tail: more=%v err=%v", more, err)
			}
			if got, want := ids(recs), append(slices.Clone(tc.wantIDs), "m4"); !reflect.DeepEqual(got, want) {
				t.Fatalf("ids = %v, want %v", got, want)
			}
			if got := s.Skipped("t1"); got != tc.skipped {
				t.Fatalf("Skipped = %d, want %d", got, tc.skipped)
			}
		})
	}
}

// TestAppendTornSeenByNewStore: the torn-line check also works for a file the
// process did not write (a fresh Store after a crash of the previous run).
func TestAppendTornSeenByNewStore(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	s1 := openAt(t, data)
	if err := s1.Append("t1", post("m1", "a")); err != nil {
		t.Fatal(err)
	}
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(s1.logPath("t1"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"message_id":"torn`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s2 := openAt(t, data)
	if err := s2.Append("t1", post("m2", "b")); err != nil {
		t.Fatal(err)
	}
	recs, _, err := s2.Page("t1", "", 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(recs); !reflect.DeepEqual(got, []string{"m1", "m2"}) {
		t.Fatalf("ids = %v", got)
	}
	if s2.Skipped("t1") != 1 {
		t.Fatalf("Skipped = %d, want 1", s2.Skipped("t1"))
	}
	if _, _, err := s1.Page("t1", "", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Tail after Close: %v, want ErrClosed", err)
	}
	if err := s1.Append("t1", post("m9", "x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close: %v, want ErrClosed", err)
	}
}

// TestGarbageCountedOnce: garbage lines are skipped and counted once each,
// however many times they are read; blank lines are neither.
func TestGarbageCountedOnce(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	content := line(t, post("m1", "a")) +
		"garbage\n" +
		"\n   \n" +
		`{"speaker":"no id"}` + "\n" +
		line(t, post("m2", "b")) +
		"[1,2,3]\n" +
		line(t, post("m3", "c"))
	writeFile(t, s.logPath("t1"), content)
	for range 3 {
		recs, more, err := s.Page("t1", "", 100)
		if err != nil || more {
			t.Fatalf("Tail: %v %v", more, err)
		}
		if got := ids(recs); !reflect.DeepEqual(got, []string{"m1", "m2", "m3"}) {
			t.Fatalf("ids = %v", got)
		}
		if got := s.Skipped("t1"); got != 3 {
			t.Fatalf("Skipped = %d, want 3", got)
		}
	}
	if s.Skipped("other") != 0 {
		t.Fatal("a topic never read has skipped lines")
	}
	// A file of only broken lines still "has posts" (spec «トピック»: the
	// unseen-history hint looks at the size only).
	writeFile(t, s.logPath("t2"), "torn {\n")
	if n, err := s.LogSize("t2"); err != nil || n == 0 {
		t.Fatalf("LogSize(only garbage) = %v %v", n, err)
	}
	if recs, more, err := s.Page("t2", "", 5); err != nil || len(recs) != 0 || more || s.Skipped("t2") != 1 {
		t.Fatalf("Tail(only garbage) = %v %v %v, skipped %d", recs, more, err, s.Skipped("t2"))
	}
}

// TestPaging compares paging with tiny blocks (lines cross block edges) to
// the file's own content, for every page size.
func TestPaging(t *testing.T) {
	t.Parallel()
	want, content := numbered(t, 37)
	for _, block := range []int{1, 7, 64, 1 << 16} {
		for _, limit := range []int{1, 2, 5, 36, 37, 38, 200} {
			t.Run(fmt.Sprintf("block%d/limit%d", block, limit), func(t *testing.T) {
				s, _ := openStore(t)
				s.block = block
				writeFile(t, s.logPath("t1"), content)
				got := readAllPages(t, s, "t1", limit)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("paged %v\nwant %v", ids(got), ids(want))
				}
				// The same pages through the scan path (no remembered offsets).
				s2, _ := openStore(t)
				s2.block = block
				writeFile(t, s2.logPath("t1"), content)
				recs, more, err := s2.Page("t1", "m20", limit)
				if err != nil {
					t.Fatal(err)
				}
				lo := max(0, 20-limit)
				if !reflect.DeepEqual(recs, want[lo:20]) || more != (lo > 0) {
					t.Fatalf("Page(before m20) = %v more=%v, want %v more=%v", ids(recs), more, ids(want[lo:20]), lo > 0)
				}
			})
		}
	}
}

// TestPageEdges: the oldest record has nothing before it; unknown before,
// bad limit and a topic without a file.
func TestPageEdges(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	_, content := numbered(t, 3)
	writeFile(t, s.logPath("t1"), content+"torn")
	recs, more, err := s.Page("t1", "m0", 10)
	if err != nil || len(recs) != 0 || more {
		t.Fatalf("before the oldest = %v %v %v", ids(recs), more, err)
	}
	if _, _, err := s.Page("t1", "nope", 10); !errors.Is(err, ErrUnknownMessage) {
		t.Fatalf("unknown before: %v", err)
	}
	for _, limit := range []int{0, -1} {
		if _, _, err := s.Page("t1", "", limit); !errors.Is(err, ErrBadLimit) {
			t.Fatalf("limit %d: %v", limit, err)
		}
	}
	recs, more, err = s.Page("no-file-yet", "", 10)
	if err != nil || recs != nil || more {
		t.Fatalf("topic without file = %v %v %v", recs, more, err)
	}
	if _, _, err := s.Page("no-file-yet", "m1", 10); !errors.Is(err, ErrUnknownMessage) {
		t.Fatalf("before in a topic without file: %v", err)
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden", "con", strings.Repeat("a", 101)} {
		if _, _, err := s.Page(bad, "", 1); !errors.Is(err, ErrBadTopicID) {
			t.Fatalf("Page(%q): %v, want ErrBadTopicID", bad, err)
		}
		if err := s.Append(bad, post("m", "x")); !errors.Is(err, ErrBadTopicID) {
			t.Fatalf("Append(%q): %v, want ErrBadTopicID", bad, err)
		}
	}
	if err := s.Append("t1", Record{Speaker: "x"}); !errors.Is(err, ErrBadRecord) {
		t.Fatalf("Append without message_id: %v", err)
	}
}

// TestPageHasMoreSkipsGarbage: hasMore means an older readable record exists,
// not merely older bytes.
func TestPageHasMoreSkipsGarbage(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	writeFile(t, s.logPath("t1"), "junk\n{}\n"+line(t, post("m1", "a"))+line(t, post("m2", "b")))
	recs, more, err := s.Page("t1", "", 2)
	if err != nil || more || !reflect.DeepEqual(ids(recs), []string{"m1", "m2"}) {
		t.Fatalf("Tail(2) = %v more=%v err=%v", ids(recs), more, err)
	}
	recs, more, err = s.Page("t1", "", 1)
	if err != nil || !more || !reflect.DeepEqual(ids(recs), []string{"m2"}) {
		t.Fatalf("Tail(1) = %v more=%v err=%v", ids(recs), more, err)
	}
}

// TestPageBeforeEscapedID: a message_id written with JSON escapes by another
// tool is still found by the scan (the prefilter lets \u lines through).
func TestPageBeforeEscapedID(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	writeFile(t, s.logPath("t1"), line(t, post("m1", "a"))+
		`{"message_id":"\u006d2","speaker":"L","content":"b","ts":"t"}`+"\n"+
		line(t, post("m3", "c")))
	recs, _, err := s.Page("t1", "m2", 5)
	if err != nil || !reflect.DeepEqual(ids(recs), []string{"m1"}) {
		t.Fatalf("Page(before m2) = %v %v", ids(recs), err)
	}
	id := `a"b/c`
	writeFile(t, s.logPath("t2"), line(t, post("x", "a"))+line(t, post(id, "b")))
	recs, _, err = s.Page("t2", id, 5)
	if err != nil || !reflect.DeepEqual(ids(recs), []string{"x"}) {
		t.Fatalf("Page(before %q) = %v %v", id, ids(recs), err)
	}
}

// TestPageCursorStale: a remembered offset that no longer holds the id (the
// file was replaced by hand) falls back to the scan.
func TestPageCursorStale(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	_, content := numbered(t, 10)
	writeFile(t, s.logPath("t1"), content)
	if _, _, err := s.Page("t1", "", 3); err != nil { // remembers m7..m9
		t.Fatal(err)
	}
	writeFile(t, s.logPath("t1"), "prefix that shifts every offset\n"+content)
	recs, _, err := s.Page("t1", "m7", 2)
	if err != nil || !reflect.DeepEqual(ids(recs), []string{"m5", "m6"}) {
		t.Fatalf("Page(before m7) = %v %v", ids(recs), err)
	}
	if s.Skipped("t1") != 0 {
		t.Fatal("the prefix line was not on the page path but was counted")
	}
}

// TestLongLineSkipped: a line over MaxLineBytes is skipped and counted
// without being held, on both sides of normal lines; Append refuses one.
func TestLongLineSkipped(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	s.block, s.maxLine = 16, 100
	long := `{"message_id":"big","content":"` + strings.Repeat("x", 300) + `"}`
	writeFile(t, s.logPath("t1"), long+"\n"+line(t, post("m1", "a"))+long+"\n"+line(t, post("m2", "b"))+long)
	recs, more, err := s.Page("t1", "", 10)
	if err != nil || more || !reflect.DeepEqual(ids(recs), []string{"m1", "m2"}) {
		t.Fatalf("Tail = %v more=%v err=%v", ids(recs), more, err)
	}
	if s.Skipped("t1") != 3 {
		t.Fatalf("Skipped = %d, want 3", s.Skipped("t1"))
	}
	if err := s.Append("t1", post("m3", strings.Repeat("y", 200))); !errors.Is(err, ErrBadRecord) {
		t.Fatalf("Append of a long line: %v, want ErrBadRecord", err)
	}
}

// TestConcurrentAppendAndRead runs appends to several topics and reads of
// the same topics at once (run with -race). Every line stays whole: the
// reader never sees a torn line, and each topic ends with every post in
// order.
func TestConcurrentAppendAndRead(t *testing.T) {
	s, _ := openStore(t)
	const topics, posts = 4, 200
	var wg sync.WaitGroup
	errs := make(chan error, topics*2)
	for ti := range topics {
		topic := fmt.Sprintf("t%d", ti)
		wg.Go(func() {
			for i := range posts {
				if err := s.Append(topic, post(fmt.Sprintf("%s-%d", topic, i), strings.Repeat("本文", i%50))); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range posts {
				if _, _, err := s.Page(topic, "", 20); err != nil {
					errs <- err
					return
				}
				if n := s.Skipped(topic); n != 0 {
					errs <- fmt.Errorf("reader met %d torn lines in %s", n, topic)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for ti := range topics {
		topic := fmt.Sprintf("t%d", ti)
		got := readAllPages(t, s, topic, 33)
		if len(got) != posts {
			t.Fatalf("%s has %d posts, want %d", topic, len(got), posts)
		}
		for i, r := range got {
			if r.MessageID != fmt.Sprintf("%s-%d", topic, i) {
				t.Fatalf("%s[%d] = %s", topic, i, r.MessageID)
			}
		}
	}
}
