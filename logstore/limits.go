package logstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pullcept/pullcept/config"
)

// Usage-limit markers (docs/design.md §11 "Usage limits"; spec
// «止まっている席の印（#312）»): a Codex seat that stopped on its plan's
// limit is marked per (topic, account) so that a later launch — after the
// seat or Pullcept restarted — starts limited and asks at once. The file is
// <data dir>/mailboxes/<topic>.json, the original app's name and shape: one
// key per stopped account (its value an empty array; the original app's
// older files held post ids there, read as the same mark). Keys and values
// we did not write are kept. The file goes with its topic (Delete) and when
// its last mark is cleared.
//
// The "look at its terminal" marks (MarkLooked, issue 34 item 22) keep, in
// the same shape, each seat the room was told to look at, in
// <data dir>/mailboxes/look/<topic>.json: its next normal turn says it is
// back, after a restart too.

// maxMarkerBytes bounds a marker file read (a few keys; a hostile or
// corrupt file is refused, never read whole).
const maxMarkerBytes = 64 << 10

func (s *Store) markerPath(topicID string) string {
	return filepath.Join(s.dir, "mailboxes", topicID+".json")
}

// lookPath is topicID's "look at its terminal" marks (MarkLooked): a folder
// of ours under mailboxes, which the original app never reads (it opens
// mailboxes/<topic>.json by name), in the same shape.
func (s *Store) lookPath(topicID string) string {
	return filepath.Join(s.dir, "mailboxes", "look", topicID+".json")
}

// readMarkers reads the marker file at path (an empty map when none).
func (s *Store) readMarkers(path string) (map[string]json.RawMessage, error) {
	b, err := config.ReadRegularFile(path, maxMarkerBytes, false)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// writeMarkers writes m atomically to path, or removes the file when m is
// empty.
func (s *Store) writeMarkers(path string, m map[string]json.RawMessage) error {
	if len(m) == 0 {
		if err := s.fs.remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(m) // values we did not write stay byte for byte
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return err
	}
	return (config.AtomicFile{Rename: s.fs.rename, NoFollow: true}).Write(path, append(data, '\n'), fileMode)
}

// MarkLimited marks accountID as stopped on its usage limit in topicID.
// Errors wrap ErrBadTopicID, ErrClosed, ErrTopicDeleted, or the file's
// error (an unreadable file is not overwritten).
func (s *Store) MarkLimited(topicID, accountID string) error {
	return s.changeMarker(s.markerPath, topicID, accountID, true)
}

// ClearLimited removes accountID's mark in topicID (none: nothing to do).
func (s *Store) ClearLimited(topicID, accountID string) error {
	return s.changeMarker(s.markerPath, topicID, accountID, false)
}

// MarkLooked marks that the room was told to look at accountID's terminal
// in topicID (a resume prompt went unanswered, spec #357 «部屋へ「端末を見て
// ください」と一度だけ知らせ»): the seat's next normal turn, in this launch or
// a later one, after a restart too, says it is back (issue 34 item 22).
// Errors as MarkLimited's.
func (s *Store) MarkLooked(topicID, accountID string) error {
	return s.changeMarker(s.lookPath, topicID, accountID, true)
}

// ClearLooked removes accountID's look mark in topicID.
func (s *Store) ClearLooked(topicID, accountID string) error {
	return s.changeMarker(s.lookPath, topicID, accountID, false)
}

// Looked reports whether accountID's look mark is set in topicID.
func (s *Store) Looked(topicID, accountID string) (bool, error) {
	return s.hasMarker(s.lookPath, topicID, accountID)
}

func (s *Store) changeMarker(file func(string) string, topicID, accountID string, on bool) error {
	// A deleted topic takes no mark (a seat's last rollout read may come
	// after its topic went; the file would outlive it).
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("usage-limit mark: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	path := file(topicID)
	m, err := s.readMarkers(path)
	if err != nil {
		return fmt.Errorf("usage-limit mark: %w", err)
	}
	if _, has := m[accountID]; has == on {
		return nil
	}
	if on {
		m[accountID] = json.RawMessage("[]")
	} else {
		delete(m, accountID)
	}
	if err := s.writeMarkers(path, m); err != nil {
		return fmt.Errorf("usage-limit mark: %w", err)
	}
	return nil
}

// Limited reports whether accountID is marked in topicID. A file that
// cannot be read is an error (the caller logs it and starts unmarked).
func (s *Store) Limited(topicID, accountID string) (bool, error) {
	return s.hasMarker(s.markerPath, topicID, accountID)
}

func (s *Store) hasMarker(file func(string) string, topicID, accountID string) (bool, error) {
	if err := checkTopicID(topicID); err != nil {
		return false, fmt.Errorf("usage-limit mark: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	m, err := s.readMarkers(file(topicID))
	if err != nil {
		return false, fmt.Errorf("usage-limit mark: %w", err)
	}
	_, ok := m[accountID]
	return ok, nil
}
