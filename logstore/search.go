package logstore

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Hit is one post whose body holds a search's query (Search).
type Hit struct {
	Topic string
	// Record is the post, its Content clipped to BodyInline like Page's.
	Record Record
	// Start and End are the byte range of the first match in Record.Content.
	Start, End int
	// Next is the message_id of the readable post after it in the file ("" when
	// it is the newest), After how many readable posts follow it: the UI
	// reads the page that ends at it (Page before Next) when the tail is far.
	Next  string
	After int
}

// Pattern is how Search and the UI match a query: literally, ignoring case
// unless the query holds an upper-case letter (smart case, as in less and
// vim, and the seat panes' search).
func Pattern(query string) *regexp.Regexp {
	q := regexp.QuoteMeta(query)
	if !strings.ContainsFunc(query, unicode.IsUpper) {
		q = "(?i)" + q
	}
	return regexp.MustCompile(q)
}

// searchCheckEvery is how many lines Search reads between looks at ctx, and
// searchCheckBytes how many bytes: posts may be 1 MiB each, and 256 of them
// kept a cancelled search reading for seconds (a goroutine per keystroke in
// the finder).
const (
	searchCheckEvery = 256
	searchCheckBytes = 1 << 20
)

// Search finds posts of every topic whose body holds query (Pattern): the
// topics whose files were written last first, and in each the newest posts
// first, reading each file backwards like Page. It stops at limit hits
// (more is then true) and returns ctx's error as soon as ctx ends. Files that
// vanish or cannot be opened while it runs are passed over; unreadable lines
// are skipped (and counted, as Page counts them).
func (s *Store) Search(ctx context.Context, query string, limit int) (hits []Hit, more bool, err error) {
	if strings.TrimSpace(query) == "" || limit < 1 {
		return nil, false, nil
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, false, fmt.Errorf("search: %w", ErrClosed)
	}
	files, err := s.scanFiles()
	if err != nil {
		return nil, false, fmt.Errorf("search: %w", err)
	}
	type file struct {
		id string
		fi fs.FileInfo
	}
	order := make([]file, 0, len(files))
	for id, fi := range files {
		order = append(order, file{id, fi})
	}
	slices.SortFunc(order, func(a, b file) int {
		if c := b.fi.ModTime().Compare(a.fi.ModTime()); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	})
	m := newMatcher(query)
	for _, f := range order {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		more, err = s.searchTopic(ctx, f.id, m, limit, &hits)
		if err != nil || more {
			return hits, more, err
		}
	}
	return hits, false, nil
}

// matcher tests lines and bodies for a query.
type matcher struct {
	re *regexp.Regexp
	// raw is true when the query has no character JSON writes escaped, so a
	// line without a backslash escape that does not match raw cannot hold
	// it in its body: most lines are passed over without decoding.
	raw bool
}

func newMatcher(query string) matcher {
	raw := !strings.ContainsFunc(query, func(r rune) bool {
		return r < 0x20 || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == 0x7f || r >= 0x2028 && r <= 0x2029 || r == 0xfffd
	})
	return matcher{re: Pattern(query), raw: raw}
}

// mayHold is false only for a line that cannot hold the query in its body.
func (m matcher) mayHold(line []byte) bool {
	if !m.raw || bytes.Contains(line, []byte(`\u`)) {
		return true
	}
	return m.re.Match(line)
}

// searchTopic adds topicID's hits, newest first, until *hits holds limit;
// more is true when a further hit was found.
func (s *Store) searchTopic(ctx context.Context, topicID string, m matcher, limit int, hits *[]Hit) (more bool, err error) {
	s.mu.Lock()
	a := s.files[topicID]
	s.mu.Unlock()
	f, err := openLog(s.logPath(topicID), os.O_RDONLY)
	if err != nil {
		return false, nil // gone since the scan, or a link: not searched
	}
	defer f.Close()
	size, err := readableSize(f, a)
	if err != nil {
		return false, nil
	}
	var bad []int64
	defer func() { s.noteBad(topicID, bad) }()
	sc := newBackScanner(f, size, s.block, s.maxLine)
	next, after, read := "", 0, 0
	for n := 0; ; n++ {
		if n%searchCheckEvery == 0 || read >= searchCheckBytes {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			read = 0
		}
		line, off, tooLong, ok := sc.prev()
		if !ok {
			break
		}
		read += len(line)
		if tooLong {
			bad = append(bad, off)
			continue
		}
		if !m.mayHold(line) {
			// Not decoded: a readable post all the same, counted below.
			if id := quickID(line); id != "" {
				next, after = id, after+1
				continue
			}
		}
		rec, kind := parseLine(line)
		if kind == lineBad {
			bad = append(bad, off)
		}
		if kind != lineGood {
			continue
		}
		if loc := m.re.FindStringIndex(rec.Content); loc != nil {
			if len(*hits) == limit {
				return true, nil
			}
			h := Hit{Topic: topicID, Record: rec, Start: loc[0], End: loc[1], Next: next, After: after}
			if clipped, cut := ClipBody(rec.Content); cut {
				h.Record.Size, h.Record.Content = len(rec.Content), strings.Clone(clipped)
				h.Start, h.End = min(h.Start, len(clipped)), min(h.End, len(clipped))
			}
			*hits = append(*hits, h)
		}
		next, after = rec.MessageID, after+1
	}
	return false, nil // a read error ends this file's search, not the others'
}

// quickID is the message_id of a line that looks like a post as Append
// writes it ({"message_id":"…", first), without decoding the rest; "" when
// the line is not that plain (then it is decoded).
func quickID(line []byte) string {
	rest, ok := bytes.CutPrefix(line, []byte(`{"message_id":"`))
	if !ok {
		return ""
	}
	i := bytes.IndexAny(rest, `"\`)
	if i <= 0 || rest[i] != '"' || !json.Valid(line) {
		return ""
	}
	return string(rest[:i])
}
