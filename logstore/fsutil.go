package logstore

import (
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
