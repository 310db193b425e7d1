package logstore

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

		// Scanner against the forward split.
		want := forwardLines(data)
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
		wantShown := make([]fuzzLine, len(want))
		var wantGood, wantBad int
		var wantIDs []string
		for i, l := range want {
			wantShown[i] = l
			if len(l.text) > fuzzMaxLine {
				wantShown[i].text = "<long>"
				wantBad++
				continue
			}
			switch rec, kind := parseLine([]byte(l.text)); kind {
			case lineGood:
				wantGood++
				wantIDs = append(wantIDs, rec.MessageID)
			case lineBad:
				wantBad++
			}
		}
		if !reflect.DeepEqual(got, wantShown) {
			t.Fatalf("backward lines\n got %+v\nwant %+v", got, wantShown)
		}

		// Store reads.
		s := openAt(t, memTempDir(t))
		s.block, s.maxLine = block, fuzzMaxLine
		if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.logPath("t1"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		recs, more, err := s.Tail("t1", len(want)+1)
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
		if !reflect.DeepEqual(ids(recs), wantIDs) && !(len(recs) == 0 && len(wantIDs) == 0) {
			t.Fatalf("records %q, want %q", ids(recs), wantIDs)
		}
		if s.Skipped("t1") != wantBad {
			t.Fatalf("Skipped = %d, want %d", s.Skipped("t1"), wantBad)
		}
		if len(wantIDs) > 0 && !hasDuplicates(wantIDs) {
			if all := readAllPages(t, s, "t1", 3); !reflect.DeepEqual(ids(all), wantIDs) {
				t.Fatalf("paged %q, want %q", ids(all), wantIDs)
			}
		}

		// An append never glues onto what was there.
		if err := s.Append("t1", post("appended", "x")); err != nil {
			t.Fatal(err)
		}
		recs, _, err = s.Tail("t1", len(want)+2)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != wantGood+1 || recs[len(recs)-1].MessageID != "appended" {
			t.Fatalf("after append: %q (had %d good)", ids(recs), wantGood)
		}
		if s.Skipped("t1") != wantBad {
			t.Fatalf("Skipped after append = %d, want %d", s.Skipped("t1"), wantBad)
		}
	})
}

// memTempDir is a temporary directory on tmpfs when the machine has one:
// Close fsyncs the topic files and directory churn is slow on a busy disk
// (~10 ms per fuzz input, a hundredfold slowdown); the checks need no disk.
func memTempDir(t *testing.T) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
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
		if _, err := s.AttachmentPath("t1", AttachmentName(name)); err != nil {
			t.Fatalf("AttachmentName(%q) = %q refused: %v", name, AttachmentName(name), err)
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
