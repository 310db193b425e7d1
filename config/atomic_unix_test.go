//go:build unix

package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSavePreservesPermissionsAndLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte(`{"accounts": [], "x": 1}`), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(filepath.Join(dir, FileName))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("config.json is no longer a link: %v %v", fi, err)
	}
	st, _ := os.Stat(target)
	if st.Mode().Perm() != 0o640 {
		t.Errorf("permissions changed to %v", st.Mode().Perm())
	}
	if m := readJSON(t, target); m["x"] != float64(1) || len(m["accounts"].([]any)) != 1 {
		t.Errorf("linked file content: %v", m)
	}
}
