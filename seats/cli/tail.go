package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/pullcept/pullcept/config"
)

// DefaultLineMax bounds one rollout line kept in memory. The lines read here
// are under 4 KiB (turn_context ~3.8 KiB, token_count ~0.8 KiB); tool output
// lines reach megabytes and are skipped without being kept.
const DefaultLineMax = 64 << 10

// readChunk is how much of the rollout one read takes; pollMax
// bounds one poll (the rest waits for the next), so a huge rollout (a
// sparse file, docs/dependencies.md §9.6) never holds the tail long.
const (
	readChunk = 32 << 10
	pollMax   = 8 << 20
)

// Polling the rollout (docs/design.md §11): every second while lines come,
// every 10 s after a minute without one, so an idle seat costs one stat
// every 10 s.
const (
	tailSlow    = 10 * time.Second
	tailIdleFor = time.Minute
)

// TailEvery is the wait before the next look at the rollout when the
// last new line came idle ago: fast (TailPoll, 1 s) during a minute, then
// tailSlow.
func TailEvery(idle, fast time.Duration) time.Duration {
	if idle >= tailIdleFor {
		return max(tailSlow, fast)
	}
	return fast
}

// Tail reads what is appended to a JSONL file (a Codex rollout, a Claude
// transcript), from a remembered offset:
// the file is never read again from its start. A line without its newline
// yet waits (its bytes are kept, at most DefaultLineMax); a longer line is
// dropped as it streams by. Only its owner goroutine uses it.
type Tail struct {
	path     string
	offset   int64  // bytes consumed: complete lines and the partial one
	partial  []byte // the current line's bytes so far
	skipping bool   // the current line is over LineMax: dropped up to its newline
	head     []byte // the first headMax bytes of a line being dropped (Long)
	buf      []byte
	LineMax  int // the longest line kept (0: DefaultLineMax)
	// Long, when set, gets the first headMax bytes of each line dropped
	// for its length: a Codex turn's end carries the whole last answer
	// (task_complete), and its kind and a user message's first line are in
	// its head (docs/design.md §5 "Confirmed delivery").
	Long func(head []byte)
}

// headMax is how much of a dropped line Tail.Long sees.
const headMax = 4 << 10

// NewTail follows path from offset (0: its start; a resumed seat's file
// length before its spawn, so the last run's lines are never read again).
func NewTail(path string, offset int64) *Tail {
	return &Tail{path: path, offset: offset}
}

// Poll reads what was appended since the last poll (at most pollMax
// bytes) and hands each complete line of at most DefaultLineMax bytes to line
// (the slice is reused after it returns). It returns how many lines ended,
// skipped ones included. Only a regular file is opened: a FIFO would block
// the open. A file that shrank is another file: its tail is taken from its
// current end.
func (t *Tail) Poll(line func([]byte)) (int, error) {
	fi, err := os.Stat(t.path)
	if err != nil {
		return 0, err
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("rollout %s is not a regular file", t.path)
	}
	size := min(fi.Size(), t.offset+pollMax)
	if size < t.offset {
		err := fmt.Errorf("rollout %s shrank from %d to %d bytes", t.path, t.offset, size)
		t.offset, t.partial, t.skipping = size, t.partial[:0], false
		return 0, err
	}
	if size == t.offset {
		return 0, nil
	}
	f, err := config.OpenRegularFollow(t.path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if t.buf == nil {
		t.buf = make([]byte, readChunk)
	}
	r := io.NewSectionReader(f, t.offset, size-t.offset)
	ended := 0
	for {
		n, err := r.Read(t.buf)
		ended += t.feed(t.buf[:n], line)
		t.offset += int64(n)
		if errors.Is(err, io.EOF) {
			return ended, nil
		}
		if err != nil {
			return ended, err
		}
	}
}

// feed splits b into lines, joining the partial line kept from before.
func (t *Tail) feed(b []byte, line func([]byte)) int {
	ended := 0
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		limit := t.LineMax
		if limit == 0 {
			limit = DefaultLineMax
		}
		if !t.skipping && len(t.partial)+len(chunk) > limit {
			if t.Long != nil {
				t.head = append(t.head[:0], t.partial[:min(len(t.partial), headMax)]...)
				t.head = append(t.head, chunk[:min(len(chunk), headMax-len(t.head))]...)
			}
			t.skipping, t.partial = true, t.partial[:0]
		}
		if !t.skipping {
			t.partial = append(t.partial, chunk...)
		}
		if i < 0 {
			return ended
		}
		if !t.skipping {
			line(t.partial)
		} else if t.Long != nil {
			t.Long(t.head)
		}
		ended++
		t.partial, t.skipping = t.partial[:0], false
		b = b[i+1:]
	}
	return ended
}
