package logstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/pullcept/pullcept/config"
)

// LegacyTopicID is the topic the original single-room log
// <data>/logs/main.jsonl becomes (spec «部屋のログ»: carried over as one
// topic, moved, never copied into two live files, never dropped). A fixed id
// makes the migration idempotent: a later run recognises a finished copy.
const LegacyTopicID = "legacy-main"

// migrateLegacy moves <data>/logs/main.jsonl into logs/main/ as a topic and
// indexes it, named from its first post. Failures leave the legacy file in
// place and are reported through TakeWarnings; the next Open retries.
func (s *Store) migrateLegacy() {
	legacy := filepath.Join(s.dataDir, "logs", "main.jsonl")
	fi, err := os.Lstat(legacy)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file; left in place", legacy)
	}
	if err == nil {
		err = s.migrate(legacy, fi.ModTime())
	}
	if err != nil {
		s.warn(fmt.Errorf("%w: %w", ErrLegacyMigration, err))
	}
}

func (s *Store) migrate(legacy string, mtime time.Time) error {
	if err := os.MkdirAll(s.dir, dirMode); err != nil {
		return err
	}
	id := LegacyTopicID
	target := s.logPath(id)
	_, err := os.Lstat(target)
	switch {
	case err == nil:
		done, err := isPrefixOf(legacy, target)
		if err != nil {
			return err
		}
		if done {
			// An earlier run copied it and stopped before removing the
			// original: finish that run.
			if err := s.fs.remove(legacy); err != nil {
				return fmt.Errorf("remove migrated %s: %w", legacy, err)
			}
			if err := config.SyncDir(filepath.Dir(legacy)); err != nil {
				return err
			}
			return s.indexMigrated(id, mtime)
		}
		// A new legacy log appeared after an earlier migration (an old
		// version ran again): it is another conversation, another topic.
		id = NewTopicID()
		target = s.logPath(id)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := s.fs.rename(legacy, target); err != nil {
		if cerr := s.copyThenRemove(legacy, target); cerr != nil {
			return fmt.Errorf("move %s: %w; copy: %w", legacy, err, cerr)
		}
	}
	if err := config.SyncDir(s.dir); err != nil {
		return err
	}
	if err := config.SyncDir(filepath.Dir(legacy)); err != nil {
		return err
	}
	return s.indexMigrated(id, mtime)
}

// copyThenRemove is the fallback when the legacy log cannot be renamed (it
// is on another volume, or Windows holds it): copy to a temporary file,
// fsync, rename into place, and remove the original only then. If the
// original cannot be removed, the copy is removed again so that the
// conversation stays in exactly one file.
func (s *Store) copyThenRemove(legacy, target string) (err error) {
	src, err := openLog(legacy, os.O_RDONLY)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp, err := os.CreateTemp(s.dir, tempPattern(target))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = io.Copy(tmp, src); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = s.fs.rename(tmp.Name(), target); err != nil {
		return err
	}
	if err = config.SyncDir(s.dir); err != nil {
		return err
	}
	src.Close() // Windows cannot remove an open file
	if err = s.fs.remove(legacy); err != nil {
		if uerr := os.Remove(target); uerr != nil {
			return fmt.Errorf("remove original: %w (and the copy %s stays: %w)", err, target, uerr)
		}
		return fmt.Errorf("remove original: %w", err)
	}
	return nil
}

// indexMigrated gives the migrated topic its index entry (named and dated
// from its first post, else dated by the legacy file's mtime).
func (s *Store) indexMigrated(id string, mtime time.Time) error {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	return s.updateIndex(func(d *indexDoc) (bool, error) {
		if d.find(id) != nil {
			return false, nil
		}
		d.add(s.newEntry(id, mtime))
		return true, nil
	})
}

// isPrefixOf reports whether the whole content of file a is the start of
// file b (b may have grown by appends since a was copied into it).
func isPrefixOf(a, b string) (bool, error) {
	fa, err := openLog(a, os.O_RDONLY)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := openLog(b, os.O_RDONLY)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	ia, err := fa.Stat()
	if err != nil {
		return false, err
	}
	ib, err := fb.Stat()
	if err != nil {
		return false, err
	}
	if ia.Size() > ib.Size() {
		return false, nil
	}
	ba, bb := make([]byte, blockSize), make([]byte, blockSize)
	for {
		n, err := io.ReadFull(fa, ba)
		if n > 0 {
			if _, err := io.ReadFull(fb, bb[:n]); err != nil {
				return false, err
			}
			if !bytes.Equal(ba[:n], bb[:n]) {
				return false, nil
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}
