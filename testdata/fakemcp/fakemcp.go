// Package fakemcp is the scripted local MCP server of Pullcept's tests: a
// stdio MCP server that a test binary becomes when it is re-executed with
// Env set (docs/design.md §13 "Fake CLIs in a real PTY": helper processes
// re-execute the test binary, so a test needs no program of its own on the
// machine). It stands in for
// github-webhook-mcp (spec «webhook の通知»): it declares the
// experimental claude/channel capability, writes channel pushes
// (notifications/claude/channel, the event id in meta.message_id) and
// answers the get_event tool.
//
// A test binary that runs it calls Run from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(fakemcp.Run(m)) }
//
// (or checks Serving and calls Main itself, to chain another helper such as
// fakecli.Run), and starts Command(t, cfg) as the server's command line.
//
// Config scripts the server at start: lines to write after initialized
// (Lines, Flood), answers to get_event (Events, EventsFile, each with an
// optional delay or no answer at all), and misbehaviour for the
// supervisor's own tests (exit at once, never answer, flood stderr, outlive
// stdin, leave children behind).
//
// A test drives it while it runs through a Control: a listener on loopback
// whose address goes into Config.Control. The server dials it once
// initialized and then takes one command per line (Control.Push,
// Control.Line), answering each once its output is flushed, so a test knows
// a push is on the server's stdout, in the order it pushed. Nothing beyond
// loopback is ever used.
//
// It is test-only. It lives under testdata/ so `go test ./...` and the
// product build never see it; test files import it by path.
//
// Goroutines: in the test process, a Control's accept loop (ended by the
// test's cleanup, which closes the listener). In the server process, the
// stdin loop (Main's own), the control reader (ends when the connection
// closes) and one timer per delayed get_event answer.
package fakemcp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Env, set to a JSON Config in a process's environment, makes Run (or
// Main) the scripted server instead of the tests. It is outside
// config.ReservedEnvPrefix (PULLCEPT_), so an mcp-servers.json entry's env
// may carry it.
const Env = "FAKEMCP"

// ChannelMethod is the channel push's method (localmcp.ChannelMethod).
const ChannelMethod = "notifications/claude/channel"

// Server names of the initialize answer when Config leaves them empty.
const (
	DefaultName    = "fake-bridge"
	DefaultVersion = "0.0.1"
)

// Config scripts the server.
type Config struct {
	Name          string           `json:"name,omitempty"`            // serverInfo.name (DefaultName)
	Version       string           `json:"version,omitempty"`         // serverInfo.version (DefaultVersion)
	ExitAtOnce    *int             `json:"exit_at_once,omitempty"`    // exit with this code before reading anything
	StderrBytes   int64            `json:"stderr_bytes,omitempty"`    // flood stderr first, then say "flood done"
	Silent        bool             `json:"silent,omitempty"`          // never answer initialize
	NoChannel     bool             `json:"no_channel,omitempty"`      // declare no claude/channel
	BadInit       bool             `json:"bad_init,omitempty"`        // answer initialize with a string
	CloseStdout   bool             `json:"close_stdout,omitempty"`    // after initialized, close stdout and stay
	Lines         []string         `json:"lines,omitempty"`           // raw stdout lines after initialized
	Flood         int              `json:"flood,omitempty"`           // this many pushes after Lines, as fast as possible
	FloodBytes    int              `json:"flood_bytes,omitempty"`     // each flood push's content padded to this many bytes
	FloodAfter    string           `json:"flood_after,omitempty"`     // the flood waits until this file exists (then runs beside the rest)
	Events        map[string]Event `json:"events,omitempty"`          // get_event answers by event id
	EventsFile    string           `json:"events_file,omitempty"`     // a JSON object of id → Event, read at each get_event, before Events
	Control       string           `json:"control,omitempty"`         // a Control's loopback address, dialled after initialized
	ExitAfterInit *int             `json:"exit_after_init,omitempty"` // exit after the lines
	PrintEnv      []string         `json:"print_env,omitempty"`       // "env NAME=value" lines on stderr
	Stubborn      bool             `json:"stubborn,omitempty"`        // keep running after stdin closes
	Child         bool             `json:"child,omitempty"`           // start a sleeping grandchild ("child pid N" on stderr)
	Escape        bool             `json:"escape,omitempty"`          // start a sleeper in its own session holding stdout and stderr (Unix)
	Sleeper       bool             `json:"sleeper,omitempty"`         // be that grandchild
}

// Event is one get_event answer: the stored event's payload (the text
// answer is {"id", "type", "processed", "received_at", "payload"}, as the
// bridge's Worker stores it), sent after DelayMS milliseconds, or no
// answer at all (Hold). An id with no Event is answered "not found".
type Event struct {
	Payload json.RawMessage `json:"payload,omitempty"`
	DelayMS int             `json:"delay_ms,omitempty"`
	Hold    bool            `json:"hold,omitempty"`
}

// Launch is how to start the server: this test binary with no test to
// run and the config in its environment. Env holds only the added
// variables (NAME=value), as localmcp.Spec.Env and an mcp-servers.json
// entry's env do.
type Launch struct {
	Command string
	Args    []string
	Env     []string
}

// Command is the Launch of the server scripted by cfg. A -race server
// would otherwise wait a second at exit (the race runtime's
// atexit_sleep_ms), so GORACE is set too.
func Command(t testing.TB, cfg Config) Launch {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return Launch{Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{Env + "=" + string(b), "GORACE=atexit_sleep_ms=0"}}
}

// EnvMap is l.Env as an object, the shape of an mcp-servers.json entry's
// env.
func (l Launch) EnvMap() map[string]string {
	m := make(map[string]string, len(l.Env))
	for _, kv := range l.Env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// Serving reports whether this process was started as the server.
func Serving() bool { return os.Getenv(Env) != "" }

// Run is the body of a test binary's TestMain: the server when this
// process was started as one (Env set), else the tests. It returns the
// exit status for os.Exit.
func Run(m *testing.M) int {
	if Serving() {
		return Main()
	}
	return m.Run()
}

// PushLine is a channel push as the bridge writes it: content, and meta
// with chat_id, user, ts and message_id the event id ("" leaves the id
// out).
func PushLine(id, content string) string {
	meta := map[string]any{"chat_id": "github", "user": "octocat", "ts": "2026-12-01T00:00:00Z"}
	if id != "" {
		meta["message_id"] = id
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": ChannelMethod,
		"params": map[string]any{"content": content, "meta": meta}})
	return string(b)
}
