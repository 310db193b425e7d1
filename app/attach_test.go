package app

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// writeTemp writes a file of content under dir and returns its path.
func writeTemp(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// reason is the *tui.AttachmentError's reason of err, or -1.
func reason(err error) tui.AttachmentReason {
	var ae *tui.AttachmentError
	if errors.As(err, &ae) {
		return ae.Reason
	}
	return -1
}

// TestAttachmentsThroughTheBackend: a picked file is checked (its saved
// name given), copied under the topic at send time, its path delivered in
// the body's block to the log, and deleted with the topic
// (docs/design.md §8 "Attachments").
func TestAttachmentsThroughTheBackend(t *testing.T) {
	a, b := openTest(t)
	src := t.TempDir()
	pic := writeTemp(t, src, "shot @Ada＠.png", "png bytes")
	f, err := b.CheckAttachment(pic)
	if err != nil || f.Path != pic || f.Name != "shot _Ada_.png" || f.Size != 9 {
		t.Fatalf("CheckAttachment = %+v, %v", f, err)
	}
	topic, _ := b.NewTopic()
	saved, err := b.SaveAttachment(topic, f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(b.AttachmentsDir(), topic, "shot _Ada_.png"); saved != want {
		t.Fatalf("saved at %s, want %s", saved, want)
	}
	body := room.AttachmentBlock{Text: "look", Label: room.AttachmentsLabel, Paths: []string{saved}}.String()
	res, err := b.Post(topic, room.Draft{Content: body})
	if err != nil || !res.Delivered || res.Post.Content != body {
		t.Fatalf("post: %+v %v", res, err)
	}
	data, err := os.ReadFile(filepath.Join(a.dataDir, "logs", "main", topic+".jsonl"))
	if err != nil || !strings.Contains(string(data), `"look\n\nAttachments:\n- `+strings.ReplaceAll(saved, `\`, `\\`)+`"`) {
		t.Fatalf("log %q (%v)", data, err)
	}
	if err := b.DeleteTopic(topic); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(saved)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the topic's attachments outlived it: %v", err)
	}
}

// TestAttachmentRefusals: a vanished file, a folder, a 2 GB file — each a
// refusal naming the reason (and the size and limit), at pick time and at
// send time, with nothing left in the topic.
func TestAttachmentRefusals(t *testing.T) {
	_, b := openTest(t)
	src := t.TempDir()
	huge := filepath.Join(src, "huge.bin")
	fh, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(fh.Truncate(2<<30), fh.Close()); err != nil {
		t.Fatal(err)
	}
	_, err = b.CheckAttachment(huge)
	var ae *tui.AttachmentError
	if !errors.As(err, &ae) || ae.Reason != tui.AttachmentTooLarge || ae.Size != 2<<30 || ae.Limit != logstore.MaxAttachmentBytes {
		t.Fatalf("2 GB: %#v", err)
	}
	if _, err := b.CheckAttachment(src); reason(err) != tui.AttachmentNotFile {
		t.Errorf("a folder: %v", err)
	}
	if _, err := b.CheckAttachment(filepath.Join(src, "none")); reason(err) != tui.AttachmentGone {
		t.Errorf("nothing there: %v", err)
	}
	topic, _ := b.NewTopic()
	gone := writeTemp(t, src, "gone.txt", "x")
	if _, err := b.CheckAttachment(gone); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SaveAttachment(topic, gone); reason(err) != tui.AttachmentGone {
		t.Errorf("vanished between pick and send: %v", err)
	}
	if _, err := b.SaveAttachment(topic, huge); reason(err) != tui.AttachmentTooLarge {
		t.Errorf("2 GB at send: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(b.AttachmentsDir(), topic)); len(entries) != 0 {
		t.Errorf("refused saves left %v", entries)
	}
}

// TestDroppedFiles: what terminals paste for dropped files — GNOME's
// single quotes, iTerm2's backslashes, Windows Terminal's double quotes,
// file:// URLs — reads as those files; a paste with any word that is not a
// file (a folder, text) is text; a 2 GB file is refused, the others kept.
func TestDroppedFiles(t *testing.T) {
	_, b := openTest(t)
	src := t.TempDir()
	a := writeTemp(t, src, "a b.png", "a")
	c := writeTemp(t, src, "c.txt", "c")
	huge := filepath.Join(src, "huge.bin")
	fh, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(fh.Truncate(2<<30), fh.Close()); err != nil {
		t.Fatal(err)
	}
	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(a)}).String()
	if runtime.GOOS == "windows" {
		fileURL = (&url.URL{Scheme: "file", Path: "/" + filepath.ToSlash(a)}).String()
	}
	cases := []struct {
		paste string
		want  []string
	}{
		{"'" + a + "' '" + c + "' ", []string{a, c}},
		{`"` + a + `"`, []string{a}},
		{fileURL + "\r\n", []string{a}},
		{c + "\n", []string{c}},
	}
	if runtime.GOOS != "windows" {
		paren := writeTemp(t, src, "shot (1).png", "p")
		cases = append(cases,
			struct {
				paste string
				want  []string
			}{strings.ReplaceAll(a, " ", `\ `), []string{a}},
			struct {
				paste string
				want  []string
			}{strings.NewReplacer(" ", `\ `, "(", `\(`, ")", `\)`).Replace(paren), []string{paren}})
	}
	for _, tc := range cases {
		files, refused, ok := b.DroppedFiles(tc.paste)
		var got []string
		for _, f := range files {
			got = append(got, f.Path)
		}
		if !ok || len(refused) != 0 || !slices.Equal(got, tc.want) {
			t.Errorf("DroppedFiles(%q) = %v %v %v, want %v", tc.paste, got, refused, ok, tc.want)
		}
	}
	for _, text := range []string{src, c + " and more words", "'" + a, "/no/such/file", "", strings.Repeat(c+" ", room.MaxAttachments+1)} {
		if files, _, ok := b.DroppedFiles(text); ok {
			t.Errorf("DroppedFiles(%q) = %v, want text", text, files)
		}
	}
	files, refused, ok := b.DroppedFiles(c + " " + huge)
	if !ok || len(files) != 1 || len(refused) != 1 || reason(refused[0]) != tui.AttachmentTooLarge {
		t.Errorf("a drop with a 2 GB file: %v %v %v", files, refused, ok)
	}
}

// TestListDir: the attach prompt's listing is sorted, marks folders (a
// link to one too), reads "~" as the home, and stops at MaxDirEntries.
func TestListDir(t *testing.T) {
	_, b := openTest(t)
	dir := t.TempDir()
	writeTemp(t, dir, "b.txt", "")
	writeTemp(t, dir, "a.txt", "")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	got, more, err := b.ListDir(dir + string(filepath.Separator))
	if err != nil || more || fmt.Sprint(got) != "[{a.txt false} {b.txt false} {sub true}]" {
		t.Fatalf("ListDir = %v %v %v", got, more, err)
	}
	if got, _, err := b.ListDir(t.TempDir()); err != nil || len(got) != 0 {
		t.Errorf("an empty folder: %v, %v", got, err)
	}
	if _, _, err := b.ListDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing folder listed")
	}
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
	if got, _, err := b.ListDir("~"); err != nil || len(got) != 3 {
		t.Errorf("ListDir(~) = %v %v", got, err)
	}
	big := t.TempDir()
	for i := range tui.MaxDirEntries + 5 {
		writeTemp(t, big, fmt.Sprintf("f%05d", i), "")
	}
	if got, more, err := b.ListDir(big); err != nil || !more || len(got) != tui.MaxDirEntries {
		t.Errorf("a folder of %d: %d listed, more %v, %v", tui.MaxDirEntries+5, len(got), more, err)
	}
}

// TestOpenAttachmentChecks: only a file that resolves into the attachments
// folder reaches the opener, by its resolved path; a path elsewhere, a
// link out of the folder, and a file the system would run are refused
// without starting anything.
func TestOpenAttachmentChecks(t *testing.T) {
	_, b := openTest(t)
	var opened []string
	b.opener = func(p string) error { opened = append(opened, p); return nil }
	topic, _ := b.NewTopic()
	src := t.TempDir()
	saved, err := b.SaveAttachment(topic, writeTemp(t, src, "notes.txt", "n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.OpenAttachment(saved); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(saved)
	if !slices.Equal(opened, []string{want}) {
		t.Fatalf("opened %q, want %q", opened, want)
	}
	secret := writeTemp(t, src, "secret.txt", "s")
	dotted := filepath.Join(b.AttachmentsDir(), topic, "..", "..", "..", "config.json")
	for _, p := range []string{secret, dotted, filepath.Join(b.AttachmentsDir(), topic, "missing.txt")} {
		if err := b.OpenAttachment(p); reason(err) != tui.AttachmentOutside {
			t.Errorf("OpenAttachment(%s) = %v, want outside", p, err)
		}
	}
	runner, err := b.SaveAttachment(topic, writeTemp(t, src, "setup.desktop", "[Desktop Entry]"))
	if runtime.GOOS == "windows" {
		runner, err = b.SaveAttachment(topic, writeTemp(t, src, "setup.bat", "echo"))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := b.OpenAttachment(runner); reason(err) != tui.AttachmentRunnable {
		t.Errorf("a runnable file: %v", err)
	}
	testkit.SkipUnderWine(t, "CreateSymbolicLinkW is a stub: it reports success and makes no link")
	link := filepath.Join(b.AttachmentsDir(), topic, "link.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := b.OpenAttachment(link); reason(err) != tui.AttachmentOutside {
		t.Errorf("a link out of the folder: %v", err)
	}
	if len(opened) != 1 {
		t.Errorf("the opener ran for refused paths: %q", opened)
	}
}

// TestRunnable: the extensions and modes that make the system run a file
// rather than open it, per OS.
func TestRunnable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		mode fs.FileMode
		goos string
		want bool
	}{
		{"a.png", 0o600, "linux", false},
		{"a.txt", 0o700, "linux", true},
		{"a.desktop", 0o600, "linux", true},
		{"A.APP", 0o600, "darwin", true},
		{"a.command", 0o600, "darwin", true},
		{"a.js", 0o600, "linux", true}, // some desktops run it (gjs, node)
		{"a.js", 0o666, "windows", true},
		{"a.EXE", 0o666, "windows", true},
		{"a.lnk", 0o666, "windows", true},
		{"a.pdf", 0o777, "windows", false},
		{"a.pdf", 0o600, "darwin", false},
		{"setup.exe", 0o600, "linux", true}, // xdg-open hands it to Wine
		{"a.py", 0o666, "windows", true},
		{"a.chm", 0o666, "windows", true},
		{"a.search-ms", 0o666, "windows", true},
		{"a.fileloc", 0o600, "darwin", true},
		{"x.exe.", 0o666, "windows", true}, // Windows drops the dot
		{"x.png ", 0o666, "windows", true},
		{"noext", 0o600, "linux", true},
		{"Photo.JPG", 0o600, "darwin", false},
	} {
		if got := runnable(tc.name, tc.mode, tc.goos); got != tc.want {
			t.Errorf("runnable(%s, %v, %s) = %v", tc.name, tc.mode, tc.goos, got)
		}
	}
}
