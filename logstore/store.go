package logstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pullcept/pullcept/config"
)

// maxCursors is how many message_id → offset pairs a topic remembers from the
// records Page returned. Paging back passes the oldest record of the previous
// page as `before`; remembering the last few pages (200 records at most each)
// makes that lookup one pread instead of a scan from the end, so reading a
// whole long topic page by page costs O(size), not O(size²/page).
const maxCursors = 1024

// Options tunes a Store. The zero value is ready to use.
type Options struct {
	// Now is the clock for created_at of new index entries and for the
	// suffix of a set-aside index; nil means time.Now.
	Now func() time.Time
}

// Store is the topic logs of one data directory (docs/design.md §8):
// <data>/logs/main/index.json, <topic>.jsonl and attachments/<topic>/.
// It is safe for concurrent use. One process owns a data directory at a time:
// the index is read once by Open and rewritten from memory.
//
// Locks: idxMu (index, topic scan) → mu (open files, read state, warnings) →
// appender.mu (one topic file). Append takes mu only to look up its file.
type Store struct {
	dataDir string // absolute
	dir     string // <data>/logs/main
	now     func() time.Time
	fs      fsOps
	block   int // backward read size; tests shrink it to cross block edges
	maxLine int

	idxMu sync.Mutex
	idx   *indexDoc
	heads map[string]head // first post of topic files, for entries built from them

	mu       sync.Mutex
	closed   bool
	files    map[string]*appender
	deleted  map[string]bool
	reads    map[string]*readState
	warnings []error
}

// appender is a topic file kept open for appends (O_APPEND).
type appender struct {
	mu sync.Mutex
	f  *os.File
	// checked is false until the file's last byte was looked at (and again
	// after a failed write); torn is true when it is not '\n', so the next
	// line starts with '\n' and never glues onto a torn line.
	checked bool
	torn    bool
	// closedErr is non-nil once the file is closed (ErrClosed, ErrTopicDeleted).
	closedErr error
}

// readState is what reads learned about one topic file.
type readState struct {
	bad     map[int64]struct{} // offsets of unreadable lines seen
	cursors map[string]int64   // message_id → line offset
	order   []string           // cursors in insertion order, for eviction
}

// head is a topic file's first readable post.
type head struct {
	name    string
	created string // the post's ts as written
}

// Open opens the topic logs under dataDir (created lazily on the first
// write), reads index.json and moves a legacy <dataDir>/logs/main.jsonl into
// a topic (docs/design.md §8; spec «部屋のログ»). Leftover temporary files of an
// interrupted index write or migration are removed.
//
// An index that does not parse is renamed to index.json.bad-<UTC time> and
// the topics are rebuilt from the log files; that, bad index entries and a
// failed migration are reported by TakeWarnings, not as errors. Open fails
// only when the directory or the index cannot be read at all, or an
// unreadable index cannot be set aside (it would be overwritten otherwise).
func Open(dataDir string, opts Options) (*Store, error) {
	return open(dataDir, opts, osOps())
}

// open is Open with the file operations tests replace.
func open(dataDir string, opts Options, ops fsOps) (*Store, error) {
	if dataDir == "" {
		return nil, errors.New("open log store: empty data directory")
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("open log store: %w", err)
	}
	s := &Store{
		dataDir: abs,
		dir:     filepath.Join(abs, "logs", "main"),
		now:     opts.Now,
		fs:      ops,
		block:   blockSize,
		maxLine: MaxLineBytes,
		heads:   map[string]head{},
		files:   map[string]*appender{},
		deleted: map[string]bool{},
		reads:   map[string]*readState{},
	}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.removeTemps(); err != nil {
		return nil, fmt.Errorf("open log store: %w", err)
	}
	if err := s.loadIndex(); err != nil {
		return nil, fmt.Errorf("open log store: %w", err)
	}
	s.migrateLegacy()
	return s, nil
}

// Dir is the directory of the topic logs, <data>/logs/main (absolute).
func (s *Store) Dir() string { return s.dir }

func (s *Store) logPath(topicID string) string {
	return filepath.Join(s.dir, topicID+".jsonl")
}

func (s *Store) indexPath() string { return filepath.Join(s.dir, indexName) }

// removeTemps deletes temporary files a crash left behind: an index write
// that never reached its rename (the old index stands) and a migration copy
// that never reached its rename (the legacy file still stands).
func (s *Store) removeTemps() error {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", s.dir, err)
	}
	for _, ent := range ents {
		n := ent.Name()
		if !ent.Type().IsRegular() || !(config.IsAtomicTemp(n, indexName) || strings.Contains(n, ".jsonl.tmp-")) {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove leftover %s: %w", n, err)
		}
	}
	return nil
}

// loadIndex reads index.json into memory; see Open for the unreadable case.
func (s *Store) loadIndex() error {
	path := s.indexPath()
	data, err := readIndexFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		s.idx = &indexDoc{}
		return nil
	}
	var doc *indexDoc
	var warns []error
	perr := err
	switch {
	case isPlanted(err):
		// A link, FIFO or oversized file in its place is set aside like
		// one that does not parse: never read through, never waited on.
	case err != nil:
		return fmt.Errorf("read topic index: %w", err)
	default:
		doc, warns, perr = decodeIndex(data)
	}
	if perr != nil {
		aside := uniquePath(path + ".bad-" + s.now().UTC().Format("20060102T150405Z"))
		if err := s.fs.rename(path, aside); err != nil {
			return fmt.Errorf("%w (%v), and setting it aside failed: %w", ErrIndexUnreadable, perr, err)
		}
		if err := config.SyncDir(s.dir); err != nil {
			return fmt.Errorf("set aside topic index: %w", err)
		}
		s.warn(fmt.Errorf("%w: %v: kept as %s; topics are rebuilt from the log files", ErrIndexUnreadable, perr, aside))
		s.idx = &indexDoc{}
		return nil
	}
	s.idx = doc
	for _, w := range warns {
		s.warn(w)
	}
	return nil
}

// maxIndexBytes bounds a read of index.json: an entry is a few hundred
// bytes, so 16 MiB holds some 50 000 topics; a planted sparse file is
// refused, never read whole.
const maxIndexBytes = 16 << 20

// readIndexFile reads index.json: a regular file of at most maxIndexBytes,
// never through a link.
func readIndexFile(path string) ([]byte, error) {
	return config.ReadRegularFile(path, maxIndexBytes, false)
}

// isPlanted reports a file refused for what it is rather than what it
// holds: a link, FIFO, device or directory, or one over its cap.
func isPlanted(err error) bool {
	return errors.Is(err, config.ErrSymlink) || errors.Is(err, config.ErrNotRegular) || errors.Is(err, config.ErrTooBig)
}

// uniquePath returns p, or p-2, p-3 … when p is taken.
func uniquePath(p string) string {
	c := p
	for n := 2; ; n++ {
		if _, err := os.Lstat(c); errors.Is(err, fs.ErrNotExist) {
			return c
		}
		c = fmt.Sprintf("%s-%d", p, n)
	}
}

func (s *Store) warn(err error) {
	s.mu.Lock()
	s.warnings = append(s.warnings, err)
	s.mu.Unlock()
}

// TakeWarnings returns and forgets the problems the Store worked around
// since the last call: an index set aside (ErrIndexUnreadable), index entries
// kept but ignored (ErrBadIndexEntry), a legacy log left in place
// (ErrLegacyMigration). The UI shows them on its status line.
func (s *Store) TakeWarnings() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.warnings
	s.warnings = nil
	return w
}

// Append writes rec as one line of topicID's JSONL log (docs/design.md §2, §8),
// creating the directory and file on the first post. The line — keys in
// Record order, absent ones omitted, `to` as a list — goes out in one write
// through an O_APPEND handle kept open until Close or Delete. When the file
// does not end in '\n' (a torn last line after a kill), the line starts with
// '\n' so it never glues onto the torn one. The room calls Append inside its
// lock: it does no fsync and touches no other file.
//
// Errors wrap ErrBadTopicID, ErrBadRecord (no message_id, or a line over
// MaxLineBytes), ErrTopicDeleted, ErrClosed, or the file error.
func (s *Store) Append(topicID string, rec Record) error {
	if err := checkTopicID(topicID); err != nil {
		return fmt.Errorf("append: %w", err)
	}
	line, err := encodeLine(rec, s.maxLine)
	if err != nil {
		return fmt.Errorf("append to topic %s: %w", topicID, err)
	}
	a, err := s.appenderFor(topicID)
	if err != nil {
		return fmt.Errorf("append to topic %s: %w", topicID, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closedErr != nil {
		return fmt.Errorf("append to topic %s: %w", topicID, a.closedErr)
	}
	if !a.checked {
		fi, err := a.f.Stat()
		if err != nil {
			return fmt.Errorf("append to topic %s: %w", topicID, err)
		}
		nl, err := lastByteIsNewline(a.f, fi.Size())
		if err != nil {
			return fmt.Errorf("append to topic %s: read last byte: %w", topicID, err)
		}
		a.torn, a.checked = !nl, true
	}
	if !a.torn {
		line = line[1:]
	}
	if _, err := a.f.Write(line); err != nil {
		// Part of the line may be on disk: look at the last byte again
		// before the next line.
		a.checked = false
		return fmt.Errorf("append to topic %s: %w", topicID, err)
	}
	a.torn = false
	return nil
}

// encodeLine renders rec as '\n' + JSON + '\n'; the leading '\n' is used only
// after a torn last line. HTML characters are not escaped (people read logs).
func encodeLine(rec Record, maxLine int) ([]byte, error) {
	if rec.MessageID == "" {
		return nil, fmt.Errorf("%w: no message_id", ErrBadRecord)
	}
	var b bytes.Buffer
	b.WriteByte('\n')
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	if b.Len()-2 > maxLine {
		return nil, fmt.Errorf("%w: line of %d bytes is over the %d-byte limit", ErrBadRecord, b.Len()-2, maxLine)
	}
	return b.Bytes(), nil
}

// appenderFor returns the open append handle of topicID, opening (and
// creating) the file on first use.
func (s *Store) appenderFor(topicID string) (*appender, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.deleted[topicID] {
		return nil, ErrTopicDeleted
	}
	if a := s.files[topicID]; a != nil {
		return a, nil
	}
	if err := os.MkdirAll(s.dir, dirMode); err != nil {
		return nil, err
	}
	// O_RDWR so the last byte can be read with pread; writes still go to
	// the end (O_APPEND), whatever else writes the file. Never through a
	// symbolic link, never a FIFO or device (openLog).
	f, err := openLog(s.logPath(topicID), os.O_RDWR|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	a := &appender{f: f}
	s.files[topicID] = a
	return a, nil
}

// Page returns up to limit records older than the record whose message_id is
// before ("" = from the end), oldest first, and hasMore when an older
// readable record exists (docs/design.md §8, §6 `history`). It reads the file
// backwards in 64 KiB blocks and never loads it whole. Unreadable lines are
// skipped and counted (Skipped); they never fail the read. A topic without a
// file (not yet spoken in) has no records. A long post's Content comes
// clipped to BodyInline with Size set (its whole text: BodyPath(BodyFile)).
//
// before is found through the offsets of records earlier pages returned
// (checked against the file), else by scanning back from the end, parsing
// only lines that can contain it. Errors wrap ErrBadTopicID, ErrBadLimit,
// ErrUnknownMessage (before is not in the log), ErrClosed, or a read error.
func (s *Store) Page(topicID, before string, limit int) (recs []Record, hasMore bool, err error) {
	if err := checkTopicID(topicID); err != nil {
		return nil, false, fmt.Errorf("read: %w", err)
	}
	if limit < 1 {
		return nil, false, fmt.Errorf("read topic %s: %w (got %d)", topicID, ErrBadLimit, limit)
	}
	s.mu.Lock()
	closed, a := s.closed, s.files[topicID]
	s.mu.Unlock()
	if closed {
		return nil, false, fmt.Errorf("read topic %s: %w", topicID, ErrClosed)
	}
	f, err := openLog(s.logPath(topicID), os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		if before != "" {
			return nil, false, fmt.Errorf("read topic %s before %q: %w", topicID, before, ErrUnknownMessage)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read topic %s: %w", topicID, err)
	}
	defer f.Close()
	size, err := readableSize(f, a)
	if err != nil {
		return nil, false, fmt.Errorf("read topic %s: %w", topicID, err)
	}

	var bad []int64
	defer func() { s.noteBad(topicID, bad) }()
	sc := newBackScanner(f, size, s.block, s.maxLine)
	if before != "" {
		if sc, err = s.scannerBefore(f, size, topicID, before, &bad); err != nil {
			return nil, false, err
		}
	}
	var offs []int64
	for {
		line, off, tooLong, ok := sc.prev()
		if !ok {
			break
		}
		if tooLong {
			bad = append(bad, off)
			continue
		}
		rec, kind := parseLine(line)
		if kind == lineBad {
			bad = append(bad, off)
		}
		if kind != lineGood {
			continue
		}
		if len(recs) == limit {
			hasMore = true
			break
		}
		if clipped, cut := ClipBody(rec.Content); cut {
			// A page of 200 long posts is 200 MiB whole; the whole text
			// stays in the log and its body file (docs/design.md §8).
			rec.Size, rec.Content = len(rec.Content), strings.Clone(clipped)
		}
		recs, offs = append(recs, rec), append(offs, off)
	}
	if sc.err != nil {
		return nil, false, fmt.Errorf("read topic %s: %w", topicID, sc.err)
	}
	slices.Reverse(recs)
	slices.Reverse(offs)
	s.remember(topicID, recs, offs)
	return recs, hasMore, nil
}

// readableSize is the size to read up to. While this process appends to the
// file, the size is taken under the appender's lock so it falls on a line
// boundary rather than inside a line being written.
func readableSize(f *os.File, a *appender) (int64, error) {
	if a != nil {
		a.mu.Lock()
		defer a.mu.Unlock()
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// scannerBefore returns a scanner positioned just before the line of
// message_id before; bad lines met on the way are added to *bad.
func (s *Store) scannerBefore(f *os.File, size int64, topicID, before string, bad *[]int64) (*backScanner, error) {
	if off, ok := s.cursor(topicID, before); ok && off < size {
		line, err := readLineAt(f, off, size, s.maxLine)
		if err != nil {
			return nil, fmt.Errorf("read topic %s: %w", topicID, err)
		}
		if rec, kind := parseLine(line); kind == lineGood && rec.MessageID == before {
			return newBackScanner(f, off, s.block, s.maxLine), nil
		}
		// The file is not what we read before (edited by hand): scan.
	}
	sc := newBackScanner(f, size, s.block, s.maxLine)
	mayHold := idFilter(before)
	for {
		line, off, tooLong, ok := sc.prev()
		if !ok {
			if sc.err != nil {
				return nil, fmt.Errorf("read topic %s: %w", topicID, sc.err)
			}
			return nil, fmt.Errorf("read topic %s before %q: %w", topicID, before, ErrUnknownMessage)
		}
		if tooLong {
			*bad = append(*bad, off)
			continue
		}
		if mayHold != nil && !mayHold(line) {
			continue
		}
		rec, kind := parseLine(line)
		if kind == lineBad {
			*bad = append(*bad, off)
		}
		if kind == lineGood && rec.MessageID == before {
			return sc, nil
		}
	}
}

// idFilter returns a cheap test that is false only for lines that cannot hold
// message_id id, or nil when no such test is safe. A JSON string can spell a
// character differently only through a backslash escape; when id has no
// character that needs one, a line holding id holds its bytes verbatim or
// uses a \u escape.
func idFilter(id string) func([]byte) bool {
	for _, r := range id {
		if r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r == '/' || r == 0xfffd {
			return nil
		}
	}
	needle, esc := []byte(id), []byte(`\u`)
	return func(line []byte) bool {
		return bytes.Contains(line, needle) || bytes.Contains(line, esc)
	}
}

// readLineAt reads the line starting at off (without its '\n').
func readLineAt(f *os.File, off, size int64, maxLine int) ([]byte, error) {
	br := bufio.NewReader(io.LimitReader(io.NewSectionReader(f, off, size-off), int64(maxLine)+1))
	line, err := br.ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return bytes.TrimSuffix(line, []byte{'\n'}), nil
}

// readStateLocked returns topicID's read state; s.mu is held.
func (s *Store) readStateLocked(topicID string) *readState {
	rs := s.reads[topicID]
	if rs == nil {
		rs = &readState{bad: map[int64]struct{}{}, cursors: map[string]int64{}}
		s.reads[topicID] = rs
	}
	return rs
}

// noteBad records unreadable lines by offset, so a line read twice counts once.
func (s *Store) noteBad(topicID string, offs []int64) {
	if len(offs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[topicID] {
		return
	}
	rs := s.readStateLocked(topicID)
	for _, off := range offs {
		rs.bad[off] = struct{}{}
	}
}

// remember keeps the offsets of returned records for the next Page's before.
func (s *Store) remember(topicID string, recs []Record, offs []int64) {
	if len(recs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[topicID] {
		return
	}
	rs := s.readStateLocked(topicID)
	for i, r := range recs {
		if _, ok := rs.cursors[r.MessageID]; !ok {
			rs.order = append(rs.order, r.MessageID)
		}
		rs.cursors[r.MessageID] = offs[i]
	}
	if n := len(rs.order) - maxCursors; n > 0 {
		for _, id := range rs.order[:n] {
			delete(rs.cursors, id)
		}
		rs.order = slices.Delete(rs.order, 0, n)
	}
}

func (s *Store) cursor(topicID, messageID string) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.reads[topicID]
	if rs == nil {
		return 0, false
	}
	off, ok := rs.cursors[messageID]
	return off, ok
}

// Skipped is how many distinct unreadable lines (torn, garbage, wrong shape,
// no message_id, over MaxLineBytes) reads of topicID have met so far in this
// run (docs/design.md §8: skipped, counted, reported on the status line). Lines are
// counted once however often they are read; 0 for a topic never read.
func (s *Store) Skipped(topicID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rs := s.reads[topicID]; rs != nil {
		return len(rs.bad)
	}
	return 0
}

// LogSize is topicID's log file size in bytes (0 without a file) — the
// cheap test behind PULLCEPT_UNSEEN_HISTORY: any bytes are posts (spec
// «トピック»: a file of only broken lines still counts), and the log only
// grows, so a size past a seat's RecordSeen mark means posts it has not
// seen.
func (s *Store) LogSize(topicID string) (int64, error) {
	if err := checkTopicID(topicID); err != nil {
		return 0, err
	}
	fi, err := os.Stat(s.logPath(topicID))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("stat topic %s: %w", topicID, err)
	}
	return fi.Size(), nil
}

// Close fsyncs and closes every open topic file. Later calls of any method
// that reads or writes a log return ErrClosed. Close is idempotent.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for id, a := range s.files {
		if err := a.close(ErrClosed, true); err != nil {
			errs = append(errs, fmt.Errorf("close topic %s: %w", id, err))
		}
	}
	s.files = map[string]*appender{}
	return errors.Join(errs...)
}

// close closes the file once; later appends through a stale pointer get why.
func (a *appender) close(why error, sync bool) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closedErr != nil {
		return nil
	}
	a.closedErr = why
	var serr error
	if sync {
		serr = a.f.Sync()
	}
	return errors.Join(serr, a.f.Close())
}
