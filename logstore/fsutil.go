package logstore

import (
	"fmt"
	"os"
	"path/filepath"
)

// File modes. Topic logs hold whole conversations (which may quote secrets),
// so they are private to the user, like the data directory's other files.
const (
	dirMode  os.FileMode = 0o700
	fileMode os.FileMode = 0o600
)

// fsOps are the file operations whose failure the tests inject (delete order,
// atomic index writes, migration fallback). Production uses the os functions.
type fsOps struct {
	rename    func(oldpath, newpath string) error
	remove    func(name string) error
	removeAll func(path string) error
}

func osOps() fsOps {
	return fsOps{rename: os.Rename, remove: os.Remove, removeAll: os.RemoveAll}
}

// tempPattern is the name of a temporary file for final (CreateTemp adds a
// random suffix). Leftovers from a crash are removed by Open; they never end
// in ".jsonl", so the topic scan never mistakes one for a topic.
func tempPattern(final string) string { return filepath.Base(final) + ".tmp-*" }

// writeFileAtomic replaces path with data: a temporary file in the same
// directory, fsync, rename over path, fsync the directory (Unix). A crash at
// any point leaves either the old or the new file, never half of one. On
// Windows os.Rename replaces an existing file (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING).
func writeFileAtomic(ops fsOps, path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err = ops.rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if err = syncDir(dir); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
