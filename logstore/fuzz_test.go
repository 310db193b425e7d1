package logstore

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fuzzMaxLine is small so the fuzzer reaches the too-long-line path.
const fuzzMaxLine = 256

type fuzzLine struct {
	off  int64
	text string
}

// forwardLines is the reference split: lines of data by '\n' with their
// offsets (the empty piece after a final '\n' is not a line).
func forwardLines(data []byte) []fuzzLine {
	var out []fuzzLine
	off := 0
	for off <= len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			if off < len(data) {
				out = append(out, fuzzLine{int64(off), string(data[off:])})
			}
			break
		}
		out = append(out, fuzzLine{int64(off), string(data[off : off+i])})
		off += i + 1
	}
	return out
}

// FuzzReader feeds arbitrary bytes as a topic file. Properties: no panic; the
// backward scanner yields exactly the forward split (long lines as tooLong);
// Tail returns every readable record, each with a message_id, and counts
// every unreadable line once (records + skipped = non-blank lines); an
// Append after it never glues onto the last line.
func FuzzReader(f *testing.F) {
	good := `{"message_id":"a","speaker":"L","content":"c","to":"K","ts":"t"}`
	for _, seed := range []string{
		"", "\n", "\n\n\n", good, good + "\n", good + "\n" + good,
		good + "\n" + `{"message_id":"b","speaker":"L","con`,
		"garbage\n" + good + "\n\x00\xff\n",
		`{"message_id":""}` + "\n" + `[1]` + "\nnull\n42\n",
		`{"message_id":"x","to":[1]}` + "\n",
		good + "\r\n" + good + "\r",
		string(bytes.Repeat([]byte("x"), 600)) + "\n" + good,
		good + "\n" + string(bytes.Repeat([]byte("{"), 300)),
		`{"message_id":"日本","content":"本文\n二行目"}`,
	} {
		f.Add([]byte(seed), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, blockSeed uint8) {
		block := 1 + int(blockSeed)%97
		want := expectLines(data)
		checkBackScanner(t, data, block, want.shown)
		s := storeHolding(t, data, block)
		checkTail(t, s, want)
		checkAppendAfter(t, s, want)
	})
}

// readerWant is what the readers must make of a topic file, from the
// forward split.
type readerWant struct {
	shown []fuzzLine // every line, too-long ones as "<long>"
	good  int        // lines that parse as records
	bad   int        // lines that are unreadable or too long
	ids   []string   // the records' message ids, in file order
}

func expectLines(data []byte) readerWant {
	var w readerWant
	for _, l := range forwardLines(data) {
		if len(l.text) > fuzzMaxLine {
			w.shown = append(w.shown, fuzzLine{l.off, "<long>"})
			w.bad++
			continue
		}
		w.shown = append(w.shown, l)
		switch rec, kind := parseLine([]byte(l.text)); kind {
		case lineGood:
			w.good++
			w.ids = append(w.ids, rec.MessageID)
		case lineBad:
			w.bad++
		}
	}
	return w
}

// checkBackScanner reads data backwards in blocks of block bytes and
// compares the lines with the forward split.
func checkBackScanner(t *testing.T, data []byte, block int, want []fuzzLine) {
	t.Helper()
	sc := newBackScanner(bytes.NewReader(data), int64(len(data)), block, fuzzMaxLine)
	var got []fuzzLine
	for {
		line, off, tooLong, ok := sc.prev()
		if !ok {
			break
		}
		text := string(line)
		if tooLong {
			text = "<long>"
		}
		got = append(got, fuzzLine{off, text})
	}
	if sc.err != nil {
		t.Fatalf("scanner error: %v", sc.err)
	}
	slices.Reverse(got)
	// The scanner yields the empty piece after a final '\n' (or of an
	// empty file); readers treat it as blank. The reference has none.
	if n := len(got); n > 0 && got[n-1] == (fuzzLine{int64(len(data)), ""}) {
		got = got[:n-1]
	}
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("backward lines\n got %+v\nwant %+v", got, want)
	}
}

// storeHolding is a store (reading in blocks of block bytes) whose topic
// "t1" is data.
func storeHolding(t *testing.T, data []byte, block int) *Store {
	t.Helper()
	s := openAt(t, memTempDir(t))
	s.block, s.maxLine = block, fuzzMaxLine
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.logPath("t1"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// checkTail: Tail (and Page, when ids are unique) returns every readable
// record, each with a message_id, and Skipped counts every unreadable line.
func checkTail(t *testing.T, s *Store, want readerWant) {
	t.Helper()
	recs, more, err := s.Page("t1", "", len(want.shown)+1)
	if err != nil {
		t.Fatalf("Tail: %v", err)
	}
	if more {
		t.Fatal("hasMore with a limit above the line count")
	}
	for _, r := range recs {
		if r.MessageID == "" {
			t.Fatal("a record without message_id")
		}
	}
	if !reflect.DeepEqual(ids(recs), want.ids) && !(len(recs) == 0 && len(want.ids) == 0) {
		t.Fatalf("records %q, want %q", ids(recs), want.ids)
	}
	if s.Skipped("t1") != want.bad {
		t.Fatalf("Skipped = %d, want %d", s.Skipped("t1"), want.bad)
	}
	if len(want.ids) > 0 && !hasDuplicates(want.ids) {
		if all := readAllPages(t, s, "t1", 3); !reflect.DeepEqual(ids(all), want.ids) {
			t.Fatalf("paged %q, want %q", ids(all), want.ids)
		}
	}
}

// checkAppendAfter: an append never glues onto what was there.
func checkAppendAfter(t *testing.T, s *Store, want readerWant) {
	t.Helper()
	if err := s.Append("t1", post("appended", "x")); err != nil {
		t.Fatal(err)
	}
	recs, _, err := s.Page("t1", "", len(want.shown)+2)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != want.good+1 || recs[len(recs)-1].MessageID != "appended" {
		t.Fatalf("after append: %q (had %d good)", ids(recs), want.good)
	}
	if s.Skipped("t1") != want.bad {
		t.Fatalf("Skipped after append = %d, want %d", s.Skipped("t1"), want.bad)
	}
}

// memTempDir is a temporary directory on tmpfs when the machine has one:
// Close fsyncs the topic files and directory churn is slow on a busy disk
// (~10 ms per fuzz input, a hundredfold slowdown); the checks need no disk.
func memTempDir(t *testing.T) string {
	// Linux only: Wine maps "/dev/shm" through to the host's, which then
	// behaves as neither Windows nor Linux (EvalSymlinks: "No more files").
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() && runtime.GOOS == "linux" {
		if d, err := os.MkdirTemp("/dev/shm", "logstore-fuzz-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

func hasDuplicates(ss []string) bool {
	seen := map[string]bool{}
	for _, s := range ss {
		if seen[s] {
			return true
		}
		seen[s] = true
	}
	return false
}

// FuzzAttachmentName: an accepted name yields a path whose cleaned form is
// itself, directly inside attachments/<topic>/ (after EvalSymlinks of the
// folder), naming exactly one new file there; AttachmentName's output is
// always accepted.
func FuzzAttachmentName(f *testing.F) {
	for _, seed := range []string{
		"image.png", "..", ".", "../x", "a/b", `a\b`, "C:\\x", `\\?\C:\x`, "CON", "nul.txt", "a\x00b",
		"/abs", "memo @Lin.txt", "日本語.pdf", "trailing.", " lead", "x:y", "COM¹", "\xff", "...",
		"$(id).txt", "`id`", "a;b&c", "..x", ".env",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s := openAt(t, memTempDir(t))
		dir := s.attachmentDir("t1")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		clean := AttachmentName(name)
		if _, err := s.AttachmentPath("t1", clean); err != nil {
			t.Fatalf("AttachmentName(%q) = %q refused: %v", name, clean, err)
		}
		if strings.HasPrefix(clean, ".") || strings.ContainsAny(clean, shellSyntax) {
			t.Fatalf("AttachmentName(%q) = %q: a leading dot or shell syntax", name, clean)
		}
		p, err := s.AttachmentPath("t1", name)
		if err != nil {
			return
		}
		if filepath.Clean(p) != p || filepath.Dir(p) != dir || filepath.Base(p) != name {
			t.Fatalf("AttachmentPath(%q) = %q leaves %s", name, p, dir)
		}
		pd, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil || pd != real {
			t.Fatalf("parent of %q resolves to %q (%v), want %q", p, pd, err, real)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatalf("write %q: %v", p, err)
		}
		ents, err := os.ReadDir(dir)
		if err != nil || len(ents) != 1 || ents[0].Name() != name {
			t.Fatalf("folder after writing %q holds %v (%v)", name, ents, err)
		}
	})
}
