package logstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Reader reads a data directory's topics without owning it: it writes
// nothing (no temp-file cleanup, no migration, an unreadable index is not
// set aside, Open's jobs), so `pullcept export` may run beside the app.
type Reader struct{ s *Store }

// OpenReader reads dataDir's index.json; an unreadable index lists the
// topics from their files, as Open would after setting it aside.
func OpenReader(dataDir string) (*Reader, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("read topics: %w", err)
	}
	s := &Store{dataDir: abs, dir: filepath.Join(abs, "logs", "main"), now: time.Now, fs: osOps(), block: blockSize,
		maxLine: MaxLineBytes, heads: map[string]head{}, files: map[string]*appender{}, deleted: map[string]bool{},
		reads: map[string]*readState{}, idx: &indexDoc{}}
	data, err := readIndexFile(s.indexPath())
	switch {
	case err == nil:
		if doc, _, perr := decodeIndex(data); perr == nil {
			s.idx = doc
		}
	case isPlanted(err):
		// Read as unparsable: topics come from the log files.
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("read topic index: %w", err)
	}
	return &Reader{s: s}, nil
}

// Topics lists the topics like Store.Topics.
func (r *Reader) Topics() ([]Topic, error) { return r.s.Topics() }

// Each calls fn with each readable post of topicID, oldest first, reading
// the file forwards (a whole topic is never held). Unreadable lines are
// skipped and counted; an error from fn ends the read and is returned.
func (r *Reader) Each(topicID string, fn func(Record) error) (skipped int, err error) {
	if err := checkTopicID(topicID); err != nil {
		return 0, err
	}
	f, err := openLog(r.s.logPath(topicID), os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read topic %s: %w", topicID, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, blockSize)
	for {
		line, long, rerr := readLine(br, r.s.maxLine)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return skipped, fmt.Errorf("read topic %s: %w", topicID, rerr)
		}
		if long {
			skipped++
		} else if rec, kind := parseLine(line); kind == lineGood {
			if err := fn(rec); err != nil {
				return skipped, err
			}
		} else if kind == lineBad {
			skipped++
		}
		if rerr != nil {
			return skipped, nil
		}
	}
}

// readLine reads up to the next '\n' (dropped); a line over max bytes is
// read to its end and reported long, without being held.
func readLine(br *bufio.Reader, max int) (line []byte, long bool, err error) {
	var buf bytes.Buffer
	for {
		part, err := br.ReadSlice('\n')
		if !long {
			if buf.Len()+len(part) > max+1 {
				long = true
				buf.Reset()
			} else {
				buf.Write(part)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), long, err
	}
}
