package logstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestAttachmentPathRefusals: every name that could leave
// attachments/<topic>/ or that Windows would store differently is refused
// with ErrBadAttachmentName.
func TestAttachmentPathRefusals(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	bad := []string{
		"", ".", "..", "../x", "..\\x", "a/b", "a\\b", "/etc/passwd", "C:\\x", "C:", "c:x",
		`\\?\C:\x`, `\\server\share`, "CON", "con", "nul.txt", "NUL .log", "COM1", "lpt9.doc", "CONIN$",
		"COM¹", "a\x00b", "a\nb", "tab\there", "del\x7f", "a:stream", "what?", "star*", "pipe|", `q"uote`,
		"<x>", "trailing.", "trailing ", "...", "\xff\xfe", strings.Repeat("x", 256),
	}
	for _, name := range bad {
		p, err := s.AttachmentPath("t1", name)
		if !errors.Is(err, ErrBadAttachmentName) {
			t.Errorf("AttachmentPath(%q) = %q, %v; want ErrBadAttachmentName", name, p, err)
		}
	}
	good := []string{"image.png", "image (2).png", "memo @Lin.txt", "日本語のファイル.pdf", ".hidden", "a..b",
		"con-notes.txt", "COM10", "x y", strings.Repeat("x", 255)}
	for _, name := range good {
		p, err := s.AttachmentPath("t1", name)
		if err != nil {
			t.Errorf("AttachmentPath(%q): %v", name, err)
			continue
		}
		if want := filepath.Join(s.Dir(), "attachments", "t1", name); p != want || !filepath.IsAbs(p) {
			t.Errorf("AttachmentPath(%q) = %q, want %q", name, p, want)
		}
	}
	if _, err := s.AttachmentPath("../t1", "x"); !errors.Is(err, ErrBadTopicID) {
		t.Errorf("bad topic id: %v", err)
	}
}

// TestAttachmentPathLinks: a symbolic link at the target, or in place of the
// topic or attachments folder, is refused even when the name is fine.
func TestAttachmentPathLinks(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	writeFile(t, secret, "secret")
	dir := filepath.Join(s.Dir(), "attachments", "t1")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	testkit.SkipUnderWine(t, "CreateSymbolicLinkW is a stub: it reports success and makes no link")
	if _, err := s.AttachmentPath("t1", "link.txt"); !errors.Is(err, ErrAttachmentLink) {
		t.Fatalf("symlink target: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "missing"), filepath.Join(dir, "dangling.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AttachmentPath("t1", "dangling.txt"); !errors.Is(err, ErrAttachmentLink) {
		t.Fatalf("dangling symlink: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AttachmentPath("t1", "sub"); !errors.Is(err, ErrBadAttachmentName) {
		t.Fatalf("directory target: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(s.Dir(), "attachments", "t2")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AttachmentPath("t2", "secret.txt"); !errors.Is(err, ErrAttachmentLink) {
		t.Fatalf("topic folder is a link: %v", err)
	}
	if _, err := s.SaveAttachment("t2", "new.txt", strings.NewReader("x")); !errors.Is(err, ErrAttachmentLink) {
		t.Fatalf("SaveAttachment through a linked folder: %v", err)
	}
	mustNotExist(t, filepath.Join(outside, "new.txt"))

	s2, _ := openStore(t)
	if err := os.MkdirAll(s2.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s2.Dir(), "attachments")); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.AttachmentPath("t1", "x.txt"); !errors.Is(err, ErrAttachmentLink) {
		t.Fatalf("attachments folder is a link: %v", err)
	}
}

// TestAttachmentName covers the spec's sanitiser: names come out accepted by
// AttachmentPath and typed back unchanged, with no shell syntax and no
// leading dot (issue 32).
func TestAttachmentName(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"image.png", "image.png"},
		{"memo @Lin.txt", "memo _Lin.txt"},
		{"全角＠名前.txt", "全角_名前.txt"},
		{`a<b>c:d"e/f\g|h?i*j.txt`, "a_b_c_d_e_f_g_h_i_j.txt"},
		{"line\nbreak\x00.txt", "line_break_.txt"},
		{"trailing. . ", "trailing"},
		{"CON", "_CON"},
		{"nul.txt", "_nul.txt"},
		{"..", "file"},
		{"", "file"},
		{"   ", "file"},
		{"\xff\xfe.bin", "_.bin"}, // a run of invalid bytes is one "_"
		{strings.Repeat("あ", 100) + ".png", strings.Repeat("あ", 76) + ".png"},
		{strings.Repeat("😀", 100) + ".png", strings.Repeat("😀", 59) + ".png"},
		{strings.Repeat("x", 100), strings.Repeat("x", 80)},
		// Shell syntax goes like the other unsafe characters: the path is
		// typed into seats, and a model may paste it into a shell.
		{"$(rm -rf ~).txt", "__rm -rf ~_.txt"},
		// Parentheses run code too: a PowerShell word that starts with
		// "(" is an expression, zsh reads "(e:…:)" after a word as a glob
		// qualifier that evaluates its text (breaker review).
		{"x (whoami).png", "x _whoami_.png"},
		{"a(e:reboot:)", "a_e_reboot__"},
		// What draws nothing or reorders text is not typed into a seat
		// raw: C1 controls, bidi controls, format and filler characters.
		{"inv\u202Egnp.exe", "inv_gnp.exe"},
		{"a\u009b31mb\u200b\U000E0041\u3164c.txt", "a_31mb___c.txt"},
		{"line\u2028sep.txt", "line_sep.txt"},
		{"`id`;ls&true!.sh", "_id__ls_true_.sh"},
		{"it's.txt", "it_s.txt"},
		// Never a leading dot: the copy would be hidden. The dots stay
		// after the '_' (the spec's "/" → "_" gives ".._x"; no dot is
		// lost, so "..x" and ".x" stay two names).
		{"..x", "_..x"},
		{".x", "_.x"},
		{".env", "_.env"},
		{".env.local.txt", "_.env.local.txt"},
		{"../x", "_.._x"},
		{"../../etc/passwd", "_.._.._etc_passwd"},
		{"..png", "_..png"},
		{"...", "file"},
	}
	s, _ := openStore(t)
	for _, tc := range cases {
		got := AttachmentName(tc.in)
		if got != tc.want {
			t.Errorf("AttachmentName(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if _, err := s.AttachmentPath("t1", got); err != nil {
			t.Errorf("AttachmentPath(AttachmentName(%q)): %v", tc.in, err)
		}
		if strings.HasPrefix(got, ".") || strings.ContainsAny(got, shellSyntax) {
			t.Errorf("AttachmentName(%q) = %q: a leading dot or shell syntax", tc.in, got)
		}
		if n := utf8.RuneCountInString(got); n > attachmentNameRunes+1 || len(got) > maxNameBytes {
			t.Errorf("AttachmentName(%q) too long: %d runes, %d bytes", tc.in, n, len(got))
		}
	}
}

// TestSaveAttachment: saved under the topic, numbered on collision like a
// file manager, never overwriting; the topic is not indexed by saving.
func TestSaveAttachment(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	var paths []string
	for _, body := range []string{"one", "two", "three"} {
		p, err := s.SaveAttachment("t1", "image.png", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if readFile(t, p) != body {
			t.Fatalf("%s holds %q", p, readFile(t, p))
		}
		paths = append(paths, filepath.Base(p))
	}
	if strings.Join(paths, "|") != "image.png|image (2).png|image (3).png" {
		t.Fatalf("names = %v", paths)
	}
	p, err := s.SaveAttachment("t1", "memo @Lin", strings.NewReader("x"))
	if err != nil || filepath.Base(p) != "memo _Lin" {
		t.Fatalf("sanitised save = %q %v", p, err)
	}
	// A name that starts with dots is all stem: its copy is numbered
	// after them, never hidden.
	var dotted []string
	for range 2 {
		p, err := s.SaveAttachment("t1", ".env", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		dotted = append(dotted, filepath.Base(p))
	}
	if strings.Join(dotted, "|") != "_.env|_.env (2)" {
		t.Fatalf("dotted names = %v", dotted)
	}
	long := strings.Repeat("x", 90) + ".txt"
	for range 2 {
		p, err := s.SaveAttachment("t1", long, strings.NewReader("x"))
		if err != nil || utf8.RuneCountInString(filepath.Base(p)) > attachmentNameRunes {
			t.Fatalf("long name save = %q %v", p, err)
		}
	}
	if ts, err := s.Topics(); err != nil || len(ts) != 0 {
		t.Fatalf("saving indexed the topic: %+v %v", ts, err)
	}
	failing := errReader{errors.New("injected: read failed")}
	if _, err := s.SaveAttachment("t1", "broken.bin", failing); err == nil {
		t.Fatal("a failing copy succeeded")
	}
	mustNotExist(t, filepath.Join(s.attachmentDir("t1"), "broken.bin"))
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestResolveAttachment: only a regular file directly inside a topic's
// attachments folder resolves; links out, "..", folders and files elsewhere
// are refused.
func TestResolveAttachment(t *testing.T) {
	t.Parallel()
	s, data := openStore(t)
	if _, err := s.ResolveAttachment(filepath.Join(data, "x")); !errors.Is(err, ErrAttachmentOutside) {
		t.Fatalf("no attachments folder: %v", err)
	}
	p, err := s.SaveAttachment("t1", "a.txt", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ResolveAttachment(p)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(p); got != want {
		t.Fatalf("resolved %q, want %q", got, want)
	}
	dotted := filepath.Join(s.attachmentDir("t1"), "..", "t1", "a.txt")
	if _, err := s.ResolveAttachment(dotted); err != nil {
		t.Fatalf("a path with .. that stays inside: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, outside, "secret")
	link := filepath.Join(s.attachmentDir("t1"), "link.txt")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(s.attachmentDir("t1"), "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(s.attachmentDir("t1"), "sub", "deep.txt"), "x")
	writeFile(t, filepath.Join(s.attachmentRoot(), "loose.txt"), "x")
	for _, bad := range []string{
		link, outside, filepath.Join(s.attachmentDir("t1"), "..", "..", "index.json"),
		s.attachmentDir("t1"), filepath.Join(s.attachmentDir("t1"), "sub"),
		filepath.Join(s.attachmentDir("t1"), "sub", "deep.txt"), filepath.Join(s.attachmentRoot(), "loose.txt"),
		filepath.Join(s.attachmentDir("t1"), "missing.txt"), "relative/a.txt",
	} {
		if r, err := s.ResolveAttachment(bad); !errors.Is(err, ErrAttachmentOutside) {
			t.Errorf("ResolveAttachment(%q) = %q, %v; want ErrAttachmentOutside", bad, r, err)
		}
	}
}

// TestTopicAttachmentsDir: the folder is made once and named the way
// attachments are saved into it; a bad topic id is refused.
func TestTopicAttachmentsDir(t *testing.T) {
	t.Parallel()
	s, _ := openStore(t)
	dir, err := s.TopicAttachmentsDir("t1")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s: %v", dir, err)
	}
	p, err := s.SaveAttachment("t1", "a.txt", strings.NewReader("x"))
	if err != nil || filepath.Dir(p) != dir {
		t.Fatalf("saved at %s (%v), want in %s", p, err, dir)
	}
	if again, err := s.TopicAttachmentsDir("t1"); err != nil || again != dir {
		t.Fatalf("second call: %s %v", again, err)
	}
	if _, err := s.TopicAttachmentsDir("../up"); err == nil {
		t.Fatal("a topic id with .. was given a folder")
	}
}
