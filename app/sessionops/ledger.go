package sessionops

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

// FileName is the ledger's file in the data directory.
const FileName = "session-operations.json"

// Record states (docs/design.md §15).
const (
	StateAccepted       = "accepted"
	StateRunning        = "running"
	StateProcessStarted = "process_started"
	StateStopped        = "stopped"
	StateFailed         = "failed"
	StateInterrupted    = "interrupted"
)

// finished reports whether a state is final.
func finished(state string) bool {
	return state != StateAccepted && state != StateRunning
}

// Ledger bounds: maxRecords records (the oldest finished one goes when a
// new one needs the place), a file of at most maxLedgerBytes (a larger one
// is set aside, not read).
const (
	maxRecords     = 500
	maxLedgerBytes = 4 << 20
)

// ledgerFile is session-operations.json.
type ledgerFile struct {
	Version    int                  `json:"version"`
	Operations []room.SessionRecord `json:"operations"`
}

// ledger is the records in acceptance order. Guarded by Ops.mu.
type ledger struct {
	path string
	recs []*room.SessionRecord
	byID map[string]*room.SessionRecord
}

// loadLedger reads path. A missing file is an empty ledger; one that is
// not a ledger, or too big, is renamed aside (path.bad-<time>) and reported
// in warnings, and the ledger starts empty. Unfinished records become
// interrupted (the app that ran them is gone) and the file is written back.
func loadLedger(path string, now time.Time) (*ledger, []string, error) {
	l := &ledger{path: path, byID: map[string]*room.SessionRecord{}}
	b, err := config.ReadRegularFile(path, maxLedgerBytes, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return l, nil, nil
	case err != nil && !errors.Is(err, config.ErrTooBig):
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	var f ledgerFile
	if err == nil {
		err = json.Unmarshal(b, &f)
	}
	if err == nil && f.Version != 1 {
		err = fmt.Errorf("version %d, not 1", f.Version)
	}
	if err != nil {
		aside := fmt.Sprintf("%s.bad-%s", path, now.UTC().Format("20060102T150405Z"))
		if rerr := os.Rename(path, aside); rerr != nil {
			return nil, nil, fmt.Errorf("%s is not a session-operations ledger (%v) and could not be set aside: %w", path, err, rerr)
		}
		return l, []string{fmt.Sprintf("%s was not a session-operations ledger (%v); it was set aside as %s and a new one started", FileName, err, aside)}, nil
	}
	changed := false
	for i := range f.Operations {
		r := f.Operations[i]
		if r.OperationID == "" || l.byID[r.OperationID] != nil {
			continue
		}
		if !finished(r.State) {
			r.State, r.UpdatedAt, changed = StateInterrupted, stamp(now), true
			r.Error = "Pullcept ended before the operation's end was recorded; it is never run again (what it did by then stands: see list_account_sessions)"
		}
		l.add(&r)
	}
	if changed {
		if err := l.save(); err != nil {
			return nil, nil, err
		}
	}
	return l, nil, nil
}

// add appends r, dropping the oldest finished records beyond maxRecords.
// false when every record is unfinished (nothing can make room).
func (l *ledger) add(r *room.SessionRecord) bool {
	for len(l.recs) >= maxRecords {
		i := 0
		for i < len(l.recs) && !finished(l.recs[i].State) {
			i++
		}
		if i == len(l.recs) {
			return false
		}
		delete(l.byID, l.recs[i].OperationID)
		l.recs = append(l.recs[:i], l.recs[i+1:]...)
	}
	l.recs = append(l.recs, r)
	l.byID[r.OperationID] = r
	return true
}

// remove drops the record of id (an acceptance that could not be saved).
func (l *ledger) remove(id string) {
	delete(l.byID, id)
	for i, r := range l.recs {
		if r.OperationID == id {
			l.recs = append(l.recs[:i], l.recs[i+1:]...)
			return
		}
	}
}

// save writes the whole ledger atomically.
func (l *ledger) save() error {
	f := ledgerFile{Version: 1, Operations: make([]room.SessionRecord, len(l.recs))}
	for i, r := range l.recs {
		f.Operations[i] = *r
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	// A link planted there is replaced, never written through (§16).
	if err := (config.AtomicFile{NoFollow: true}).Write(l.path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", FileName, err)
	}
	return nil
}

// stamp is a record's time: UTC, RFC 3339 with milliseconds.
func stamp(t time.Time) string { return t.UTC().Format(room.TimeLayout) }
