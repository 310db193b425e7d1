package localmcp

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/pullcept/pullcept/room/pubsub"
	"github.com/pullcept/pullcept/room/textcut"
)

// Defaults of Options (spec «ローカル MCP サーバ», «アプリは webhook の通知に
// 署名を読み取って載せる»).
const (
	DefaultInitTimeout   = 20 * time.Second // initialize must be answered within this
	DefaultSignatureWait = 5 * time.Second  // SIGNATURE_WAIT: get_event's cap per notice
	DefaultGrace         = 2 * time.Second  // from closing stdin to killing the tree
	DefaultQueueLen      = 1024             // channel pushes waiting for their notice
)

// ErrRunning is returned by Start for a server whose run has not ended.
var ErrRunning = errors.New("the server is already running")

// ErrClosed is returned by Start after Close.
var ErrClosed = errors.New("the supervisor is closed")

// Spec is how to start one server: a command and its arguments, no shell
// in between. Env holds NAME=value lines added to Pullcept's own
// environment (a name set in both takes Env's value); it never replaces it.
// Dir is the working directory ("" for Pullcept's).
type Spec struct {
	Command string
	Args    []string
	Env     []string
	Dir     string
}

// Phase is where a server is.
type Phase int

const (
	NotStarted Phase = iota // never started in this run of Pullcept
	Starting                // the process runs, initialize is not answered yet
	Running                 // initialize answered
	Exited                  // it ended after it was running (State.Code)
	Failed                  // it never reached Running (State.Reason)
	Stopped                 // Pullcept stopped it (Stop, Restart, Remove, Close)
)

// String names the phase for logs.
func (p Phase) String() string {
	switch p {
	case Starting:
		return "starting"
	case Running:
		return "running"
	case Exited:
		return "exited"
	case Failed:
		return "failed"
	case Stopped:
		return "stopped"
	default:
		return "not started"
	}
}

// State is a snapshot of one server.
type State struct {
	Phase    Phase
	Code     int       // Exited (and Stopped, Failed once the process ended): the exit code, 128+signal on Unix
	Reason   string    // Failed: why it never ran
	Spec     Spec      // what the current or last run started from
	Since    time.Time // when Phase was entered
	Pid      int       // the current or last run's process id (0 if it never started)
	Server   string    // the server's name and version from its initialize answer
	Received uint64    // channel pushes with an event id queued for a notice, this run
	Folded   uint64    // channel pushes over the brake's rate, this run (brake.go)
	Dropped  uint64    // channel pushes dropped because the queue was full, this run
}

// Options configures a Supervisor. Zero values take the defaults.
type Options struct {
	// OnNotice receives each notice, per server in the order the pushes
	// arrived, from that server's notice goroutine with no lock held. It may
	// be called until Close returns, never after. It should return quickly:
	// the server's next notice waits for it.
	OnNotice func(server string, n Notice)
	// OnFolded receives the count of a server's pushes the brake folded
	// (brake.go): from the same goroutine as OnNotice, under the same
	// rules, at most once per FoldCalm of quiet or FoldEvery of flood.
	OnFolded func(server string, n uint64)
	// Logger also receives each log line (Pullcept's own lines always, a
	// server's stderr lines at most a few per second); nil logs nowhere else.
	Logger        *slog.Logger
	InitTimeout   time.Duration
	SignatureWait time.Duration
	Grace         time.Duration
	QueueLen      int
	// The brake (brake.go): NoticeBurst pushes at once, then one per
	// NoticeEvery; the rest folded, the count sent after FoldCalm without
	// a fold or FoldEvery after the batch's first.
	NoticeBurst int
	NoticeEvery time.Duration
	FoldCalm    time.Duration
	FoldEvery   time.Duration
}

// Supervisor runs Pullcept's own local MCP servers by name, one run at a
// time each, and never restarts one by itself (spec «ブリッジが終わっても
// 起動し直さない»).
type Supervisor struct {
	opts    Options
	signal  pubsub.Signal
	mu      sync.Mutex
	servers map[string]*server
	closed  bool
}

// server is one name's state and log, kept across its runs.
type server struct {
	name   string
	state  State // guarded by Supervisor.mu
	run    *run  // the current or last run; guarded by Supervisor.mu
	log    serverLog
	mirror *rate.Limiter // stderr lines copied to Options.Logger
}

// NewSupervisor returns a Supervisor with no server.
func NewSupervisor(opts Options) *Supervisor {
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = DefaultInitTimeout
	}
	if opts.SignatureWait <= 0 {
		opts.SignatureWait = DefaultSignatureWait
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.QueueLen <= 0 {
		opts.QueueLen = DefaultQueueLen
	}
	opts.NoticeBurst = cmp.Or(max(opts.NoticeBurst, 0), DefaultNoticeBurst)
	opts.NoticeEvery = cmp.Or(max(opts.NoticeEvery, 0), DefaultNoticeEvery)
	opts.FoldCalm = cmp.Or(max(opts.FoldCalm, 0), DefaultFoldCalm)
	opts.FoldEvery = cmp.Or(max(opts.FoldEvery, 0), DefaultFoldEvery)
	return &Supervisor{opts: opts, servers: map[string]*server{}}
}

// serverLocked returns name's server, making it on first use.
func (s *Supervisor) serverLocked(name string) *server {
	srv, ok := s.servers[name]
	if !ok {
		srv = &server{name: name, mirror: rate.NewLimiter(5, 50)}
		s.servers[name] = srv
	}
	return srv
}

// Start starts name from spec. It returns once the process was started
// (initialize is then pending: Starting) or failed to start (Failed, and
// the error). A server still starting or running is refused (ErrRunning).
func (s *Supervisor) Start(name string, spec Spec) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	srv := s.serverLocked(name)
	prev := srv.run
	if prev != nil && (srv.state.Phase == Starting || srv.state.Phase == Running) {
		s.mu.Unlock()
		return fmt.Errorf("%s: %w", name, ErrRunning)
	}
	r := newRun(s, srv, spec)
	srv.run = r
	srv.state = State{Phase: Starting, Spec: cloneSpec(spec), Since: time.Now()}
	s.mu.Unlock()
	s.signal.Notify()
	if prev != nil {
		<-prev.done // an ended run still cleaning up
	}
	return r.launch()
}

// Stop stops name's run, if any (stdin closed, then the process tree
// killed after Options.Grace), and waits for it to end. Its state becomes
// Stopped; its log stays.
func (s *Supervisor) Stop(name string) {
	s.mu.Lock()
	var r *run
	if srv, ok := s.servers[name]; ok {
		r = srv.run
	}
	s.mu.Unlock()
	if r != nil {
		r.stop(true)
		<-r.done
	}
}

// Restart stops name's run, if any, and starts it again from spec.
func (s *Supervisor) Restart(name string, spec Spec) error {
	s.Note(name, "restarting")
	s.Stop(name)
	return s.Start(name, spec)
}

// Remove stops name's run and forgets its state and log (the server was
// deleted).
func (s *Supervisor) Remove(name string) {
	s.Stop(name)
	s.mu.Lock()
	if srv, ok := s.servers[name]; ok && srv.state.Phase != Starting && srv.state.Phase != Running {
		delete(s.servers, name) // unless a Start came in between
	}
	s.mu.Unlock()
	s.signal.Notify()
}

// Close stops every server, waits for their runs to end (OnNotice is not
// called after it returns) and wakes every WaitChange for good. Start
// fails afterwards.
func (s *Supervisor) Close() {
	s.mu.Lock()
	s.closed = true
	var runs []*run
	for _, srv := range s.servers {
		if srv.run != nil {
			runs = append(runs, srv.run)
		}
	}
	s.mu.Unlock()
	for _, r := range runs {
		r.stop(true)
	}
	for _, r := range runs {
		<-r.done
	}
	s.signal.Close()
}

// Names lists the servers the supervisor knows, sorted.
func (s *Supervisor) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.servers))
	for name := range s.servers {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// State returns a snapshot of name's state (NotStarted for an unknown name).
func (s *Supervisor) State(name string) State {
	s.mu.Lock()
	defer s.mu.Unlock()
	srv, ok := s.servers[name]
	if !ok {
		return State{}
	}
	st := srv.state
	st.Spec = cloneSpec(st.Spec)
	if srv.run != nil {
		st.Received = srv.run.received.Load()
		st.Folded = srv.run.folded.Load()
		st.Dropped = srv.run.dropped.Load()
	}
	return st
}

// Log returns a snapshot of name's log, oldest line first.
func (s *Supervisor) Log(name string) []LogLine {
	s.mu.Lock()
	srv, ok := s.servers[name]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return srv.log.snapshot()
}

// Note adds Pullcept's own line about name to its log (for example an
// event with no room to post into).
func (s *Supervisor) Note(name, text string) {
	s.mu.Lock()
	srv := s.serverLocked(name)
	s.mu.Unlock()
	s.note(srv, text)
}

// WaitChange blocks until a server's state or log changed after the
// generation seen (0 at first) and returns the new generation; changes
// coalesce. ok is false once done closes or the supervisor closed.
func (s *Supervisor) WaitChange(done <-chan struct{}, seen uint64) (gen uint64, ok bool) {
	return s.signal.Wait(done, seen)
}

// maxNoteBytes bounds Pullcept's own line about a server: many quote what
// the server sent, and a server may send megabytes in one line.
const maxNoteBytes = 512

// note logs Pullcept's own line about srv, cut to maxNoteBytes. The copy
// to Options.Logger shares the stderr lines' rate (a server can make
// Pullcept say something per push, thousands a second).
func (s *Supervisor) note(srv *server, text string) {
	if len(text) > maxNoteBytes {
		text = textcut.Bytes(text, maxNoteBytes)
	}
	text = cleanLine([]byte(text), false)
	srv.log.add(LogLine{At: time.Now(), Text: text, Own: true})
	if s.opts.Logger != nil && srv.mirror.Allow() {
		s.opts.Logger.Info("local MCP server", "server", srv.name, "note", text)
	}
	s.signal.Notify()
}

// stderrLine logs one line of srv's stderr.
func (s *Supervisor) stderrLine(srv *server, text string) {
	srv.log.add(LogLine{At: time.Now(), Text: text})
	if s.opts.Logger != nil && srv.mirror.Allow() {
		s.opts.Logger.Info("local MCP server", "server", srv.name, "stderr", text)
	}
	s.signal.Notify()
}

// setState changes r's server's state if r is still its current run.
func (s *Supervisor) setState(r *run, change func(st *State)) {
	s.mu.Lock()
	if r.srv.run == r {
		change(&r.srv.state)
	}
	s.mu.Unlock()
	s.signal.Notify()
}

// phase returns r's server's phase while r is its current run.
func (s *Supervisor) phase(r *run) (Phase, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.srv.state.Phase, r.srv.run == r
}

// cloneSpec copies spec's slices so a snapshot shares nothing.
func cloneSpec(spec Spec) Spec {
	spec.Args = slices.Clone(spec.Args)
	spec.Env = slices.Clone(spec.Env)
	return spec
}
