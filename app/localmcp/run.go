package localmcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// readerDrain is how long a run waits, after its process ended, for its
// stdout and stderr to reach end of file before closing them itself (a
// process that escaped the tree may still hold them).
const readerDrain = time.Second

// stdinWriteTimeout bounds one write to the server's stdin: a server that
// stops reading must not hold a get_event (and the notices behind it)
// past its wait.
const stdinWriteTimeout = 5 * time.Second

// run is one process lifetime of a server. Its goroutines (owner: the
// run; waited for by its lifecycle, which closes done last):
//
//   - lifecycle: waits for a stop, the exit or stdout's end; then closes
//     stdin, kills the tree after the grace, drains the readers, reports;
//   - wait: cmd.Wait, then reaps the group, closes exited;
//   - pump: reads stdout, takes channel pushes, forwards the rest to
//     mcp-go's transport; closes pushes and the transport's input at EOF;
//   - readStderr: the server's stderr into its log;
//   - connect: initialize within Options.InitTimeout;
//   - work: the notices, one at a time (notices.run).
//
// mcp-go's own reader goroutine reads the forwarded lines and ends when
// the pump closes its input.
type run struct {
	sup  *Supervisor
	srv  *server
	spec Spec

	ctx    context.Context // ends when the run stops; bounds initialize and get_event
	cancel context.CancelFunc

	cmd        *exec.Cmd
	stdin      *os.File // parent's write end
	stdout     *os.File // parent's read end
	stderr     *os.File // parent's read end
	toClient   *io.PipeWriter
	fromServer *io.PipeReader
	mcp        *client.Client
	pushes     chan push

	stopOnce   sync.Once
	stopReq    chan struct{} // closed by stop
	userStop   atomic.Bool   // the stop came from Stop, Restart, Remove or Close
	exited     chan struct{} // closed once the process was waited for
	stdoutDone chan struct{} // the pump ended
	stderrDone chan struct{} // readStderr ended
	done       chan struct{} // every goroutine of the run ended
	workers    sync.WaitGroup
	code       int // exit code, set before exited closes

	// ready closes once initialize was answered: a server may push as soon
	// as it gets `initialized`, before mcp-go counts the session as open,
	// and a get_event called then failed at once ("not initialized"; seen
	// under load), so calls wait for it (bounded by their own context).
	ready     chan struct{}
	readyOnce sync.Once

	brake          *noticeBrake
	queuedBytes    atomic.Int64 // content bytes in pushes (maxQueuedBytes)
	received       atomic.Uint64
	folded         atomic.Uint64
	dropped        atomic.Uint64
	droppedUnnoted atomic.Uint64
	dropping       atomic.Bool
}

func newRun(s *Supervisor, srv *server, spec Spec) *run {
	ctx, cancel := context.WithCancel(context.Background())
	return &run{
		sup: s, srv: srv, spec: cloneSpec(spec), ctx: ctx, cancel: cancel,
		pushes: make(chan push, s.opts.QueueLen), brake: newNoticeBrake(s.opts),
		stopReq: make(chan struct{}), exited: make(chan struct{}),
		stdoutDone: make(chan struct{}), stderrDone: make(chan struct{}),
		done: make(chan struct{}), ready: make(chan struct{}),
	}
}

// note logs Pullcept's own line about this run's server.
func (r *run) note(text string) { r.sup.note(r.srv, text) }

// stop asks the run to end; user marks a stop Pullcept was asked for.
func (r *run) stop(user bool) {
	if user {
		r.userStop.Store(true)
	}
	r.stopOnce.Do(func() { close(r.stopReq) })
}

// launch starts the process and the run's goroutines. On failure the
// server is Failed, done is closed and the error returned.
func (r *run) launch() error {
	if err := r.spawn(); err != nil {
		r.sup.setState(r, func(st *State) {
			st.Phase, st.Reason, st.Since = Failed, err.Error(), time.Now()
		})
		r.note("failed to start: " + err.Error())
		r.cancel()
		close(r.done)
		return err
	}
	r.sup.setState(r, func(st *State) { st.Pid = r.cmd.Process.Pid })
	r.note(fmt.Sprintf("started (pid %d): %s", r.cmd.Process.Pid, strings.Join(append([]string{r.spec.Command}, r.spec.Args...), " ")))
	r.fromServer, r.toClient = io.Pipe()
	tr := transport.NewIO(r.fromServer, &stdinWriter{f: r.stdin, onFail: func(err error) {
		if r.ctx.Err() == nil {
			r.note("writing to the server's stdin failed; nothing more is sent: " + err.Error())
		}
	}}, nil)
	r.mcp = client.NewClient(tr,
		client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION), // channel pushes need a legacy session (dependencies.md §4)
		client.WithClientCapabilities(clientCapabilities()))
	r.workers.Add(5)
	go r.wait()
	go r.pump()
	go r.readStderr()
	go r.connect()
	go r.work()
	go r.lifecycle()
	return nil
}

// spawn starts the process with its three pipes.
func (r *run) spawn() error {
	if r.spec.Command == "" {
		return errors.New("no command")
	}
	cmd, err := command(r.spec)
	if err != nil {
		return err
	}
	cmd.Env = append(os.Environ(), r.spec.Env...)
	cmd.Dir = r.spec.Dir
	var child [3]*os.File
	var parent [3]*os.File
	for i := range child {
		rd, wr, err := os.Pipe()
		if err != nil {
			closeAll(child[:], parent[:])
			return err
		}
		if i == 0 {
			child[i], parent[i] = rd, wr
		} else {
			child[i], parent[i] = wr, rd
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = child[0], child[1], child[2]
	err = cmd.Start()
	closeAll(child[:])
	if err != nil {
		closeAll(parent[:])
		return err
	}
	r.cmd = cmd
	r.stdin, r.stdout, r.stderr = parent[0], parent[1], parent[2]
	return nil
}

// closeAll closes every non-nil file.
func closeAll(sets ...[]*os.File) {
	for _, set := range sets {
		for _, f := range set {
			if f != nil {
				_ = f.Close()
			}
		}
	}
}

// clientCapabilities is what Pullcept declares as a client: nothing it
// cannot serve, plus the claude/channel marker a channel reader carries
// (the bridge pushes to whoever connects; Claude Code reads the pushes of
// servers that declare the capability, on a legacy session).
func clientCapabilities() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{Experimental: map[string]any{"claude/channel": map[string]any{}}}
}

// recovered logs a panic of one of the run's goroutines.
func (r *run) recovered(what string) {
	if v := recover(); v != nil {
		r.note(fmt.Sprintf("internal error in %s: %v", what, v))
		r.stop(false)
	}
}

// wait reaps the process.
func (r *run) wait() {
	defer r.workers.Done()
	defer close(r.exited)
	defer r.recovered("the process waiter")
	_ = r.cmd.Wait()
	r.code = exitCode(r.cmd.ProcessState)
	reapGroup(r.cmd.Process.Pid)
}

// connect initializes the MCP session within Options.InitTimeout.
func (r *run) connect() {
	defer r.workers.Done()
	defer r.recovered("initialize")
	if err := r.mcp.Start(r.ctx); err != nil {
		r.fail("the MCP client did not start: " + err.Error())
		return
	}
	ictx, cancel := context.WithTimeout(r.ctx, r.sup.opts.InitTimeout)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "pullcept", Version: "1"}
	req.Params.Capabilities = clientCapabilities()
	res, err := r.mcp.Initialize(ictx, req)
	switch {
	case err == nil:
		r.running(res)
	case r.ctx.Err() != nil:
		// stopping: the lifecycle reports
	case errors.Is(ictx.Err(), context.DeadlineExceeded):
		r.fail(fmt.Sprintf("no answer to initialize within %v", r.sup.opts.InitTimeout))
	case errors.Is(err, transport.ErrTransportClosed):
		r.failUnlessExited("closed its stdout before answering initialize")
	default:
		r.fail("initialize failed: " + err.Error())
	}
}

// running records the initialize answer.
func (r *run) running(res *mcp.InitializeResult) {
	info := strings.TrimSpace(res.ServerInfo.Name + " " + res.ServerInfo.Version)
	r.sup.setState(r, func(st *State) {
		if st.Phase == Starting {
			st.Phase, st.Since, st.Server = Running, time.Now(), info
		}
	})
	r.readyOnce.Do(func() { close(r.ready) })
	r.note(fmt.Sprintf("running: %s (protocol %s)", info, res.ProtocolVersion))
	if _, ok := res.Capabilities.Experimental["claude/channel"]; !ok {
		r.note("the server does not declare claude/channel; its channel pushes are still read")
	}
}

// fail marks a run that never reached Running and ends it.
func (r *run) fail(reason string) {
	r.sup.setState(r, func(st *State) {
		if st.Phase == Starting {
			st.Phase, st.Reason, st.Since = Failed, reason, time.Now()
		}
	})
	r.note("failed: " + reason)
	r.stop(false)
}

// failUnlessExited fails the run unless its process ends within the
// grace, in which case the lifecycle reports the exit instead.
func (r *run) failUnlessExited(reason string) {
	t := time.NewTimer(r.sup.opts.Grace)
	defer t.Stop()
	select {
	case <-r.exited:
	case <-r.stopReq:
	case <-t.C:
		r.fail(reason)
	}
}

// work runs the notices of this run.
func (r *run) work() {
	defer r.workers.Done()
	defer r.recovered("the notices")
	n := &notices{
		server: r.srv.name, wait: r.sup.opts.SignatureWait,
		read: r.getEvent, emit: r.sup.opts.OnNotice, note: r.note,
		before: r.noteDropped,
		fold: &folding{brake: r.brake, calm: r.sup.opts.FoldCalm, every: r.sup.opts.FoldEvery, send: r.sendFolded,
			taken: func(p push) { r.queuedBytes.Add(-int64(len(p.content))) }},
	}
	n.run(r.ctx, r.pushes)
	r.noteDropped()
}

// getEvent calls the bridge's get_event and returns its answer's text.
// It is the only tool Pullcept calls (never mark_processed, spec #180).
func (r *run) getEvent(ctx context.Context, id string) (string, error) {
	select {
	case <-r.ready:
	case <-ctx.Done():
		return "", fmt.Errorf("the server was not running yet: %w", ctx.Err())
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "get_event"
	req.Params.Arguments = map[string]any{"event_id": id}
	res, err := r.mcp.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := mcp.AsTextContent(c); ok {
			text.WriteString(t.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("get_event answered an error: %.200s", text.String())
	}
	return text.String(), nil
}

// noteDropped logs the pushes dropped since the last such line.
func (r *run) noteDropped() {
	if n := r.droppedUnnoted.Swap(0); n > 0 {
		r.dropping.Store(false)
		r.note(fmt.Sprintf("dropped %d channel pushes: the notice queue (%d) was full", n, cap(r.pushes)))
	}
}

// stdinWriter is the transport's stdin: each write has a deadline (where
// the OS has them), and after the first failure writes are swallowed, so
// mcp-go never logs to Pullcept's stderr; the request then fails when the
// transport closes or its context ends.
type stdinWriter struct {
	f      *os.File
	failed atomic.Bool
	onFail func(error)
}

func (w *stdinWriter) Write(p []byte) (int, error) {
	if w.failed.Load() {
		return len(p), nil
	}
	_ = w.f.SetWriteDeadline(time.Now().Add(stdinWriteTimeout))
	if _, err := w.f.Write(p); err != nil && !w.failed.Swap(true) && w.onFail != nil {
		w.onFail(err)
	}
	return len(p), nil
}

func (w *stdinWriter) Close() error { return w.f.Close() }
