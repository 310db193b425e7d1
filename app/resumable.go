package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/seats"
)

// RunningSeatsFile lists, in the data directory, the seats running now and
// those a crash or a reboot left: a clean end (quit, kill-server) stops
// the seats and leaves none running, so what is still listed at the next
// start ran when Pullcept died. Those are offered as resumable, each
// started only by the human's key (docs/serve.md "After a crash").
const RunningSeatsFile = "running-seats.json"

// maxSeatMarks and maxSeatMarksBytes bound what is read back (a file
// edited by hand, or by a seat: a 250 MB one took 1 GB to read).
const (
	maxSeatMarks      = 1000
	maxSeatMarksBytes = 1 << 20
)

// readCapped reads path when it is a regular file, not a link, of at
// most max bytes: a FIFO planted there is refused at once rather than
// hanging the start (docs/design.md §16 "Planted files").
func readCapped(path string, max int64) ([]byte, error) {
	return config.ReadRegularFile(path, max, false)
}

// seatMark is one seat of running-seats.json.
type seatMark struct {
	Topic   string    `json:"topic"`
	Account string    `json:"account"`
	Since   time.Time `json:"since"`
}

// seatMarks keeps running-seats.json: the running seats, written at every
// change, plus the resumable ones of the last run until the human starts
// or dismisses each.
type seatMarks struct {
	path string

	mu        sync.Mutex // leaf: one atomic write at a time
	running   map[seatKey]seatMark
	resumable map[seatKey]seatMark
	written   string // the file's last content, to skip writes of the same
}

// loadSeatMarks reads the file of the last run: every seat it lists is
// resumable now (nothing runs yet). An unreadable file is a warning, never
// a refusal to start.
func loadSeatMarks(dataDir string) (*seatMarks, error) {
	m := &seatMarks{path: filepath.Join(dataDir, RunningSeatsFile), running: map[seatKey]seatMark{},
		resumable: map[seatKey]seatMark{}}
	b, err := readCapped(m.path, maxSeatMarksBytes)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, fmt.Errorf("%s: %w (the seats a crash left are not offered)", RunningSeatsFile, err)
	}
	var doc struct {
		Seats []seatMark `json:"seats"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return m, fmt.Errorf("%s: %w (the seats a crash left are not offered)", RunningSeatsFile, err)
	}
	for i, s := range doc.Seats {
		if i == maxSeatMarks {
			break
		}
		if s.Topic != "" && s.Account != "" {
			m.resumable[seatKey{s.Topic, s.Account}] = s
		}
	}
	m.written = string(b)
	return m, nil
}

// list is the resumable seats of topic ("" every topic), sorted.
func (m *seatMarks) list(topic string) []seatMark {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []seatMark
	for k, s := range m.resumable {
		if _, runs := m.running[k]; !runs && (topic == "" || k.topic == topic) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b seatMark) int {
		return strings.Compare(a.Topic+"\x00"+a.Account, b.Topic+"\x00"+b.Account)
	})
	return out
}

// drop forgets resumable seats that match: started again, dismissed, or
// their topic or account deleted. It reports whether any was dropped.
func (m *seatMarks) drop(match func(seatKey) bool) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.resumable)
	for k := range m.resumable {
		if match(k) {
			delete(m.resumable, k)
		}
	}
	if len(m.resumable) == n {
		return false, nil
	}
	return true, m.writeLocked()
}

// sync records the Manager's running seats (every state but exited).
func (m *seatMarks) sync(list []seats.SeatInfo) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	running := map[seatKey]seatMark{}
	for _, s := range list {
		if s.State == seats.StateExited {
			continue
		}
		k := seatKey{s.Topic, s.Account}
		since := s.Started
		if old, ok := m.running[k]; ok {
			since = old.Since
		}
		running[k] = seatMark{Topic: s.Topic, Account: s.Account, Since: since}
		delete(m.resumable, k) // it runs again
	}
	m.running = running
	return m.writeLocked()
}

// writeLocked writes the running and the resumable seats when they
// changed.
func (m *seatMarks) writeLocked() error {
	all := make([]seatMark, 0, len(m.running)+len(m.resumable))
	for _, s := range m.running {
		all = append(all, s)
	}
	for k, s := range m.resumable {
		if _, ok := m.running[k]; !ok {
			all = append(all, s)
		}
	}
	slices.SortFunc(all, func(a, b seatMark) int {
		return strings.Compare(a.Topic+"\x00"+a.Account, b.Topic+"\x00"+b.Account)
	})
	b, err := json.MarshalIndent(map[string][]seatMark{"seats": all}, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if string(b) == m.written {
		return nil
	}
	// A link planted there is replaced, never written through.
	if err := (config.AtomicFile{NoFollow: true}).Write(m.path, b, 0o600); err != nil {
		return fmt.Errorf("%s: %w", RunningSeatsFile, err)
	}
	m.written = string(b)
	return nil
}

// openSeatMarks reads what the last run left in running-seats.json (a
// notice names the seats a crash left) and starts the recorder.
func (a *App) openSeatMarks() {
	marks, err := loadSeatMarks(a.dataDir)
	if err != nil {
		a.notices = append(a.notices, err.Error())
	}
	a.marks = marks
	// Seats of accounts that no longer exist are not offered (nothing
	// could start them, and the human could not dismiss them).
	_, _ = marks.drop(func(k seatKey) bool { _, ok := a.accounts.Account(k.account); return !ok })
	if left := marks.list(""); len(left) > 0 {
		a.notices = append(a.notices, fmt.Sprintf("%d seat(s) ran when Pullcept last ended: each is listed as resumable in its topic; s starts it", len(left)))
	}
	a.marksStop, a.marksDone = make(chan struct{}), make(chan struct{})
	// Subscribed here, not in the goroutine: a seat started before the
	// goroutine ran would be missed (under Wine it was, 3 runs in 6).
	go a.recordSeats(a.seats.Subscribe(), a.marksStop, a.marksDone)
}

// marksRetryMin and marksRetryMax bound the wait before running-seats.json
// is written again after a failed write (doubling each time); variables
// for the test that counts the retries.
var (
	marksRetryMin = 100 * time.Millisecond
	marksRetryMax = 5 * time.Second
)

// recordSeats keeps running-seats.json in step with the Manager until
// App.Close closes marksStop. It is the App's one goroutine of its own; a
// cut-off subscription (it fell behind) is taken again.
func (a *App) recordSeats(sub *pubsub.Subscription[seats.Event], stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	defer func() {
		if r := recover(); r != nil {
			a.logger.Error("running-seats recorder panicked", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	defer func() { sub.Close() }()
	wait := marksRetryMin
	for {
		// A failed write is tried again without waiting for the next event:
		// on Windows a rename over a file another process has open fails
		// (a reader of running-seats.json made it fail under load, and the
		// running seat stayed unrecorded until some other seat changed).
		var retry <-chan time.Time
		if err := a.marks.sync(a.seats.Seats("")); err != nil {
			a.logger.Warn("running seats not recorded; trying again", "err", err, "in", wait)
			retry, wait = time.After(wait), min(wait*2, marksRetryMax)
		} else {
			wait = marksRetryMin
		}
		select {
		case <-stop:
			return
		case <-retry:
		case _, open := <-sub.C():
			if !open {
				if !errors.Is(sub.Err(), pubsub.ErrOverflow) {
					return
				}
				sub = a.seats.Subscribe()
			}
		}
	}
}
