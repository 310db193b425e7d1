package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteFileAtomic replaces path with data so that a reader sees either the
// old file or the new one, never a torn one (docs/design.md §8, §12): a temp
// file in the same directory, fsync, rename, then a best-effort fsync of the
// directory. An existing file keeps its permission bits; a new one gets
// perm. When path is a symlink the file it points to is replaced and the
// link stays (a user's linked .mcp.json remains linked). The parent
// directory must exist. Errors name the path and wrap the cause. It is the
// one atomic write of the app: config.json, a seat's .mcp.json and the
// topic index all go through it.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return AtomicFile{}.Write(path, data, perm)
}

// AtomicFile is WriteFileAtomic with its rename replaceable: logstore's
// tests inject a failing rename through it (a power cut between the temp
// write and the rename). The zero value renames with os.Rename.
type AtomicFile struct {
	Rename func(oldpath, newpath string) error
	// NoFollow replaces a symbolic link at the path by the new file rather
	// than writing its target: for the data directory's own files, where
	// a link can only have been planted (docs/design.md §16).
	NoFollow bool
}

// tempInfix marks the temp files Write leaves behind only if the process
// dies between CreateTemp and the rename: "." + name + ".tmp-" + random.
const tempInfix = ".tmp-"

// IsAtomicTemp reports whether a directory entry name is a leftover temp
// file of a Write to final's name (the owner may remove it at start).
func IsAtomicTemp(name, final string) bool {
	base := filepath.Base(final)
	return strings.HasPrefix(name, "."+base+tempInfix) || strings.HasPrefix(name, base+tempInfix)
}

// Write is WriteFileAtomic.
func (a AtomicFile) Write(path string, data []byte, perm fs.FileMode) error {
	rename := a.Rename
	if rename == nil {
		rename = os.Rename
	}
	target := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 && !a.NoFollow {
		resolved, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("write %s: resolve link: %w", path, err)
		}
		target = resolved
	}
	if fi, err := os.Lstat(target); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", target, err)
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+tempInfix+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = tmp.Close()
			_ = os.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", target, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: close: %w", target, err)
	}
	if err := os.Chmod(tmpName, perm); err != nil {
		return fmt.Errorf("write %s: chmod: %w", target, err)
	}
	if err := rename(tmpName, target); err != nil {
		return fmt.Errorf("write %s: rename: %w", target, err)
	}
	ok = true
	// The file is replaced; a directory that cannot be synced loses
	// nothing already renamed, so this is best effort.
	_ = SyncDir(dir)
	return nil
}

// jsonFileError turns a decode error of a file into one that names the file
// and, for syntax errors, the line and column.
func jsonFileError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := lineCol(data, syn.Offset)
		return fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := lineCol(data, typ.Offset)
		return fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// lineCol maps a byte offset to a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < offset && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
