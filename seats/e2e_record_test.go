//go:build linux || darwin

package seats_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/pty"
)

// recordPTYEnv names a folder; when set, everything each seat's CLI prints
// to its terminal is saved below it, unedited, as the seat's Screen reads
// it: <test>/<command>-<n>.<part>.<cols>x<rows>.ansi, a new part at every
// resize (seats/terminal/testdata/README.md). TestScreenBatchedRecordedCLIs replays
// them.
const recordPTYEnv = "PULLCEPT_RECORD_PTY"

// recordPTYs makes the rig's seats record their output under dir.
func recordPTYs(t *testing.T, mgr *seats.Manager, dir string) {
	t.Helper()
	dir = filepath.Join(dir, t.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seq := map[string]int{}
	seats.RecordSpawns(mgr, func(o pty.Options, p pty.Proc) pty.Proc {
		name := strings.TrimSuffix(filepath.Base(o.Argv[0]), filepath.Ext(o.Argv[0]))
		mu.Lock()
		seq[name]++
		name = fmt.Sprintf("%s-%d", name, seq[name])
		mu.Unlock()
		r := &recordedProc{Proc: p, t: t, path: filepath.Join(dir, name)}
		r.cut(max(o.Cols, 80), max(o.Rows, 24)) // 0 means 80×24
		t.Cleanup(r.close)
		return r
	})
}

// recordedProc saves what is read from its PTY.
type recordedProc struct {
	pty.Proc
	t    *testing.T
	path string
	mu   sync.Mutex
	f    *os.File
	part int
}

func (r *recordedProc) Read(b []byte) (int, error) {
	n, err := r.Proc.Read(b)
	if n > 0 {
		r.mu.Lock()
		if r.f != nil {
			if _, werr := r.f.Write(b[:n]); werr != nil {
				r.t.Errorf("record pty: %v", werr)
			}
		}
		r.mu.Unlock()
	}
	return n, err
}

func (r *recordedProc) Resize(cols, rows int) error {
	r.cut(cols, rows)
	return r.Proc.Resize(cols, rows)
}

// cut starts the next part of the recording at a new size.
func (r *recordedProc) cut(cols, rows int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f != nil {
		_ = r.f.Close()
	}
	r.part++
	f, err := os.Create(fmt.Sprintf("%s.%d.%dx%d.ansi", r.path, r.part, cols, rows))
	if err != nil {
		r.t.Errorf("record pty: %v", err)
	}
	r.f = f
}

func (r *recordedProc) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f != nil {
		_ = r.f.Close()
		r.f = nil
	}
}
