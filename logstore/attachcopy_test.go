package logstore

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyAttachment: a picked file is copied under the topic with its own
// name, made safe and numbered, the source untouched; each refusal (gone,
// a folder, over the cap) says which and leaves nothing in the topic.
func TestCopyAttachment(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	src := t.TempDir()
	pic := filepath.Join(src, "image.png")
	writeFile(t, pic, "png bytes")
	var got []string
	for range 2 {
		p, err := s.CopyAttachment("t1", pic)
		if err != nil {
			t.Fatal(err)
		}
		if readFile(t, p) != "png bytes" || filepath.Dir(p) != s.attachmentDir("t1") {
			t.Fatalf("copy %s holds %q", p, readFile(t, p))
		}
		got = append(got, filepath.Base(p))
	}
	if got[0] != "image.png" || got[1] != "image (2).png" || readFile(t, pic) != "png bytes" {
		t.Fatalf("copies %q; source %q", got, readFile(t, pic))
	}

	if _, err := s.CopyAttachment("t1", filepath.Join(src, "gone.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a vanished file: %v", err)
	}
	if _, err := s.CopyAttachment("t1", src); !errors.Is(err, ErrNotAFile) {
		t.Errorf("a folder: %v", err)
	}
	huge := filepath.Join(src, "huge.bin")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// 2 GB, sparse: no disk is used and nothing is read.
	if err := errors.Join(f.Truncate(2<<30), f.Close()); err != nil {
		t.Fatal(err)
	}
	fi, err := AttachmentSource(huge)
	if !errors.Is(err, ErrAttachmentTooLarge) || fi == nil || fi.Size() != 2<<30 {
		t.Errorf("AttachmentSource of 2 GB: %v %v", fi, err)
	}
	if _, err := s.CopyAttachment("t1", huge); !errors.Is(err, ErrAttachmentTooLarge) {
		t.Errorf("copy of 2 GB: %v", err)
	}
	mustNotExist(t, filepath.Join(s.attachmentDir("t1"), "huge.bin"))
	if _, err := AttachmentSource(pic); err != nil {
		t.Errorf("AttachmentSource of a small file: %v", err)
	}
}

// TestAttachmentNamesOfForbiddenCharacters: a file whose name is only
// characters a terminal or Windows cannot carry is still saved, under a
// name of '_' (or "file" when nothing is left), never refused.
func TestAttachmentNamesOfForbiddenCharacters(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	for _, tc := range []struct{ name, want string }{
		{`<>:"|?*`, "_______"},
		{"@＠", "__"},
		{"\x01\x02.txt", "__.txt"},
		{". . .", "file"},
		{"CON.txt", "_CON.txt"},
	} {
		p, err := s.SaveAttachment("t1", tc.name, strings.NewReader("x"))
		if err != nil || filepath.Base(p) != tc.want {
			t.Errorf("SaveAttachment(%q) = %q, %v; want %q", tc.name, p, err, tc.want)
		}
	}
}

// TestCapReader: the copy stops one byte past the cap with
// ErrAttachmentTooLarge (a file that grew after it was checked), and a file
// of exactly the cap passes.
func TestCapReader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		ok   bool
	}{{"1234", true}, {"12345", false}, {"", true}} {
		n, err := io.Copy(io.Discard, &capReader{r: strings.NewReader(tc.body), left: 4, path: "p"})
		if tc.ok != (err == nil) || !tc.ok && !errors.Is(err, ErrAttachmentTooLarge) {
			t.Errorf("%q: copied %d, %v", tc.body, n, err)
		}
		if n > 4 {
			t.Errorf("%q: read %d bytes past the cap", tc.body, n)
		}
	}
}

// BenchmarkCopyAttachment: copying a picked 16 MiB file under a topic at
// send time (read, write, fsync); MB/s tells how long the cap's 100 MiB
// keeps "sending…" up.
func BenchmarkCopyAttachment(b *testing.B) {
	s, _ := openStore(b)
	src := filepath.Join(b.TempDir(), "data.bin")
	if err := os.WriteFile(src, make([]byte, 16<<20), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(16 << 20)
	for b.Loop() {
		p, err := s.CopyAttachment("t1", src)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.Remove(p); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
