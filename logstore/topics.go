package logstore

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pullcept/pullcept/config"
)

// Topic is one topic as the topic list shows it (docs/design.md §8).
type Topic struct {
	// ID is the file name stem of <ID>.jsonl (see checkTopicID).
	ID string
	// Name is the index's name; when the index has none (or no entry) and
	// the file has a readable post, one made from the first post (shown, not
	// written); "" otherwise (an untitled row).
	Name string
	// CreatedAt is the index's created_at, else the first post's ts, else
	// the file's modification time; zero when unknown.
	CreatedAt time.Time
	// Sessions maps account id → CLI session id recorded for resume (a copy).
	Sessions map[string]string
	// LastActivity is the log file's modification time (the last append),
	// or CreatedAt when the topic has no file yet.
	LastActivity time.Time
	// Size is the log file's size in bytes; 0 without a file.
	Size int64
	// Indexed is true when index.json has an entry. A log file without one
	// (the index write after a first post was lost, or the index was rebuilt)
	// is listed with Indexed false and gets its entry at the next intentional
	// act: rename, session record, first-post naming.
	Indexed bool
}

// Topics lists every topic: each index entry, and each <id>.jsonl in
// logs/main/ the index does not have (the directory is the truth, docs/design.md §8).
// Newest LastActivity first, then by id descending (newer UUIDv7 first).
//
// Listing never writes the index: only intentional acts do (docs/design.md §8), so a
// topic found only on disk gets its entry on read, in the returned list,
// with its name and creation time taken from its first readable post. Files
// whose stem is not a valid topic id, and entries that are not regular files
// (links, directories), are not topics and are left alone.
func (s *Store) Topics() ([]Topic, error) {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	files, err := s.scanFiles()
	if err != nil {
		return nil, fmt.Errorf("list topics: %w", err)
	}
	var out []Topic
	for _, e := range s.idx.entries {
		if e.raw != nil {
			continue
		}
		t := Topic{ID: e.ID, Name: e.Name, CreatedAt: e.createdTime(), Sessions: maps.Clone(e.Sessions), Indexed: true}
		if fi, ok := files[e.ID]; ok {
			t.LastActivity, t.Size = fi.ModTime(), fi.Size()
			if t.Name == "" {
				// Indexed at a seat start, spoken in since, naming lost in a
				// crash: show what NoteFirstPost would have written.
				t.Name = s.headOf(e.ID).name
			}
			delete(files, e.ID)
		} else {
			t.LastActivity = t.CreatedAt
		}
		out = append(out, t)
	}
	for id, fi := range files {
		h := s.headOf(id)
		t := Topic{ID: id, Name: h.name, CreatedAt: parseTime(h.created), LastActivity: fi.ModTime(), Size: fi.Size()}
		if t.CreatedAt.IsZero() {
			t.CreatedAt = fi.ModTime()
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Topic) int {
		if c := b.LastActivity.Compare(a.LastActivity); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out, nil
}

// scanFiles returns the topic files of logs/main/ by id.
func (s *Store) scanFiles() (map[string]fs.FileInfo, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]fs.FileInfo{}, nil
	}
	if err != nil {
		return nil, err
	}
	files := map[string]fs.FileInfo{}
	for _, ent := range ents {
		id, ok := strings.CutSuffix(ent.Name(), ".jsonl")
		if !ok || !ent.Type().IsRegular() || checkTopicID(id) != nil {
			continue
		}
		fi, err := ent.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted since ReadDir
		}
		if err != nil {
			return nil, err
		}
		files[id] = fi
	}
	return files, nil
}

// headOf returns the name and ts of topicID's first readable post, cached
// once found (the head of an append-only file does not change). idxMu held.
func (s *Store) headOf(topicID string) head {
	if h, ok := s.heads[topicID]; ok {
		return h
	}
	f, err := openLog(s.logPath(topicID), os.O_RDONLY)
	if err != nil {
		return head{}
	}
	defer f.Close()
	rec, ok, err := firstRecord(f)
	if err != nil || !ok {
		return head{}
	}
	h := head{name: TopicName(rec.Content), created: rec.TS}
	s.heads[topicID] = h
	return h
}

func parseTime(v string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}
	}
	return t
}

// newEntry builds the index entry of a topic not yet in the index: named and
// dated from its file's first post when it has one, else unnamed and dated
// fallback (or now, when fallback is zero). idxMu held.
func (s *Store) newEntry(topicID string, fallback time.Time) *entry {
	e := &entry{ID: topicID, Sessions: map[string]string{}}
	h := s.headOf(topicID)
	e.Name = h.name
	created := parseTime(h.created)
	if created.IsZero() {
		created = fallback
	}
	if created.IsZero() {
		created = s.now()
	}
	e.CreatedAt = created.UTC().Format(TimeLayout)
	return e
}

// updateIndex applies fn to a copy of the index and, when fn reports a
// change, writes the copy atomically and only then makes it current, so a
// failed write leaves memory equal to the disk. idxMu held.
func (s *Store) updateIndex(fn func(d *indexDoc) (changed bool, err error)) error {
	next := s.idx.clone()
	changed, err := fn(next)
	if err != nil || !changed {
		return err
	}
	data, err := next.encode()
	if err != nil {
		return fmt.Errorf("encode topic index: %w", err)
	}
	if err := os.MkdirAll(s.dir, dirMode); err != nil {
		return fmt.Errorf("write topic index: %w", err)
	}
	if err := (config.AtomicFile{Rename: s.fs.rename, NoFollow: true}).Write(s.indexPath(), data, fileMode); err != nil {
		return fmt.Errorf("write topic index: %w", err)
	}
	s.idx = next
	return nil
}

// checkWritable refuses ids that are malformed or deleted in this run.
func (s *Store) checkWritable(topicID string) error {
	if err := checkTopicID(topicID); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.deleted[topicID] {
		return fmt.Errorf("%w: %s", ErrTopicDeleted, topicID)
	}
	return nil
}

// EnsureTopic gives topicID an index entry without a post — a seat started
// in it, which must be resumable after a restart (spec «トピック»: a seat
// start materialises a lazily created topic). Nothing changes when the entry
// exists. The entry is named from the topic's first post when its file has
// one, else it stays untitled until NoteFirstPost or Rename.
// Errors wrap ErrBadTopicID, ErrTopicDeleted, ErrClosed or the write error.
func (s *Store) EnsureTopic(topicID string) error {
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("ensure topic: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	err := s.updateIndex(func(d *indexDoc) (bool, error) {
		if d.find(topicID) != nil {
			return false, nil
		}
		d.add(s.newEntry(topicID, time.Time{}))
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("ensure topic %s: %w", topicID, err)
	}
	return nil
}

// NoteFirstPost names and indexes topicID from its first post (docs/design.md §8).
// The room calls it outside its lock after the post was appended. The name
// comes once: a topic that already has a name (from an earlier post or by
// hand) keeps it, so calling this for a later post changes nothing. When the
// file holds an earlier readable post (the index write after it was lost),
// the name and created_at come from that post rather than from rec.
// Errors wrap ErrBadTopicID, ErrTopicDeleted, ErrClosed or the write error.
func (s *Store) NoteFirstPost(topicID string, rec Record) error {
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("note first post: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	err := s.updateIndex(func(d *indexDoc) (bool, error) {
		e := d.find(topicID)
		if e != nil && e.Name != "" {
			return false, nil
		}
		name := TopicName(rec.Content)
		if h := s.headOf(topicID); h.name != "" {
			name = h.name
		}
		if e == nil {
			d.add(s.newEntry(topicID, parseTime(rec.TS)))
			e = d.entries[len(d.entries)-1]
		} else if name == "" {
			return false, nil
		}
		e.Name = name
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("note first post of topic %s: %w", topicID, err)
	}
	return nil
}

// Rename sets topicID's name by hand (docs/design.md §8). The name is trimmed and
// control characters are dropped; it is not cut. Renaming is an intentional
// act, so a topic without an entry (found only on disk, or not yet spoken
// in) gets one. Errors wrap ErrBadTopicID, ErrBadTopicName (empty),
// ErrTopicDeleted, ErrClosed or the write error.
func (s *Store) Rename(topicID, name string) error {
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("rename topic: %w", err)
	}
	name = cleanName(name)
	if name == "" {
		return fmt.Errorf("rename topic %s: %w: empty", topicID, ErrBadTopicName)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	err := s.updateIndex(func(d *indexDoc) (bool, error) {
		e := d.find(topicID)
		if e == nil {
			e = s.newEntry(topicID, time.Time{})
			d.add(e)
		} else if e.Name == name {
			return false, nil
		}
		e.Name = name
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("rename topic %s: %w", topicID, err)
	}
	return nil
}

// RecordSession records that accountID's CLI session in topicID is
// sessionID, for resume after a restart (docs/design.md §9, spec «トピック»). A topic
// without an entry gets one (a seat start materialises a lazy topic). Ids are
// kept exactly as given. Errors wrap ErrBadTopicID, ErrBadSession (empty
// account or session id), ErrTopicDeleted, ErrClosed or the write error.
func (s *Store) RecordSession(topicID, accountID, sessionID string) error {
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("record session: %w", err)
	}
	if accountID == "" || sessionID == "" {
		return fmt.Errorf("record session in topic %s: %w: account %q, session %q", topicID, ErrBadSession, accountID, sessionID)
	}
	err := s.upsertEntry(topicID, func(e *entry) bool {
		if cur, ok := e.Sessions[accountID]; ok && cur == sessionID {
			return false
		}
		if e.Sessions == nil {
			e.Sessions = map[string]string{}
		}
		e.Sessions[accountID] = sessionID
		return true
	})
	if err != nil {
		return fmt.Errorf("record session in topic %s: %w", topicID, err)
	}
	return nil
}

// upsertEntry applies change to topicID's index entry, made first when the
// topic has none (a seat start materialises a lazy topic); the index is
// written when change reports a change or the entry is new.
func (s *Store) upsertEntry(topicID string, change func(e *entry) bool) error {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	return s.updateIndex(func(d *indexDoc) (bool, error) {
		e := d.find(topicID)
		made := e == nil
		if made {
			e = s.newEntry(topicID, time.Time{})
			d.add(e)
		}
		return change(e) || made, nil
	})
}

// DropSessionIf forgets accountID's session record in topicID only while it
// is still sessionID (spec «トピック» #127: a resumed seat that exited without
// joining drops its own record, never a newer one written since). dropped
// reports whether a record was removed.
func (s *Store) DropSessionIf(topicID, accountID, sessionID string) (dropped bool, err error) {
	if sessionID == "" {
		return false, fmt.Errorf("drop session in topic %s: %w: empty session id", topicID, ErrBadSession)
	}
	return s.dropSession(topicID, accountID, sessionID)
}

func (s *Store) dropSession(topicID, accountID, onlyID string) (dropped bool, err error) {
	if err := checkTopicID(topicID); err != nil {
		return false, fmt.Errorf("drop session: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	err = s.updateIndex(func(d *indexDoc) (bool, error) {
		e := d.find(topicID)
		if e == nil {
			return false, nil
		}
		cur, ok := e.Sessions[accountID]
		if !ok || (onlyID != "" && cur != onlyID) {
			return false, nil
		}
		delete(e.Sessions, accountID)
		dropped = true
		return true, nil
	})
	if err != nil {
		return false, fmt.Errorf("drop session in topic %s: %w", topicID, err)
	}
	return dropped, nil
}

// Session returns the session id recorded for accountID in topicID.
func (s *Store) Session(topicID, accountID string) (sessionID string, ok bool) {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	e := s.idx.find(topicID)
	if e == nil {
		return "", false
	}
	sessionID, ok = e.Sessions[accountID]
	return sessionID, ok
}

// RecordSeen records that accountID's seat, stopping now, had seen topicID's
// log up to size bytes (LogSize), so a resumed seat can be told when posts
// came since (docs/design.md §9, seats.UnseenHistory). A topic without an
// entry gets one. Errors wrap ErrBadTopicID, ErrBadSession (empty account),
// ErrTopicDeleted, ErrClosed or the write error.
func (s *Store) RecordSeen(topicID, accountID string, size int64) error {
	if err := s.checkWritable(topicID); err != nil {
		return fmt.Errorf("record seen: %w", err)
	}
	if accountID == "" {
		return fmt.Errorf("record seen in topic %s: %w: empty account", topicID, ErrBadSession)
	}
	err := s.upsertEntry(topicID, func(e *entry) bool {
		if have, ok := e.Seen[accountID]; ok && have == size {
			return false
		}
		if e.Seen == nil {
			e.Seen = map[string]int64{}
		}
		e.Seen[accountID] = size
		return true
	})
	if err != nil {
		return fmt.Errorf("record seen in topic %s: %w", topicID, err)
	}
	return nil
}

// Seen returns what RecordSeen last recorded for accountID in topicID.
func (s *Store) Seen(topicID, accountID string) (size int64, ok bool) {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	e := s.idx.find(topicID)
	if e == nil {
		return 0, false
	}
	size, ok = e.Seen[accountID]
	return size, ok
}

// Delete removes topicID from disk in the order of docs/design.md §8: the log file,
// then attachments/<topic>/, then the index entry (with its session records).
// If a step fails the later ones are not taken, so a failure leaves "entry
// without file", which stays listed and can be deleted again — never an entry
// gone while its file remains (the topic would come back unannounced). A
// missing file or folder is not a failure. The caller stops the topic's seats
// first. From the start of Delete, writes to topicID are refused for the rest
// of this run (ErrTopicDeleted), so a late post cannot recreate its file.
// Errors wrap ErrBadTopicID, ErrUnknownTopic (nothing of it exists),
// ErrClosed, or the failed step's error.
func (s *Store) Delete(topicID string) error {
	if err := checkTopicID(topicID); err != nil {
		return fmt.Errorf("delete topic: %w", err)
	}
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	logPath, attachDir := s.logPath(topicID), s.attachmentDir(topicID)
	_, ferr := os.Lstat(logPath)
	_, aerr := os.Lstat(attachDir)
	if !s.idx.has(topicID) && errors.Is(ferr, fs.ErrNotExist) && errors.Is(aerr, fs.ErrNotExist) {
		return fmt.Errorf("delete topic %s: %w", topicID, ErrUnknownTopic)
	}
	if err := s.forget(topicID); err != nil {
		return fmt.Errorf("delete topic %s: %w", topicID, err)
	}
	delete(s.heads, topicID)
	if err := s.fs.remove(logPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete topic %s: log file: %w", topicID, err)
	}
	if err := s.fs.removeAll(attachDir); err != nil {
		return fmt.Errorf("delete topic %s: attachments: %w", topicID, err)
	}
	for _, path := range []string{s.markerPath(topicID), s.lookPath(topicID)} {
		if err := s.fs.remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete topic %s: usage-limit marks: %w", topicID, err)
		}
	}
	err := s.updateIndex(func(d *indexDoc) (bool, error) { return d.remove(topicID), nil })
	if err != nil {
		return fmt.Errorf("delete topic %s: index entry: %w", topicID, err)
	}
	return nil
}

// forget marks topicID deleted, closes its append handle (Windows cannot
// remove an open file) and drops what reads learned about it.
func (s *Store) forget(topicID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.deleted[topicID] = true
	delete(s.reads, topicID)
	a := s.files[topicID]
	if a == nil {
		return nil
	}
	delete(s.files, topicID)
	return a.close(ErrTopicDeleted, false)
}

// has reports whether any entry (decoded or kept raw) names id.
func (d *indexDoc) has(id string) bool {
	for _, e := range d.entries {
		if (e.raw == nil && e.ID == id) || (e.raw != nil && e.rawID == id) {
			return true
		}
	}
	return false
}

func (s *Store) attachmentRoot() string { return filepath.Join(s.dir, "attachments") }

func (s *Store) attachmentDir(topicID string) string {
	return filepath.Join(s.attachmentRoot(), topicID)
}
