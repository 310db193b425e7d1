//go:build unix

package logstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolveAttachment: whatever path a post's text points at — relative
// pieces, "..", absolute paths, a symlink to a file outside, a topic folder
// that is a symlink, a nested folder — ResolveAttachment either refuses it
// (ErrAttachmentOutside) or returns the real path of a regular file directly
// inside attachments/<topic>/ of this store, never one outside it and never
// through a link (docs/dependencies.md §9.6).
func FuzzResolveAttachment(f *testing.F) {
	for _, seed := range []string{
		"t1/ok.txt", "t1/link.txt", "t2/x.txt", "../secret.txt", "../../secret.txt", "t1/sub/nested.txt",
		"t1/../t1/ok.txt", "t1/./ok.txt", "/etc/passwd", "", ".", "t1", "t1/", "t1//ok.txt", "./t1/ok.txt",
		"t1/ok.txt/..", "t1/dirlink/nested.txt", "t1/ok.txt\x00", "t1\\ok.txt",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		data := memTempDir(t)
		s := openAt(t, data)
		root := s.attachmentRoot()
		t1 := filepath.Join(root, "t1")
		for _, d := range []string{t1, filepath.Join(t1, "sub"), filepath.Join(data, "outside")} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range []string{filepath.Join(t1, "ok.txt"), filepath.Join(t1, "sub", "nested.txt"),
			filepath.Join(data, "secret.txt"), filepath.Join(data, "outside", "x.txt")} {
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		links := map[string]string{
			filepath.Join(t1, "link.txt"): filepath.Join(data, "secret.txt"),
			filepath.Join(root, "t2"):     filepath.Join(data, "outside"),
			filepath.Join(t1, "dirlink"):  filepath.Join(t1, "sub"),
		}
		for link, target := range links {
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
		}
		path := rel
		if !filepath.IsAbs(rel) {
			path = filepath.Join(root, rel)
		}
		real, err := s.ResolveAttachment(path)
		if err != nil {
			if rel == "t1/ok.txt" || rel == "t1/../t1/ok.txt" {
				t.Fatalf("ResolveAttachment(%q) refused a real attachment: %v", path, err)
			}
			return
		}
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			t.Fatal(err)
		}
		topicDir := filepath.Dir(real)
		if filepath.Dir(topicDir) != realRoot || checkTopicID(filepath.Base(topicDir)) != nil {
			t.Fatalf("ResolveAttachment(%q) = %q: not directly inside a topic folder of %s", path, real, realRoot)
		}
		for _, p := range []string{topicDir, real} {
			fi, err := os.Lstat(p)
			if err != nil || fi.Mode()&os.ModeSymlink != 0 {
				t.Fatalf("ResolveAttachment(%q) = %q passes through a link at %s (%v)", path, real, p, err)
			}
		}
		if fi, _ := os.Lstat(real); !fi.Mode().IsRegular() {
			t.Fatalf("ResolveAttachment(%q) = %q is not a regular file", path, real)
		}
		if strings.Contains(real, "secret") || strings.Contains(real, "nested") {
			t.Fatalf("ResolveAttachment(%q) = %q reached a file outside its topic folder", path, real)
		}
	})
}
