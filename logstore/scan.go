package logstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Reading tuning.
const (
	// blockSize is how much one backward read takes from a topic file. 64 KiB
	// holds a page of 50–200 ordinary posts (~200–500 bytes each) in one
	// pread, so Tail of a long topic is one read, and stays small next to
	// files of hundreds of MiB.
	blockSize = 64 << 10
	// headLimit bounds the forward read that finds a topic's first post (its
	// name and creation time) for topics the index does not describe.
	headLimit = 1 << 20
)

// MaxLineBytes is the longest line (bytes, without '\n') Append writes and
// Page returns: 32 MiB. Far above any chat post (sidecar frames are much
// smaller), it bounds what a reader holds in memory when a file is garbage
// without newlines; a longer line is skipped and counted (docs/design.md §8).
const MaxLineBytes = 32 << 20

// lineKind classifies one line of a topic file.
type lineKind int

const (
	lineBlank lineKind = iota // empty or only whitespace: not a post, not counted
	lineGood                  // a record with a message_id
	lineBad                   // torn, garbage, wrong shape, or no message_id: skipped and counted
)

// parseLine decodes one line (without its '\n') of a topic file. Unknown keys
// (e.g. hue written by an old version) are ignored; `to` is read from a
// string, a list or null (Names.UnmarshalJSON).
func parseLine(line []byte) (Record, lineKind) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Record{}, lineBlank
	}
	if line[0] != '{' {
		// Cheap reject for binary junk and JSON of the wrong shape; an object
		// is the only shape a post has.
		return Record{}, lineBad
	}
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil || rec.MessageID == "" {
		return Record{}, lineBad
	}
	return rec, lineGood
}

// backScanner yields the lines of r[0:end) from the last to the first, reading
// blockSize bytes at a time with ReadAt. It never holds more than one block
// plus the current line (a line longer than max is skipped without holding
// it). Not safe for concurrent use.
type backScanner struct {
	r     io.ReaderAt
	pos   int64  // file offset of buf[0]
	buf   []byte // bytes [pos, pos+len(buf)) not yet yielded
	block int
	max   int
	done  bool // the first line of the file was yielded
	err   error
}

// newBackScanner scans r[0:end) backwards; end must be a line boundary for a
// clean result (a partial last line is yielded like any other line).
func newBackScanner(r io.ReaderAt, end int64, block, maxLine int) *backScanner {
	return &backScanner{r: r, pos: end, block: block, max: maxLine}
}

// prev returns the line before everything yielded so far: its bytes without
// the '\n' (valid until the next call), its file offset, and tooLong when the
// line exceeded max (then line is nil). ok is false at the start of the file
// or on a read error (see b.err).
func (b *backScanner) prev() (line []byte, off int64, tooLong, ok bool) {
	for {
		if i := bytes.LastIndexByte(b.buf, '\n'); i >= 0 {
			line, off = b.buf[i+1:], b.pos+int64(i+1)
			b.buf = b.buf[:i]
			return b.yield(line, off)
		}
		if b.pos == 0 {
			if b.done || b.err != nil {
				return nil, 0, false, false
			}
			b.done = true
			line, b.buf = b.buf, nil
			return b.yield(line, 0)
		}
		if len(b.buf) > b.max {
			return b.skipLong()
		}
		// Read at least as much as is already held, so a long line costs
		// O(length) copying rather than O(length²/block).
		n := int64(max(b.block, len(b.buf)))
		if n > b.pos {
			n = b.pos
		}
		nb := make([]byte, int(n)+len(b.buf))
		if err := b.readAt(nb[:n], b.pos-n); err != nil {
			return nil, 0, false, false
		}
		copy(nb[n:], b.buf)
		b.buf, b.pos = nb, b.pos-n
	}
}

// yield returns a found line; one over max is tooLong whether or not it
// happened to fit in the buffer, so the verdict depends on the line alone.
func (b *backScanner) yield(line []byte, off int64) ([]byte, int64, bool, bool) {
	if len(line) > b.max {
		return nil, off, true, true
	}
	return line, off, false, true
}

// skipLong walks back over the rest of a line longer than max without keeping
// it, and reports it as tooLong at its start offset.
func (b *backScanner) skipLong() (line []byte, off int64, tooLong, ok bool) {
	b.buf = nil
	blk := make([]byte, b.block)
	for b.pos > 0 {
		n := int64(b.block)
		if n > b.pos {
			n = b.pos
		}
		p := b.pos - n
		if err := b.readAt(blk[:n], p); err != nil {
			return nil, 0, false, false
		}
		b.pos = p
		if i := bytes.LastIndexByte(blk[:n], '\n'); i >= 0 {
			b.buf = append([]byte(nil), blk[:i]...)
			return nil, p + int64(i+1), true, true
		}
	}
	b.done = true
	return nil, 0, true, true
}

func (b *backScanner) readAt(p []byte, off int64) error {
	if _, err := b.r.ReadAt(p, off); err != nil {
		// A short read means the file shrank under us: logs are append
		// only, so that is somebody else's edit; report it, never guess.
		b.err = fmt.Errorf("read at offset %d: %w", off, err)
		return b.err
	}
	return nil
}

// firstRecord returns the first readable record of r within headLimit bytes,
// for naming and dating a topic the index does not describe. ok is false when
// none was found (an empty file, or only unreadable lines so far).
func firstRecord(r io.Reader) (rec Record, ok bool, err error) {
	br := bufio.NewReader(io.LimitReader(r, headLimit))
	for {
		line, rerr := br.ReadBytes('\n')
		// A last line without '\n' may be torn; it still counts when it
		// parses, the same rule Page applies.
		if rec, kind := parseLine(line); kind == lineGood {
			return rec, true, nil
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return Record{}, false, nil
			}
			return Record{}, false, rerr
		}
	}
}

// lastByteIsNewline reports whether the size-byte file r ends in '\n' (true
// for an empty file): an append after a torn last line must not glue onto it.
func lastByteIsNewline(r io.ReaderAt, size int64) (bool, error) {
	if size == 0 {
		return true, nil
	}
	var b [1]byte
	if _, err := r.ReadAt(b[:], size-1); err != nil {
		return false, err
	}
	return b[0] == '\n', nil
}
