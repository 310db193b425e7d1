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

// maxMarkerBytes bounds a marker file read (a few keys; a hostile or
// corrupt file is refused, never read whole).
const maxMarkerBytes = 64 << 10

func (s *Store) markerPath(topicID string) string {
	return filepath.Join(s.dir, "mailboxes", topicID+".json")
}

// readMarkers reads topicID's marker file (an empty map when none).
func (s *Store) readMarkers(topicID string) (map[string]json.RawMessage, error) {
	b, err := config.ReadRegularFile(s.markerPath(topicID), maxMarkerBytes, false)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", s.markerPath(topicID), err)
	}
	return m, nil
}

// writeMarkers writes m atomically, or removes the file when m is empty.
func (s *Store) writeMarkers(topicID string, m map[string]json.RawMessage) error {
	path := s.markerPath(topicID)
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
	return s.changeMarker(topicID, accountID, true)
}

// ClearLimited removes accountID's mark in topicID (none: nothing to do).
func (s *Store) ClearLimited(topicID, accountID string) error {
	return s.changeMarker(topicID, accountID, false)
}

func (s *Store) changeMarker(topicID, accountID string, on bool) error {
	// A deleted topic takes no mark (a seat's last rollout read may come
	// after its topic went; the file would outlive it).
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("usage-limit mark: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	m, err := s.readMarkers(topicID)
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
	if err := s.writeMarkers(topicID, m); err != nil {
		return fmt.Errorf("usage-limit mark: %w", err)
	}
	return nil
}

// Limited reports whether accountID is marked in topicID. A file that
// cannot be read is an error (the caller logs it and starts unmarked).
func (s *Store) Limited(topicID, accountID string) (bool, error) {
	if err := checkTopicID(topicID); err != nil {
		return false, fmt.Errorf("usage-limit mark: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	m, err := s.readMarkers(topicID)
	if err != nil {
		return false, fmt.Errorf("usage-limit mark: %w", err)
	}
	_, ok := m[accountID]
	return ok, nil
}
