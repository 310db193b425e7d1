package sidecar

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serverName is the MCP server name the CLI sees in initialize.
const serverName = "pullcept-room"

// Run is `pullcept sidecar` (docs/design.md §7): an MCP stdio server on stdin/stdout
// (stdout carries only the protocol; logs go to stderr) that joins the room
// named by env (PULLCEPT_* variables, see the Env constants).
//
// When the sidecar may not join (PULLCEPT_LAUNCHED_AS ≠ PULLCEPT_ACCOUNT_ID,
// either missing, or an incomplete entry) it logs `room socket: not joining:
// <reason>` and serves MCP with no tools and no instructions. Otherwise it
// serves say_to_room, read_room_history and my_usage, keeping one connection
// to the room (reconnecting as needed).
//
// Run returns when stdin reaches EOF (the CLI is gone) — nil — or when ctx
// ends — ctx's error; the room socket is closed before it returns, so the
// sidecar never outlives its CLI. Other errors are stdin read errors.
func Run(ctx context.Context, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	return run(ctx, env, stdin, stdout, stderr, defaultTuning())
}

// run is Run with the room client's timing as a parameter (tests shorten it).
func run(ctx context.Context, env func(string) string, stdin io.Reader, stdout, stderr io.Writer, tune tuning) error {
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	stdio := func(s *server.MCPServer, out io.Writer) error {
		ss := server.NewStdioServer(s)
		ss.SetErrorLogger(slog.NewLogLogger(logger.Handler(), slog.LevelError))
		return ss.Listen(ctx, stdin, out)
	}

	cfg, notes, err := loadConfig(env)
	if err != nil {
		logger.Warn("room socket: " + err.Error())
		// No tools and no instructions, but a working MCP server: the CLI
		// keeps running and sees an empty tool list (docs/design.md §7).
		return stdio(server.NewMCPServer(serverName, serverVersion(),
			server.WithToolCapabilities(false), server.WithRecovery()), stdout)
	}
	for _, n := range notes {
		logger.Warn("room socket: " + n)
	}

	client := newRoomClient(cfg, tune, logger)
	clientCtx, stopClient := context.WithCancel(ctx)
	defer func() {
		stopClient()
		<-client.done
	}()
	go client.run(clientCtx)

	out := newListedWatch(stdout, client.markListed)
	hooks := &server.Hooks{}
	hooks.AddAfterListTools(func(_ context.Context, id any, _ *mcp.ListToolsRequest, _ *mcp.ListToolsResult) {
		out.expect(id)
	})
	s := server.NewMCPServer(serverName, serverVersion(),
		server.WithToolCapabilities(false),
		server.WithInstructions(Instructions(cfg.name, cfg.unseenHistory)),
		server.WithHooks(hooks),
		server.WithRecovery(),
		server.WithInputSchemaValidation(),
	)
	st := &seat{client: client, loc: time.Local, now: time.Now}
	st.addTools(s)
	return stdio(s, out)
}

// serverVersion is the module version of this build ("devel" for local builds).
func serverVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// listedWatch wraps stdout and calls onListed once the answer to a tools/list
// request is written: the CLI has the tool list only when our answer is on
// its stdin, and ready must not go out before that (docs/design.md §7 "Startup
// race"). The after-list hook runs before mcp-go writes the answer, so it
// only records the request id; the write itself triggers onListed.
type listedWatch struct {
	w        io.Writer
	onListed func()

	mu   sync.Mutex
	want map[string]bool // JSON ids of tools/list requests answered, not yet written
}

func newListedWatch(w io.Writer, onListed func()) *listedWatch {
	return &listedWatch{w: w, onListed: onListed, want: make(map[string]bool)}
}

// expect records a tools/list request id whose answer is about to be written.
func (l *listedWatch) expect(id any) {
	b, err := json.Marshal(id)
	if err != nil {
		return
	}
	l.mu.Lock()
	l.want[string(b)] = true
	l.mu.Unlock()
}

// Write passes p to stdout (mcp-go writes one JSON-RPC message per call) and
// fires onListed when p answered an expected tools/list request.
func (l *listedWatch) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if err != nil {
		return n, err
	}
	l.mu.Lock()
	if len(l.want) == 0 {
		l.mu.Unlock()
		return n, nil
	}
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	hit := false
	if json.Unmarshal(bytes.TrimSpace(p), &msg) == nil && len(msg.ID) > 0 {
		var key bytes.Buffer
		if json.Compact(&key, msg.ID) == nil && l.want[key.String()] {
			delete(l.want, key.String())
			hit = true
		}
	}
	l.mu.Unlock()
	if hit {
		l.onListed()
	}
	return n, nil
}
