package sessionops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/textcut"
)

// Account is what the operations need of an account.
type Account struct {
	ID, Name, Kind string
	// Launches: the account runs as a seat (not the admin, not an mcp
	// account).
	Launches bool
}

// Seat is one listed seat launch.
type Seat struct {
	Topic, Account, PtyID string
	// State is "starting", "running" or "exited".
	State string
}

// Host is what Ops drives: the seats, the accounts, the open topics and the
// room (app implements it over seats.Manager, config.Book, the hub and the
// topic index).
type Host interface {
	Account(id string) (Account, bool)
	Accounts() []Account
	// Topics are the open topics: id → name.
	Topics() []room.SessionTopic
	Seats() []Seat
	// Lifecycle takes the seat's lifecycle lock (seats.Manager.Lifecycle).
	Lifecycle(ctx context.Context, topic, account string) (unlock func(), err error)
	// Start starts the seat, resuming its recorded conversation or not;
	// the new launch's pty id.
	Start(topic, account string, resume bool) (ptyID string, err error)
	// Stop stops the seat while it runs launch ptyID ("" = any).
	Stop(topic, account, ptyID string) error
	// CheckRestart is nil when a restart of launch ptyID would resume its
	// conversation (seats.Manager.CheckRestart).
	CheckRestart(topic, account, ptyID string) error
	// Joined: a connection of launch ptyID sits in topic's room.
	Joined(topic, ptyID string) bool
	// Notice posts Pullcept's notice into topic's room.
	Notice(topic, text string) error
	// Rule is config.json's "session_operations" now.
	Rule() (string, error)
}

// Options configure Open.
type Options struct {
	// Path is the ledger file (required).
	Path   string
	Host   Host
	Logger *slog.Logger
	Now    func() time.Time
	// BeforeRun, when set, is called by the worker after a record was
	// saved as running and before it runs (tests hold an operation there).
	BeforeRun func(room.SessionRecord)
	// OnFailed, when set, is called by the worker with each operation that
	// failed, after its notice: the human is told (app/attention.go).
	OnFailed func(room.SessionRecord)
	// OnRestart, when set, is called by the worker as a restart begins
	// (done false, before its stop) and as it ends (done, err nil when
	// the seat is back): the UIs say it restarts, not that it stopped.
	OnRestart func(topic, account string, done bool, err error)
	// Lang is the human's language when a notice is worded ("en", "ja";
	// nil: English): Pullcept's notices follow the human's language.
	Lang func() string
}

// Request limits: per requesting account, control requests come in a burst
// of controlBurst, then one every controlEvery; list and status reads in a
// burst of 20, then 5 a second. A seat asking a thousand times a second is
// refused at once, and nothing of a refusal is recorded.
const (
	controlBurst = 5
	controlEvery = 6 * time.Second
	readBurst    = 20
	readRate     = 5
)

// Field bounds of a request.
const (
	maxIDLen  = 128
	maxErrLen = 600
)

// operationIDPattern is what an operation id may be: the caller's own
// name for it, short and printable, so it can stand in a notice.
var operationIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// ptyIDPattern is a launch's id (seats: "pty-" and 12 hex digits).
var ptyIDPattern = regexp.MustCompile(`^pty-[0-9a-f]{12}$`)

// Ops runs session operations (package doc).
type Ops struct {
	opts Options
	host Host
	log  *slog.Logger

	mu       sync.Mutex
	led      *ledger
	pending  []string // operation ids accepted and not yet taken by the worker
	controls map[string]*rate.Limiter
	reads    map[string]*rate.Limiter
	closed   bool

	kick   chan struct{} // cap 1: pending grew
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

// Open loads the ledger (unfinished records become interrupted; a bad file
// is set aside and named in warnings) and starts the worker.
func Open(o Options) (*Ops, []string, error) {
	if o.Path == "" || o.Host == nil {
		return nil, nil, errors.New("session operations: a ledger path and a host are required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	led, warnings, err := loadLedger(o.Path, o.Now())
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	ops := &Ops{opts: o, host: o.Host, log: o.Logger, led: led,
		controls: map[string]*rate.Limiter{}, reads: map[string]*rate.Limiter{},
		kick: make(chan struct{}, 1), ctx: ctx, cancel: cancel, done: make(chan struct{})}
	go ops.work()
	return ops, warnings, nil
}

// Close stops accepting, marks every unfinished record interrupted (saved)
// and tells the worker to stop; the operation it runs ends on its own
// (Wait waits for it). Idempotent.
func (o *Ops) Close() {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.closed = true
	changed := false
	for _, r := range o.led.recs {
		if !finished(r.State) {
			r.State, r.UpdatedAt, changed = StateInterrupted, stamp(o.opts.Now()), true
			r.Error = "Pullcept quit before the operation's end was recorded; it is never run again (what it did by then stands: see list_account_sessions)"
		}
	}
	if changed {
		if err := o.led.save(); err != nil {
			o.log.Error("session operations: recording the interrupted operations", "err", err)
		}
	}
	o.pending = nil
	o.mu.Unlock()
	o.cancel()
}

// Wait waits for the worker to end (after Close).
func (o *Ops) Wait() { <-o.done }

// limiter returns the requester's limiter of kind m, made on first use.
func limiter(m map[string]*rate.Limiter, account string, r rate.Limit, burst int) *rate.Limiter {
	l := m[account]
	if l == nil {
		l = rate.NewLimiter(r, burst)
		m[account] = l
	}
	return l
}

// allowRead applies the read limit of r's account.
func (o *Ops) allowRead(r room.Requester) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !limiter(o.reads, r.Account, readRate, readBurst).Allow() {
		return fmt.Errorf("too many session reads: at most %d at once, then %d a second; try again in a moment", readBurst, readRate)
	}
	return nil
}

// List answers list_account_sessions: the accounts that run as seats, the
// open topics and seat launches the requester may operate (by the rule).
func (o *Ops) List(r room.Requester) (room.SessionList, error) {
	if err := o.allowRead(r); err != nil {
		return room.SessionList{}, err
	}
	rule, err := o.checkRequester(r)
	if err != nil {
		return room.SessionList{}, err
	}
	out := room.SessionList{Rule: rule, Accounts: []room.SessionAccount{}, Topics: []room.SessionTopic{}, Seats: []room.SessionSeat{}}
	for _, a := range o.host.Accounts() {
		if a.Launches {
			out.Accounts = append(out.Accounts, room.SessionAccount{AccountID: a.ID, Name: a.Name, Kind: a.Kind})
		}
	}
	for _, t := range o.host.Topics() {
		if rule == config.SessionOpsAll || t.TopicID == r.Topic {
			out.Topics = append(out.Topics, t)
		}
	}
	for _, s := range o.host.Seats() {
		if rule == config.SessionOpsAll || s.Topic == r.Topic {
			out.Seats = append(out.Seats, room.SessionSeat{AccountID: s.Account, TopicID: s.Topic, PtyID: s.PtyID, State: s.State})
		}
	}
	return out, nil
}

// Status answers account_session_status: any seat may read any record (a
// restarted seat reads the one its former launch asked for).
func (o *Ops) Status(r room.Requester, operationID string) (room.SessionRecord, error) {
	if err := o.allowRead(r); err != nil {
		return room.SessionRecord{}, err
	}
	if _, err := o.checkRequester(r); err != nil {
		return room.SessionRecord{}, err
	}
	id := strings.TrimSpace(operationID)
	o.mu.Lock()
	rec := o.led.byID[id]
	var cp room.SessionRecord
	if rec != nil {
		cp = *rec
	}
	o.mu.Unlock()
	rule, _ := o.host.Rule()
	if rec == nil || rule != config.SessionOpsAll && cp.RequesterTopic != r.Topic && cp.TopicID != r.Topic {
		// Under the "topic" rule a seat reads its own topic's records only.
		return room.SessionRecord{}, fmt.Errorf("no operation has the id %q in this seat's view (ids are kept for the last %d operations)", clip(id, maxIDLen), maxRecords)
	}
	return o.live(cp), nil
}

// live adds what is found now about the launch a record started.
func (o *Ops) live(rec room.SessionRecord) room.SessionRecord {
	if rec.PtyID == "" {
		return rec
	}
	running := slices.ContainsFunc(o.host.Seats(), func(s Seat) bool {
		return s.PtyID == rec.PtyID && s.State != "exited"
	})
	joined := o.host.Joined(rec.TopicID, rec.PtyID)
	rec.ProcessRunning, rec.RoomConnected = &running, &joined
	return rec
}

// checkRequester refuses a requester that is not a running seat launch of
// an account that runs as a seat, and every request while the human turned
// the operations off; it returns the rule.
func (o *Ops) checkRequester(r room.Requester) (string, error) {
	rule, err := o.host.Rule()
	if err != nil {
		return "", fmt.Errorf("session operations are off until config.json is fixed: %w", err)
	}
	if rule == config.SessionOpsOff {
		return "", errors.New(`the human turned session operations off ("session_operations": "off" in config.json)`)
	}
	if a, ok := o.host.Account(r.Account); !ok || !a.Launches {
		return "", errors.New("only a seat of an account that runs as a seat may ask for session operations")
	}
	if !slices.ContainsFunc(o.host.Seats(), func(s Seat) bool {
		return s.PtyID == r.Launch && s.Account == r.Account && s.Topic == r.Topic && s.State != "exited"
	}) {
		return "", errors.New("only a running seat may ask for session operations: this seat's launch is not running")
	}
	return rule, nil
}

// clip cuts s to at most n bytes, between characters, for an error
// message.
func clip(s string, n int) string {
	if len(s) > n {
		return textcut.Bytes(s, n) + "…"
	}
	return s
}

// work is the worker: it runs accepted operations one at a time, in
// acceptance order, until Close.
func (o *Ops) work() {
	defer close(o.done)
	for {
		select {
		case <-o.ctx.Done():
			return
		case <-o.kick:
		}
		for {
			o.mu.Lock()
			if o.closed || len(o.pending) == 0 {
				o.mu.Unlock()
				break
			}
			id := o.pending[0]
			o.pending = o.pending[1:]
			o.mu.Unlock()
			o.runSafe(id)
		}
	}
}

// runSafe runs one operation; a panic fails it instead of the app.
func (o *Ops) runSafe(id string) {
	defer func() {
		if p := recover(); p != nil {
			o.log.Error("session operation panic", "operation", id, "panic", p, "stack", string(debug.Stack()))
			o.finish(id, StateFailed, "", fmt.Errorf("internal error: %v", p))
		}
	}()
	o.run(id)
}
