package logstore

import (
	"os"
	"path/filepath"

	"github.com/pullcept/pullcept/config"
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

// openLog opens a topic log (or the legacy log) with flag through
// config.OpenRegular: never through a symbolic link, and a FIFO, device or
// directory planted in its place is refused at once (ErrNotAFile) rather
// than blocking the open under the room's and the index's locks
// (docs/design.md §16 "Planted files"). Logs are read in blocks, never
// whole, so no size cap applies here.
func openLog(path string, flag int) (*os.File, error) {
	return config.OpenRegular(path, flag, fileMode)
}
