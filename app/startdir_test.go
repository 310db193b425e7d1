package app

import (
	"os"
	"path/filepath"
	"testing"
)

// A new account's working directory is prefilled with where Pullcept was
// started, not the home folder (a newcomer's first seat wrote .mcp.json
// there); from the file system's root, the home folder.
func TestStartDirIsWherePullceptStarted(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	b := &Backend{}
	want, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(b.StartDir()); got != want {
		t.Fatalf("StartDir %q, want %q", got, want)
	}
	root, _ := filepath.Abs(string(filepath.Separator))
	t.Chdir(root)
	if home, _ := os.UserHomeDir(); b.StartDir() != home {
		t.Fatalf("from %s: StartDir %q, want the home %q", root, b.StartDir(), home)
	}
}
